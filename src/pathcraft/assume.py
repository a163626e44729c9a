"""`@assume(...)`: heap assumptions written next to the code they describe.

    from pathcraft.assume import assume

    @assume("acyclic(head)", "non-sharing(a, b)")
    def merge(a: Node, b: Node, head: Node | None) -> Node: ...

pathcraft reads the decorator from the source (it never runs your code);
at run time the decorator returns the function unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])


def assume(*assumptions: str) -> Callable[[F], F]:
    def mark(fn: F) -> F:
        fn.__pathcraft_assumptions__ = assumptions  # type: ignore[attr-defined]  # a marker attribute on any function
        return fn

    return mark
