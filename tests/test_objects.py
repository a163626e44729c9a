"""`--objects constructed`: a method's object is built by its constructor
and public method calls only.

The generated tests pass against the real code and build nothing but
through the API; a constructor or setup call that raises gives no test;
and a brute-force oracle (the real code on every API sequence of at most
two calls with small ints) finds no outcome of the target that the
constructed run missed.
"""

from __future__ import annotations

import inspect
import itertools
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from oracle import load_module

from pathcraft.app.cli import main
from pathcraft.frontend import load_module as parse_module
from pathcraft.frontend import translate
from pathcraft.frontend.mutation import may_mutate
from pathcraft.generate import FunctionRun, GenerateOptions, generate
from pathcraft.testcase.model import TestCase
from pathcraft.testcase.verify import check_replay

FIXTURES = Path(__file__).resolve().parent / "fixtures"
OBJECTS = FIXTURES / "objects.py"
SMALL_INTS = tuple(range(-1, 4))


def constructed(path: Path, qualname: str, setup_calls: int = 2, **options: Any) -> FunctionRun:
    result = translate(str(path), [qualname], objects="constructed", setup_calls=setup_calls)
    assert not result.errors and qualname in result.program.drivers, (result.errors, result.free_objects)
    return generate(result.program, qualname,
                    GenerateOptions.of(objects="constructed", setup_calls=setup_calls, **options))


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def run_pytest(test_file: Path, folder: Path = FIXTURES) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(folder), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
                          capture_output=True, text=True, cwd=test_file.parent, env=env, timeout=300)


# ------------------------------------------------------------ the tests pass


