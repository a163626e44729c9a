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
from pathcraft.engine.state import ChoiceNode, State, SymbolicPath
from pathcraft.ir.nodes import Predicate, Rule


def _depth(node: ChoiceNode | None) -> int:
    depth = 0
    while node is not None:
        depth += 1
        node = node.prev
    return depth


class Frontier(SearchControl):
    """The search down to `depth` choices; `prefixes` are where it stopped."""

    name = "frontier"

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.prefixes: dict[tuple[int, ...], None] = {}  # in the order found, which is choice order

    def rules(self, state: State, pred: Predicate, rules: Sequence[Rule]) -> Sequence[Rule]:
        if len(pred.rules) > 1 and state.choices is not None and _depth(state.choices) >= self.depth:
            self.prefixes.setdefault(state.choices.sequence()[:self.depth], None)
            return ()
        return rules

    def finished(self, path: SymbolicPath) -> Verdict:
        if len(path.choices) > self.depth:  # past the depth by a fork of another kind (heap, shape)
            self.prefixes.setdefault(tuple(path.choices[:self.depth]), None)
            return Verdict.DROP
        return Verdict.KEEP


class BelowPrefix(SearchControl):
    """The search below one prefix: the paths whose first choices are it."""

    name = "below-prefix"

    def __init__(self, prefix: Sequence[int]) -> None:
        self.prefix = tuple(prefix)

    def rules(self, state: State, pred: Predicate, rules: Sequence[Rule]) -> Sequence[Rule]:
        if len(pred.rules) > 1:
            depth = _depth(state.choices)
            if depth < len(self.prefix):
                return [rule for rule in rules if rule.index == self.prefix[depth]]
        return rules

    def finished(self, path: SymbolicPath) -> Verdict:
        # forks of other kinds (heap, shape) are not steered: their other branches end here
        choices = tuple(path.choices)
        if len(choices) > len(self.prefix) and choices[:len(self.prefix)] == self.prefix:
            return Verdict.KEEP
        return Verdict.DROP
