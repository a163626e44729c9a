"""One generation run: translate, explore, concretize, hand each test case on.

This is the seam the CLI, the benchmarks and the tests share. Test cases are
passed to `on_case` the moment they exist, so an interruption or a time
budget never loses what was already found.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from pathcraft import budget as work
from pathcraft.casesink import CaseSink
from pathcraft.cost.policy import Policy, Threshold
from pathcraft.engine.construction import ConstructionControl
from pathcraft.engine.engine import Engine
from pathcraft.engine.options import EngineOptions
from pathcraft.engine.summarystore import SummaryStore
from pathcraft.errors import PathcraftError, TargetError
from pathcraft.files import source_problem
from pathcraft.frontend.invariants import Checked, invariants_for, wrap
from pathcraft.ir.driver import SETUP_RAISED_PREDICATE
from pathcraft.ir.nodes import Program
from pathcraft.ir.pattern import check_names, parse_pattern
from pathcraft.runstats import RunStats, engine_work, outcome_counts
from pathcraft.settings import LIBRARY, ItemSearch, Objects
from pathcraft.solver.canonical import CanonicalModels
from pathcraft.strategies.base import Job, Outcome
from pathcraft.strategies.guide import TraceGuide
from pathcraft.strategies.item_paths import ITEM_SELECTIONS
from pathcraft.strategies.registry import strategy_for
from pathcraft.testcase import stored
from pathcraft.testcase.model import SMALL, TestCase


@dataclass(frozen=True)
class GenerateOptions:
    """A generation run: the engine's options, plus what happens to the
    paths it finds (exceptions kept, costs reported, policies applied).

    The defaults are the declarations' in-process ones (`settings.LIBRARY`):
    the command line's, except no time budget and no extra tests (long
    probes, edge tests), so a test of a run gets exactly what it asks for."""

    engine: EngineOptions = EngineOptions()
    exceptions: bool = LIBRARY.exceptions
    timeout: float | None = LIBRARY.timeout  # seconds per function
    assume: tuple[str, ...] = LIBRARY.assume  # heap assumptions as written: "acyclic(a)"; the function's @assume added
    costs: tuple[str, ...] = ()
    policies: tuple[Policy, ...] = ()
    invariants: tuple[str, ...] = LIBRARY.invariants  # `Class.method` invariants, next to those marked @invariant
    # objects a method is called on: "free" (the heap model's, any state) or
    # "constructed" (built by the constructor and up to `setup_calls` public
    # method calls: a driver the frontend wrote for the target, see
    # frontend/driver.py; the translation must have been asked for drivers)
    objects: Objects = LIBRARY.objects
    setup_calls: int = LIBRARY.setup_calls
    trace: str | None = None  # a trace pattern guiding the search (`--trace`, see ir/pattern.py)
    # a selection criterion run as guided generation (paper 001, Def. 5):
    # "all-local-paths" (one test per feasible local trace, engine/tracegen.py)
    select: str | None = None
    cover: str | None = None  # program points `22,mod.py:30,gcd` (`--cover`, engine/points.py)
    # trace generators use the abstraction refined by instantiation modes (engine/refine.py)
    refine: bool = LIBRARY.refine
    # a `worst:COST` policy answered by resource-driven generation (engine/resourcedriven.py)
    resource_driven: bool = LIBRARY.resource_driven
    # statements/branches: "guided" (a trace generator per item, paper 001,
    # engine/points.py) or "paths" (the standard search keeping the paths
    # that cover new items, with paper 004's pruning, engine/items.py)
    item_search: ItemSearch = LIBRARY.item_search
    look_ahead: bool = LIBRARY.look_ahead  # "paths": abandon paths that can reach no uncovered item
    unit: bool = LIBRARY.unit  # items are the function's own, not its callees' (004 §2)
    max_call_depth: int | None = LIBRARY.max_call_depth  # "paths": no backtracking more than N calls below
    # all paths: up to this many more tests from runs on longer inputs than
    # the loop bound reaches, each taking a path no other test takes (engine/probes.py);
    # 0 here, 3 on the command line and in pyproject.toml (see `Declaration.library`)
    long_probes: int = LIBRARY.long_probes
    # all paths: up to this many more tests, each on a tested path with an int
    # parameter at or beside a comparison's constant no test has (solver/boundaries.py); 0 here, 3 outside
    edge_tests: int = LIBRARY.edge_tests

    @classmethod
    def of(cls, **settings: Any) -> GenerateOptions:
        """Options from flat keywords, each going to the engine's options
        or to the run's: `GenerateOptions.of(criterion=..., exceptions=False)`."""
        engine_keys = {f.name for f in fields(EngineOptions)}
        assert not engine_keys & {f.name for f in fields(cls)}, "a name must say which options it sets"
        engine = {k: v for k, v in settings.items() if k in engine_keys}
        own = {k: v for k, v in settings.items() if k not in engine_keys}
        return cls(engine=EngineOptions(**engine), **own)


