"""`zip` of one to six sources, as loops, values and folds walk it: the
engine against the real code (replay, and enumeration of small inputs)."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "zip_sources.py"
NAMES = ["rising", "windows", "singles", "lanes", "agree"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(0, 1, 2), max_list=2, max_str=1,
                                                                     alphabet="a"))


def test_the_shortest_source_ends_the_walk() -> None:
    lengths = {min(len(v["list"]) for v in c.heap_in.values() if isinstance(v, dict) and "list" in v)
               for c in generated(FIXTURE, "rising")}
    assert {0, 1, 2} <= lengths
