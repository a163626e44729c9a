"""`(y := e)`: e's value, assigned to y, in `if`/`while` tests and inside
larger expressions. The engine against the real code: replay, and
enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "assignment_expressions.py"
NAMES = ["first_big", "twice", "drain"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1, 2, 3), max_list=2))


def test_one_inside_a_comprehension_is_refused() -> None:
    """PEP 572 binds it in the enclosing function, which the comprehension's own frame does not see here."""
    assert ":=" in str(translate(str(FIXTURE), ["in_comprehension"]).errors["in_comprehension"])