@dataclass
class FunctionRun:
    qualname: str
    cases: list[TestCase] = field(default_factory=list)
    record: RunStats = field(default_factory=RunStats)
    stopped: str | None = None
    notes: list[str] = field(default_factory=list)
    policy_filtered: int = 0
    warnings: list[str] = field(default_factory=list)  # what went wrong around the search (a bad store file)
    choices: list[tuple[int, ...]] = field(default_factory=list)  # of each test's path, as `cases`
    budget: work.Budget | None = None  # what the run spent (budget.py); None for a run read back

    @property
    def stats(self) -> dict[str, Any]:
        """The statistics as `--stats` and the JSON report show them."""
        return self.record.as_dict()


def parse_target(text: str) -> tuple[str, str | None]:
    """`path/to/mod.py::Name` or `path/to/mod.py`."""
    path, sep, name = text.partition("::")
    if not path.endswith(".py"):
        raise TargetError(f"bad target '{text}': expected path/to/module.py or path/to/module.py::name")
    if sep and not name:
        raise TargetError(f"bad target '{text}': nothing after '::'")
    problem = source_problem(path)
    if problem is not None:
        raise TargetError(f"{path}: {problem}")
    return path, (name or None)


SELECTIONS = ("all-local-paths", "statements", "branches")


def trace_guide(program: Program, qualname: str, text: str) -> TraceGuide:
    """The search control for `--trace TEXT` on `qualname`: the pattern read
    and checked against the program (a `PatternError` points into it)."""
    pattern = parse_pattern(text)
    root = program.functions[qualname].entry
    check_names(pattern, text, {name: len(pred.rules) for name, pred in program.predicates.items()}, root)
    return TraceGuide(pattern, root)


def _store_settings(options: GenerateOptions) -> str | None:
    """The options as the key of a function's kept tests names them (all
    but the time budget); None if they carry something a key cannot name
    (search controls added by code, such as a split's)."""
    if options.engine.controls or options.engine.concrete is not None:
        return None
    return repr(replace(options, timeout=None, engine=replace(options.engine, deadline=None, summary_store=None)))


def generate(
    program: Program,
    qualname: str,
    options: GenerateOptions,
    on_case: Callable[[TestCase], None] | None = None,
) -> FunctionRun:
    """The tests of `qualname`, each given to `on_case` as it is written.
    With composition and a summary store, the function's own summary (its
    tests) is kept there and read back by a later run of the same code
    under the same settings (testcase/stored.py)."""
    if qualname not in program.functions:
        raise PathcraftError(f"{program.path}: '{qualname}' was not translated")
    store = key = None
    problems: list[str] = []
    if options.engine.compose != "off" and options.engine.summary_store:
        store = SummaryStore(Path(options.engine.summary_store))
        settings = _store_settings(options)
        key = None if settings is None else stored.run_key(program, qualname, settings)
    if store is not None and key is not None:
        _, found, problem = store.read(key, stored.decode_cases,
                                       f"the file for {qualname}'s tests does not hold them", "searched again")
        if found is not None:
            cases, rest = found
            stats = RunStats.from_dict(rest["stats"]).reused()  # what this run did
            if on_case is not None:
                for case in cases:
                    on_case(case)
            return FunctionRun(qualname, cases, stats, None, rest["notes"], rest["policy_filtered"], [],
                               rest["choices"])
        if problem is not None:
            problems.append(problem)
    started = time.monotonic()
    run = _generate(program, qualname, options, on_case)
    run.warnings = [*problems, *run.warnings]
    if store is not None and key is not None and run.stopped is None and not run.record.unknown_paths \
            and (options.timeout is None or time.monotonic() - started < options.timeout):
        try:
            document = stored.encode_cases(run.cases, {"stats": run.stats, "notes": run.notes,
                                                       "policy_filtered": run.policy_filtered,
                                                       "choices": run.choices})
        except stored.NotStorable:
            return run
        store.save(key, document)
    return run




