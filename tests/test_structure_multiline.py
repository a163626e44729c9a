"""Calls inside statements, comprehensions and generator expressions that
span several lines, checked against the real code: after a call returns
to an instruction of another physical line, CPython reports the
statement's line again (read off the compiled code, frontend/linetable.py),
so every generated test must claim exactly the events the real run has."""

from __future__ import annotations

from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, missed_heap_paths, replay_mismatches

from pathcraft.frontend.linetable import lines_after_calls

MULTILINE = Path(__file__).resolve().parent / "fixtures" / "structure" / "multiline_calls.py"
NAMES = ["bumped_sum", "bumped_list", "bumped_map", "any_halves", "split_call", "guarded", "tail_call",
         "Meter.spread"]
SMALL = Bounds(ints=tuple(range(-1, 4)), max_list=3, max_objects=2)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("criterion", ["loop-1", "loop-2"])
def test_replay(name: str, criterion: str) -> None:
    cases = generated(MULTILINE, name, criterion)
    assert cases
    assert replay_mismatches(MULTILINE, name, cases) == []


@pytest.mark.parametrize("name", NAMES)
def test_enumeration(name: str) -> None:
    cases = generated(MULTILINE, name, "loop-2")
    missed, runs = missed_heap_paths(MULTILINE, name, cases, k=2, bounds=SMALL)
    assert runs > 0
    assert missed == []


def test_some_calls_of_the_fixture_return_to_another_line() -> None:
    """The fixture exercises the case (on every Python the suite runs)."""
    assert lines_after_calls(str(MULTILINE))
