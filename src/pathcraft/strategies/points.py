"""Program points as a selection criterion (paper 001, §4.2, Def. 8):
`--cover 22,lcm.py:30,gcd` wants one test reaching each point, and as few
tests as that takes.

A point is a line of the tested module (`LINE` or `FILE:LINE`) or a
function of it (reached when it is called). Points are taken in order; a
path found for one also covers every other point it reaches. For a line of
the function under test, the trace generator is its local traces
(strategies/tracegen.py) that pass through a rule standing for that line (the
bottom-up slicing of Def. 8, read off the traces); each is tried with
first-solution semantics. A point elsewhere (a callee's line, a function)
is searched for by the standard search, stopping at the first path that
reaches it. A point no path reaches within the termination criterion is
reported as unreachable within the bound: a finding, not a failure.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pathcraft import budget as work
from pathcraft.strategies.base import TraceCounts
from pathcraft.strategies.guide import first_guided_path
from pathcraft.engine.state import SymbolicPath
from pathcraft.strategies.tracegen import LocalScope, LocalTraces
from pathcraft.errors import PathcraftError
from pathcraft.ir.nodes import Program
from pathcraft.ir.trace import Event, TraceTerm

if TYPE_CHECKING:
    from pathcraft.engine.engine import Engine


@dataclass(frozen=True)
class Point:
    """A line of the module, a function (reached when it is called), or a
    branch: a rule of a predicate of the function's own code (a choice
    point's outcome, as `--criterion branches` lists them)."""

    text: str  # as the user wrote it, or as the criterion names it
    line: int | None = None
    function: str | None = None
    rule: tuple[str, int] | None = None

    def reached_by(self, events: tuple[Event, ...], trace: TraceTerm) -> bool:
        if self.line is not None:
            return any(e[0] == "line" and e[2] == self.line for e in events if len(e) == 3)
        if self.rule is not None:
            return _has_rule(trace, self.rule)
        return ("call", self.function) in events


def _has_rule(trace: TraceTerm, rule: tuple[str, int]) -> bool:
    stack = [trace]
    while stack:
        term = stack.pop()
        if (term.predicate, term.rule) == rule:
            return True
        stack.extend(term.children)
    return False


def criterion_points(criterion: str, program: Program, qualname: str) -> tuple[Point, ...]:
    """Every statement line of the function (`statements`); for `branches`,
    also every rule of each of its own predicates that has more than one
    (each outcome of each decision, exception handlers' included): branch
    coverage includes statement coverage, as coverage.py counts it."""
    own = [p for p in program.predicates.values() if p.function == qualname]
    lines = sorted({n for p in own for n in (*p.marks, *(line for r in p.rules for line in r.lines))})
    statements = tuple(Point(str(n), line=n) for n in lines)
    if criterion == "statements":
        return statements
    decisions = [p for p in own if len(p.rules) > 1 and "$" not in p.name]  # not a comprehension's machinery
    return tuple(Point(f"{p.name}/{r.index}", rule=(p.name, r.index)) for p in decisions
                 for r in p.rules) + statements


def parse_points(text: str, program: Program) -> tuple[Point, ...]:
    """`22,lcm.py:30,gcd` as points of `program`'s module."""
    points: list[Point] = []
    module_file = Path(program.path)
    for item in (t.strip() for t in text.split(",")):
        if not item:
            continue
        file, colon, line = item.rpartition(":")
        if colon and line.isdigit():
            if Path(file).name != module_file.name and Path(file).resolve() != module_file.resolve():
                raise PathcraftError(f"--cover {item}: points are lines of {program.path}, not of {file}")
            item_line = int(line)
        elif item.isdigit():
            item_line = int(item)
        elif item in program.functions:
            points.append(Point(item, function=item))
            continue
        else:
            raise PathcraftError(f"--cover {item}: expected LINE, FILE:LINE or a function of {program.path}")
        if not any(item_line in r.lines or item_line in p.marks
                   for p in program.predicates.values() if not p.builtin for r in p.rules):
            raise PathcraftError(f"--cover {item}: line {item_line} of {program.path} holds no statement "
                                 "of the translated code")
        points.append(Point(item, line=item_line))
    if not points:
        raise PathcraftError("--cover: no program point given")
    return tuple(points)


