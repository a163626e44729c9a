"""`sum`/`min`/`max` over dicts, views, sets and objects: walked into a
list first (frontend/builtins.py `_fold`). The engine against the real
code: replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "values" / "folds.py"
NAMES = ["top_key", "spread", "smallest_of", "heaviest"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1, 2), max_list=2, max_dict=2))
