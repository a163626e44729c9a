"""The standard search: every path within the criterion (resource-aware
with policies), then the post-passes that add tests beyond it: long probes
(strategies/probes.py, strategies/deeper.py) and edge tests
(strategies/edgetests.py). The post-passes follow the plain search only
(free objects, no --trace, no policies): their tests are chosen by what the
search's tests leave out."""

from __future__ import annotations

from dataclasses import replace

from pathcraft.engine.control import SolverWorkLimit
from pathcraft.engine.engine import Engine
from pathcraft.engine.state import EngineStats
from pathcraft.strategies import deeper, probes
from pathcraft.strategies.base import Candidate, Job, Outcome, RunOptions, Sink, has_loop_bound, loop_bound
from pathcraft.strategies.edgetests import edge_tests

# the loop bound of a probe's run (strategies/probes.py): its inputs' size bounds it first
PROBE_LOOPS = 32


class AllPaths:
    """`all-paths`: what runs when the options ask for nothing else."""

    name = "all-paths"

    def applies(self, options: RunOptions) -> bool:
        return True

    def run(self, job: Job, sink: Sink) -> Outcome:
        engine, options = job.engine, job.options
        plain = not job.constructed and options.trace is None and not options.policies
        probing = plain and has_loop_bound(engine.options.criterion)
        sink.take(engine, engine.explore(job.target), stream=job.in_order)
        probe_tests = edges = None
        if probing and options.long_probes and not engine.stats.stopped:
            info = job.program.functions[job.qualname]
            if probes.seeds(info, loop_bound(engine.options.criterion)):
                probe_tests = long_probes(job, sink)
            elif engine.stats.pruned:  # no input to probe with (objects): a search one loop deeper
                probe_tests = deeper_tests(job, sink)
        if plain and options.edge_tests and not engine.stats.stopped:
            edges = edge_tests(job.program.functions[job.qualname], job.models, sink.written, sink.covered,
                               options.edge_tests, sink.write)
        return Outcome(engine, probe_tests=probe_tests, edge_tests=edges)


def long_probes(job: Job, sink: Sink) -> int:
    """Long probes (strategies/probes.py) after the all-paths search: each
    path no test took (`sink.taken`, by choices), or the other bool answer
    of a path whose tests assert one (`sink.told`), is written, up to
    `--long-probes`. The number of tests written."""
    engine = job.engine
    bound = loop_bound(engine.options.criterion)
    info = job.program.functions[job.qualname]
    added = 0
    for path in engine.probes(job.target, probes.seeds(info, bound), PROBE_LOOPS):
        if not job.options.exceptions and path.outcome.kind == "raise":
            continue
        why = f"a longer input than loop-{bound} reaches (--long-probes)"
        if tuple(path.choices) in sink.taken:
            # a path that returns a comparison (`return n < 2**k`) is one path for both
            # answers: the probe may show the answer its test does not assert
            pinned = probes.other_answer(path, sink.told.get(tuple(path.choices), set()))
            if pinned is None:
                continue
            path, why = pinned, "the other answer of the path of another test (--long-probes)"
        sink.taken.add(tuple(path.choices))
        added += sink.write(Candidate(replace(path, ext={**path.ext, probes.PROBED: True}), probed=why))
        if added >= job.options.long_probes:
            break
    return added


def deeper_tests(job: Job, sink: Sink) -> int:
    """Long probes for a function with object inputs (strategies/deeper.py):
    the paths of a search one loop deeper whose own decisions no test
    makes, in the order it finds them, up to `--long-probes`. The number
    of tests written."""
    engine = job.engine
    entries = [info.entry for info in job.program.functions.values()]
    seen = {deeper.own_signature(path.trace, entries) for path in sink.written}
    criterion = deeper.one_deeper(engine.options.criterion)
    cap = deeper.PATHS_PER_PATH * engine.stats.paths + deeper.PATHS_FLOOR
    engines: list[Engine] = []  # the search's own, once made: the budget counts its solver's work
    budget = SolverWorkLimit(lambda: engines[0].solver.z3_work if engines else 0, deeper.SOLVER_WORK)
    search = engine.sibling(replace(engine.options, criterion=criterion, max_paths=cap, search="dfs",
                                    controls=engine.options.controls + (budget,)), stats=EngineStats())
    engines.append(search)
    added = 0
    for path in search.explore(job.target):
        signature = deeper.own_signature(path.trace, entries)
        if signature in seen:
            continue
        seen.add(signature)
        added += sink.write(Candidate(replace(path, ext={**path.ext, probes.PROBED: True}),
                                      probed=f"its own decisions take one more loop iteration than "
                                             f"{engine.options.criterion} allows (--long-probes)"))
        if added >= job.options.long_probes:
            break
    return added
