"""`itertools.groupby` as a prelude generator (models/itertools/prelude.py)
stepping its source as CPython's C object does: the engine against the
real code (replay, and enumeration of small inputs)."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "groupby_values.py"
NAMES = ["run_length", "keys_only", "by_key", "stale", "justseen"]

test_replay, _ = oracle_tests(FIXTURE, NAMES, Bounds(ints=(0, 1), max_list=3))
# `justseen` returns a generator its tests drain: the drain's loop is bounded by loop-2 where the
# enumeration counts no loop of it (so for any returned generator), so it is replayed only
_, test_enumeration = oracle_tests(FIXTURE, NAMES[:-1], Bounds(ints=(0, 1), max_list=3))


def test_a_group_read_late_is_empty_but_the_last() -> None:
    """`list(groupby(xs))` moves past every group before any is read:
    each but the last gives nothing (the last still holds its first item)."""
    for case in generated(FIXTURE, "stale"):
        counts = case.value
        if isinstance(counts, dict) and "$ref" in counts:
            counts = case.heap_final[counts["$ref"]]["list"]
        assert all(n == 0 for n in counts[:-1])
