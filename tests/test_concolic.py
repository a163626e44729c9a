"""Concolic mode (`--concolic`, engine/concretize.py): allow-listed library
calls the model lacks run on the model's values, so the search goes on
past them.

Oracles: the real code (every test replays with the value and the path it
claims) and the symbolic run of the same function, which drops every path
that reaches the call: concolic mode must reach lines it cannot.
"""

from __future__ import annotations

import math
import types
from pathlib import Path
from typing import Any

import pytest
from oracle import real_paths, replay_mismatches

from pathcraft.app.cli import main
from pathcraft.frontend import translate
from pathcraft.generate import FunctionRun, GenerateOptions, generate
from pathcraft.ir import pure_calls

FIXTURE = Path(__file__).parent / "fixtures" / "concolic.py"
FUNCTIONS = ["is_prime", "digits", "capped_growth", "safe_log", "choose", "uses_helper", "log_or_raise"]


def run(qualname: str, path: Path = FIXTURE, **options: Any) -> FunctionRun:
    result = translate(str(path), [qualname])
    assert not result.errors, result.errors
    return generate(result.program, qualname, GenerateOptions.of(**options))


def lines_reached(qualname: str, found: FunctionRun) -> set[Any]:
    """The line events the tests' real runs go through."""
    return set().union(*(set(p) for p in real_paths(FIXTURE, qualname, found.cases)))


@pytest.mark.parametrize("qualname", FUNCTIONS)
def test_concolic_mode_reaches_code_past_an_unmodelled_call(qualname: str) -> None:
    symbolic = run(qualname)
    concolic = run(qualname, concolic=3)
    assert any("math." in note for note in symbolic.notes)  # the symbolic run names the call it dropped at
    assert lines_reached(qualname, symbolic) < lines_reached(qualname, concolic)
    assert concolic.stats["concretized_calls"] >= 1
    assert replay_mismatches(FIXTURE, qualname, concolic.cases) == []


def test_a_concretized_path_states_the_values_it_ran_the_call_on() -> None:
    found = run("is_prime", concolic=3)
    pinned = [c for c in found.cases if dict(c.inputs)["n"] >= 2]
    assert pinned and all(f"n == {dict(c.inputs)['n']}" in c.constraints for c in pinned)


def test_an_exception_of_the_library_is_asserted_by_its_type_alone() -> None:
    found = run("log_or_raise", concolic=3)
    raised = [c for c in found.cases if c.kind == "raise"]
    assert [(c.exc_type, c.exc_message) for c in raised] == [("ValueError", None)]
    assert all(dict(c.inputs)["n"] <= 0 for c in raised)
    assert any(c.kind == "return" for c in found.cases)


def test_samples_that_take_the_same_path_give_one_test() -> None:
    one = run("is_prime", concolic=1)
    three = run("is_prime", concolic=3)
    assert len(one.cases) < len(three.cases)
    traces = [str(c.trace) for c in three.cases]
    assert len(traces) == len(set(traces))
    digits = run("digits", concolic=3)
    assert digits.stats["concolic_repeats"] >= 1 and len(digits.cases) == 2  # n <= 0, and one digit count


def test_a_call_on_a_value_that_is_not_a_number_drops_the_path() -> None:
    found = run("log_of_text", concolic=3)
    assert any("not a number" in note for note in found.notes)
    assert replay_mismatches(FIXTURE, "log_of_text", found.cases) == []


def test_the_allow_list_holds_only_functions_of_math() -> None:
    for name, function in pure_calls.FUNCTIONS.items():
        assert name.startswith("math.") and function is getattr(math, name.removeprefix("math."))
        assert isinstance(function, types.BuiltinFunctionType)  # C code: no Python of anyone runs


def test_the_analysed_module_never_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    marker = tmp_path / "imported"
    module = tmp_path / "sideeffect.py"
    module.write_text(f"import math\nimport pathlib\n\npathlib.Path({str(marker)!r}).write_text('x')\n\n\n"
                      "def f(n: int) -> float:\n    if n > 3:\n        return math.log2(n)\n    return 0.0\n")
    code = main(["gen", f"{module}::f", "--concolic", "-o", str(tmp_path / "test_sideeffect.py")])
    capsys.readouterr()
    assert code == 0 and not marker.exists()
    assert "== 2.0" in (tmp_path / "test_sideeffect.py").read_text()  # log2(4): the call ran, the module did not


def test_a_bad_sample_count_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["gen", str(FIXTURE), "--concolic-samples", "0"])
    _out, err = capsys.readouterr()
    assert code == 2 and "--concolic-samples" in err and "Traceback" not in err


def test_the_config_file_turns_it_on(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.pathcraft]\nconcolic = true\nconcolic_samples = 2\n")
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "test_concolic_fixture.py"
    assert main(["gen", f"{FIXTURE}::capped_growth", "-o", str(out)]) == 0
    capsys.readouterr()
    assert "x == " in out.read_text()
    (tmp_path / "pyproject.toml").write_text("[tool.pathcraft]\nconcolic_samples = 0\n")
    assert main(["gen", f"{FIXTURE}::capped_growth"]) == 2
    _out, err = capsys.readouterr()
    assert "concolic_samples must be at least 1" in err


def test_paths_without_a_concrete_call_are_all_kept() -> None:
    """Paths that differ only in the heap model's choices (which item an
    index reads) share a trace term: concolic mode merges samples of one
    call, never those."""
    symbolic = run("item_at")
    concolic = run("item_at", concolic=3)
    assert len({str(c.trace) for c in symbolic.cases}) < len(symbolic.cases)  # the case this test is about
    assert [c.inputs for c in concolic.cases] == [c.inputs for c in symbolic.cases]


def test_calls_whose_time_grows_with_their_arguments_run_on_small_ones(tmp_path: Path) -> None:
    module = tmp_path / "huge.py"
    module.write_text("import math\n\n\ndef f(n: int) -> int:\n    if n > 1_000_000_000:\n"
                      "        return math.comb(n, n // 2) % 7\n    return 0\n")
    found = run("f", module, concolic=3)
    assert any("over 10000" in note for note in found.notes)
    assert [dict(c.inputs)["n"] <= 10**9 for c in found.cases] == [True]
