"""Item coverage by the standard search, with the light pruning of paper 004
(OSMOSE): the objective is to cover items (statement lines, branch
outcomes), not paths, so a completed path is kept only when it covers an
item no earlier test covered, and the search ends once every item is.

Two heuristics cut the paths that cannot help:

* Look-Ahead (004 §3, `strategies/lookahead.py`): when a predicate is entered,
  a path that has covered nothing new and can reach no uncovered item is
  abandoned. Sound: the suite covers the same items as without it.
* Max-CallDepth (004 §4, unit-testing mode): a call more than N calls
  below the function under test runs for its first answer only (no
  backtracking into its choice points). It may lose coverage: the report
  says how many derivations it cut.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pathcraft.engine.control import SearchControl, Verdict
from pathcraft.strategies.lookahead import Reachability
from pathcraft.strategies.points import Point, criterion_points
from pathcraft.engine.state import Entry, EventNode, Stack, State, SymbolicPath
from pathcraft.ir.nodes import Program
from pathcraft.ir.trace import Event, TraceTerm

COMPLETE = "every item covered"
DEPTH_KEY = "items.depth"


def objective(program: Program, qualname: str, criterion: str, unit: bool) -> tuple[Point, ...]:
    """The items to cover: the function's own (`unit`, 004 §2's unit-testing
    mode), or also those of every function of the module it may call."""
    if unit:
        return criterion_points(criterion, program, qualname)
    functions = _reachable_functions(program, qualname)
    seen: set[tuple[int | None, tuple[str, int] | None]] = set()
    out: list[Point] = []
    for name in [qualname, *sorted(functions - {qualname})]:
        for point in criterion_points(criterion, program, name):
            key = (point.line, point.rule)
            if key not in seen:
                seen.add(key)
                out.append(point)
    return tuple(out)


def _reachable_functions(program: Program, qualname: str) -> set[str]:
    """The module's functions a run of `qualname` may enter (over-approximated
    as the look-ahead does: a dispatched call may run any method)."""
    reach = Reachability(program, ())
    entry = program.functions[qualname].entry
    seen, todo = {entry}, [entry]
    while todo:
        pred = program.predicate(todo.pop())
        for name in reach.successors(pred):
            if name not in seen:
                seen.add(name)
                todo.append(name)
    return {program.predicate(n).function for n in seen if not program.predicate(n).builtin
            and not program.predicate(n).foreign and program.predicate(n).function in program.functions}


class ItemCoverage(SearchControl):
    """Keeps the paths that cover new items; Look-Ahead and Max-CallDepth."""

    name = "items"

    def __init__(self, program: Program, items: Sequence[Point], *, look_ahead: bool = True,
                 max_call_depth: int | None = None, exceptions: bool = True,
                 max_tests: int | None = None) -> None:
        self.items = tuple(items)
        self.pending: set[Point] = set(items)
        self.reach = Reachability(program, items) if look_ahead else None
        self.max_call_depth = max_call_depth
        self.exceptions = exceptions
        self.max_tests = max_tests
        self.kept = 0
        self.completed = 0  # paths the search completed (kept or not)
        self.look_ahead_cut = 0  # paths Look-Ahead abandoned
        self.depth_cut = 0  # outcomes Max-CallDepth did not follow
        self._last: frozenset[Point] = frozenset()
        self._calls = 0  # Max-CallDepth: deep calls numbered as they are entered
        self._solved: set[int] = set()  # the deep calls one derivation returned from

    # ------------------------------------------------------------ look-ahead

    def enter(self, state: State, entry: Entry) -> State | None:
        if self.max_call_depth is not None:
            cut = self._call_depth(state, entry)
            if cut is None:
                return None
            state = cut
        looked = self.look_ahead(state, entry)
        if looked is None:
            self.look_ahead_cut += 1
        return looked

    def for_concrete_runs(self) -> SearchControl | None:
        return _LookAheadOnly(self) if self.reach is not None else None

    def look_ahead(self, state: State, entry: Entry) -> State | None:
        """`state`, unless it has covered nothing new and can reach no
        uncovered item from `entry` (then None)."""
        if self.reach is None or not self.pending:
            return state
        if self.reach.may_reach(self.pending, entry.pred, state.stack):
            return state
        claims = state.ext.get(self.name)
        if isinstance(claims, frozenset) and not claims.isdisjoint(self.pending):
            return state  # what the path already did is new: it goes on to its test
        done = self._prefix_items(state) & self.pending
        if done:
            return state.with_ext(self.name, frozenset(done))
        return None

    def _prefix_items(self, state: State) -> set[Point]:
        lines = _lines(state.events)
        rules: set[tuple[str, int]] = set()
        node = state.stack
        while node is not None:
            rules.add((node.top.pred.name, node.top.rule.index))
            rules |= _rules(node.top.children)
            node = node.rest
        return {p for p in self.pending if p.line in lines or p.rule in rules}

    # -------------------------------------------------------- max-call-depth

    def _call_depth(self, state: State, entry: Entry) -> State | None:
        """A call entered N + 1 calls below the function runs with
        first-solution semantics (Prolog's `once/1`): the first of its
        derivations to return goes on; every other one is cut, wherever it
        is (still inside the call, or returned after the first)."""
        assert self.max_call_depth is not None
        held = state.ext.get(DEPTH_KEY)
        if isinstance(held, tuple):
            call, base = held
            if call in self._solved:
                self.depth_cut += 1
                return None
            if _activations(state.stack) <= base:  # returned: this derivation is the call's answer
                self._solved.add(call)
                state = state.with_ext(DEPTH_KEY, None)
        if entry.pred.is_entry and not entry.via_tail and state.ext.get(DEPTH_KEY) is None:
            callers = _activations(state.stack)
            if callers == self.max_call_depth + 1:
                self._calls += 1
                state = state.with_ext(DEPTH_KEY, (self._calls, callers))
        return state

    # ------------------------------------------------------------- objective

    def finished(self, path: SymbolicPath) -> Verdict:
        self.completed += 1
        held = path.ext.get(DEPTH_KEY)
        if isinstance(held, tuple):
            if held[0] in self._solved:
                self.depth_cut += 1
                return Verdict.DROP  # a second answer of a call run for its first only
            self._solved.add(held[0])  # it returned, and the path ended with no entry since
        if path.outcome.kind == "raise" and not self.exceptions:
            return Verdict.DROP  # its test is not written: it covers nothing
        lines = {e[2] for e in path.events if len(e) == 3 and e[0] == "line"}
        rules = _rules((path.trace,))
        new = frozenset(p for p in self.pending if p.line in lines or p.rule in rules)
        if not new:
            return Verdict.DROP
        self.pending -= new
        self._last = new
        self.kept += 1
        return Verdict.KEEP

    def unclaim(self) -> None:
        """The last kept path gave no test after all (a value a test cannot
        state, a policy): its items are pending again."""
        self.pending |= self._last
        self._last = frozenset()
        self.kept -= 1

    def stop_reason(self) -> str | None:
        if not self.pending:
            return COMPLETE
        if self.max_tests is not None and self.kept >= self.max_tests:
            return "path limit reached"
        return None


class _LookAheadOnly(SearchControl):
    """Look-Ahead for Solve-First's concrete runs: a run that can reach
    nothing uncovered is not worth finishing (not counted as a cut)."""

    name = ItemCoverage.name  # reads and writes the same claims in `state.ext`

    def __init__(self, items: ItemCoverage) -> None:
        self.items = items

    def enter(self, state: State, entry: Entry) -> State | None:
        return self.items.look_ahead(state, entry)


def _activations(stack: Stack | None) -> int:
    count = 0
    while stack is not None:
        if not stack.top.via_tail:
            count += 1
        stack = stack.rest
    return count


def _lines(events: EventNode | None) -> set[int]:
    found: set[int] = set()
    while events is not None:
        event: Event = events.event
        if len(event) == 3 and event[0] == "line":
            found.add(event[2])
        events = events.prev
    return found


def _rules(terms: Iterable[TraceTerm]) -> set[tuple[str, int]]:
    found: set[tuple[str, int]] = set()
    stack = list(terms)
    while stack:
        term = stack.pop()
        found.add((term.predicate, term.rule))
        stack.extend(term.children)
    return found
