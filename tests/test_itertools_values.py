"""`itertools`' iterators as prelude generators (models/itertools/prelude.py,
frontend/stdlib.Stdlib.itertool). The engine against the real code: replay
of every test, and every small input (predicates from a family wider than
the callable candidates) whose path no test takes."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "itertools_values.py"
NAMES = ["chained", "flattened", "head_then_rest", "window", "repeated", "numbered", "picked", "falsy", "taken",
         "dropped", "rejected", "not_iterable", "lazily_chained", "evens_of", "padded", "running", "around", "steps",
         "counted_by_keyword", "diffs", "chosen", "first_pair"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1, 2), max_list=2))


def test_errors_at_the_call_are_claimed_by_type() -> None:
    """A negative stop and a source that is no iterable: CPython's
    constructor raises, before the first item (the stop's by type only:
    its message depends on the value)."""
    raised = {(c.exc_type, c.exc_message) for c in generated(FIXTURE, "head_then_rest") if c.kind == "raise"}
    assert raised == {("ValueError", None)}
    raised = {(c.exc_type, c.exc_message) for c in generated(FIXTURE, "not_iterable") if c.kind == "raise"}
    assert raised == {("TypeError", "'int' object is not iterable")}


def test_a_returned_iterator_is_taken_whole() -> None:
    """`return chain(a, b)`: the test states `list(f(...))`."""
    cases = generated(FIXTURE, "lazily_chained")
    assert cases and all(c.extra.get("consumed") == "list" and "list" in c.heap_final[c.value["$ref"]]
                         for c in cases)
