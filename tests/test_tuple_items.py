"""Tuples of any item types (strs, objects, tuples, `int | None`) as
parameters and fields, and fields that are None or a scalar (`bool |
None`, `str | None`): the engine against the real code, by replay of every
generated test and by enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "values" / "tuple_items.py"
FUNCTIONS = ["interval_start", "count_tag", "label", "release", "starts", "Version.dev_number",
             "Version.local_flag", "Version.name_length", "Counter.bump"]
BOX = Bounds(ints=tuple(range(-1, 2)), max_list=2, max_objects=2, max_str=1, alphabet="dv",
             unannotated=(("Bound", "at", int), ("Bound", "closed", bool), ("Version", "epoch", int),
                          ("Version", "dev", tuple[str, int] | None),
                          ("Version", "local", bool | None), ("Version", "name", str | None),
                          ("Counter", "last", int | None)))

test_replay, test_enumeration = oracle_tests(FIXTURE, FUNCTIONS, BOX, ("loop-2",))


def test_an_optional_scalar_field_is_none_in_some_test_and_a_value_in_another() -> None:
    assert {c.value for c in generated(FIXTURE, "Version.local_flag")} == {0, 1, 2}


def test_tuple_items_are_written_as_literals_of_their_types() -> None:
    keys = [dict(c.inputs)["key"] for c in generated(FIXTURE, "release")]
    assert all(isinstance(k, tuple) and isinstance(k[0], str) and isinstance(k[1], int) for k in keys)
    assert any(k[0] == "dev" for k in keys) and any(k[0] != "dev" for k in keys)
