"""`isinstance` on a parameter annotated `object` or `Any` is decided at run
time: a caller of analysed code may pass any value (an Interval here),
whatever the tests of the callee itself pass. The engine against the real
code: replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "free_parameters.py"
NAMES = ["Interval.overlaps", "describe_interval", "Interval._check_operand"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(0, 1), max_objects=2))


def test_an_object_passed_on_is_an_instance() -> None:
    assert {c.value for c in generated(FIXTURE, "describe_interval")} == {"interval"}
    assert all(c.kind == "return" for c in generated(FIXTURE, "Interval.overlaps"))