def test_constructed_tests_pass_and_build_objects_only_through_the_api(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "test_objects_constructed.py"
    code, _, err = cli(capsys, "gen", str(OBJECTS), "--objects", "constructed", "-o", str(out))
    assert code == 0, err
    text = out.read_text()
    count = text.count("\ndef test_")
    assert count > 50
    assert "object.__new__" not in text
    run = run_pytest(out)
    assert run.returncode == 0 and f"{count} passed" in run.stdout, run.stdout[-3000:]


def test_the_test_reads_as_the_construction_sequence(capsys: pytest.CaptureFixture[str]) -> None:
    """Constructor, setup calls with their values, the target call and what
    it changed; an object the assertions refer to is bound before the call."""
    code, out, _ = cli(capsys, "gen", f"{OBJECTS}::LinkedStack.pop", "--objects", "constructed")
    assert code == 0
    expected = (
        "    linkedstack = objects.LinkedStack()\n"
        "    linkedstack.push(v=2)\n"
        "    linkedstack.push(v=3)\n"
        "    linkedstack_head_next = linkedstack.head.next\n"
        "    assert linkedstack.pop() == 3\n"
        "    assert linkedstack.head is linkedstack_head_next\n"
        "    assert linkedstack.size == 1\n"
    )
    assert expected in out
    assert "def test_LinkedStack_pop_constructed_3_returns_3() -> None:" in out
    assert "    # trace: LinkedStack_pop(1, [LinkedStack_pop_c(2, [LinkedStack_pop_join2(1, [])])])" in out


def test_every_constructed_test_takes_the_path_it_claims() -> None:
    cases = [c for q in ("LinkedStack.pop", "Counter.inc", "Account.withdraw", "Ring.dequeue", "Ring.enqueue")
             for c in constructed(OBJECTS, q).cases]
    checks = check_replay(str(OBJECTS), cases)
    bad = [c for c in checks if not (c.outcome_ok and c.path_ok)]
    assert len(checks) == len(cases) > 20 and not bad, bad[:3]


def test_json_carries_the_construction(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "gen", f"{OBJECTS}::Counter.inc", "--objects", "constructed", "--format", "json")
    assert code == 0
    tests = json.loads(out)["tests"]
    made = tests[0]["construction"]
    assert made["class"] == "Counter" and set(made["constructor"]) == {"start", "limit"}
    assert tests[0]["inputs"] == {"self": {"$ref": made["receiver"]}}
    assert any(t["construction"]["calls"] for t in tests)


# ---------------------------------------------------- setups that raise


def test_a_setup_call_that_raises_gives_no_test() -> None:
    """Counter's constructor refuses bad bounds and `inc` raises at the
    limit; Account refuses bad deposits: those sequences are explored and
    dropped, and every sequence a test makes runs without raising."""
    module = load_module(OBJECTS)
    for qualname in ("Counter.level", "Account.withdraw", "Ring.enqueue"):
        run = constructed(OBJECTS, qualname)
        assert run.stats["setup_raised"] > 0 and run.cases
        for case in run.cases:
            build(module, case)  # raises if a setup call does


def test_no_setup_raises_no_setup_is_counted() -> None:
    assert constructed(OBJECTS, "Light.go").stats["setup_raised"] == 0


def test_a_class_whose_constructor_always_raises_gets_no_constructed_test(tmp_path: Path) -> None:
    source = tmp_path / "broken.py"
    source.write_text(
        "class Broken:\n"
        "    n: int\n\n"
        "    def __init__(self) -> None:\n"
        "        raise ValueError('never')\n\n"
        "    def get(self) -> int:\n"
        "        return self.n\n"
    )
    assert constructed(source, "Broken.get").cases == []
    free = generate(translate(str(source), ["Broken.get"]).program, "Broken.get", GenerateOptions())
    assert len(free.cases) == 1


def build(module: Any, case: TestCase) -> Any:
    """The case's object, made by running its construction sequence."""
    made = case.construction
    assert made is not None
    obj = getattr(module, made.cls)(**dict(made.constructor))
    for method, arguments in made.calls:
        getattr(obj, method)(**dict(arguments))
    return obj


# ------------------------------------------------ the brute-force oracle


def public_methods(cls: type) -> list[str]:
    return [name for name, value in vars(cls).items() if inspect.isfunction(value) and not name.startswith("_")]


def arguments(fn: Any) -> Iterator[tuple[int, ...]]:
    """Every tuple of small ints for the parameters after `self`."""
    count = len(inspect.signature(fn).parameters) - 1
    return itertools.product(SMALL_INTS, repeat=count)


def real_outcomes(cls: type, target: str, calls: int, values: bool) -> set[tuple[Any, ...]]:
    """What the target does on every object the API makes with at most
    `calls` calls of its public methods after the constructor, small ints
    everywhere: the return value (or just "return") or the exception."""
    steps = [(m, args) for m in public_methods(cls) for args in arguments(getattr(cls, m))]
    outcomes: set[tuple[Any, ...]] = set()
    for init_args in arguments(cls.__init__):  # type: ignore[misc]
        for length in range(calls + 1):
            for sequence in itertools.product(steps, repeat=length):
                for target_args in arguments(getattr(cls, target)):
                    try:
                        obj = cls(*init_args)
                        for method, args in sequence:
                            getattr(obj, method)(*args)
                    except Exception:
                        break  # not reachable this way
                    try:
                        value = getattr(obj, target)(*target_args)
                    except Exception as exc:
                        outcomes.add(("raise", type(exc).__name__, str(exc)))
                    else:
                        outcomes.add(("return", value) if values else ("return",))
    return outcomes


def found_outcomes(cases: list[TestCase], values: bool) -> set[tuple[Any, ...]]:
    return {("raise", c.exc_type, c.exc_message) if c.kind == "raise"
            else ("return", c.value) if values else ("return",) for c in cases}


@pytest.mark.parametrize("qualname, values", [
    ("Light.color", True), ("Light.go", True), ("Counter.level", True), ("Counter.inc", True),
    ("Account.close", True), ("Account.deposit", True), ("LinkedStack.is_empty", True),
    ("LinkedStack.pop", False), ("LinkedStack.peek", False), ("Ring.dequeue", False), ("Ring.enqueue", True),
])
def test_every_outcome_the_api_reaches_is_found(qualname: str, values: bool) -> None:
    """Return values are compared where the path decides them (`values`);
    where an argument flows into the result, the kind of outcome is."""
    cls_name, _, method = qualname.partition(".")
    cls = getattr(load_module(OBJECTS), cls_name)
    real = real_outcomes(cls, method, 2, values)
    found = found_outcomes(constructed(OBJECTS, qualname).cases, values)
    assert len(real) > 1
    assert real <= found, f"missed {real - found}"


def test_fewer_setup_calls_reach_fewer_states() -> None:
    """Yellow takes two `advance` calls: not reachable with one."""
    one = found_outcomes(constructed(OBJECTS, "Light.color", setup_calls=1).cases, True)
    assert one == {("return", 0), ("return", 1)}
    none = constructed(OBJECTS, "LinkedStack.pop", setup_calls=0).cases
    assert [(c.kind, c.exc_type, c.construction and c.construction.calls) for c in none] == [
        ("raise", "EmptyError", ())]


# ---------------------------------------------------- what stays free


def test_other_object_arguments_stay_free(tmp_path: Path) -> None:
    """The receiver is constructed; an object argument of the target is
    materialized by the heap model as today (`object.__new__`)."""
    source = tmp_path / "holder.py"
    source.write_text(
        "from __future__ import annotations\n\n\n"
        "class Item:\n"
        "    weight: int\n\n\n"
        "class Holder:\n"
        "    total: int\n\n"
        "    def __init__(self) -> None:\n"
        "        self.total = 0\n\n"
        "    def add(self, item: Item | None) -> int:\n"
        "        if item is None:\n"
        "            raise ValueError('no item')\n"
        "        if item.weight > 3:\n"
        "            return -1\n"
        "        self.total += item.weight\n"
        "        return self.total\n"
    )
    run = constructed(source, "Holder.add")
    kinds = {(c.kind, c.exc_type) for c in run.cases}
    assert ("raise", "ValueError") in kinds and ("return", None) in kinds
    out = tmp_path / "test_holder.py"
    assert main(["gen", f"{source}::Holder.add", "--objects", "constructed", "-o", str(out)]) == 0
    text = out.read_text()
    assert "object.__new__(holder.Item)" in text and "object.__new__(holder.Holder)" not in text
    run_result = run_pytest(out, tmp_path)
    assert run_result.returncode == 0, run_result.stdout[-3000:]


def test_a_record_class_without_init_stays_free(capsys: pytest.CaptureFixture[str]) -> None:
    """A class whose declared fields only its users set (no `__init__`)
    keeps free objects, and the command line says why."""
    code, out, err = cli(capsys, "gen", f"{FIXTURES / 'linked.py'}::Stack.pop", "--objects", "constructed")
    assert code == 0
    assert "Stack.pop: objects built freely: Stack has no __init__ and its fields (top) are set from outside" \
        in " ".join(err.split())
    assert "object.__new__(linked.Stack)" in out


def test_functions_are_unchanged_by_the_objects_mode(capsys: pytest.CaptureFixture[str]) -> None:
    linked = str(FIXTURES / "linked.py")
    _, free, _ = cli(capsys, "gen", f"{linked}::length")
    _, made, _ = cli(capsys, "gen", f"{linked}::length", "--objects", "constructed")
    assert free == made


def test_which_methods_may_change_the_object() -> None:
    module = parse_module(str(OBJECTS))
    assert may_mutate(module, "LinkedStack", "push") and may_mutate(module, "LinkedStack", "pop")
    assert not may_mutate(module, "LinkedStack", "peek") and not may_mutate(module, "LinkedStack", "is_empty")
    assert may_mutate(module, "Counter", "inc") and not may_mutate(module, "Counter", "level")
    linked = parse_module(str(FIXTURES / "linked.py"))
    assert may_mutate(linked, "SList", "insert_at")  # `prev.next = ...` through an alias
    assert not may_mutate(linked, "SList", "find") and not may_mutate(linked, "BST", "contains")


def test_the_search_order_does_not_change_constructed_tests(capsys: pytest.CaptureFixture[str]) -> None:
    _, dfs, _ = cli(capsys, "gen", str(OBJECTS), "--objects", "constructed", "--search", "dfs")
    _, bfs, _ = cli(capsys, "gen", str(OBJECTS), "--objects", "constructed", "--search", "bfs")
    assert dfs == bfs


# ---------------------------------------------------------- settings


def test_settings_from_pyproject_and_the_command_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.pathcraft]\nobjects = "constructed"\nsetup_calls = 1\n')
    monkeypatch.chdir(tmp_path)
    _, out, _ = cli(capsys, "gen", f"{OBJECTS}::Light.color")
    assert "light = objects.Light()" in out and out.count("\ndef test_") == 2
    _, out, _ = cli(capsys, "gen", f"{OBJECTS}::Light.color", "--setup-calls", "2")
    assert out.count("\ndef test_") == 3
    _, out, _ = cli(capsys, "gen", f"{OBJECTS}::Light.color", "--objects", "free")
    assert "object.__new__(objects.Light)" in out


