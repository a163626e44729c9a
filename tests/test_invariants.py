"""Class invariants (`@invariant`, `--invariant`, `[tool.pathcraft] invariants`):
assumed of `self` at entry, checked on return (frontend/invariants.py)."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from oracle import replay_mismatches
from pathcraft.app.cli import main
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

STACK = '''
from pathcraft.assume import invariant


class Stack:
    def __init__(self) -> None:
        self.items: list[int] = []
        self.size = 0

    @invariant
    def ok(self) -> bool:
        return 0 <= self.size <= len(self.items)

    def pop(self) -> int:
        if self.size == 0:
            raise IndexError("empty")
        self.size -= 1
        return self.items[self.size]

    def resize(self, n: int) -> int:
        if n > 2:
            self.size = n
        elif n < 0:
            raise ValueError("negative")
        else:
            self.size = min(n, len(self.items))
        return self.size
'''


@pytest.fixture
def module(tmp_path: Path) -> Path:
    source = tmp_path / "stack.py"
    source.write_text(STACK)
    return source


def cases_of(source: Path, name: str, **options: object) -> list:  # type: ignore[type-arg]
    return generate(translate(str(source), [name]).program, name, GenerateOptions.of(**options)).cases


def holds(desc: dict) -> bool:  # type: ignore[type-arg]
    items = desc["fields"]["items"]
    return 0 <= desc["fields"]["size"] <= len(items) if isinstance(items, list) else True


@pytest.mark.parametrize("name", ["Stack.pop", "Stack.resize"])
def test_no_test_starts_from_a_state_the_invariant_excludes(module: Path, name: str) -> None:
    cases = cases_of(module, name)
    assert cases
    for case in cases:
        me = case.heap_in["stack_2"] if "stack_2" in case.heap_in else next(
            d for d in case.heap_in.values() if d.get("class") == "Stack")
        items = case.heap_in[me["fields"]["items"]["$ref"]]["list"]
        assert 0 <= me["fields"]["size"] <= len(items), case.name
    assert replay_mismatches(module, name, cases) == []  # the claimed path is the method's alone


def test_a_path_that_breaks_the_invariant_is_kept_and_says_so(module: Path) -> None:
    cases = cases_of(module, "Stack.resize")
    broken = [c for c in cases if c.extra.get("invariant") == "broken"]
    kept = [c for c in cases if c.kind == "return" and "invariant" not in c.extra]
    assert broken and kept
    assert all(c.value > 2 for c in broken)  # n > 2 can exceed the items


def test_brute_force_outcomes_are_all_found(module: Path) -> None:
    """Every (outcome, invariant after) the real code shows on small valid
    states is the outcome of some generated test."""
    namespace: dict[str, object] = {}
    exec(compile(STACK, str(module), "exec"), namespace)  # the test's own fixture, not analysed code
    cls = namespace["Stack"]
    seen = set()
    for length, size, n in itertools.product(range(4), range(4), range(-1, 5)):
        if size > length:
            continue
        obj = object.__new__(cls)  # type: ignore[call-overload]
        obj.items, obj.size = list(range(length)), size
        try:
            obj.resize(n)
            seen.add(("return", obj.ok()))
        except ValueError:
            seen.add(("raise", None))
    found = {(c.kind, None if c.kind == "raise" else c.extra.get("invariant") != "broken")
             for c in cases_of(module, "Stack.resize")}
    assert seen <= found


def test_the_written_tests_pass_and_assert_the_break(module: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "test_stack.py"
    assert main(["gen", f"{module}::Stack.resize", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "leave the invariant Stack.ok false" in err
    text = out.read_text()
    assert "assert not stack_2.ok()" in text and "# invariant:" in text
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out)],
                         capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"})
    assert run.returncode == 0, run.stdout


def test_an_invariant_named_in_pyproject_or_on_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "plain.py"
    source.write_text(STACK.replace("    @invariant\n", "").replace("from pathcraft.assume import invariant\n", ""))
    monkeypatch.chdir(tmp_path)
    assert main(["gen", f"{source}::Stack.resize", "--invariant", "Stack.ok", "-o", "a.py"]) == 0
    (tmp_path / "pyproject.toml").write_text('[tool.pathcraft]\ninvariants = ["Stack.ok"]\n')
    assert main(["gen", f"{source}::Stack.resize", "-o", "b.py"]) == 0
    assert (tmp_path / "a.py").read_text() == (tmp_path / "b.py").read_text()
    assert "assert not stack.ok()" in (tmp_path / "a.py").read_text()  # module `plain`: no clash
    capsys.readouterr()


@pytest.mark.parametrize("name, message", [
    ("Stack.nope", "invariant Stack.nope: "),
    ("nope", "invariant 'nope': expected Class.method"),
])
def test_a_bad_invariant_is_one_line_and_exit_2(module: Path, name: str, message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["gen", str(module), "--invariant", name]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("pathcraft:") and message in err[0]
