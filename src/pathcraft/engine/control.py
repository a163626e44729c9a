"""Search control: the hooks the engine consults at every choice point.

Termination criteria, resource bounds, and later guides and pruners are all
`SearchControl`s. The engine asks the stacked controls

* `rules`   which rules of a predicate may be tried (a guide may skip some);
* `enter`   whether a state may enter a predicate (criteria count loop
            iterations, visits, derivation depth here);
* `call`    whether a state may call a function (recursion, call depth);
* `charged` whether a state whose costs just grew may go on (upper bounds);
* `feasible` / `infeasible` what to do with a branch the solver kept or
            refuted (a pruner may drop a feasible one);
* `finished` what to do with a completed path: keep it, drop it, or keep it
            and stop the search;
* `searcher` which open state to take next (the first control offering a
            searcher wins; depth-first by default).

A hook returns the state to go on with (it may record its own data in
`state.ext`/`frame.ext`, immutable mappings keyed by the control's name) or
None to prune. `build_controls` stacks them from the options, the way KLEE
builds its searcher and CrossHair exposes its pathing-oracle hooks.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from enum import Enum

from pathcraft import budget as work
from pathcraft.engine.search import Searcher
from pathcraft.engine.state import Entry, State, SymbolicPath
from pathcraft.ir.nodes import Predicate, Rule
from pathcraft.solver.terms import Term


class Verdict(Enum):
    """What to do with a completed path."""

    KEEP = "keep"
    DROP = "drop"
    STOP = "stop"  # keep it, then end the search


class SearchControl:
    """A control that changes nothing; subclasses override the hooks they need."""

    name = "control"

    def rules(self, state: State, pred: Predicate, rules: Sequence[Rule]) -> Sequence[Rule]:
        return rules

    def enter(self, state: State, entry: Entry) -> State | None:
        return state

    def call(self, state: State, callee: Predicate) -> State | None:
        return state

    def charged(self, state: State) -> State | None:
        return state

    def feasible(self, state: State, condition: Term) -> State | None:
        return state

    def infeasible(self, state: State, condition: Term) -> None:
        return None

    def finished(self, path: SymbolicPath) -> Verdict:
        return Verdict.KEEP

    def searcher(self) -> Searcher[State | SymbolicPath] | None:
        return None

    def stop_reason(self) -> str | None:
        """Why the search should end now (checked between steps), if it should."""
        return None

    def for_concrete_runs(self) -> SearchControl | None:
        """What of this control a concrete run (Solve-First's, on a state's
        model values) should also obey, if anything: such a run's paths are
        offered to this control's `finished` by the main search."""
        return None


class ControlStack(SearchControl):
    """Controls applied in order; the first that prunes wins."""

    name = "stack"

    def __init__(self, controls: Sequence[SearchControl]) -> None:
        self.controls = tuple(controls)

        def overriding(hook: str) -> tuple[SearchControl, ...]:
            return tuple(c for c in self.controls if getattr(type(c), hook) is not getattr(SearchControl, hook))

        # the controls that override each hook (the engine calls them at every step)
        self._rules, self._enter, self._call = overriding("rules"), overriding("enter"), overriding("call")
        self._charged, self._feasible = overriding("charged"), overriding("feasible")

    def rules(self, state: State, pred: Predicate, rules: Sequence[Rule]) -> Sequence[Rule]:
        for control in self._rules:
            rules = control.rules(state, pred, rules)
        return rules

    @staticmethod
    def _thread(state: State, controls: tuple[SearchControl, ...],
                hook: Callable[[SearchControl, State], State | None]) -> State | None:
        """Pass the state through each control's hook; None as soon as one prunes."""
        current: State | None = state
        for control in controls:
            if current is None:
                return None
            current = hook(control, current)
        return current

    def enter(self, state: State, entry: Entry) -> State | None:
        return self._thread(state, self._enter, lambda control, s: control.enter(s, entry)) if self._enter else state

    def call(self, state: State, callee: Predicate) -> State | None:
        return self._thread(state, self._call, lambda control, s: control.call(s, callee)) if self._call else state

    def charged(self, state: State) -> State | None:
        return self._thread(state, self._charged, lambda control, s: control.charged(s)) if self._charged else state

    def feasible(self, state: State, condition: Term) -> State | None:
        return self._thread(state, self._feasible, lambda control, s: control.feasible(s, condition)) \
            if self._feasible else state

    def infeasible(self, state: State, condition: Term) -> None:
        for control in self.controls:
            control.infeasible(state, condition)

    def finished(self, path: SymbolicPath) -> Verdict:
        verdict = Verdict.KEEP
        for control in self.controls:
            answer = control.finished(path)
            if answer is Verdict.DROP:
                return Verdict.DROP
            if answer is Verdict.STOP:
                verdict = Verdict.STOP
        return verdict

    def searcher(self) -> Searcher[State | SymbolicPath] | None:
        for control in self.controls:
            found = control.searcher()
            if found is not None:
                return found
        return None

    def stop_reason(self) -> str | None:
        for control in self.controls:
            reason = control.stop_reason()
            if reason is not None:
                return reason
        return None


class PathLimit(SearchControl):
    """Stop after `limit` paths (`--max-paths`)."""

    name = "max-paths"

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.kept = 0
        self.reached = False

    def finished(self, path: SymbolicPath) -> Verdict:
        self.kept += 1
        if self.kept >= self.limit:
            self.reached = True
            return Verdict.STOP
        return Verdict.KEEP

    def stop_reason(self) -> str | None:
        return "path limit reached" if self.reached else None


class SolverWorkLimit(SearchControl):
    """Stop once `work()` (Z3's deterministic resource count) has grown by
    `budget` since the first question: a limit that, unlike a clock, stops
    a search at the same path on any machine."""

    name = "solver-work"

    def __init__(self, work: Callable[[], int], budget: int) -> None:
        self.work = work
        self.budget = budget
        self.start: int | None = None

    def stop_reason(self) -> str | None:
        spent = self.work()
        if self.start is None:
            self.start = spent
        return "solver budget reached" if spent - self.start > self.budget else None


class Deadline(SearchControl):
    """Stop when the function's budget is spent (budget.py: its work, or
    the clock's safety net) or the time budget `deadline` (a
    `time.monotonic()` value) has passed."""

    name = "deadline"

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.budget = work.current()

    def stop_reason(self) -> str | None:
        reason = self.budget.reason()
        if reason is not None:
            return reason
        return "time budget reached" if time.monotonic() > self.deadline else None
