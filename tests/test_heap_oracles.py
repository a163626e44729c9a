"""Heap code against the real code: replay and enumeration over small
object graphs (aliasing, cycles and None included) and small lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from heap_enum import Bounds
from oracle import SHARED_EXAMPLES, generated, missed_heap_paths, replay_mismatches

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "linked.py"
OWN = [
    "SList.push_front", "SList.pop_front", "SList.find", "SList.insert_at", "SList.remove_first",
    "DList.append", "DList.unlink", "Stack.push", "Stack.pop", "Queue.enqueue", "Queue.dequeue",
    "BST.insert", "BST.contains", "BST.min_key", "length", "same_first", "sum_list", "swap_ends",
    "build", "firsts",
]
SHARED = [
    ("vector.py", "Vector.add"), ("vector.py", "Vector.realloc"), ("vector.py", "multiples"),
    ("arraypower.py", "arraypower"), ("arraypower.py", "power"), ("aliasing.py", "m"),
    ("rational.py", "R.simplify"), ("rational.py", "simp"),
]
needs_shared = pytest.mark.skipif(not SHARED_EXAMPLES.exists(), reason="../shared/examples missing")


@pytest.mark.parametrize("heap", ["lazy", "lazy-noalias"])
@pytest.mark.parametrize("name", OWN)
def test_replay_fixtures(name: str, heap: str) -> None:
    cases = generated(FIXTURE, name, "loop-2", heap=heap)
    assert cases
    assert replay_mismatches(FIXTURE, name, cases) == []


@needs_shared
@pytest.mark.parametrize("heap", ["lazy", "lazy-noalias"])
@pytest.mark.parametrize("target", SHARED, ids=lambda t: f"{t[0]}::{t[1]}")
def test_replay_shared_examples(target: tuple[str, str], heap: str) -> None:
    path = SHARED_EXAMPLES / target[0]
    cases = generated(path, target[1], "loop-2", heap=heap)
    assert cases
    assert replay_mismatches(path, target[1], cases) == []


SMALL = Bounds(ints=(-2, -1, 0, 1, 2), max_objects=3, max_list=3, max_object_list=2)
NARROW = Bounds(ints=(-1, 0, 1), max_objects=3, max_list=2, max_object_list=2)


@pytest.mark.parametrize("name", OWN)
def test_enumeration_fixtures(name: str) -> None:
    bounds = NARROW if name in ("SList.insert_at", "SList.remove_first", "DList.unlink") else SMALL
    cases = generated(FIXTURE, name, "loop-2")
    missed, count = missed_heap_paths(FIXTURE, name, cases, k=2, bounds=bounds)
    assert count > 0
    assert missed == []


@needs_shared
@pytest.mark.parametrize("target", SHARED, ids=lambda t: f"{t[0]}::{t[1]}")
def test_enumeration_shared_examples(target: tuple[str, str]) -> None:
    path = SHARED_EXAMPLES / target[0]
    cases = generated(path, target[1], "loop-2")
    missed, count = missed_heap_paths(path, target[1], cases, k=2, bounds=NARROW)
    assert count > 0
    assert missed == []


def test_heap_oracle_detects_a_missing_aliasing_path() -> None:
    """Without aliasing, `same_first(a, a)` (True) is never generated: the
    enumeration must notice."""
    cases = generated(FIXTURE, "same_first", "loop-2", heap="lazy-noalias")
    missed, _ = missed_heap_paths(FIXTURE, "same_first", cases, k=2, bounds=SMALL)
    assert missed == [] or all(m["inputs"]["a"] == m["inputs"]["b"] for m in missed)
