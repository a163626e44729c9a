"""CLI tests: in-process through `pathcraft.app.cli.main` (captured with capsys)
and, for a few cases, as `python -m pathcraft` subprocesses."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pathcraft import __version__
from pathcraft.app.cli import main

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
ARITH = EXAMPLES / "arith.py"

MODULE = """\
def good(x: int) -> int:
    if x > 0:
        return 1
    return 0


def bad(x: int) -> int:
    return x @ 2
"""


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def this_checkout() -> dict[str, str]:
    """The environment with this checkout's `src` first on the import path:
    a relative PYTHONPATH=src would mean another folder in a subprocess
    running elsewhere, and an installed pathcraft would be tested instead."""
    paths = [str(REPO / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(paths))


def run_module(*args: str, cwd: Path | None = None,
               env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = this_checkout()
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "pathcraft", *args], capture_output=True, text=True,
                          cwd=cwd, env=full_env, timeout=120)


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got:\n{err}"
    return lines[0]


# ---------------------------------------------------------- help, version


def test_help_and_version_in_process(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "--help")
    assert code == 0 and "gen" in out and "clp" in out
    code, out, _ = cli(capsys, "--version")
    assert code == 0 and out.strip() == f"pathcraft {__version__}"
    code, out, _ = cli(capsys, "gen", "--help")
    assert code == 0 and "--criterion" in out


def test_help_fits_a_screen_and_help_all_shows_every_option_in_its_group(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from pathcraft.settings import BRIEF, PANELS, command_order

    monkeypatch.setenv("COLUMNS", "80")
    declared = [o for o in command_order() if o.declaration.flags]
    assert {o.declaration.panel for o in declared} == set(PANELS)
    code, brief, _ = cli(capsys, "gen", "--help")
    assert code == 0 and len(brief.splitlines()) <= 80 and "--help-all" in brief
    code, every, _ = cli(capsys, "gen", "--help-all")
    assert code == 0
    titles = re.findall(r"╭─ ([A-Za-z ()-]+?) ─", every)
    assert titles[:2] == ["Arguments", "Options"] and sorted(titles[2:]) == sorted(PANELS)
    for option in declared:
        flag = next(f for s in option.declaration.flags for f in s.split("/") if f.startswith("--"))
        row = re.compile(rf"│ {re.escape(flag)}[ /]")  # the option's own row, not a mention in another's help
        panel = every[every.index(f"╭─ {option.declaration.panel} ─"):]
        assert row.search(panel[:panel.index("╰")]), (flag, option.declaration.panel)  # inside its group's box
        assert bool(row.search(brief)) == (option.declaration.panel in BRIEF), flag
    # an option --help leaves out is taken all the same
    assert cli(capsys, "gen", f"{EXAMPLES / 'arith.py'}::gate", "--heap", "lazy", "--costs", "steps")[0] == 0


def test_help_and_version_subprocess() -> None:
    help_run = run_module("--help")
    assert help_run.returncode == 0 and "gen" in help_run.stdout
    version_run = run_module("--version")
    assert version_run.returncode == 0 and version_run.stdout.strip() == f"pathcraft {__version__}"


# ------------------------------------------------------------------- gen


def test_gen_spread_writes_a_passing_pytest_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """spread = abs(a - b) (2 rules) then `d > 5` (2 rules): 4 feasible
    paths, so 4 tests, and they pass against the real module."""
    out_file = tmp_path / "test_spread_gen.py"
    code, _, err = cli(capsys, "gen", f"{ARITH}::spread", "-o", str(out_file))
    assert code == 0, err
    text = out_file.read_text()
    assert len(re.findall(r"^def test_spread_\d+_\w+\(", text, re.MULTILINE)) == 4
    env = dict(os.environ, PYTHONPATH=str(EXAMPLES), PYTHONDONTWRITEBYTECODE="1")
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out_file)],
                            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 passed" in result.stdout


def test_gen_json_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "gen", f"{ARITH}::spread", "--format", "json")
    assert code == 0
    doc = json.loads(out)
    assert set(doc) >= {"target", "criterion", "tests", "stats"}
    assert doc["target"] == f"{ARITH}::spread" and doc["criterion"] == "loop-2"
    assert len(doc["tests"]) == 4
    for test in doc["tests"]:
        assert set(test) >= {"name", "inputs", "outcome", "trace", "constraints"}
        assert set(test["inputs"]) == {"a", "b"}
        assert test["outcome"]["kind"] == "return"
        assert test["trace"].startswith("spread(1,[abs(")
        # the outcome is d - 5 or 0 with d = |a - b|
        d = abs(test["inputs"]["a"] - test["inputs"]["b"])
        assert test["outcome"]["value"] == (d - 5 if d > 5 else 0)
    assert doc["stats"]["spread"]["tests"] == 4


def test_gen_verify_good_target(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = cli(capsys, "gen", f"{ARITH}::spread", "--verify", "-o", str(tmp_path / "test_v.py"))
    assert code == 0, err
    assert "branch coverage" in err
    assert "4/4 tests pass" in err and "verify: OK" in err


def test_verify_refuses_an_output_pytest_would_not_collect(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`-o out --verify`: pytest collects no `out`, and verify said each test
    "does not pass" (0/0 passed) and FAILED; now it says why, before any search."""
    code, _, err = cli(capsys, "gen", f"{ARITH}::spread", "--verify", "-o", str(tmp_path / "out"))
    assert code == 2 and "collects only files named *.py" in err and "test_out.py" in err
    assert not (tmp_path / "out").exists()


SHADOWED = """\
def f(x: int) -> int:
    return x + 1


globals()["f"] = max  # what the tests import is not what was analysed (a rebinding the model does not see)
"""


