"""`hasattr`/`getattr` with a constant name: an instance's fields and its
class's methods and attributes, a builtin value's type. The engine
against the real code: replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "attributes_by_name.py"
NAMES = ["probe", "label_of", "maybe"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1), max_list=1, max_str=1))


def test_each_answer_is_the_real_one() -> None:
    assert {c.value for c in generated(FIXTURE, "probe")} == {1 + 2 + 8 + 32}
    assert {c.value for c in generated(FIXTURE, "maybe")} == {1, 7}
