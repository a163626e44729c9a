"""`del xs[a:b]` (frontend/stmt_assign.py, the list prelude's
`__delslice__`): the engine against the real code, by replay and by
enumeration of small inputs; on a tuple the path is dropped."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "del_slices.py"
FUNCTIONS = ["trim", "clear", "cut"]
BOX = Bounds(ints=tuple(range(-3, 4)), max_list=3)

test_replay, test_enumeration = oracle_tests(FIXTURE, FUNCTIONS, BOX, ("loop-2",))


def test_a_tuple_is_never_claimed_to_lose_items() -> None:
    assert generated(FIXTURE, "bad") == []
