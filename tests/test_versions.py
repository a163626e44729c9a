"""The syntax of the running Python: what 3.12 added (PEP 695 type
parameters, `type` aliases, the new f-string grammar) is analysed under
3.12+, `except*` is refused cleanly, and under 3.11 such a file is a clean
syntax error. The generated file says which Python it was made under."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from oracle import replay_mismatches
from pathcraft.app.cli import main
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

NEW_SYNTAX = '''
type Count = int


class Node:
    def __init__(self, value: int, next: "Node | None" = None) -> None:
        self.value = value
        self.next = next


def first[T](xs: list[T]) -> T:
    return xs[0]


def bounded[N: Node](node: N) -> int:
    if node.next is None:
        return node.value
    return node.next.value


def clamp(x: Count, hi: Count) -> Count:
    if x > hi:
        return hi
    return x


def shout(x: int) -> int:
    if x < 0:
        raise ValueError(f"{"negative"}: {x!r:>{4}}")
    return x


def grouped(x: int) -> int:
    result = 0
    try:
        result = 10 // x
    except* ZeroDivisionError:
        result = -1
    return result
'''

needs_312 = pytest.mark.skipif(sys.version_info < (3, 12), reason="syntax of Python 3.12+")


@pytest.fixture()
def source(tmp_path: Path) -> Path:
    path = tmp_path / "newsyntax.py"
    path.write_text(NEW_SYNTAX, encoding="utf-8")
    return path


@needs_312
@pytest.mark.parametrize("name", ["first", "bounded", "clamp", "shout"])
def test_new_syntax_is_analysed_and_replays(source: Path, name: str) -> None:
    result = translate(str(source), [name])
    assert not result.errors, result.errors
    cases = generate(result.program, name, GenerateOptions()).cases
    assert cases
    assert replay_mismatches(source, name, cases) == []


@needs_312
def test_type_parameters_stand_for_their_bound(source: Path) -> None:
    info = translate(str(source), ["bounded", "first"]).program.functions
    assert str(info["bounded"].param_types[0]) == "Node"
    assert str(info["first"].param_types[0]) == "list[int]"  # unbounded: Any, modelled as int


@needs_312
def test_except_star_is_refused_with_its_location(source: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["gen", f"{source}::grouped"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert f"{source}:" in err and "except*" in err


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="3.11 only")
def test_newer_syntax_under_311_is_a_clean_syntax_error(source: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["gen", str(source)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "Traceback" not in err
    assert err.startswith(f"pathcraft: {source}:") and "syntax error" in err


def test_generated_file_names_the_python_version(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    examples = Path(__file__).resolve().parent.parent / "examples" / "arith.py"
    assert main(["gen", f"{examples}::clamp"]) == 0
    out = capsys.readouterr().out
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    assert f"under Python {version} for" in out.splitlines()[0]
