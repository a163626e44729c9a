"""`type(x).__name__` (and `x.__class__.__name__`) at run time. The engine
against the real code: replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "type_names.py"
NAMES = ["Cache.popitem", "describe", "flagged", "named_by_kind"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1), max_list=1, max_str=1))


def test_the_names_are_claimed() -> None:
    values = {c.value for c in generated(FIXTURE, "named_by_kind")}
    assert values == {"int", "NoneType"}
    assert {c.value for c in generated(FIXTURE, "flagged")} == {"bool:Inner"}
