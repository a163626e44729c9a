"""`@assume(...)`: heap assumptions written next to the code they describe.

    from pathcraft.assume import assume

    @assume("acyclic(head)", "non-sharing(a, b)")
    def merge(a: Node, b: Node, head: Node | None) -> Node: ...

    class Stack:
        @invariant
        def ok(self) -> bool:
            return 0 <= self.size <= len(self.items)

pathcraft reads the decorators from the source (it never runs your code);
at run time they return the function unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])


def invariant(method: F) -> F:
    """Mark `def ok(self) -> bool` as the class's invariant: assumed of
    `self` when a method of the class is tested, checked when it returns."""
    method.__pathcraft_invariant__ = True  # type: ignore[attr-defined]  # a marker attribute on any function
    return method


def summary_of(function: str) -> Callable[[F], F]:
    """Mark a model as the native summary of the library function
    `function` ("module.name"), for a file given with --native-summaries
    (see pathcraft/frontend/natives.py)."""
    def mark(fn: F) -> F:
        fn.__pathcraft_summary_of__ = function  # type: ignore[attr-defined]  # a marker attribute on any function
        return fn

    return mark


def assume(*assumptions: str) -> Callable[[F], F]:
    def mark(fn: F) -> F:
        fn.__pathcraft_assumptions__ = assumptions  # type: ignore[attr-defined]  # a marker attribute on any function
        return fn

    return mark
