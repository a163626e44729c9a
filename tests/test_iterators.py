"""`iter(x)` and `next(it[, default])` as values: `iter` checks `x` at
once and gives a silent generator over it (CPython's C iterator has no
frame, so no events), `next` resumes a generator once (StopIteration or
the default at its end), calls an object's own `__next__`, and anything
else is CPython's TypeError. Checked against the real code: replay of
every generated test and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "iterators.py"
NAMES = ["second", "second_or", "rest_sum", "not_iterator", "not_iterable", "two_down", "chars"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=tuple(range(-1, 3)), max_str=2))


def test_next_past_the_end_is_stop_iteration_or_the_default() -> None:
    assert {case.exc_type for case in generated(FIXTURE, "second")} == {None, "StopIteration"}
    assert {case.exc_type for case in generated(FIXTURE, "second_or")} == {None}


def test_what_is_no_iterator_says_so_as_cpython_does() -> None:
    (case,) = generated(FIXTURE, "not_iterator")
    assert (case.exc_type, case.exc_message) == ("TypeError", "'int' object is not an iterator")
    (case,) = generated(FIXTURE, "not_iterable")
    assert (case.exc_type, case.exc_message) == ("TypeError", "'int' object is not iterable")
