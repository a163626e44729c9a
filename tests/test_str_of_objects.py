"""`str(obj)` where the object's class (or a base) defines `__str__`: the
method, dispatched at run time, and CPython's TypeError when it gives no
str. The engine against the real code: replay, and enumeration."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "str_of_objects.py"

test_replay, test_enumeration = oracle_tests(FIXTURE, ["Node.serialize", "show", "Broken.text"],
                                             Bounds(ints=(-1, 0, 1), max_str=1, alphabet="a", unannotated=(
                                                 ("Node", "name", str), ("Node", "depth", int),
                                                 ("Broken", "depth", int))))


def test_a_str_that_is_no_string_raises_type_error() -> None:
    assert {c.exc_type for c in generated(FIXTURE, "Broken.text") if c.kind == "raise"} >= {"TypeError"}
