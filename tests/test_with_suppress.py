"""`with suppress(E)` as the `try` it equals, with CPython's line events
at the `with` line on entry and at `__exit__` (frontend/stmt_with.py).
The engine against the real code: replay (path included) and every
small input's path."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "with_suppress.py"
NAMES = ["first", "second", "nexted", "loop", "other"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1, 2), max_list=3))


def test_a_manager_the_model_cannot_build_is_refused_where_it_stands() -> None:
    error = translate(str(FIXTURE), ["refused"]).errors["refused"]
    assert "call of builtin 'open'" in str(error)  # the manager itself (objects: tests/test_managers.py)
    assert error.location is not None and error.location.line == 50