def test_verify_reports_failure(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The module rebinds `f` at import, unseen: the generated test (f(x=0) == 1)
    fails when run, and --verify must say so."""
    (tmp_path / "shadow.py").write_text(SHADOWED)
    _, _, err = cli(capsys, "gen", f"{tmp_path / 'shadow.py'}::f", "--verify", "-o", str(tmp_path / "test_s.py"))
    assert "verify: FAILED" in err


def test_verify_failure_exits_1(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "shadow.py").write_text(SHADOWED)
    code, _, _ = cli(capsys, "gen", f"{tmp_path / 'shadow.py'}::f", "--verify", "-o", str(tmp_path / "test_s.py"))
    assert code == 1


# ------------------------------------------------------------ bad inputs


def _bad_inputs(tmp: Path) -> dict[str, tuple[list[str], str]]:
    """name -> (argv, regex the stderr line must match). Files are relative
    to `tmp` (the cwd) so that messages stay short."""
    (tmp / "syn.py").write_text("def f(x: int) -> int:\n    y = )\n")
    (tmp / "uns.py").write_text("def f(x: int) -> int:\n    return x @ 2\n")
    (tmp / "ok.py").write_text("def f(x: int) -> int:\n    return x\n")
    (tmp / "blob.py").write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(128, 256)))  # an executable's start
    (tmp / "latin.py").write_bytes(b"def f(x: int) -> int:\n    return x  # caf\xe9\n")
    return {
        "missing_file": (["gen", "nope.py::f"], r"nope\.py: no such file"),
        "missing_function": (["gen", "ok.py::g"], r"pathcraft: ok\.py: no function named 'g'"),
        "binary": (["gen", "blob.py"], r"blob\.py: cannot read: not text in UTF-8 or in the encoding its coding "
                                       r"declaration names \(a binary file\?\)"),
        "undecodable": (["gen", "latin.py"], r"latin\.py: cannot read: not utf-8 text \(byte 0xe9 on line 2\); "
                                             r"name its encoding in a coding declaration"),
        "output_name": (["gen", "ok.py", "-o", "t3.12.py"], r"t3\.12\.py: pytest imports a test file as the module "
                                                            r"its name gives, and the dot in 't3\.12' names a "
                                                            r"package; choose a name such as test_t3_12\.py"),
        "syntax_error": (["gen", "syn.py::f"], r"syn\.py:2:9: syntax error: unmatched '\)'"),
        "unsupported": (["gen", "uns.py::f"], r"uns\.py:2:12: unsupported operator '@'"),
        "bad_criterion": (["gen", "ok.py::f", "--criterion", "loop-x"], r"bad criterion 'loop-x'"),
        "no_py": (["gen", "ok::f"], r"bad target 'ok::f'"),
    }


BAD = ["missing_file", "missing_function", "syntax_error", "unsupported", "bad_criterion", "no_py", "binary",
       "undecodable", "output_name"]


@pytest.mark.parametrize("case", BAD)
def test_bad_input_message(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           case: str) -> None:
    """A one-line diagnostic (optionally prefixed `pathcraft: `), no
    traceback, nothing on stdout. """
    monkeypatch.chdir(tmp_path)
    argv, pattern = _bad_inputs(tmp_path)[case]
    _, out, err = cli(capsys, *argv)
    assert out == ""
    assert "Traceback" not in err and "internal error" not in err
    flat = " ".join(err.split())
    assert re.match(rf"^(pathcraft: )?{pattern}", flat), err


@pytest.mark.parametrize("case", ["missing_file", "missing_function", "syntax_error", "unsupported"])
def test_short_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    monkeypatch.chdir(tmp_path)
    argv, _ = _bad_inputs(tmp_path)[case]
    _, _, err = cli(capsys, *argv)
    one_line(err)


def test_a_function_no_path_of_which_ends_is_told_why(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spin.py").write_text("def f(x: int) -> int:\n    while True:\n        pass\n")
    code, _, err = cli(capsys, "gen", "spin.py::f", "-o", "test_spin.py")
    assert code == 0
    assert "pathcraft: f: no test: the one path followed was cut by a bound of the search (the loop bound of " \
           "--criterion, --max-call-depth or a cost budget) before it ended" in " ".join(err.split())
    (tmp_path / "ends.py").write_text("def f(x: int) -> int:\n    while x > 0:\n        x -= 1\n    return x\n")
    _, _, err = cli(capsys, "gen", "ends.py::f", "-o", "test_ends.py")
    assert "no test" not in err  # paths cut by the bound, and others that end: nothing to explain


def test_a_smaller_loop_bound_is_advised_only_where_the_bounds_cut_paths(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ifs = "".join(f"    if x{i} > 0:\n        n += 1\n" for i in range(8))
    params = ", ".join(f"x{i}: int" for i in range(8))
    (tmp_path / "flat.py").write_text(f"def f({params}) -> int:\n    n = 0\n{ifs}    return n\n")
    (tmp_path / "loop.py").write_text("def f(x: int) -> int:\n    n = 0\n    while x > n:\n        n += 1\n"
                                      "        if n % 3 == 0:\n            n += 1\n    return n\n")
    _, _, flat = cli(capsys, "gen", "flat.py::f", "--max-paths", "5", "-o", "test_flat.py")
    flat = " ".join(flat.split())
    assert "path limit reached; kept 5 tests; a larger --max-paths or --timeout changes that" in flat
    _, _, loop = cli(capsys, "gen", "loop.py::f", "--max-paths", "2", "--criterion", "loop-4", "-o", "test_loop.py")
    assert "or a smaller --criterion (loop-1), changes that" in " ".join(loop.split())


@pytest.mark.parametrize("case", BAD)
def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           case: str) -> None:
    monkeypatch.chdir(tmp_path)
    argv, _ = _bad_inputs(tmp_path)[case]
    code, _, _ = cli(capsys, *argv)
    assert code == 2


def test_bad_input_subprocess_exit_code(tmp_path: Path) -> None:
    result = run_module("gen", "nope.py::f", cwd=tmp_path)
    assert result.returncode == 2


def test_long_error_is_still_one_line(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("def f(x: int) -> int:\n    return x\n")
    result = run_module("gen", "ok.py::f", "--criterion", "loop-x", cwd=tmp_path, env={"COLUMNS": "80"})
    assert "Traceback" not in result.stderr
    assert "bad criterion 'loop-x'" in one_line(result.stderr)


def test_unknown_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "gen", f"{ARITH}::spread", "--bogus")
    assert code == 2 and "internal error" not in err and "--bogus" in err


def test_no_arguments_shows_help(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, err = cli(capsys)
    assert "internal error" not in err and "Usage" in out + err


# --------------------------------------------------------- module target


def test_module_target_skips_unsupported_function(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """`good` has two paths (x > 0, x <= 0); `bad` is reported and skipped."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mixed.py").write_text(MODULE)
    code, _, err = cli(capsys, "gen", "mixed.py", "--edge-tests", "0", "-o", "test_mixed.py")
    assert code == 0
    line, summary = err.strip().splitlines()
    assert line.startswith("mixed.py:8:12: unsupported operator '@'") and "bad" in line
    assert summary.startswith("pathcraft: wrote 2 tests for 1 function to test_mixed.py (1 skipped; --execute "
                              "would run them)")
    text = (tmp_path / "test_mixed.py").read_text()
    assert len(re.findall(r"^def test_good_\d+_\w+\(", text, re.MULTILINE)) == 2
    assert "test_bad" not in text


