"""Trace-guided search (paper 001, Def. 4): the trace argument as an input.

`TraceGuide` lets a predicate be entered only by the rules its place in
the pattern admits, so the search never leaves the traces the pattern
describes; a completed path is kept only when its whole trace is an
instance of the pattern (list lengths and repeated variables are checked
there). A complete feasible trace gives one test, an infeasible one none,
a partial one every instantiation within the termination criterion.

Where a frame sits in the trace is read off the stack: each frame becomes
the next child of the frame below it (its trace term is appended there
when it ends), so the pattern node of a frame is its parent's node's child
number `len(parent.children)`. Frames below the target's entry (invariant
and construction wrappers) are not guided. A generator's frame is resumed
by whichever loop walks it, so below one the place is not known in
advance: the guide does not prune there and the final check decides.

With a `LocalScope` (the all-local-paths and program-point criteria), the
pattern describes a *local* trace (strategies/tracegen.py): only children of
the function's own code take places in the pattern's lists, and whatever
other code does below its own frames is not guided.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from pathcraft.engine import generators
from pathcraft.engine.control import SearchControl, Verdict
from pathcraft.engine.state import Frame, State, SymbolicPath
from pathcraft.strategies.tracegen import LocalScope
from pathcraft.ir.nodes import Predicate, Rule
from pathcraft.ir.pattern import ANY, Pattern, admits, child_pattern, matches, pattern_of
from pathcraft.ir.trace import TraceTerm

if TYPE_CHECKING:
    from pathcraft.engine.engine import Engine


class TraceGuide(SearchControl):
    name = "trace-guide"

    def __init__(self, pattern: Pattern, root: str, scope: LocalScope | None = None) -> None:
        self.pattern = pattern
        self.root = root  # the target's entry predicate: where the pattern starts
        self.scope = scope
        self.tried = 0  # rules the pattern let through
        self.refused = 0  # rules it kept out

    def rules(self, state: State, pred: Predicate, rules: Sequence[Rule]) -> Sequence[Rule]:
        node = self._place_of_next(state, pred)
        if node is None:
            self.refused += len(rules)
            return ()
        if node is ANY:
            return rules
        kept = [rule for rule in rules if admits(node, pred.name, rule.index)]
        self.tried += len(kept)
        self.refused += len(rules) - len(kept)
        return kept

    def _place_of_next(self, state: State, pred: Predicate) -> Pattern | None:
        """The pattern node a frame of `pred` pushed now must match (ANY
        where the pattern says nothing; None where it allows no term)."""
        frames: list[Frame] = []
        node = state.stack
        while node is not None:
            frames.append(node.top)
            node = node.rest
        frames.reverse()  # from the bottom of the stack
        start = next((i for i, f in enumerate(frames) if f.pred.name == self.root), None)
        if start is None:  # the target has not been entered yet
            return self.pattern if pred.name == self.root else ANY
        place: Pattern | None = self.pattern
        for parent, child in zip(frames[start:], frames[start + 1:]):
            if generators.KEY in child.ext or generators.KEY in parent.ext:
                return ANY
            if self.scope is not None and not self.scope.keeps(child.pred.name):
                return ANY  # other code: not described by a local pattern
            assert place is not None
            place = child_pattern(place, self._places_taken(parent))
            if place is None or place is ANY:
                return place
        if self.scope is not None and not self.scope.keeps(pred.name):
            return ANY
        assert place is not None
        return child_pattern(place, self._places_taken(frames[-1]))

    def _places_taken(self, frame: Frame) -> int:
        """How many places of the frame's list its finished children took."""
        if self.scope is None:
            return len(frame.children)
        return sum(1 for c in frame.children if self.scope.keeps(c.predicate))

    def finished(self, path: SymbolicPath) -> Verdict:
        target = first_term(path.trace, self.root)
        if target is not None and self.scope is not None:
            target = self.scope.project(target)
        return Verdict.KEEP if target is not None and matches(self.pattern, target) else Verdict.DROP


def first_guided_path(engine: Engine, target: str, term: TraceTerm, scope: LocalScope) -> SymbolicPath | None:
    """The first path of `target` whose local trace is an instance of
    `term`: a sibling search guided by it, closed once it has answered."""
    base = engine.options
    guided = engine.sibling(replace(base, controls=base.controls + (TraceGuide(pattern_of(term), scope.entry,
                                                                              scope),)))
    paths = guided.explore(target)
    try:
        return next(paths, None)
    finally:
        paths.close()


def first_term(trace: TraceTerm, predicate: str) -> TraceTerm | None:
    """The first term of `predicate` in `trace` (pre-order): the target's own
    trace inside a wrapper's."""
    stack = [trace]
    while stack:
        term = stack.pop()
        if term.predicate == predicate:
            return term
        stack.extend(reversed(term.children))
    return None
