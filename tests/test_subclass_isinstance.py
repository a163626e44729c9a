"""`isinstance(self, Lower)` in a method of `Lower`'s base: `self` may be an
instance of the subclass (a caller passes one, dispatch gives one), so the
answer is asked at run time, not decided by the declared class (a wrong
claim on packaging's `_Bound.filter_key` before). The engine against the
real code: replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "subclass_isinstance.py"

test_replay, test_enumeration = oracle_tests(FIXTURE, ["start", "either", "Bound.key"], Bounds(ints=(0, 1)))
