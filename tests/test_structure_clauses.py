"""Comprehensions with several `for` clauses, checked against the real
code: replay of every generated test (outcome and events) and enumeration
of small inputs."""

from __future__ import annotations

from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, missed_heap_paths, replay_mismatches

CLAUSES = Path(__file__).resolve().parent / "fixtures" / "structure" / "clauses.py"
NAMES = ["pair_sums", "flatten", "cells_with", "products", "ordered_pairs"]
SMALL = Bounds(ints=tuple(range(-1, 3)), max_list=2, max_objects=2, max_object_list=2)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("criterion", ["loop-1", "loop-2"])
def test_replay(name: str, criterion: str) -> None:
    cases = generated(CLAUSES, name, criterion)
    assert cases
    assert replay_mismatches(CLAUSES, name, cases) == []


@pytest.mark.parametrize("name", NAMES)
def test_enumeration(name: str) -> None:
    cases = generated(CLAUSES, name, "loop-2")
    missed, runs = missed_heap_paths(CLAUSES, name, cases, k=2, bounds=SMALL)
    assert runs > 0
    assert missed == []
