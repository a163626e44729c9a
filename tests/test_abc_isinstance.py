"""`isinstance(x, Mapping)` and kin on a value the annotation does not fix
(engine/evaluate.py `_is_abc`): the engine against the real code
(replay, and enumeration of small inputs)."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "abc_isinstance.py"
NAMES = ["describe", "of_box", "Box.__eq__", "of_dict", "of_tuple", "of_walker"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(0, 1), max_list=1, max_dict=1, max_str=1,
                                                                     alphabet="a"))


def test_each_kind_of_value_gets_its_answer() -> None:
    assert {c.value for c in generated(FIXTURE, "of_dict")} == {"mapping"}
    assert {c.value for c in generated(FIXTURE, "of_tuple")} == {"sequence"}
    assert {c.value for c in generated(FIXTURE, "of_walker")} == {"iterable"}
