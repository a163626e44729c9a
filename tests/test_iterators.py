"""`iter(x)` and `next(it[, default])` as values: `iter` checks `x` at
once and gives a silent generator over it (CPython's C iterator has no
frame, so no events), `next` resumes a generator once (StopIteration or
the default at its end), calls an object's own `__next__`, and anything
else is CPython's TypeError. Checked against the real code: replay of
every generated test and enumeration of small inputs (lists of at most
two items: the iterator's own loop takes at most K items under loop-K)."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "iterators.py"
NAMES = ["second", "second_or", "rest_sum", "not_iterator", "not_iterable", "two_down", "chars"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=tuple(range(-1, 3)), max_str=2, max_list=2))


def test_next_past_the_end_is_stop_iteration_or_the_default() -> None:
    assert {case.exc_type for case in generated(FIXTURE, "second")} == {None, "StopIteration"}
    assert {case.exc_type for case in generated(FIXTURE, "second_or")} == {None}


def test_what_is_no_iterator_says_so_as_cpython_does() -> None:
    (case,) = generated(FIXTURE, "not_iterator")
    assert (case.exc_type, case.exc_message) == ("TypeError", "'int' object is not an iterator")
    (case,) = generated(FIXTURE, "not_iterable")
    assert (case.exc_type, case.exc_message) == ("TypeError", "'int' object is not iterable")


VALUES = Path(__file__).resolve().parent / "fixtures" / "structure" / "iterator_values.py"
VALUE_NAMES = ["doubled", "positives", "evens_doubled", "pairs", "numbered", "as_text", "bad", "last_two",
               "reversed_set"]

test_values_replay, test_values_enumeration = oracle_tests(
    VALUES, VALUE_NAMES, Bounds(ints=tuple(range(-1, 7, 3)), max_str=2, max_list=2))


def test_map_calls_its_function_per_item_and_raises_what_it_raises() -> None:
    cases = generated(VALUES, "doubled")
    assert {case.exc_type for case in cases} == {None, "ValueError"}
    for case in cases:
        if case.exc_type is None:  # the result is a new list: its items in the final heap
            assert case.heap_final[case.value["$ref"]]["list"] == [2 * x for x in case.heap_in["xs"]["list"]]
