"""Calls inside statements, comprehensions and generator expressions that
span several lines, checked against the real code: after a call returns
to an instruction of another physical line, CPython reports the
statement's line again (read off the compiled code, frontend/linetable.py),
so every generated test must claim exactly the events the real run has."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

from pathcraft.frontend.linetable import lines_after_calls

MULTILINE = Path(__file__).resolve().parent / "fixtures" / "structure" / "multiline_calls.py"
NAMES = ["bumped_sum", "bumped_list", "bumped_map", "any_halves", "split_call", "guarded", "tail_call",
         "Meter.spread", "Link.two_ahead"]
SMALL = Bounds(ints=tuple(range(-1, 4)), max_list=3, max_objects=2)


test_replay, test_enumeration = oracle_tests(MULTILINE, NAMES, SMALL)


def test_some_calls_of_the_fixture_return_to_another_line() -> None:
    """The fixture exercises the case (on every Python the suite runs)."""
    assert lines_after_calls(str(MULTILINE))
