"""Heap code against the real code: replay and enumeration over small
object graphs (aliasing, cycles and None included) and small lists."""

from __future__ import annotations

from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import SHARED_EXAMPLES, generated, missed_heap_paths, real_paths, replay_mismatches

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "linked.py"
PQ = Path(__file__).resolve().parent / "fixtures" / "pq.py"
PQ_METHODS = ["SortedPQ.insert", "SortedPQ.remove_min", "HeapPQ.insert", "HeapPQ.remove_min",
              "Tree.remove", "Tree.find"]
OWN = [
    "SList.push_front", "SList.pop_front", "SList.find", "SList.insert_at", "SList.remove_first",
    "DList.append", "DList.unlink", "Stack.push", "Stack.pop", "Queue.enqueue", "Queue.dequeue",
    "BST.insert", "BST.contains", "BST.min_key", "length", "same_first", "sum_list", "swap_ends",
    "build", "firsts", "count_to_cycle", "link_both", "Bag.put", "spread_of",
]
SHARED = [
    ("vector.py", "Vector.add"), ("vector.py", "Vector.realloc"), ("vector.py", "multiples"),
    ("arraypower.py", "arraypower"), ("arraypower.py", "power"), ("aliasing.py", "m"),
    ("rational.py", "R.simplify"), ("rational.py", "simp"),
]


MODELS = ["symbolic", "lazy", "lazy-noalias"]


@pytest.mark.parametrize("heap", MODELS)
@pytest.mark.parametrize("name", OWN)
def test_replay_fixtures(name: str, heap: str) -> None:
    cases = generated(FIXTURE, name, "loop-2", heap=heap)
    assert cases
    assert replay_mismatches(FIXTURE, name, cases) == []


@pytest.mark.parametrize("heap", MODELS)
@pytest.mark.parametrize("target", SHARED, ids=lambda t: f"{t[0]}::{t[1]}")
def test_replay_shared_examples(target: tuple[str, str], heap: str) -> None:
    path = SHARED_EXAMPLES / target[0]
    cases = generated(path, target[1], "loop-2", heap=heap)
    assert cases
    assert replay_mismatches(path, target[1], cases) == []


SMALL = Bounds(ints=(-2, -1, 0, 1, 2), max_objects=3, max_list=3, max_object_list=2)
NARROW = Bounds(ints=(-1, 0, 1), max_objects=3, max_list=2, max_object_list=2)


# Bag's fields are inferred from __init__ (no annotations), so the
# enumerator, which reads annotations, cannot build its inputs.
ENUMERABLE = [n for n in OWN if n != "Bag.put"]


@pytest.mark.parametrize("heap", ["symbolic", "lazy"])
@pytest.mark.parametrize("name", ENUMERABLE)
def test_enumeration_fixtures(name: str, heap: str) -> None:
    bounds = NARROW if name in ("SList.insert_at", "SList.remove_first", "DList.unlink") else SMALL
    cases = generated(FIXTURE, name, "loop-2", heap=heap)
    missed, count = missed_heap_paths(FIXTURE, name, cases, k=2, bounds=bounds)
    assert count > 0
    assert missed == []


@pytest.mark.parametrize("heap", ["symbolic", "lazy"])
@pytest.mark.parametrize("target", SHARED, ids=lambda t: f"{t[0]}::{t[1]}")
def test_enumeration_shared_examples(target: tuple[str, str], heap: str) -> None:
    path = SHARED_EXAMPLES / target[0]
    cases = generated(path, target[1], "loop-2", heap=heap)
    missed, count = missed_heap_paths(path, target[1], cases, k=2, bounds=NARROW)
    assert count > 0
    assert missed == []


def test_heap_oracle_detects_a_missing_aliasing_path() -> None:
    """Without aliasing, `same_first(a, a)` (True) is never generated: the
    enumeration must notice."""
    cases = generated(FIXTURE, "same_first", "loop-2", heap="lazy-noalias")
    missed, _ = missed_heap_paths(FIXTURE, "same_first", cases, k=2, bounds=SMALL)
    assert missed == [] or all(m["inputs"]["a"] == m["inputs"]["b"] for m in missed)


@pytest.mark.parametrize("name", OWN)
def test_symbolic_finds_the_paths_lazy_finds(name: str) -> None:
    """The heap solver loses no program path: the statement sequences the
    replayed tests take are the same set under `symbolic` and `lazy`."""
    symbolic = real_paths(FIXTURE, name, generated(FIXTURE, name, "loop-2", heap="symbolic"))
    lazy = real_paths(FIXTURE, name, generated(FIXTURE, name, "loop-2", heap="lazy"))
    assert symbolic == lazy


@pytest.mark.parametrize("target", SHARED, ids=lambda t: f"{t[0]}::{t[1]}")
def test_symbolic_finds_the_paths_lazy_finds_shared(target: tuple[str, str]) -> None:
    path = SHARED_EXAMPLES / target[0]
    symbolic = real_paths(path, target[1], generated(path, target[1], "loop-2", heap="symbolic"))
    lazy = real_paths(path, target[1], generated(path, target[1], "loop-2", heap="lazy"))
    assert symbolic == lazy


def test_aliasing_m_branches_only_at_its_if() -> None:
    """Paper 003, Fig. 2: with aliasing kept as constraints, `m` has the two
    paths of its `if x is z`, one with x and z the same object."""
    cases = generated(SHARED_EXAMPLES / "aliasing.py", "m", "loop-2", heap="symbolic")
    assert len(cases) == 2
    aliased = [c for c in cases if dict(c.inputs)["x"] == dict(c.inputs)["z"]]
    assert len(aliased) == 1


@pytest.mark.parametrize("heap", MODELS)
@pytest.mark.parametrize("name", PQ_METHODS)
def test_replay_priority_queues(name: str, heap: str) -> None:
    cases = generated(PQ, name, "loop-1", heap=heap)
    assert cases
    assert replay_mismatches(PQ, name, cases) == []


@pytest.mark.parametrize("name", PQ_METHODS)
def test_enumeration_priority_queues(name: str) -> None:
    cases = generated(PQ, name, "loop-1", heap="symbolic")
    missed, count = missed_heap_paths(PQ, name, cases, k=1, bounds=NARROW)
    assert count > 0
    assert missed == []


@pytest.mark.parametrize("name", PQ_METHODS)
def test_symbolic_finds_the_paths_lazy_finds_priority_queues(name: str) -> None:
    symbolic = real_paths(PQ, name, generated(PQ, name, "loop-1", heap="symbolic"))
    lazy = real_paths(PQ, name, generated(PQ, name, "loop-1", heap="lazy"))
    assert symbolic == lazy


def test_list_indices_do_not_branch_on_aliasing() -> None:
    """x[k] = -1; x[i] = 2; x[j] = 5; if x[k] > 0 -- whether k, i, j name the
    same element is left to the constraint store: the tree splits on each
    index's sign (Python's negative indices: 2 * 2 * 2 ways; the read x[k]
    repeats k's) and at the `if` (2), so 16 normal paths. Branching on
    k == i / k == j before the `if` would make it 8 * 3 = 24."""
    cases = generated(FIXTURE, "three_writes", "loop-2", heap="symbolic", exceptions=False)
    assert len(cases) == 16
    assert {c.value for c in cases} == {0, 1}
    assert replay_mismatches(FIXTURE, "three_writes", cases) == []
