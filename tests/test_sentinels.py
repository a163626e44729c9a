"""Sentinel defaults (frontend/sentinels.py): `x is _MISSING` exact, the
argument left out of the call when the path takes the default, anything
else done with the object dropped. The engine against the real code:
replay of every test, and every small input (the sentinel parameters left
out or given) whose path no test takes."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from oracle import RealCode, generated, replay_mismatches

from pathcraft.frontend import translate
from pathcraft.testcase.pathsig import within_loop_bound

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "sentinels.py"
DOMAINS: dict[str, dict[str, list[Any]]] = {  # absent: the parameter left out
    "first": {"items": [[], [1], [2, -1]], "default": ["absent", -1, 0, 3]},
    "shifted": {"x": [-2, 0, 2], "fill": ["absent", -1, 0, 1]},
    "truthy": {"fill": [0, 1, -1]},
    "both": {"items": [[], [1]], "x": [-1, 0, 2]},
    "returned": {"fill": [0, 1]},
}


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_replay(name: str) -> None:
    assert replay_mismatches(FIXTURE, name, generated(FIXTURE, name)) == []


@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_every_small_input_takes_a_path_some_test_takes(name: str) -> None:
    real = RealCode(FIXTURE, name)
    covered = {real.run_case(dict(c.inputs), dict(c.heap_in))[0].events for c in generated(FIXTURE, name)}
    domain = DOMAINS[name]
    for values in itertools.product(*domain.values()):
        inputs = {p: v for p, v in zip(domain, values) if v != "absent"}
        run = real.run(inputs)
        if within_loop_bound(run.events, real.shapes, 2):
            assert run.events in covered, inputs


def test_the_default_is_left_out_and_misuse_is_dropped() -> None:
    calls = [dict(c.inputs) for c in generated(FIXTURE, "first")]
    assert any("default" not in c for c in calls) and any("default" in c for c in calls)
    assert all("fill" in dict(c.inputs) for c in generated(FIXTURE, "truthy"))  # `if fill:` on the Marker
    assert all("fill" in dict(c.inputs) for c in generated(FIXTURE, "returned"))


def test_a_sentinel_made_by_a_sibling_modules_factory() -> None:
    walk = FIXTURE.parent / "pkg_sentinels" / "walk.py"
    cases = generated(walk, "pairs")
    assert replay_mismatches(walk, "pairs", cases) == []
    assert any("end" not in dict(c.inputs) for c in cases) and any("end" in dict(c.inputs) for c in cases)


def test_a_name_rebound_to_anything_else_is_no_sentinel(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text("_M = object()\n_M = 3\n\n\ndef f(x: int = _M) -> int:\n    return x\n")
    info = translate(str(source), ["f"]).program.functions["f"]
    assert info.defaults == () and info.unheld_defaults == ("x",)  # a test passes its own x


def test_a_class_level_sentinel_is_a_methods_default() -> None:
    # cachetools' Cache.pop: `__marker = object()` in the class body, `default=__marker`
    cases = generated(FIXTURE, "Store.pop")
    assert replay_mismatches(FIXTURE, "Store.pop", cases) == []
    left_out = [c for c in cases if "default" not in dict(c.inputs)]
    assert any(c.exc_type == "KeyError" for c in left_out)  # the key missing, the default left out
    assert any(c.kind == "return" and "default" in dict(c.inputs) for c in cases)
