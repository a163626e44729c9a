"""A default the model does not hold (`pred=bool`, `default=f()`) no
longer refuses its function: tests pass a value of their own. A call that
leaves such an argument out is refused when the frontend sees it, and its
path dropped when the engine dispatches it; it was once claimed a
TypeError with a message CPython never prints."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "unheld_defaults.py"

test_replay, test_enumeration = oracle_tests(FIXTURE, ["pick", "Box.count"], Bounds(
    ints=(-1, 0, 1), max_list=2, unannotated=(("Box", "xs", list[int]),)))


def test_every_call_passes_the_argument() -> None:
    cases = generated(FIXTURE, "pick")
    assert cases and all("default" in dict(c.inputs) for c in cases)


def test_a_dispatched_call_without_it_is_dropped_not_claimed() -> None:
    result = translate(str(FIXTURE), ["total"])
    run = generate(result.program, "total", GenerateOptions.of())
    assert not [c for c in run.cases if c.exc_type == "TypeError"]
    assert any("without 'pred' (its default is not modelled)" in note for note in run.notes)


def test_a_direct_call_without_it_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "direct.py"
    path.write_text("def f(xs: list[int], key: int = len([])) -> int:\n    return key\n\n\n"
                    "def g(xs: list[int]) -> int:\n    return f(xs)\n")
    errors = translate(str(path), ["g"]).errors
    assert "without 'key' (its default is not modelled)" in str(errors["g"])
