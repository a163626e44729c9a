"""`getattr(x, "name", d)` where `d` is a display (`()`, `[]`) or a
negated constant is `x.name if hasattr(x, "name") else d`; `tuple(a) +
tuple(b)` is a tuple concatenation. The engine against the real code:
replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "getattr_defaults.py"

test_replay, test_enumeration = oracle_tests(FIXTURE, ["Spec.names", "Spec.options", "Spec.mode"],
                                             Bounds(ints=(-1, 0, 1), max_list=2, max_str=1, alphabet="a",
                                                    unannotated=(("Spec", "args", list[str]),)))
