"""`sorted`/`min`/`max`/`list.sort` with `key=`: the key function's frames
(a lambda is `f.<locals>.<lambda>`) once per item in CPython's order, then
a stable sort or the first least (greatest) key. Checked against the real
code: replay of every generated test and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

KEYED = Path(__file__).resolve().parent / "fixtures" / "structure" / "keyed.py"
NAMES = ["by_second", "by_distance", "closest", "heaviest", "sort_in_place", "by_magnitude", "by_order",
         "longest_first"]
SMALL = Bounds(ints=tuple(range(-2, 3)), max_list=3)


test_replay, test_enumeration = oracle_tests(KEYED, NAMES, SMALL)


def test_a_lambda_runs_as_its_own_frame_once_per_item() -> None:
    cases = generated(KEYED, "closest", "loop-2")
    for case in cases:
        items = case.heap_in["xs"]["list"]
        calls = [e for e in case.path if e == ("call", "closest.<locals>.<lambda>")]
        assert len(calls) == len(items)
