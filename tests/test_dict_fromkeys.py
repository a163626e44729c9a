"""`dict.fromkeys(keys[, value])`: the keys in order, each once, every one
holding the one value (None when left out). The engine against the real
code: replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "dict_fromkeys.py"
NAMES = ["letters", "unique", "shared", "unhashable"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(0, 1), max_list=3, max_str=3,
                                                                     alphabet="ab"))


def test_the_value_is_one_object_for_every_key() -> None:
    """`box.append(1)` after the call shows in each key's value: the
    total is the number of distinct keys."""
    cases = [c for c in generated(FIXTURE, "shared") if c.kind == "return"]
    assert any(c.value > 0 for c in cases)
    for case in cases:
        keys = case.heap_in[dict(case.inputs)["keys"]["$ref"]]["list"]
        assert case.value == (len(set(keys)) if keys else -1), (keys, case.value)


def test_a_list_as_a_key_raises_type_error() -> None:
    raised = {c.exc_type for c in generated(FIXTURE, "unhashable") if c.kind == "raise"}
    assert raised == {"TypeError"}