def report(points: tuple[Point, ...], cases: list[Any]) -> dict[str, str | None]:
    """Each point: the name of the first test that reaches it, or None."""
    reached = [reached_by(points, c) for c in cases]
    return {p.text: next((c.name for c, found in zip(cases, reached) if p in found), None) for p in points}


def reached_by(points: tuple[Point, ...], case: Any) -> set[Point]:
    """The points a test case's path reaches."""
    from pathcraft.ir.pattern import read_trace

    trace = case.term if case.term is not None else read_trace(case.trace)
    return {p for p in points if p.reached_by(case.path, trace)}


def without_redundant(points: tuple[Point, ...], cases: list[Any]) -> list[Any]:
    """`cases` less those whose points the others all reach too, tried from
    the test reaching fewest points (the search keeps a path for any new
    point, so an early test may be subsumed by later ones)."""
    reached = [reached_by(points, c) for c in cases]
    kept = set(range(len(cases)))
    for i in sorted(kept, key=lambda j: (len(reached[j]), j)):
        others = set().union(*(reached[j] for j in kept if j != i))
        if reached[i] <= others:
            kept.discard(i)
    return [c for j, c in enumerate(cases) if j in kept]


def covering(engine: Engine, program: Program, qualname: str, target: str, points: tuple[Point, ...],
             k: int | None, counts: TraceCounts) -> Iterator[SymbolicPath]:
    """Paths that reach the points, one search per point still uncovered."""
    scope = LocalScope(program, qualname)
    own = {p.name for p in program.predicates.values() if p.function == qualname}
    counts.start()
    remaining = list(points)
    while remaining and engine.stats.stopped is None:
        point = remaining.pop(0)
        local = k is not None and (point.rule is not None or point.line is not None and any(
            point.line in r.lines or point.line in program.predicate(n).marks
            for n in own for r in program.predicate(n).rules))
        found = _by_traces(engine, program, target, scope, point, k, counts) if local and k is not None \
            else _by_search(engine, target, point)
        if found is _GAVE_WAY:
            counts.gave_way = (counts.gave_way or 0) + 1
            found = _by_search(engine, target, point)
        if found is not None:
            remaining = [p for p in remaining if not p.reached_by(found.events, found.trace)]
            yield found


def _visits(program: Program, trace: TraceTerm, point: Point) -> bool:
    if point.rule is not None:
        return _has_rule(trace, point.rule)
    line = point.line
    stack = [trace]
    while stack:
        term = stack.pop()
        pred = program.predicate(term.predicate)
        if line in pred.marks or line in pred.rules[term.rule - 1].lines:
            return True
        stack.extend(term.children)
    return False


# traces tried for one point before the standard search takes over (see
# local_paths.GIVE_WAY: the same trade, the same figure)
GIVE_WAY = 200
_GAVE_WAY: Any = object()


def _by_traces(engine: Engine, program: Program, target: str, scope: LocalScope, point: Point, k: int,
               counts: TraceCounts) -> SymbolicPath | None:
    """The first path of the first local trace through the point that has
    a path reaching it (or `_GAVE_WAY`, after `GIVE_WAY` traces without)."""
    tried = looked = 0
    for term in LocalTraces(program, program.predicate(scope.entry).function, k):
        if engine.stats.stopped is not None or out_of_time(engine):
            return None
        looked += 1
        if looked > 50 * GIVE_WAY:  # the generator's traces pass elsewhere: let the search look
            return _GAVE_WAY  # type: ignore[no-any-return]
        if not _visits(program, term, point):
            continue
        if tried >= GIVE_WAY:
            return _GAVE_WAY  # type: ignore[no-any-return]
        tried += 1
        counts.tried()
        first = first_guided_path(engine, target, term, scope)
        if first is not None and point.reached_by(first.events, first.trace):
            return first
        counts.failed()
    return None


def out_of_time(engine: Engine) -> bool:
    """Whether the run's budget is spent (then says so in the statistics):
    enumerating traces runs no search, so no search's control notices."""
    deadline = engine.options.deadline
    reason = work.current().reason()
    if reason is None and deadline is not None and time.monotonic() > deadline:
        reason = "time budget reached"
    if reason is not None:
        engine.stats.stopped = reason
        return True
    return False


def _by_search(engine: Engine, target: str, point: Point) -> SymbolicPath | None:
    paths = engine.sibling(engine.options).explore(target)
    try:
        for path in paths:
            if point.reached_by(path.events, path.trace):
                return path
        return None
    finally:
        paths.close()
