"""Raising exception classes of the package (frontend/usererrors.py) and
`raise ... from`: keywords to a plain `__init__` evaluated and stored, the
message asserted only where CPython's is certain (not through `__str__`
or an `__init__` that rewrites it; a KeyError's is the repr of its
argument), and the paths through an `__init__` of the tested module
itself dropped. The engine against the real code: replay and enumeration."""

from __future__ import annotations

from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, missed_heap_paths, replay_mismatches

PACKAGE = Path(__file__).resolve().parent / "fixtures" / "structure" / "pkg_errors"
CHECKS = PACKAGE / "checks.py"
BOX = Bounds(ints=(-1, 0, 1, 2, 3, 4, 64), max_list=2)


@pytest.mark.parametrize("name", ["check_label", "first", "last"])
def test_replay(name: str) -> None:
    cases = generated(CHECKS, name)
    assert cases
    assert replay_mismatches(CHECKS, name, cases) == []


@pytest.mark.parametrize("name", ["first", "last"])
def test_enumeration(name: str) -> None:
    missed, runs = missed_heap_paths(CHECKS, name, generated(CHECKS, name), k=2, bounds=BOX)
    assert runs > 0 and missed == []


def test_messages_claimed_are_the_certain_ones() -> None:
    raised = {(c.exc_type, c.exc_message) for c in generated(CHECKS, "check_label") if c.kind == "raise"}
    assert ("Coded", "Label too long") in raised and ("Coded", "negative") in raised  # keywords stored only
    assert ("Shown", None) in raised  # str() is its __str__'s
    assert ("Missing", "'one'") in raised  # a KeyError's str() is the repr of its argument
    assert not any(t == "Prefixed" for t, _ in raised)  # its __init__ computes: not modelled, dropped
    assert not any(t == "Local" for t, _ in raised)  # its __init__ runs lines of the module: dropped
    assert {(c.exc_type, c.exc_message) for c in generated(CHECKS, "first") if c.kind == "raise"} \
        == {("KeyError", "'empty'")}
