"""Generator expressions as generator objects (a generator function
`f.<locals>.<genexpr>` of their own, resumed per item), checked against
the real code: replay of every generated test (outcome and events) and
enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

OBJECTS = Path(__file__).resolve().parent / "fixtures" / "structure" / "genexpr_objects.py"
NAMES = ["all_zero", "total_pairs", "backwards_text", "first_three", "as_tuple", "above_one"]
SMALL = Bounds(ints=tuple(range(-1, 3)), max_list=2, max_object_list=2)


test_replay, test_enumeration = oracle_tests(OBJECTS, NAMES, SMALL)
