"""One search split below trace prefixes, for several workers (paper 000
§4: generation is a union of independent executions, so it parallelizes).

A path is named by its choices (`SymbolicPath.choices`: the rule, heap
outcome or input shape taken at each fork), and a depth-first search finds
paths in the order of their choices. So a search splits at depth D:

* the *frontier* search (`Frontier(D)`) keeps the paths with at most D
  choices and cuts every state that has made D choices and forks again,
  noting its first D choices: the prefixes;
* one search per prefix (`BelowPrefix(prefix)`) takes that prefix's
  choices at its first D forks and keeps the paths below it.

Their paths together are the whole search's, none twice, and sorted by
choices they are in the whole search's order. Only the prefix (a tuple of
ints) crosses to the worker that runs it.
"""

from __future__ import annotations

from collections.abc import Sequence

from pathcraft.engine.control import SearchControl, Verdict
from pathcraft.engine.state import ChoiceNode, Entry, State, SymbolicPath
from pathcraft.ir.nodes import Predicate, Rule


class _Depths:
    """Each choice node's depth, and whether its choices agree with a
    prefix (as far as both go); worked out once per node, from its parent's
    answer, so that a check costs a dict lookup, not a walk to the root."""

    def __init__(self, prefix: Sequence[int] = ()) -> None:
        self.prefix = tuple(prefix)
        self._known: dict[int, tuple[ChoiceNode, int, bool]] = {}  # id -> (node, depth, agrees)

    def of(self, node: ChoiceNode | None) -> tuple[int, bool]:
        if node is None:
            return 0, True
        walk: list[ChoiceNode] = []
        current: ChoiceNode | None = node
        depth, agrees = 0, True
        while current is not None:
            known = self._known.get(id(current))
            if known is not None and known[0] is current:
                depth, agrees = known[1], known[2]
                break
            walk.append(current)
            current = current.prev
        for step in reversed(walk):
            depth += 1
            agrees = agrees and (depth > len(self.prefix) or step.index == self.prefix[depth - 1])
            self._known[id(step)] = (step, depth, agrees)
        return depth, agrees


class Frontier(SearchControl):
    """The search down to `depth` choices; `prefixes` are where it stopped."""

    name = "frontier"

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.prefixes: dict[tuple[int, ...], None] = {}  # in the order found, which is choice order
        self._depths = _Depths()

    def _cut(self, state: State) -> bool:
        """Has `state` gone `depth` choices down? Then its prefix is noted."""
        if state.choices is None or self._depths.of(state.choices)[0] < self.depth:
            return False
        self.prefixes.setdefault(state.choices.sequence()[:self.depth], None)
        return True

    def rules(self, state: State, pred: Predicate, rules: Sequence[Rule]) -> Sequence[Rule]:
        return () if len(pred.rules) > 1 and self._cut(state) else rules

    def enter(self, state: State, entry: Entry) -> State | None:
        # past the depth by a fork of another kind (heap, shape): below a prefix too
        return None if self._depths.of(state.choices)[0] > self.depth and self._cut(state) else state

    def finished(self, path: SymbolicPath) -> Verdict:
        if len(path.choices) > self.depth:
            self.prefixes.setdefault(tuple(path.choices[:self.depth]), None)
            return Verdict.DROP
        return Verdict.KEEP


class BelowPrefix(SearchControl):
    """The search below one prefix: the paths whose first choices are it."""

    name = "below-prefix"

    def __init__(self, prefix: Sequence[int]) -> None:
        self.prefix = tuple(prefix)
        self._depths = _Depths(prefix)

    def rules(self, state: State, pred: Predicate, rules: Sequence[Rule]) -> Sequence[Rule]:
        if len(pred.rules) > 1:
            depth = self._depths.of(state.choices)[0]
            if depth < len(self.prefix):
                return [rule for rule in rules if rule.index == self.prefix[depth]]
        return rules

    def enter(self, state: State, entry: Entry) -> State | None:
        # a fork of another kind (heap, shape) that left the prefix: pruned at the next entry
        return state if self._depths.of(state.choices)[1] else None

    def finished(self, path: SymbolicPath) -> Verdict:
        choices = tuple(path.choices)
        if len(choices) > len(self.prefix) and choices[:len(self.prefix)] == self.prefix:
            return Verdict.KEEP
        return Verdict.DROP