@pytest.mark.parametrize("file_text, message", [
    ('objects = "built"\n', "unknown objects mode 'built' (free or constructed)"),
    ("setup_calls = -1\n", "setup_calls must be at least 0, not -1"),
    ('setup_calls = "2"\n', "setting 'setup_calls' in [tool.pathcraft] has the wrong type"),
])
def test_bad_settings_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch, file_text: str, message: str) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.pathcraft]\n" + file_text)
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "gen", f"{OBJECTS}::Light.color")
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1
    assert lines[0].startswith("pathcraft:") and message in lines[0]


def test_bad_command_line_values_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = cli(capsys, "gen", f"{OBJECTS}::Light.color", "--objects", "built")
    assert code == 2
    code, _, _ = cli(capsys, "gen", f"{OBJECTS}::Light.color", "--setup-calls", "-1")
    assert code == 2


def test_help_shows_the_defaults(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    code, out, _ = cli(capsys, "gen", "--help-all")
    assert code == 0
    text = " ".join(out.replace("│", " ").split())  # a help text wrapped inside rich's box reads on
    assert "[default: free]" in text and "[default: 2]" in text and "[default: loop-2]" in text


def test_a_method_that_cannot_be_analysed_is_no_setup_call_and_no_error(tmp_path: Path) -> None:
    """A public method outside the subset is left out of the setup calls;
    it is no target, so it changes neither the tests nor the exit status."""
    source = tmp_path / "partial.py"
    source.write_text(
        "class Box:\n"
        "    n: int\n\n"
        "    def __init__(self) -> None:\n"
        "        self.n = 0\n\n"
        "    def bump(self) -> None:\n"
        "        self.n += 1\n\n"
        "    def shift(self) -> None:\n"
        "        self.n = self.n @ 1\n\n"
        "    def get(self) -> int:\n"
        "        if self.n > 1:\n"
        "            return 2\n"
        "        return self.n\n"
    )
    result = translate(str(source), ["Box.get"], objects="constructed")
    assert not result.errors
    assert [m.method for m in result.program.drivers["Box.get"].steps[0].methods] == ["bump"]
    out = tmp_path / "test_partial.py"
    assert main(["gen", f"{source}::Box.get", "--objects", "constructed", "-o", str(out)]) == 0
    assert run_pytest(out, tmp_path).returncode == 0


def test_class_invariants_wrap_the_target_call_of_a_driver(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An `@invariant` is assumed and checked around the target call the
    driver makes (its wrapper is a builtin predicate: the construction
    control finds the call when it is entered); setup calls only build."""
    source = tmp_path / "guarded.py"
    source.write_text(
        "from pathcraft.assume import invariant\n\n\n"
        "class Gauge:\n"
        "    def __init__(self) -> None:\n"
        "        self.level = 0\n\n"
        "    @invariant\n"
        "    def ok(self) -> bool:\n"
        "        return 0 <= self.level <= 2\n\n"
        "    def up(self) -> int:\n"
        "        if self.level >= 2:\n"
        "            raise OverflowError('full')\n"
        "        self.level += 1\n"
        "        return self.level\n\n"
        "    def set(self, n: int) -> None:\n"
        "        self.level = n\n"
    )
    out = tmp_path / "test_guarded.py"
    code, _, err = cli(capsys, "gen", f"{source}::Gauge.set", "--objects", "constructed", "-o", str(out))
    assert code == 0 and "never called its target" not in err
    text = out.read_text()
    assert "gauge = guarded.Gauge()" in text and "assert not gauge.ok()" in text
    code, _, err = cli(capsys, "gen", f"{source}::Gauge.up", "--objects", "constructed", "-o", str(out))
    assert code == 0 and "never called its target" not in err
    assert "gauge.up()\n    with pytest.raises(OverflowError" in out.read_text()
    src = Path(__file__).resolve().parent.parent / "src"  # the generated file imports pathcraft.assume
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(src)]))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out)],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:]


def test_truth_of_an_object_with_len_calls_it(tmp_path: Path) -> None:
    """`if b:` on a class defining `__len__` calls it, as Python does: true
    when not 0, `ValueError` when negative; None is false without a call."""
    source = tmp_path / "sized.py"
    source.write_text(
        "class Bag:\n"
        "    n: int\n\n"
        "    def __len__(self) -> int:\n"
        "        return self.n\n\n\n"
        "def f(b: Bag | None) -> int:\n"
        "    if b:\n"
        "        return 1\n"
        "    return 0\n"
    )
    result = translate(str(source), ["f"])
    run = generate(result.program, "f", GenerateOptions.of())
    outcomes = sorted((c.kind, c.value, c.exc_type, c.exc_message) for c in run.cases)
    assert outcomes == [("raise", None, "ValueError", "__len__() should return >= 0"),
                        ("return", 0, None, None), ("return", 0, None, None), ("return", 1, None, None)]
    assert {dict(c.inputs)["b"] is None for c in run.cases if c.value == 0} == {True, False}
