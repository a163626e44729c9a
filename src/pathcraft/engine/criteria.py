"""Termination criteria: what makes the symbolic execution tree finite.

* `loop-K`: each entry into a loop runs its body at most K times, and a
  function has at most K recursive activations under its first one;
* `block-K`: each block (predicate of user code) is entered at most K times
  on a path;
* `depth-K`: a derivation applies at most K rules.
A branch that a criterion cuts is pruned: it yields no test case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pathcraft.errors import PathcraftError


@dataclass(frozen=True)
class Criterion:
    kind: str
    k: int

    def __str__(self) -> str:
        return f"{self.kind}-{self.k}"

    def loop_ok(self, iterations: int) -> bool:
        return self.kind != "loop" or iterations <= self.k

    def recursion_ok(self, activations: int) -> bool:
        """`activations` counts the new one; the first one is free."""
        return self.kind != "loop" or activations <= self.k + 1

    def block_ok(self, visits: int) -> bool:
        return self.kind != "block" or visits <= self.k

    def depth_ok(self, steps: int) -> bool:
        return self.kind != "depth" or steps <= self.k


def parse_criterion(text: str) -> Criterion:
    match = re.fullmatch(r"(loop|block|depth)-(\d+)", text.strip())
    if not match:
        raise PathcraftError(
            f"bad criterion '{text}': expected loop-K, block-K or depth-K (K a whole number)"
        )
    return Criterion(match.group(1), int(match.group(2)))
