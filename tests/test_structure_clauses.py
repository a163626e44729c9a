"""Comprehensions with several `for` clauses, checked against the real
code: replay of every generated test (outcome and events) and enumeration
of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

CLAUSES = Path(__file__).resolve().parent / "fixtures" / "structure" / "clauses.py"
NAMES = ["pair_sums", "flatten", "cells_with", "products", "ordered_pairs"]
SMALL = Bounds(ints=tuple(range(-1, 3)), max_list=2, max_objects=2, max_object_list=2)


test_replay, test_enumeration = oracle_tests(CLAUSES, NAMES, SMALL)