def _generate(
    program: Program,
    qualname: str,
    options: GenerateOptions,
    on_case: Callable[[TestCase], None] | None = None,
) -> FunctionRun:
    """Set the engine up for the options, run the strategy they ask for
    (strategies/registry.py) and make the run's record of what it did."""
    from pathcraft.heap.assumptions import parse_assumptions

    budget = work.for_timeout(options.timeout)  # work, with the clock as a safety net (budget.py)
    deadline = budget.deadline
    thresholds = [p for p in options.policies if isinstance(p, Threshold)]
    cost_names = tuple(dict.fromkeys([*options.costs, *(p.cost for p in options.policies)]))
    info = program.functions[qualname]
    assumptions = parse_assumptions([*options.assume, *info.assumptions], info.params)
    checked: Checked | None = None
    invariants = invariants_for(program, qualname, (*program.invariants, *options.invariants))
    if invariants:
        checked = wrap(program, qualname, invariants)
        program = checked.program
    plan = program.drivers.get(qualname) if options.objects == "constructed" else None
    if plan is not None and (options.trace is not None or options.select is not None or options.cover is not None):
        # a setup call may run the method under test too: its place in the driver's trace is not yet told
        raise PathcraftError("--trace, --cover and the selection criteria work on free objects only "
                             "(--objects free); with constructed objects, not yet")
    watch = ConstructionControl(plan.driver, plan.call_line, SETUP_RAISED_PREDICATE) if plan else None
    guide = trace_guide(program, qualname, options.trace) if options.trace is not None else None
    engine = Engine(program, replace(
        options.engine, assumptions=assumptions, deadline=deadline,
        cost_bounds=tuple((p.cost, p.op, p.bound) for p in thresholds if p.is_upper_bound),
        controls=options.engine.controls + ((watch,) if watch else ()) + ((guide,) if guide else ()),
    ))
    solver = engine.options.solver
    models = CanonicalModels((2, SMALL), solver.timeout_ms, solver.rlimit)
    sink = CaseSink(program, qualname, engine, models, plan=plan, checked=checked, policies=options.policies,
                    cost_names=cost_names, exceptions=options.exceptions, on_case=on_case)
    # Tests are named and written in depth-first order whatever order the
    # searcher finds paths in: streamed when they arrive in that order,
    # else held and sorted (also when interrupted: nothing found is lost).
    in_order = engine.arrives_in_order() and not sink.selections
    if engine.options.solve_first and not (options.select in ITEM_SELECTIONS and options.item_search == "paths"
                                           and options.cover is None):
        # its concrete runs only help the search that keeps paths by their items
        engine = engine.sibling(replace(engine.options, solve_first=False))
    job = Job(program, qualname, plan.driver if plan else qualname, options, engine, models, plan is not None,
              in_order)
    try:
        with work.spending(budget):
            outcome = strategy_for(options).run(job, sink)
    except KeyboardInterrupt:
        sink.interrupted()
        raise
    return _finished(qualname, sink, outcome, watch, budget)


def _finished(qualname: str, sink: CaseSink, outcome: Outcome, watch: ConstructionControl | None,
              budget: work.Budget) -> FunctionRun:
    """The run's record: its tests, why it stopped, and its statistics."""
    engine = outcome.engine
    counts = {**engine_work(engine), **outcome_counts(outcome)}
    tests = engine.stats.paths - sink.filtered + (outcome.probe_tests or 0) + (outcome.edge_tests or 0)
    if engine.options.concolic:
        tests -= sink.repeats
        counts["concolic_repeats"] = sink.repeats
    record = RunStats(**counts, tests=tests, exception_paths_filtered=sink.filtered,
                      policy_filtered=sink.policy_filtered,
                      setup_raised=None if watch is None else watch.setup_raised, work=budget.spent)
    warnings = [] if engine.summaries is None else list(engine.summaries.stats.problems)
    return FunctionRun(qualname, sink.cases, record, engine.stats.stopped, [*outcome.notes, *engine.stats.notes],
                       sink.policy_filtered, warnings, sink.choices, budget)
