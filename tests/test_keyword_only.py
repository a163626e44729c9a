"""Keyword-only parameters (after `*`) are parameters like the others,
which a call names: the generated tests pass them by keyword, a call in
the module that passes one by position is refused (Python's TypeError),
and positional-only parameters are still refused with their location.
Checked against the real code: replay of every generated test and
enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "keyword_only.py"
NAMES = ["clamp", "scaled", "Box.grow"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=tuple(range(-2, 3))))


def test_the_tests_name_keyword_only_arguments() -> None:
    cases = generated(FIXTURE, "clamp")
    assert {name for case in cases for name, _ in case.inputs} == {"x", "low", "high"}
    assert len(cases) >= 3  # below low, above high, between


def test_a_keyword_only_argument_passed_by_position_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("def f(x: int, *, k: int = 0) -> int:\n    return x + k\n\n\n"
                      "def g(x: int) -> int:\n    return f(x, 1)\n", encoding="utf-8")
    result = translate(str(source))
    assert "f" not in result.errors
    assert "too many arguments to f()" in result.errors["g"].message


def test_positional_only_parameters_are_positional_and_keywords_for_them_refused(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("def f(x: int, /, y: int) -> int:\n    return x + y\n\n\n"
                      "def g(x: int) -> int:\n    return f(x=x, y=1)\n", encoding="utf-8")
    result = translate(str(source))
    assert "f" not in result.errors
    assert "bad keyword argument 'x' to f()" in result.errors["g"].message
