"""`map(f, ...)` where f is an `operator` function, a builtin or a bound
method of a local's object (frontend/iterators.py `_applied`). The engine
against the real code: replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "map_functions.py"
NAMES = ["ordered", "negated", "filled", "picked", "summed", "distinct_sizes"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1), max_list=2))
