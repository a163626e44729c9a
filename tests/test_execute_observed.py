"""Observed tests (`--execute`) end to end: written for the functions the
engine refuses, passing under pytest, the same file from two runs, an
outcome that a fresh worker does not repeat dropped, and the analysed
module never imported by pathcraft's process. Values cross as typed
data: `wire` round-trips plain values and refuses the rest."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pathcraft.app.cli import main
from pathcraft.execute import wire
from pathcraft.execute.observed import literal

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "execute" / "refused.py"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The fixture generated with --execute (in this process), and what it said."""
    folder = tmp_path_factory.mktemp("observed")
    module = folder / "refused.py"
    shutil.copy(FIXTURE, module)
    out = folder / "test_refused.py"
    # a budget no search reaches: the number of inputs bounds each, the same on a loaded machine
    capture = subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(module), "-o", str(out), "--execute",
                              "--execute-seconds", "30"], capture_output=True, text=True, timeout=600,
                             env={**os.environ, "USER": "someone"})  # the search's worker has no USER
    assert capture.returncode == 0, capture.stderr
    return out, capture.stderr


def test_each_refused_function_gets_observed_tests(generated: tuple[Path, str]) -> None:
    out, said = generated
    text = out.read_text(encoding="utf-8")
    names = re.findall(r"^def (test_\w+)\(", text, re.MULTILINE)
    assert {n.split("_observed")[0].rsplit("_", 1)[0] for n in names if "_observed" in n} >= {
        "test_parse_port", "test_halves", "test_lines", "test_Tally_add_json", "test_loose", "test_decoded"}
    assert re.search(r"obj = refused\.Tally\(start=\d+\)\n.*\n? +(assert )?obj\.add_json\(text=", text)  # a method
    assert "list(refused.decoded(text=" in text  # a generator: walked whole
    assert re.search(r"assert refused\.ordered\(-?\d+, '", text)  # positional-only: in the signature's order
    assert re.search(r"_observed_yields\(\) -> None:\n.*\n    assert list\(refused\.grouped_digits\(n=-?\d+\)\) == \[",
                     text)
    assert "result = refused.halves(" in text and "== ('fractions', 'Fraction')" in text  # only its type
    assert "with pytest.raises(ValueError):" in text
    assert "worker_pid: " in said and "a fresh run did otherwise" in said
    assert "test_worker_pid" not in text
    assert "test_user_name" not in text  # an environment variable: another in the fresh worker


def test_the_observed_tests_pass(generated: tuple[Path, str]) -> None:
    out, _ = generated
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", str(out)],
                         capture_output=True, text=True, cwd=out.parent, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:]


def test_a_second_run_writes_the_same_file(generated: tuple[Path, str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    out, _ = generated
    monkeypatch.setenv("USER", "someone")  # as the first run had it
    again = tmp_path / "again.py"
    module = out.parent / "refused.py"
    assert main(["gen", str(module), "-o", str(again), "--execute", "--execute-seconds", "30"]) == 0
    assert again.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")
    assert "refused" not in sys.modules  # the module ran in workers only


def test_without_execute_nothing_runs(tmp_path: Path) -> None:
    module = tmp_path / "refused.py"
    shutil.copy(FIXTURE, module)
    out = tmp_path / "test_refused.py"
    main(["gen", str(module), "-o", str(out)])
    assert not out.exists() or "_observed" not in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("value", [None, True, 0, -2 ** 70, 1.5, -0.0, "é\n", b"\x00\xff", [1, (2, "x")],
                                   {"a": {1, 2}}, frozenset({b"x"}), (), {(1, 2): [None]}])
def test_plain_values_cross_as_they_are(value: Any) -> None:
    back = wire.decode(wire.encode(value))
    assert back == value and type(back) is type(value) and repr(back) == repr(value)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), object(), [object()], type("I", (int,), {})(3)])
def test_other_values_do_not_cross(value: Any) -> None:
    with pytest.raises(wire.NotPlain):
        wire.encode(value)


@pytest.mark.parametrize("data", [["int", 3], ["eval", "1"], ["list", "x"], ["dict", [[["int", "1"]]]], 7])
def test_a_malformed_value_is_refused(data: Any) -> None:
    with pytest.raises(ValueError):
        wire.decode(data)


def test_a_set_is_written_the_same_on_every_machine() -> None:
    assert literal({"b", "a", "c"}) == "{'a', 'b', 'c'}" and literal(frozenset()) == "frozenset()"
    assert literal((1,)) == "(1,)" and literal(set()) == "set()"


@pytest.mark.parametrize("value, unordered", [
    ({1, 2}, False), ({(1, 2.0)}, False), ([{1}], False), ({"a": "x"}, False), ("x", False),
    ({"x"}, True), ([{None}], True), ({"k": frozenset({b"x"})}, True), ({(None, 1)}, True),
])
def test_no_argument_is_a_set_whose_order_changes_with_the_hash_seed(value: Any, unordered: bool) -> None:
    from pathcraft.execute.search import _seed_ordered

    assert _seed_ordered({"args": {"p": wire.encode(value)}}) is unordered


def test_verify_counts_the_observed_tests_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = tmp_path / "refused.py"
    shutil.copy(FIXTURE, module)
    main(["gen", f"{module}::lines", "-o", str(tmp_path / "test_lines.py"), "--execute", "--execute-seconds", "30",
          "--verify"])
    said = capsys.readouterr().err
    assert re.search(r"verify: (\d+)/\1 tests pass; 0/0 took their claimed path \(\1 observed tests claim none\)",
                     said), said


def test_positional_only_arguments_are_written_in_the_signatures_order() -> None:
    from pathcraft.execute.observed import Observation, test_text

    seen = Observation(args=(("default", None), ("key", b"")), outcome="return", value="v", exact=True)
    text = test_text("mod", "mod", "Box.pop", 1, seen, positional=("key", "default"), init_positional=())
    assert "mod.Box.pop(b'', None) == 'v'" in text
