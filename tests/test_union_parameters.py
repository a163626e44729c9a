"""Union parameters: `x: int | str`, `list[int] | int`, `Optional[Union[Node,
int]]`: each member's values, `isinstance` and operators decided by the
value at run time. The engine against the real code: replay, and
enumeration of every small input of every member."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "union_parameters.py"
NAMES = ["describe", "size", "weight", "both", "joined", "added"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1), max_list=2, max_str=1,
                                                                     alphabet="ab"))


def test_every_member_gets_inputs() -> None:
    kinds = {type(dict(c.inputs)["x"]).__name__ for c in generated(FIXTURE, "describe")}
    assert kinds == {"int", "str"}
    weights = {type(dict(c.inputs)["n"]).__name__ for c in generated(FIXTURE, "weight")}
    assert weights == {"NoneType", "dict", "int"}  # None, an object (by reference), an int
