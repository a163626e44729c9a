"""The all-local-paths selection criterion run as guided generation
(paper 001, Def. 5): each local trace the generator gives
(strategies/tracegen.py) is tried in turn, and the first path that follows
it (the leftmost branch of the guided tree) is the test; a trace with none
is infeasible."""

from __future__ import annotations

from collections.abc import Iterator

from pathcraft.engine.state import SymbolicPath
from pathcraft.ir.trace import TraceTerm
from pathcraft.strategies.base import Job, Outcome, RunOptions, Sink, TraceCounts, loop_bound
from pathcraft.strategies.guide import first_guided_path, first_term
from pathcraft.strategies.points import out_of_time
from pathcraft.strategies.tracegen import LocalScope, LocalTraces

# the guided scheme gives way to the standard search filtered by local trace
# (the same tests: the first path of each local trace) once this many traces
# were infeasible, nine in ten of those tried: a trace generator that knows
# nothing of the data (nested loops over a computed bound) can produce
# thousands of traces for a handful of paths
GIVE_WAY = 200


class LocalPaths:
    """`local-paths`: --criterion all-local-paths."""

    name = "local-paths"

    def applies(self, options: RunOptions) -> bool:
        return options.select is not None

    def run(self, job: Job, sink: Sink) -> Outcome:
        counts = TraceCounts()
        sink.take(job.engine, _guided(job, counts), stream=False)
        return Outcome(job.engine, traces=counts)


def _guided(job: Job, counts: TraceCounts) -> Iterator[SymbolicPath]:
    """The paths of the guided scheme; `counts` gets GT/UT: traces
    generated, and those that were infeasible."""
    engine, program, qualname, target = job.engine, job.program, job.qualname, job.target
    k = loop_bound(engine.options.criterion)
    scope = LocalScope(program, qualname)
    base = engine.options
    counts.start()
    found: set[TraceTerm] = set()
    for term in LocalTraces(program, qualname, k, job.options.refine):
        if engine.stats.stopped is not None or out_of_time(engine):
            return
        generated, infeasible = counts.generated or 0, counts.infeasible or 0
        if infeasible >= GIVE_WAY and infeasible * 10 >= generated * 9:
            counts.gave_way_after = generated
            break
        counts.tried()
        first = first_guided_path(engine, target, term, scope)
        if first is None:
            counts.failed()
        else:
            found.add(term)
            yield first
    else:
        return
    # the rest by the standard search: the first path of each local trace not found yet
    for path in engine.sibling(base).explore(target):
        local = scope.project(target_term(path.trace, scope.entry))
        if local not in found:
            found.add(local)
            yield path


def target_term(trace: TraceTerm, entry: str) -> TraceTerm:
    """The target's own trace term inside a wrapper's (pre-order first)."""
    return first_term(trace, entry) or trace
