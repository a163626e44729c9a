"""`operator.itemgetter(k)` / `attrgetter("a")` of constants are the reads
they make (`x[k]`, `x.a`; several keys: their tuple), as a key of
`min`/`max`/`sorted` and as `map`'s function. The engine against the real
code: replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "getters.py"
NAMES = ["argmin", "firsts", "best", "by_two"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(0, 1), max_list=3, max_objects=2))


def test_an_item_a_getter_cannot_read_raises() -> None:
    """`itemgetter(1)` of a one-item list: IndexError, as `x[1]`."""
    raised = {c.exc_type for c in generated(FIXTURE, "by_two") if c.kind == "raise"}
    assert "IndexError" in raised
