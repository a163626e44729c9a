"""`@overload` stubs, `@override` and `typing.cast` change nothing at run
time, and the engine reads them so: the engine against the real code
(replay, and enumeration of small inputs)."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "typing_helpers.py"
NAMES = ["Square.area", "double", "total"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 2), max_list=2, max_str=1,
                                                                     alphabet="a"))


def test_the_implementation_after_the_stubs_is_the_function() -> None:
    outcomes = {(type(dict(c.inputs)["x"]).__name__, c.kind) for c in generated(FIXTURE, "double")}
    assert outcomes == {("int", "return"), ("str", "return")}