# --------------------------------------------------------------- timeout


def test_tiny_timeout_keeps_what_was_found(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "test_t.py"
    code, _, err = cli(capsys, "gen", f"{ARITH}::spread", "--timeout", "1e-9", "-o", str(out_file))
    assert code == 0
    assert re.search(r"spread: work budget reached; kept \d+ tests", err), err
    compile(out_file.read_text(), str(out_file), "exec")  # a valid (maybe empty) test file


# ------------------------------------------------------------------- clp


def test_clp_prints_predicates(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "clp", f"{ARITH}::spread")
    assert code == 0
    assert "% ---- spread" in out
    assert re.search(r"^spread\(\[A,B\],\[R\],H0,\w+,\w+,spread\(1,\[T1,T2\]\)\) :-$", out, re.MULTILINE), out
    assert "abs([A],[R]" in out  # the builtin it uses is printed too


def test_clp_subprocess() -> None:
    result = run_module("clp", f"{ARITH}::spread")
    assert result.returncode == 0 and "% ---- spread" in result.stdout


# ---------------------------------------------------------------- config


def test_pyproject_sets_the_criterion(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """count_down's loop may run twice under loop-2 but not under loop-1,
    so loop-1 (from the file) must give strictly fewer tests."""
    (tmp_path / "pyproject.toml").write_text('[tool.pathcraft]\ncriterion = "loop-1"\nformat = "json"\n')
    monkeypatch.chdir(tmp_path)
    code, out, _ = cli(capsys, "gen", f"{ARITH}::count_down")
    assert code == 0
    doc = json.loads(out)
    assert doc["criterion"] == "loop-1"
    # the command line wins over the file
    code, out, _ = cli(capsys, "gen", f"{ARITH}::count_down", "--criterion", "loop-2")
    assert json.loads(out)["criterion"] == "loop-2"
    assert len(json.loads(out)["tests"]) > len(doc["tests"])


def test_pyproject_unknown_key_message(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.pathcraft]\ncriterium = "loop-1"\n')
    monkeypatch.chdir(tmp_path)
    _, out, err = cli(capsys, "gen", f"{ARITH}::spread")
    assert out == "" and "Traceback" not in err
    assert "unknown setting 'criterium'" in " ".join(err.split())


def test_pyproject_unknown_key_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.pathcraft]\ncriterium = "loop-1"\n')
    monkeypatch.chdir(tmp_path)
    code, _, _ = cli(capsys, "gen", f"{ARITH}::spread")
    assert code == 2


@pytest.mark.parametrize("argv", [
    ["--policy", "memry>4"], ["--policy", "top:x:steps"], ["--policy", "steps<<3"],
    ["--costs", "steps,time"], ["--costs", "calls:"], ["--assume", "acyclic(a, b)"],
    ["--assume", "acyclic(zz)"], ["--size-model", "slot=four"],
])
def test_bad_cost_options_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = cli(capsys, "gen", f"{ARITH}::spread", *argv)
    assert code == 2
    assert "Traceback" not in err and one_line(err)


def test_costs_table_and_comment(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "test_power_costs.py"
    code, _, err = cli(capsys, "gen", f"{ARITH}::power", "--costs", "calls,steps", "-o", str(out_file))
    assert code == 0
    text = out_file.read_text()
    assert "# costs: calls=" in text and "steps=" in text
    assert "test cases by calls" in err


def test_module_inside_a_package_is_imported_by_its_dotted_name(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`shapes/area.py` in a package imports `from .errors import ...`: the
    tests must import `shapes.area` from above the package, and --verify
    must run them that way."""
    package = tmp_path / "shapes"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "errors.py").write_text("class ShapeError(ValueError):\n    pass\n")
    (package / "area.py").write_text(
        "from .errors import ShapeError\n\n\n"
        "def square(side: int) -> int:\n"
        "    if side < 0:\n"
        "        raise ShapeError('negative side')\n"
        "    return side * side\n"
    )
    out_file = tmp_path / "test_area.py"
    code, _, err = cli(capsys, "gen", f"{package / 'area.py'}::square", "-o", str(out_file),
                       "--verify", "--edge-tests", "0")
    assert code == 0, err
    text = out_file.read_text()
    assert "from shapes import area" in text and "area.ShapeError" in text and "area.square(" in text
    assert "2/2 tests pass" in err


def test_unannotated_parameters_are_typed_from_their_use(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`data` is indexed (a list of ints), the others are compared or
    computed with (ints); the guess is announced and the tests pass."""
    source = tmp_path / "untyped.py"
    source.write_text(
        "def find(data, target, low, high):\n"
        "    if low > high:\n"
        "        return False\n"
        "    mid = (low + high) // 2\n"
        "    if target == data[mid]:\n"
        "        return True\n"
        "    if target < data[mid]:\n"
        "        return find(data, target, low, mid - 1)\n"
        "    return find(data, target, mid + 1, high)\n"
    )
    code, _, err = cli(capsys, "gen", f"{source}::find", "-o", str(tmp_path / "test_untyped.py"), "--verify")
    assert code == 0, err
    assert "types inferred from use: data: list[int], target: int, low: int, high: int" in err
    assert "verify: OK" in err


def test_unmodelled_operations_drop_paths_instead_of_inventing_errors(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`list.index(x, start)` and `list + list` are real Python that
    pathcraft does not model: the paths reaching them are dropped (and
    reported), never turned into an AttributeError/TypeError test that the
    real code would fail. A property read is followed (its getter runs)."""
    source = tmp_path / "unmodelled.py"
    source.write_text(
        "class Box:\n"
        "    items: list[int]\n\n"
        "    @property\n"
        "    def size(self) -> int:\n"
        "        return len(self.items)\n\n"
        "    def drop(self, x: int) -> int:\n"
        "        if x < 0:\n"
        "            return -1\n"
        "        self.items.index(x, 1)\n"
        "        return 0\n\n"
        "    def both(self, k: int) -> int:\n"
        "        if k > 3:\n"
        "            return len(self.items + self.items)\n"
        "        return k\n\n"
        "    def peek(self, k: int) -> int:\n"
        "        if k > 0:\n"
        "            return self.size\n"
        "        return 0\n"
    )
    for method in ("drop", "both", "peek"):
        out_file = tmp_path / f"test_{method}.py"
        code, _, err = cli(capsys, "gen", f"{source}::Box.{method}", "-o", str(out_file), "--verify")
        assert code == 0, err
        assert ("some paths dropped" in err) == (method != "peek") and "verify: OK" in err
        assert "raises_attribute_error" not in out_file.read_text()
        assert "raises_type_error" not in out_file.read_text()


# ---------------------------------------------------------- a new user's mistakes


@pytest.mark.parametrize("make_output, says", [
    (lambda d: d / "missing" / "out.py", "does not exist"),
    (lambda d: d, "is a directory"),
    (lambda d: d / "mod.py", "is the input file"),
])
def test_bad_output_paths_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               make_output: object, says: str) -> None:
    source = tmp_path / "mod.py"
    source.write_text(MODULE)
    output = make_output(tmp_path)  # type: ignore[operator]
    code, _, err = cli(capsys, "gen", f"{source}::good", "-o", str(output))
    assert code == 2 and says in one_line(err) and one_line(err).startswith("pathcraft: ")
    assert source.read_text() == MODULE  # never overwritten


def test_verify_needs_a_regular_output_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "gen", f"{ARITH}::clamp", "--verify", "-o", os.devnull)
    assert code == 2 and "regular file" in one_line(err)


@pytest.mark.parametrize("argv", [["--timeout", "0"], ["--timeout", "-1"], ["--max-list-length", "-1"]])
def test_absurd_budgets_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = cli(capsys, "gen", f"{ARITH}::clamp", *argv)
    assert code == 2 and out == "" and "Traceback" not in err


def test_absurd_budget_in_pyproject_is_checked_the_same_way(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.pathcraft]\ntimeout = 0\n")
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(capsys, "gen", f"{ARITH}::clamp")
    assert code == 2 and "timeout must be a positive number" in one_line(err)


@pytest.mark.parametrize("text", ["", "# nothing but a comment\n", '"""A docstring."""\nX = 1\n'])
def test_nothing_to_test_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str) -> None:
    source = tmp_path / "empty.py"
    source.write_text(text)
    code, out, err = cli(capsys, "gen", str(source))
    assert code == 2 and out == "" and "no functions or methods to test" in one_line(err)


@pytest.mark.parametrize("prefix, encoding", [(b"\xef\xbb\xbf", "utf-8"), (b"# -*- coding: latin-1 -*-\n", "latin-1")])
def test_sources_are_read_as_python_reads_them(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               prefix: bytes, encoding: str) -> None:
    """A byte-order mark or a coding cookie: the tests are generated and pass."""
    source = tmp_path / "coded.py"
    body = 'def f(x: int) -> int:\n    label = "caf\u00e9"\n    if x > 0:\n        return 1\n    return 0\n'
    source.write_bytes(prefix + body.encode(encoding))
    code, _, err = cli(capsys, "gen", f"{source}::f", "--verify", "-o", str(tmp_path / "test_coded.py"))
    assert code == 0, err
    assert "verify: OK" in err


def test_broken_pipe_is_not_an_error() -> None:
    """`pathcraft gen m.py | head -1`: the reader leaves early; exit 0, no traceback."""
    process = subprocess.Popen([sys.executable, "-m", "pathcraft", "gen", str(ARITH)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 0, err
    assert "Traceback" not in err


def test_a_summary_line_after_writing_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text(MODULE)
    code, _, err = cli(capsys, "gen", str(source), "--edge-tests", "0", "-o", str(tmp_path / "test_mod.py"))
    lines = err.strip().splitlines()
    assert code == 0
    assert re.fullmatch(r"pathcraft: wrote 2 tests for 1 function to .*test_mod\.py \(1 skipped; --execute would run "
                        r"them\) in [\d.]+ s",
                        lines[-1]), lines


ODD_MODULE = '''
def test_helper(x: int) -> int:
    if x > 0:
        return 1
    return 0


class counter:
    def __init__(self) -> None:
        self.n = 0

    def bump(self, k: int) -> int:
        self.n += k
        return self.n


class TestBox:
    value: int

    def get(self) -> int:
        return self.value
'''


def test_generated_file_hygiene(tmp_path: Path) -> None:
    """A module whose file name is no identifier, defining `test_*` and
    `Test*` names and a class named like the local that holds an instance:
    pytest collects exactly the generated tests, and they all pass."""
    source = tmp_path / "mod ülé.py"
    source.write_text(ODD_MODULE, encoding="utf-8")
    out_file = tmp_path / "test_odd.py"
    result = run_module("gen", str(source), "-o", str(out_file))
    assert result.returncode == 0, result.stderr
    generated = len(re.findall(r"^def test_", out_file.read_text(encoding="utf-8"), re.MULTILINE))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out_file)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert run.returncode == 0, run.stdout
    assert f"{generated} passed" in run.stdout.strip().splitlines()[-1]


def test_default_budgets_and_what_is_said_when_one_stops_a_search(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    from pathcraft.config import Settings

    assert (Settings().max_paths, Settings().timeout) == (1000, 60.0)
    source = tmp_path / "ifs.py"
    source.write_text("def f(a: int, b: int) -> int:\n    n = 0\n    if a > 0:\n        n += 1\n"
                      "    if b > 0:\n        n += 2\n    return n\n")
    code, out, err = cli(capsys, "gen", f"{source}::f", "--max-paths", "3")
    assert code == 0 and out.count("\ndef test_") == 3
    assert "f: path limit reached; kept 3 tests; a larger --max-paths" in one_line(err)


def test_calls_of_an_unknown_function_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "gen", f"{ARITH}::clamp", "--costs", "steps,calls:nosuch")
    assert code == 2 and out == ""
    assert "calls:nosuch counts calls of 'nosuch', which is no function or method of" in one_line(err)
    code, _, _ = cli(capsys, "gen", f"{ARITH}::clamp", "--costs", "calls:clamp")
    assert code == 0


# ------------------------------------------- paths that are no plain files

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")


def _not_a_source(tmp: Path, kind: str) -> str:
    """A path named like a module that is something else; returns its name."""
    if kind == "self_loop":
        (tmp / "loop.py").symlink_to("loop.py")
        return "loop.py"
    if kind == "cycle":
        (tmp / "a.py").symlink_to("b.py")
        (tmp / "b.py").symlink_to("a.py")
        return "a.py"
    if kind == "dangling":
        (tmp / "gone.py").symlink_to("nowhere.py")
        return "gone.py"
    if kind == "directory":
        (tmp / "x.py").mkdir()
        return "x.py"
    assert kind == "fifo"
    os.mkfifo(tmp / "f.py")
    return "f.py"


NOT_A_SOURCE = {
    "self_loop": "loop.py: is a symbolic link that loops (it leads back to itself)",
    "cycle": "a.py: is a symbolic link that loops (it leads back to itself)",
    "dangling": "gone.py: is a broken symbolic link (to 'nowhere.py', which does not exist)",
    "directory": "x.py: is a directory, not a Python source file",
    "fifo": "f.py: is a FIFO (named pipe), not a Python source file",
}


@pytest.mark.parametrize("kind", [pytest.param(k, marks=needs_fifo) if k == "fifo" else k for k in NOT_A_SOURCE])
@pytest.mark.parametrize("command", [["gen"], ["gen", "::f"], ["clp"]])
def test_a_target_that_is_no_source_file_says_what_it_is(tmp_path: Path, kind: str, command: list[str]) -> None:
    """One line naming the file and what it is, exit 2; run as a subprocess
    with a timeout, so that reading a FIFO (which would wait for a writer
    forever) fails the test instead of hanging it."""
    name = _not_a_source(tmp_path, kind)
    target = name + (command[1] if len(command) > 1 else "")
    result = run_module(command[0], target, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert one_line(result.stderr) == f"pathcraft: {NOT_A_SOURCE[kind]}"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_target_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    source = tmp_path / "secret.py"
    source.write_text(MODULE)
    source.chmod(0)
    code, out, err = cli(capsys, "gen", "secret.py")
    assert code == 2 and out == ""
    assert one_line(err) == "pathcraft: secret.py: cannot read: permission denied"


@needs_fifo
def test_an_output_fifo_nobody_reads_is_refused(tmp_path: Path) -> None:
    """Opening a FIFO to write waits for a reader: with none, exit 2 at once."""
    (tmp_path / "mod.py").write_text(MODULE)
    os.mkfifo(tmp_path / "out.py")
    result = run_module("gen", "mod.py::good", "-o", "out.py", cwd=tmp_path)
    assert result.returncode == 2
    assert one_line(result.stderr) == "pathcraft: out.py: is a FIFO (named pipe) that no process reads; " \
                                      "give a regular file"


@needs_fifo
def test_an_output_fifo_someone_reads_gets_the_tests(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text(MODULE)
    os.mkfifo(tmp_path / "out.py")
    reader = os.open(tmp_path / "out.py", os.O_RDONLY | os.O_NONBLOCK)  # the other end, open before pathcraft's
    try:
        result = run_module("gen", "mod.py::good", "--edge-tests", "0", "-o", "out.py", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert os.read(reader, 1 << 16).decode().count("\ndef test_good_") == 2
    finally:
        os.close(reader)


def test_an_output_symlink_loop_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mod.py").write_text(MODULE)
    (tmp_path / "out.py").symlink_to("out.py")
    code, _, err = cli(capsys, "gen", "mod.py::good", "-o", "out.py")
    assert code == 2
    assert one_line(err) == "pathcraft: out.py: is a symbolic link that loops (it leads back to itself)"


def test_ctrl_c_keeps_the_tests_written_so_far(tmp_path: Path) -> None:
    """The work runs on a thread of its own (pathcraft.depth); Ctrl-C still
    stops it, exit 130, and the line counts exactly the tests in the file."""
    import signal

    # 2**18 paths: far more than any machine, however loaded, finds before the signal lands
    branches = "".join(f"    if x{i} > 0:\n        n += {1 << i}\n" for i in range(18))
    params = ", ".join(f"x{i}: int" for i in range(18))
    (tmp_path / "wide.py").write_text(f"def wide({params}) -> int:\n    n = 0\n{branches}    return n\n")
    out_file = tmp_path / "test_wide.py"
    process = subprocess.Popen([sys.executable, "-m", "pathcraft", "gen", "wide.py", "-o", str(out_file),
                                "--max-paths", "300000"], cwd=tmp_path, stderr=subprocess.PIPE, text=True,
                               env=this_checkout(),  # a job started with `&` by a script inherits SIGINT ignored
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        while process.poll() is None and "def test_" not in (out_file.read_text() if out_file.exists() else ""):
            time.sleep(0.01)  # until the first test is written
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130, err
    written = out_file.read_text().count("\ndef test_wide_")
    assert one_line(err) == f"pathcraft: interrupted; kept {written} tests"
    compile(out_file.read_text(), str(out_file), "exec")


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.2, 0.4, 0.7, 1.0])
def test_ctrl_c_at_any_moment_of_the_start_is_no_traceback(tmp_path: Path, delay: float) -> None:
    """A Ctrl-C while the command imports its modules (long on a loaded
    machine), or while it reads the module: a message or nothing, exit 130,
    never a traceback. The signal comes once the entry point runs: before
    that, Python itself is starting (importing runpy), which no program can
    guard, and `python -m` says so in its own words."""
    import signal

    (tmp_path / "m.py").write_text(SMALL)
    # a signal that lands in these lines, outside run(), is the harness's: its traceback holds only this frame
    entry = ("import sys, traceback\nfrom pathcraft.__main__ import run\n"
             "sys.argv = ['pathcraft', 'gen', 'm.py', '-o', 'test_m.py']\n"
             "try:\n    sys.stderr.write('started\\n')\n    sys.stderr.flush()\n    run()\n"
             "except KeyboardInterrupt as exc:\n"
             "    inside = len(traceback.extract_tb(exc.__traceback__)) > 1\n"
             "    sys.stderr.write(traceback.format_exc() if inside else 'before the entry point\\n')\n"
             "    raise SystemExit(130)\n")
    process = subprocess.Popen([sys.executable, "-c", entry], cwd=tmp_path, stderr=subprocess.PIPE, text=True,
                               env=this_checkout(), preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert process.stderr is not None and process.stderr.readline() == "started\n"
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)
    finally:
        process.kill()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert process.returncode in (0, 130), err  # 0: it had finished


# ------------------------------------------------------- deeply nested code

SMALL = "\n\ndef small(x: int) -> int:\n    if x > 0:\n        return 1\n    return 0\n"


def _ladder(branches: int, first: str = "x == 0") -> str:
    """`if/elif` on `x` with `branches` branches; `first` is the first test."""
    lines = ["def ladder(x: int) -> int:", f"    if {first}:", "        return 0"]
    for i in range(1, branches):
        lines += [f"    elif x == {i}:", f"        return {i}"]
    return "\n".join(lines) + "\n    return -1\n" + SMALL


def _chain(depth: int, step: str = "f{next}(x) + 1") -> str:
    """f0 calls f1 ... calls f{depth-1}, which branches."""
    parts = [f"def f{i}(x: int) -> int:\n    return {step.format(next=i + 1)}\n" for i in range(depth - 1)]
    parts.append(f"def f{depth - 1}(x: int) -> int:\n    if x > 0:\n        return 1\n    return 0\n")
    return "\n\n".join(parts) + SMALL


LOOPS = '''\
def count(n: int) -> int:
    total = 0
    i = 0
    while i < n:
        total += i
        i += 1
    return total


def walk(n: int, x: int) -> int:
    s = x
    for i in range(n):
        if s > 100:
            s = s - i
        else:
            s = s + x
    return s
''' + SMALL


def _clean(err: str) -> list[str]:
    """The stderr lines, after checking none is a crash."""
    assert "Traceback" not in err and "internal error" not in err and "RecursionError" not in err, err
    return err.strip().splitlines()


def _pytest_passes(test_file: Path) -> int:
    """Runs a generated file with pytest; the number of tests that passed."""
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
                            capture_output=True, text=True, cwd=test_file.parent, timeout=300,
                            env={**os.environ, "PYTHONPATH": str(test_file.parent), "PYTHONDONTWRITEBYTECODE": "1"})
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return int(re.findall(r"(\d+) passed", result.stdout)[-1])


def test_a_1000_branch_elif(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """1001 paths: a path budget stops the search cleanly; the function
    beside it still gets its tests; what is written passes."""
    (tmp_path / "ladder.py").write_text(_ladder(1000))
    out_file = tmp_path / "test_ladder.py"
    code, _, err = cli(capsys, "gen", str(tmp_path / "ladder.py"), "-o", str(out_file),
                       "--max-paths", "40", "--edge-tests", "0")
    first, summary = _clean(err)
    assert code == 0
    assert first.startswith("pathcraft: ladder: path limit reached; kept 40 tests;")
    assert re.match(r"pathcraft: wrote 42 tests for 2 functions to .* in [\d.]+ s$", summary)
    assert _pytest_passes(out_file) == 42
    code, out, err = cli(capsys, "gen", f"{tmp_path / 'ladder.py'}::ladder", "--edge-tests", "0", "--max-paths", "3")
    assert code == 0 and out.count("\ndef test_ladder_") == 3 and len(_clean(err)) == 1


def test_the_last_branch_of_a_1000_branch_elif(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Every `elif` after the first is infeasible when the first test fails:
    the second path runs through all 1000 branches to `return -1`."""
    (tmp_path / "deepest.py").write_text(_ladder(1000, first="x >= 0"))
    out_file = tmp_path / "test_deepest.py"
    code, _, err = cli(capsys, "gen", f"{tmp_path / 'deepest.py'}::ladder", "--edge-tests", "0", "-o", str(out_file))
    assert code == 0 and len(_clean(err)) == 1
    text = out_file.read_text()
    assert "def test_ladder_2_returns_minus_1()" in text and text.count("\ndef test_") == 2
    assert _pytest_passes(out_file) == 2


def test_loops_run_a_hundred_times(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "loops.py").write_text(LOOPS)
    out_file = tmp_path / "test_loops.py"
    code, _, err = cli(capsys, "gen", str(tmp_path / "loops.py"), "-o", str(out_file),
                       "--criterion", "loop-100", "--edge-tests", "0",
                       "--max-paths", "40")
    lines = _clean(err)
    assert code == 0 and len(lines) == 3  # the path limit, for count and for walk, then the summary
    assert re.match(r"pathcraft: wrote 82 tests for 3 functions", lines[-1]), lines
    text = out_file.read_text()
    assert "assert loops.count(n=100) == 4950" in text and text.count("def test_small_") == 2
    assert _pytest_passes(out_file) == text.count("\ndef test_")


def test_a_300_deep_call_chain(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Each f{i} is a function of its own (2 tests each); f0's test runs the
    whole chain."""
    (tmp_path / "chain.py").write_text(_chain(300))
    out_file = tmp_path / "test_chain.py"
    code, _, err = cli(capsys, "gen", str(tmp_path / "chain.py"), "--edge-tests", "0", "-o", str(out_file))
    (summary,) = _clean(err)
    assert code == 0 and summary.startswith("pathcraft: wrote 602 tests for 301 functions")
    assert re.search(r"assert chain\.f0\(x=[1-9]\d*\) == 300", out_file.read_text())  # the x > 0 path
    assert _pytest_passes(out_file) == 602
    code, out, err = cli(capsys, "gen", f"{tmp_path / 'chain.py'}::f0", "--edge-tests", "0")
    assert code == 0 and out.count("\ndef test_f0_") == 2 and _clean(err) == []


DEEP_TERMS = "def total(x: int) -> int:\n    return " + " + ".join(["x"] * 1500) + """


def grow(n: int, x: int) -> int:
    s = x
    for i in range(n):
        s = s * 2 + x
    return s
""" + SMALL


def test_deep_terms(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A 1500-term sum (a `BinOp` 1500 deep to lower) and terms 400 and 300
    operators deep (a loop run 400 times, a call chain doubling its
    result): deeper than Python's default recursion limit allows
    pathcraft's recursive walks, fine on its deep stack."""
    (tmp_path / "deep.py").write_text(DEEP_TERMS)
    out_file = tmp_path / "test_deep.py"
    code, _, err = cli(capsys, "gen", str(tmp_path / "deep.py"), "-o", str(out_file),
                       "--criterion", "loop-400", "--edge-tests", "0",
                       "--max-paths", "4")
    assert code == 0 and _clean(err)[-1].startswith("pathcraft: wrote 7 tests for 3 functions")
    found = re.search(r"assert deep\.total\(x=(-?\d+)\) == (-?\d+)", out_file.read_text())
    assert found and int(found.group(2)) == 1500 * int(found.group(1)) != 0
    assert _pytest_passes(out_file) == 7
    (tmp_path / "doubling.py").write_text(_chain(300, step="f{next}(x) * 2 + x"))
    out_file = tmp_path / "test_doubling.py"
    code, _, err = cli(capsys, "gen", f"{tmp_path / 'doubling.py'}::f0", "--edge-tests", "0", "-o", str(out_file))
    assert code == 0 and len(_clean(err)) == 1
    assert _pytest_passes(out_file) == 2


def test_past_the_recursion_limit_a_function_is_skipped_with_a_reason(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the limit left at Python's default (as if no deep stack could be
    had), the deep functions are skipped, each with one line saying why and
    where, counted as skipped; the small one still gets its tests."""
    import pathcraft.depth

    monkeypatch.setattr(pathcraft.depth, "RECURSION_LIMIT", 0)
    monkeypatch.chdir(tmp_path)
    Path("deep.py").write_text(DEEP_TERMS)
    limit = r"\(Python's recursion limit of \d+[\w ,]* was reached\)"  # 3.12 adds: frames, or of nested C calls,
    translation = r"deep\.py:1:1: too deeply nested for the translation " + limit
    search = r"pathcraft: grow: too deeply nested for [\w ]+ " + limit + "; skipped"
    code, _, err = cli(capsys, "gen", "deep.py::total")
    (line,) = _clean(err)
    assert code == 2 and re.fullmatch(translation, line), line
    code, out, err = cli(capsys, "gen", "deep.py::grow", "--criterion", "loop-1000", "--max-paths",
                         "4", "--edge-tests", "0")
    (line,) = _clean(err)
    assert code == 2 and re.fullmatch(search, line), line
    code, _, err = cli(capsys, "gen", "deep.py", "--edge-tests", "0", "-o", "test_deep.py", "--criterion", "loop-1000",
                       "--max-paths", "4")
    first, second, summary = _clean(err)
    assert code == 0
    assert re.fullmatch(translation + r"  \(skipped total\)", first) and re.fullmatch(search, second)
    assert re.fullmatch(r"pathcraft: wrote 2 tests for 1 function to test_deep\.py \(2 skipped; --execute would "
                        r"run them\) in [\d.]+ s", summary)
    assert _pytest_passes(tmp_path / "test_deep.py") == 2


def test_a_module_too_deep_for_the_parser_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A sum of 200000 terms: not even Python can compile the module, so
    there is nothing to test; one line, exit 2."""
    monkeypatch.chdir(tmp_path)
    Path("huge.py").write_text("def total(x: int) -> int:\n    return " + " + ".join(["x"] * 200_000) + "\n")
    code, out, err = cli(capsys, "gen", "huge.py")
    (line,) = _clean(err)
    assert code == 2 and out == ""
    assert line.startswith("pathcraft: huge.py: too deeply nested for Python's parser (")


def test_a_long_chain_of_new_objects_is_checked_in_short_steps(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    """The first path builds 200 nodes: checking the last through
    `result.next.next...` would take expressions 200 attributes deep (and
    quadratic text); the emitter names a node every few steps instead."""
    (tmp_path / "nodes.py").write_text(
        "class Node:\n    value: int\n    next: 'Node | None'\n\n\n"
        "def build(n: int) -> Node | None:\n    head: Node | None = None\n    i = 0\n    while i < n:\n"
        "        node = Node()\n        node.value = i\n        node.next = head\n        head = node\n"
        "        i += 1\n    return head\n")
    out_file = tmp_path / "test_nodes.py"
    code, _, err = cli(capsys, "gen", f"{tmp_path / 'nodes.py'}::build", "-o", str(out_file),
                       "--criterion", "loop-200", "--max-paths", "1")
    assert code == 0 and len(_clean(err)) == 2
    text = out_file.read_text()
    assert "nodes.build(n=200)" in text and text.count(".value == ") == 200
    from pathcraft.testcase.emit_pytest import MAX_STEPS

    assert max(line.count(".next") for line in text.splitlines()) == MAX_STEPS + 1
    assert _pytest_passes(out_file) == 1


def test_a_project_generated_in_two_folders_gives_the_same_file(tmp_path: Path) -> None:
    """A generated file names no folder of the machine that made it: the
    same project in two places, generated from each project's root, gives
    byte-identical files (the docstring named the absolute import root of
    a package module)."""
    texts = []
    for place in ("first", "second/deeper"):
        project = tmp_path / place
        package = project / "shapes"
        package.mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / "area.py").write_text("def area(w: int, h: int) -> int:\n    if w < 0 or h < 0:\n"
                                         "        raise ValueError('negative')\n    return w * h\n")
        (project / "tests").mkdir()
        done = run_module("gen", "shapes/area.py", "-o", "tests/test_area.py", cwd=project)
        assert done.returncode == 0, done.stderr
        texts.append((project / "tests" / "test_area.py").read_bytes())
    assert texts[0] == texts[1]
    assert str(tmp_path).encode() not in texts[0]


def test_a_ctrl_c_after_the_run_is_over_changes_nothing(tmp_path: Path) -> None:
    """The run has returned and the interpreter is shutting down (here: an
    exit handler sends the signal): no traceback, the run's own status. At
    that point the default handler was back, and a Ctrl-C killed a finished
    package run silently (status -2, in CI)."""
    script = tmp_path / "late_ctrl_c.py"
    script.write_text("import atexit, os, signal\n"
                      "import pathcraft.app.cli as cli\n"
                      "cli.main = lambda: 0\n"
                      "atexit.register(lambda: os.kill(os.getpid(), signal.SIGINT))\n"
                      "from pathcraft.__main__ import run\n"
                      "run()\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == ""


def test_a_half_built_z3_objects_finalizer_error_is_not_printed(capsys: pytest.CaptureFixture[str]) -> None:
    """A Ctrl-C inside `z3.Context()` leaves an object whose `__del__`
    fails on an attribute never set: dropped; any other unraisable error
    still reaches the default hook (printed with its traceback)."""
    import gc

    import z3

    from pathcraft.__main__ import _quiet_z3_finalizers

    class Noisy:
        def __del__(self) -> None:
            raise ValueError("a finalizer of the user's")

    previous = sys.unraisablehook
    sys.unraisablehook = _quiet_z3_finalizers
    try:
        half_built = z3.Context.__new__(z3.Context)  # `__init__` never ran: no `owner`
        del half_built
        gc.collect()
        assert capsys.readouterr().err == ""
        noisy = Noisy()
        del noisy
        gc.collect()
    finally:
        sys.unraisablehook = previous
    assert "ValueError: a finalizer of the user's" in capsys.readouterr().err
