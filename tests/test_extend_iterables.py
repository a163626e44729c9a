"""`list.extend`, `deque.extend`/`extendleft` and starred list items over
iterators and generators: they were claimed to raise TypeError (the model
took only sequences), a wrong claim on more_itertools' split_before. And
a silent `iter(xs)` after a generator expression of the user's in one
function took that one's line events away (`deque_sides`: one qualname).
The engine against the real code: replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "values" / "extend_iterables.py"
NAMES = ["extend_by_iterator", "extend_by_generator", "rest_after_first_true", "deque_sides"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1), max_list=2))
