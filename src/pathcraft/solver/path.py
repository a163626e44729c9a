"""Persistent path constraints: a linked list shared by sibling states.

A choice point forks a state; both children share the constraints gathered
so far and each adds its own guard, so a node is never copied. The node also
keeps the bounds the interval layer has learnt, so those are never recomputed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pathcraft.solver.intervals import EMPTY_BOUNDS, Bounds, learn
from pathcraft.solver.terms import Term


@dataclass(frozen=True, eq=False, slots=True)
class PathNode:
    constraint: Term
    parent: PathNode | None
    depth: int
    bounds: Bounds
    origin: str = "program"  # "program" (a guard) or "heap" (the heap model's bookkeeping)


def extend(path: PathNode | None, constraint: Term, origin: str = "program") -> PathNode:
    depth = 1 if path is None else path.depth + 1
    bounds = EMPTY_BOUNDS if path is None else path.bounds
    return PathNode(constraint, path, depth, learn(bounds, constraint), origin)


def program_constraints(path: PathNode | None) -> list[Term]:
    """The constraints that come from the program's own branches."""
    return [n.constraint for n in nodes(path) if n.origin == "program"]


def nodes(path: PathNode | None) -> list[PathNode]:
    """Oldest first."""
    out: list[PathNode] = []
    while path is not None:
        out.append(path)
        path = path.parent
    out.reverse()
    return out


def constraints(path: PathNode | None) -> list[Term]:
    return [n.constraint for n in nodes(path)]


def iter_newest_first(path: PathNode | None) -> Iterator[Term]:
    while path is not None:
        yield path.constraint
        path = path.parent


def bounds_of(path: PathNode | None) -> Bounds:
    return EMPTY_BOUNDS if path is None else path.bounds
