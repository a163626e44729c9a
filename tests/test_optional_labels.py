"""A wrong claim on TheAlgorithms' red-black tree: `search` was said to
return None on a tree whose right child is itself (Python recurses
forever), because a `label: int | None` field read lazily was not tied to
the same field of a cell the symbolic heap may make the same object. The
engine against the real code: replay, and enumeration of small object
graphs (aliasing and cycles included)."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "optional_labels.py"
NAMES = ["Tree.search", "Tree.same_label"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1), max_objects=2))
