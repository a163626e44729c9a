"""A range handed to a builtin that only walks it (frontend/builtincalls.py,
`_ranges_walked`): walked as the silent iterator `iter(range(...))`. The
engine against the real code: replay and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "range_values.py"
FUNCTIONS = ["distinct", "third", "paired", "numbered", "magnitudes", "descending", "any_nonzero"]
BOX = Bounds(ints=tuple(range(-2, 4)), max_list=2)

test_replay, test_enumeration = oracle_tests(FIXTURE, FUNCTIONS, BOX, ("loop-2",))
