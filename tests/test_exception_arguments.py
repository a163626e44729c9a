"""An exception's argument may be any expression: evaluated where CPython
evaluates it (what it raises comes first), its text claimed only when the
engine knows it exactly. An exception is also a value (`err = E(x)`,
`raise self._invalid(x)`, a list of them). The engine against the real
code: replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "exception_arguments.py"
NAMES = ["positive", "first", "shout", "parse", "capped", "Validator.check", "made_then_raised", "kept_errors",
         "first_error"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1), max_list=3, max_str=1,
                                                                     alphabet="xa"))


def test_an_argument_that_raises_raises_first() -> None:
    raised = {c.exc_type for c in generated(FIXTURE, "parse") if c.kind == "raise"}
    assert raised == {"IndexError", "ParseError"}


def test_a_known_text_is_claimed() -> None:
    assert {c.exc_message for c in generated(FIXTURE, "capped") if c.kind == "raise"} == {"too big"}


def test_exception_objects_are_not_compared_as_values() -> None:
    """Two exceptions made alike are two objects: `a == b` is False in
    CPython; the model has no identity for them, so that path is dropped
    (the one comparing with None is kept)."""
    cases = generated(FIXTURE, "same_error")
    assert {c.value for c in cases} == {True}


def test_an_imported_class_caught_somewhere_is_no_exception_value(tmp_path: Path) -> None:
    """`except Counter:` takes the imported name as an exception class; a
    call `Counter(xs)` is still the library's (statistics.multimode crashed
    the engine with an exception object as a condition)."""
    path = tmp_path / "counted.py"
    path.write_text("from collections import Counter\n\n\ndef bad(xs: list[int]) -> int:\n    try:\n"
                    "        return xs[0]\n    except Counter:\n        return 0\n\n\n"
                    "def most(xs: list[int]) -> int:\n    counts = Counter(xs)\n    if counts:\n        return 1\n"
                    "    return 0\n")
    result = translate(str(path), ["bad", "most"])
    run = generate(result.program, "most", GenerateOptions.of())
    assert run.cases == [] and any("collections.Counter" in note for note in run.notes)
