"""Termination criteria: what makes the symbolic execution tree finite.

* `loop-K`: each entry into a loop runs its body at most K times, and a
  function has at most K recursive activations under its first one;
* `block-K`: each block (predicate of user code) is entered at most K times
  on a path;
* `depth-K`: a derivation applies at most K rules;
* `calls-K`: at most K calls of the module's functions are active at once
  (the call depth; the function under test is the first).

Criteria combine: `loop-2,calls-4` applies both. Each is a `SearchControl`;
a branch a criterion cuts is pruned and yields no test case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pathcraft.engine.control import SearchControl
from pathcraft.engine.state import Entry, State
from pathcraft.errors import PathcraftError
from pathcraft.ir.nodes import Predicate

KINDS = ("loop", "block", "depth", "calls")


@dataclass(frozen=True)
class Criterion:
    """One criterion as written: `loop-2`."""

    kind: str
    k: int

    def __str__(self) -> str:
        return f"{self.kind}-{self.k}"

    def controls(self) -> list[SearchControl]:
        return [_CONTROLS[self.kind](self.k)]


@dataclass(frozen=True)
class Criteria:
    """Several criteria at once: `loop-2,calls-4`."""

    parts: tuple[Criterion, ...]

    def __str__(self) -> str:
        return ",".join(str(p) for p in self.parts)

    def controls(self) -> list[SearchControl]:
        return [c for part in self.parts for c in part.controls()]


CriterionSpec = Criterion | Criteria


class LoopBound(SearchControl):
    name = "loop"

    def __init__(self, k: int) -> None:
        self.k = k

    def enter(self, state: State, entry: Entry) -> State | None:
        if entry.pred.iterates is not None and entry.loops[entry.pred.iterates] > self.k:
            return None
        return state

    def call(self, state: State, callee: Predicate) -> State | None:
        """At most K activations under the first one (the new one counted)."""
        activations = 1
        node = state.stack
        while node is not None:
            frame = node.top
            if frame.pred.function == callee.function and frame.pred.is_entry and not frame.via_tail:
                activations += 1
            node = node.rest
        return state if activations <= self.k + 1 else None


class BlockBound(SearchControl):
    """Counts visits per block in `state.ext["block"]`."""

    name = "block"

    def __init__(self, k: int) -> None:
        self.k = k

    def enter(self, state: State, entry: Entry) -> State | None:
        if entry.pred.builtin:
            return state
        known = state.ext.get(self.name)
        visits: dict[str, int] = dict(known) if isinstance(known, dict) else {}
        count = visits.get(entry.pred.name, 0) + 1
        if count > self.k:
            return None
        visits[entry.pred.name] = count
        return state.with_ext(self.name, visits)


class DepthBound(SearchControl):
    name = "depth"

    def __init__(self, k: int) -> None:
        self.k = k

    def enter(self, state: State, entry: Entry) -> State | None:
        return state if state.steps <= self.k else None


class CallDepthBound(SearchControl):
    name = "calls"

    def __init__(self, k: int) -> None:
        self.k = k

    def call(self, state: State, callee: Predicate) -> State | None:
        depth = 1  # the callee, then every active call below it
        node = state.stack
        while node is not None:
            frame = node.top
            if frame.pred.is_entry and not frame.via_tail and not frame.pred.builtin:
                depth += 1
            node = node.rest
        return state if depth <= self.k else None


_CONTROLS: dict[str, type[LoopBound] | type[BlockBound] | type[DepthBound] | type[CallDepthBound]] = {
    "loop": LoopBound, "block": BlockBound, "depth": DepthBound, "calls": CallDepthBound,
}


def parse_criterion(text: str) -> CriterionSpec:
    parts: list[Criterion] = []
    for item in text.split(","):
        match = re.fullmatch(r"(loop|block|depth|calls)-(\d+)", item.strip())
        if not match:
            raise PathcraftError(
                f"bad criterion '{text}': expected loop-K, block-K, depth-K or calls-K (K a whole number), "
                "or several joined by commas"
            )
        parts.append(Criterion(match.group(1), int(match.group(2))))
    return parts[0] if len(parts) == 1 else Criteria(tuple(parts))
