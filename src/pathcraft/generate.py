"""One generation run: translate, explore, concretize, hand each test case on.

This is the seam the CLI, the benchmarks and the tests share. Test cases are
passed to `on_case` the moment they exist, so an interruption or a time
budget never loses what was already found.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from pathcraft.cost.policy import Policy, Threshold, Top, Worst, exceed_condition
from pathcraft.strategies.edgetests import edge_tests
from pathcraft.engine.construction import ConstructionControl
from pathcraft.engine.control import SolverWorkLimit
from pathcraft.engine.engine import Engine
from pathcraft.engine.concretize import CONCRETIZED
from pathcraft.strategies import deeper, probes
from pathcraft.engine.criteria import Criteria, Criterion, CriterionSpec
from pathcraft.strategies.guide import TraceGuide
from pathcraft.strategies.items import COMPLETE, ItemCoverage, objective
from pathcraft.strategies.points import (
    covering,
    criterion_points,
    out_of_time,
    parse_points,
    report,
    without_redundant,
)
from pathcraft.strategies.resourcedriven import DrivenPlan, observable, resource_driven, whole_run_gap
from pathcraft.strategies.tracegen import LocalScope, LocalTraces
from pathcraft.engine.options import EngineOptions
from pathcraft.engine.state import EngineStats, SymbolicPath
from pathcraft.engine.summarystore import SummaryStore
from pathcraft.errors import PathcraftError, TargetError, Unsupported
from pathcraft.frontend.invariants import Checked, invariants_for, unwrap, verdict, wrap
from pathcraft.ir.driver import SETUP_RAISED_PREDICATE
from pathcraft.files import source_problem
from pathcraft.ir.nodes import FunctionInfo, Program
from pathcraft.ir.pattern import check_names, parse_pattern, pattern_of
from pathcraft.ir.trace import TraceTerm
from pathcraft.solver import terms as T
from pathcraft.solver.canonical import CanonicalModels
from pathcraft.solver.path import bounds_of
from pathcraft.solver.simplify import normalize
from pathcraft.solver.terms import Sym, evaluate, is_const
from pathcraft.testcase.constructed import concretize_constructed, target_trace
from pathcraft.testcase.emit_pytest import homed, module_alias
from pathcraft.testcase import stored
from pathcraft.testcase.model import SMALL, TestCase, concretize


@dataclass(frozen=True)
class GenerateOptions:
    """A generation run: the engine's options, plus what happens to the
    paths it finds (exceptions kept, costs reported, policies applied)."""

    engine: EngineOptions = EngineOptions()
    exceptions: bool = True
    timeout: float | None = None  # seconds per function
    assume: tuple[str, ...] = ()  # heap assumptions as written: "acyclic(a)"; the function's @assume added
    costs: tuple[str, ...] = ()
    policies: tuple[Policy, ...] = ()
    invariants: tuple[str, ...] = ()  # `Class.method` invariants, next to those marked @invariant
    # objects a method is called on: "free" (the heap model's, any state) or
    # "constructed" (built by the constructor and up to `setup_calls` public
    # method calls: a driver the frontend wrote for the target, see
    # frontend/driver.py; the translation must have been asked for drivers)
    objects: str = "free"
    setup_calls: int = 2
    trace: str | None = None  # a trace pattern guiding the search (`--trace`, see ir/pattern.py)
    # a selection criterion run as guided generation (paper 001, Def. 5):
    # "all-local-paths" (one test per feasible local trace, engine/tracegen.py)
    select: str | None = None
    cover: str | None = None  # program points `22,mod.py:30,gcd` (`--cover`, engine/points.py)
    # trace generators use the abstraction refined by instantiation modes (engine/refine.py)
    refine: bool = True
    # a `worst:COST` policy answered by resource-driven generation (engine/resourcedriven.py)
    resource_driven: bool = False
    # statements/branches: "guided" (a trace generator per item, paper 001,
    # engine/points.py) or "paths" (the standard search keeping the paths
    # that cover new items, with paper 004's pruning, engine/items.py)
    item_search: str = "paths"
    look_ahead: bool = True  # "paths": abandon paths that can reach no uncovered item
    unit: bool = True  # items are the function's own, not its callees' (004 §2)
    max_call_depth: int | None = None  # "paths": no backtracking more than N calls below the function
    # all paths: up to this many more tests from runs on longer inputs than
    # the loop bound reaches, each taking a path no other test takes (engine/probes.py)
    long_probes: int = 0
    # all paths: up to this many more tests, each on a tested path with an int
    # parameter at or beside a comparison's constant no test has (solver/boundaries.py)
    edge_tests: int = 0

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
    stats: dict[str, Any] = field(default_factory=dict)
    stopped: str | None = None
    notes: list[str] = field(default_factory=list)
    policy_filtered: int = 0
    warnings: list[str] = field(default_factory=list)  # what went wrong around the search (a bad store file)
    choices: list[tuple[int, ...]] = field(default_factory=list)  # of each test's path, as `cases`


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


# the guided scheme gives way to the standard search filtered by local trace
# (the same tests: the first path of each local trace) once this many traces
# were infeasible, nine in ten of those tried: a trace generator that knows
# nothing of the data (nested loops over a computed bound) can produce
# thousands of traces for a handful of paths
GIVE_WAY = 200


def _guided(engine: Engine, program: Program, qualname: str, target: str,
            counts: dict[str, Any], refine: bool) -> Iterator[SymbolicPath]:
    """The guided scheme (paper 001, Def. 5) for all-local-paths: each local
    trace the generator gives is tried in turn, and the first path that
    follows it (the leftmost branch of the guided tree) is the test; a trace
    with none is infeasible. `counts` gets GT/UT: traces generated, and
    those that were infeasible."""
    k = loop_bound(engine.options.criterion)
    scope = LocalScope(program, qualname)
    base = engine.options
    counts["generated_traces"] = counts["infeasible_traces"] = 0
    found: set[TraceTerm] = set()
    for term in LocalTraces(program, qualname, k, refine):
        if engine.stats.stopped is not None or out_of_time(engine):
            return
        if counts["infeasible_traces"] >= GIVE_WAY and \
                counts["infeasible_traces"] * 10 >= counts["generated_traces"] * 9:
            counts["gave_way_after"] = counts["generated_traces"]
            break
        counts["generated_traces"] += 1
        guided = engine.sibling(replace(base, controls=base.controls + (TraceGuide(pattern_of(term), scope.entry,
                                                                                  scope),)))
        paths = guided.explore(target)
        try:
            first = next(paths, None)
        finally:
            paths.close()
        if first is None:
            counts["infeasible_traces"] += 1
        else:
            found.add(term)
            yield first
    else:
        return
    # the rest by the standard search: the first path of each local trace not found yet
    for path in engine.sibling(base).explore(target):
        local = scope.project(_target_term(path.trace, scope.entry))
        if local not in found:
            found.add(local)
            yield path


def _target_term(trace: TraceTerm, entry: str) -> TraceTerm:
    """The target's own trace term inside a wrapper's (pre-order first)."""
    stack = [trace]
    while stack:
        term = stack.pop()
        if term.predicate == entry:
            return term
        stack.extend(reversed(term.children))
    return trace


# the loop bound of a probe's run (strategies/probes.py): its inputs' size bounds it first
PROBE_LOOPS = 32


def _parts(criterion: CriterionSpec) -> tuple[Criterion, ...]:
    return criterion.parts if isinstance(criterion, Criteria) else (criterion,)


def loop_bound(criterion: CriterionSpec) -> int:
    """The K of the loop-K part of a criterion (a guided criterion's trace
    generator bounds the local loops with it)."""
    for part in _parts(criterion):
        if part.kind == "loop":
            return part.k
    raise PathcraftError(f"a selection criterion needs loop-K as its termination criterion, not '{criterion}'")


def trace_guide(program: Program, qualname: str, text: str) -> TraceGuide:
    """The search control for `--trace TEXT` on `qualname`: the pattern read
    and checked against the program (a `PatternError` points into it)."""
    pattern = parse_pattern(text)
    root = program.functions[qualname].entry
    check_names(pattern, text, {name: len(pred.rules) for name, pred in program.predicates.items()}, root)
    return TraceGuide(pattern, root)


def engine_stats(engine: Engine, filtered: int) -> dict[str, Any]:
    chains = engine.solvers
    answered: dict[str, int] = {}
    for chain in chains:
        for layer, hits in chain.answered_by().items():
            answered[layer] = answered.get(layer, 0) + hits
    queries = sum(chain.queries for chain in chains)
    without = queries - answered.get("z3", 0)
    return {
        "paths": engine.stats.paths,
        "tests": engine.stats.paths - filtered,
        "exception_paths_filtered": filtered,
        "derivation_steps": engine.stats.steps,
        "pruned_paths": engine.stats.pruned,
        "infeasible_rules": engine.stats.infeasible,
        "unknown_paths": engine.stats.unknown,
        "unsupported_paths": engine.stats.unsupported,
        "concretized_calls": engine.stats.concretized,
        "branch_queries": queries,
        "answered_without_z3": without,
        "answered_by": answered,
        "z3_calls": sum(chain.z3_calls for chain in chains),
        "z3_seconds": round(sum(chain.z3_seconds for chain in chains), 4),
        "seconds": round(engine.stats.seconds, 4),
        **({} if engine.summaries is None else {
            "summaries_computed": engine.summaries.stats.computed,
            "summaries_refused": engine.summaries.stats.refused,
            "summaries_reused": engine.summaries.stats.reused,
            "calls_composed": engine.summaries.stats.composed,
            "calls_inlined": engine.summaries.stats.inlined,
        }),
    }


# the statistics of a search's work: none for a run whose tests were read back
_NO_WORK = {"derivation_steps": 0, "branch_queries": 0, "answered_without_z3": 0, "z3_calls": 0, "z3_seconds": 0.0,
            "seconds": 0.0, "summaries_computed": 0, "summaries_refused": 0, "summaries_reused": 0,
            "calls_composed": 0, "calls_inlined": 0}


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
        key = stored.run_key(program, qualname, options)
    if store is not None and key is not None:
        _, found, problem = store.read(key, stored.decode_cases,
                                       f"the file for {qualname}'s tests does not hold them", "searched again")
        if found is not None:
            cases, rest = found
            stats = {**rest["stats"], **_NO_WORK, "answered_by": {}, "run_reused": 1}  # what this run did
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
    if store is not None and key is not None and run.stopped is None and not run.stats.get("unknown_paths") \
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
    deadline = None if options.timeout is None else time.monotonic() + options.timeout
    thresholds = [p for p in options.policies if isinstance(p, Threshold)]
    selections = [p for p in options.policies if not isinstance(p, Threshold)]
    cost_names = tuple(dict.fromkeys(
        [*options.costs, *(p.cost for p in options.policies)]
    ))
    from pathcraft.heap.assumptions import parse_assumptions

    info = program.functions[qualname]
    written = list(options.assume) + list(info.assumptions)
    assumptions = parse_assumptions(written, info.params)
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
    run = FunctionRun(qualname)
    filtered = 0
    held: list[SymbolicPath] = []

    solver = engine.options.solver
    models = CanonicalModels((2, SMALL), solver.timeout_ms, solver.rlimit)

    def canonical(path: SymbolicPath, inputs: list[Sym]) -> Any:
        return models.model(path.store, inputs, distinct_items=bool(path.ext.get(probes.PROBED)))

    told: dict[tuple[int, ...], set[bool]] = {}  # the bools the tests of a path assert it returns

    emitted: list[SymbolicPath] = []  # the paths of the tests written, in order
    covered: set[tuple[str, Any]] = set()  # (parameter, value) of every test written

    def emit(path: SymbolicPath, note: str | None = None, probed: str | None = None,
             edge: str | None = None, as_bool: str | None = None) -> bool:
        """Write the test of `path` (or drop it, counted, if it cannot be stated);
        was it written?"""
        kind = "_constructed" if plan else ""
        name = f"test_{qualname.replace('.', '_')}{kind}_{len(run.cases) + 1}"
        reserved = (module_alias(program.module), "pytest", "result",
                    *(home.rpartition(".")[2] for home in program.class_homes.values()))
        if plan is not None:  # the target call's own trace term: where a wrapper's verdict is
            path = replace(path, trace=target_trace(path.trace, program.functions[plan.driver].entry,
                                                    program.functions[qualname].entry))
        broken = None
        if checked is not None:
            broken = verdict(checked, path.trace)
            path = replace(path, trace=unwrap(checked, path.trace))
        try:
            if plan is not None:
                case = concretize_constructed(path, plan, name, canonical, cost_names, note, reserved)
            else:
                case = concretize(path, name, canonical, cost_names, note, reserved=reserved)
        except Unsupported as problem:  # a value the test cannot state exactly: dropped, counted
            engine.stats.note_unsupported(problem)
            return False
        if _has_huge_int(case):  # Python reads no such literal (int_max_str_digits): dropped, counted
            engine.stats.note_unsupported(Unsupported(f"a test with an int of more than {_INT_DIGITS} digits "
                                                      "(Python refuses a literal that long)"))
            return False
        named = _classes_named(case)
        hidden = sorted(named & program.hidden_classes - program.class_spellings.keys() - program.class_homes.keys())
        spelled = {c: program.class_spellings[c] for c in sorted(named & program.class_spellings.keys())}
        for cls in sorted(named):  # a sibling module's class: named through that module
            spelling = spelled.get(cls, cls)
            home = program.class_homes.get(spelling.split(".")[0])
            if home is not None:
                spelled[cls] = homed(home, spelling)
        if spelled:  # `PositionalList._Node` for `_DoublyLinkedBase._Node`, a base's the module does not bind
            case = replace(case, extra={**case.extra, "spellings": spelled})
        if hidden:  # the test would name it as an attribute of the tested module, which has none
            engine.stats.note_unsupported(Unsupported(f"a test naming class {hidden[0]} of another module, "
                                                      "which the tested module does not import"))
            return False
        if as_bool is not None:  # the parameter's 0 or 1 passed as False or True: returned as given
            case = replace(case, inputs=tuple((p, bool(v) if p == as_bool else v) for p, v in case.inputs),
                           value=bool(case.value))
        case = replace(case, name=f"{name}_{outcome_words(case)}")
        if probed is not None:
            case = replace(case, extra={**case.extra, "probe": probed})
        if edge is not None:
            case = replace(case, extra={**case.extra, "edge": edge})
        binding = program.functions[qualname].binding
        if binding:  # a static or class method is called on the class; a property read
            case = replace(case, extra={**case.extra, "binding": binding})
        if program.functions[qualname].generator:  # the test consumes what it yields: `list(f(...))`
            case = replace(case, extra={**case.extra, "consumed": "list"})
        if checked is not None:
            case = replace(case, extra={**case.extra, "invariants": list(checked.invariants),
                                        **({"invariant": broken} if broken else {})})
        run.cases.append(case)
        run.choices.append(tuple(path.choices))
        emitted.append(path)
        covered.update((name, _exact(value)) for name, value in case.inputs)
        if isinstance(case.value, bool) and case.kind == "return":
            told.setdefault(tuple(path.choices), set()).add(case.value)
        if on_case is not None and items is None:
            on_case(case)
        return True

    # Tests are named and written in depth-first order whatever order the
    # searcher finds paths in: streamed when they arrive in that order,
    # else held and sorted (also when interrupted: nothing found is lost).
    streaming = engine.arrives_in_order() and not selections and options.select is None and options.cover is None
    target = plan.driver if plan else qualname
    items: ItemCoverage | None = None
    if engine.options.solve_first and not (options.select in ("statements", "branches")
                                           and options.item_search == "paths" and options.cover is None):
        # its concrete runs only help the search that keeps paths by their items
        engine = engine.sibling(replace(engine.options, solve_first=False))
    found: Iterator[SymbolicPath]
    plain = False  # long probes and edge tests follow the plain all-paths search only
    probing = False
    by_items = options.select in ("statements", "branches") and options.item_search == "paths"
    points = parse_points(options.cover, program) if options.cover is not None else \
        objective(program, qualname, options.select, options.unit) if by_items and options.select else \
        criterion_points(options.select, program, qualname) if options.select in ("statements", "branches") else ()
    if by_items and points:
        # kept paths are written at once: a path whose test cannot be written
        # gives its items back before the search goes on
        # --max-paths caps the tests kept, not the paths completed (most are dropped)
        items = ItemCoverage(program, points, look_ahead=options.look_ahead,
                             max_call_depth=options.max_call_depth, exceptions=options.exceptions,
                             max_tests=engine.options.max_paths)
        engine = engine.sibling(replace(engine.options, max_paths=None,
                                        controls=engine.options.controls + (items,)))
        found = engine.explore(target)
        streaming = True
    elif points:
        criterion = engine.options.criterion
        k = loop_bound(criterion) if any(p.kind == "loop" for p in _parts(criterion)) else None
        found = covering(engine, program, qualname, target, points, k, run.stats)
    elif options.select in ("statements", "branches"):  # nothing to choose between: one path shows it all
        found = itertools.islice(engine.explore(target), 1)
    elif options.select is not None:
        found = _guided(engine, program, qualname, target, run.stats, options.refine)
    elif options.resource_driven and (driven := _driven_plan(options, program, qualname, plan, run.notes)):
        found = resource_driven(engine, qualname, driven, loop_bound(engine.options.criterion), options.refine,
                                options.exceptions, run.stats)
    else:
        found = engine.explore(target)
        plain = plan is None and guide is None and not options.policies
        probing = plain and any(p.kind == "loop" for p in _parts(engine.options.criterion))
    # concolic mode: samples of a concrete call are no choice of the search, so two
    # that went on to make the same choices took the same path: one test
    sampled: set[tuple[tuple[int, ...], str]] = set()
    repeats = 0
    taken: set[tuple[int, ...]] = set()  # the choices of every path found
    try:
        for path in found:
            taken.add(tuple(path.choices))
            before = len(run.cases)
            if path.ext.get(CONCRETIZED):
                key = (tuple(path.choices), path.outcome.kind)
                if key in sampled:
                    repeats += 1
                    continue
                sampled.add(key)
            if not options.exceptions and path.outcome.kind == "raise":
                filtered += 1
                continue
            kept = _satisfy(engine, path, thresholds)
            if kept is None:
                run.policy_filtered += 1
            elif streaming:
                emit(kept)
            else:
                held.append(kept)
            if items is not None and len(run.cases) == before:
                items.unclaim()
        held.sort(key=lambda p: p.choices)
        for path, note in _select(engine, held, selections):
            emit(path, note)
        if probing and options.long_probes and not engine.stats.stopped:
            info = program.functions[qualname]
            if probes.seeds(info, loop_bound(engine.options.criterion)):
                run.stats["probe_tests"] = _probe_tests(engine, info, target, options, taken, told, emit)
            elif engine.stats.pruned:  # no input to probe with (objects): a search one loop deeper
                run.stats["probe_tests"] = _deeper_tests(engine, program, target, options.long_probes,
                                                         emitted, emit)
        if plain and options.edge_tests and not engine.stats.stopped:
            run.stats["edge_tests"] = edge_tests(program.functions[qualname], models, emitted, covered,
                                                 options.edge_tests, emit)
    except KeyboardInterrupt:
        run.stopped = "interrupted"
        if not selections:
            for path in sorted(held, key=lambda p: p.choices):
                emit(path)
        raise
    finally:
        if items is not None and engine.stats.stopped == COMPLETE:
            engine.stats.stopped = None  # the objective met: the run ended, it was not cut short
        run.stopped = run.stopped or engine.stats.stopped
        run.stats = {**engine_stats(engine, filtered), **run.stats}
        run.stats["tests"] += run.stats.get("probe_tests", 0) + run.stats.get("edge_tests", 0)
        if engine.options.concolic:
            run.stats["tests"] -= repeats
            run.stats["concolic_repeats"] = repeats
        if items is not None:
            run.stats.update(completed_paths=items.completed, look_ahead_cut=items.look_ahead_cut,
                             call_depth_cut=items.depth_cut)
            if engine.options.solve_first:
                run.stats.update(concrete_runs=engine.stats.concrete_runs, concrete_kept=engine.stats.concrete_kept)
        if items is not None:  # an item search writes its tests once the redundant ones are known
            run.cases = renumbered(without_redundant(points, run.cases), f"test_{qualname.replace('.', '_')}_")
            if on_case is not None:
                for case in run.cases:
                    on_case(case)
        if points:
            run.stats["points"] = report(points, run.cases)
        run.stats["policy_filtered"] = run.policy_filtered
        if watch is not None:
            run.stats["setup_raised"] = watch.setup_raised
        run.notes = [*run.notes, *engine.stats.notes]
        if engine.summaries is not None:
            run.warnings = [*run.warnings, *engine.summaries.stats.problems]
    return run


def _probe_tests(engine: Engine, info: FunctionInfo, target: str, options: GenerateOptions,
                 taken: set[tuple[int, ...]], told: dict[tuple[int, ...], set[bool]],
                 emit: Callable[..., bool]) -> int:
    """Long probes (strategies/probes.py) after the all-paths search: each path
    no test took (`taken`, by choices), or the other bool answer of a path
    whose tests assert one (`told`), is emitted, up to `--long-probes`.
    The number of tests written."""
    bound = loop_bound(engine.options.criterion)
    added = 0
    for path in engine.probes(target, probes.seeds(info, bound), PROBE_LOOPS):
        if not options.exceptions and path.outcome.kind == "raise":
            continue
        why = f"a longer input than loop-{bound} reaches (--long-probes)"
        if tuple(path.choices) in taken:
            # a path that returns a comparison (`return n < 2**k`) is one path for both
            # answers: the probe may show the answer its test does not assert
            pinned = probes.other_answer(path, told.get(tuple(path.choices), set()))
            if pinned is None:
                continue
            path, why = pinned, "the other answer of the path of another test (--long-probes)"
        taken.add(tuple(path.choices))
        added += emit(replace(path, ext={**path.ext, probes.PROBED: True}), probed=why)
        if added >= options.long_probes:
            break
    return added


def _deeper_tests(engine: Engine, program: Program, target: str, limit: int,
                  emitted: list[SymbolicPath], emit: Callable[..., bool]) -> int:
    """Long probes for a function with object inputs (strategies/deeper.py):
    the paths of a search one loop deeper whose own decisions no test
    makes, in the order it finds them, up to `limit`. The number of
    tests written."""
    entries = [info.entry for info in program.functions.values()]
    seen = {deeper.own_signature(path.trace, entries) for path in emitted}
    criterion = deeper.one_deeper(engine.options.criterion)
    cap = deeper.PATHS_PER_PATH * engine.stats.paths + deeper.PATHS_FLOOR
    engines: list[Engine] = []  # the search's own, once made: the budget counts its solver's work
    budget = SolverWorkLimit(lambda: engines[0].solver.z3_work if engines else 0, deeper.SOLVER_WORK)
    search = engine.sibling(replace(engine.options, criterion=criterion, max_paths=cap, search="dfs",
                                    controls=engine.options.controls + (budget,)), stats=EngineStats())
    engines.append(search)
    added = 0
    for path in search.explore(target):
        signature = deeper.own_signature(path.trace, entries)
        if signature in seen:
            continue
        seen.add(signature)
        added += emit(replace(path, ext={**path.ext, probes.PROBED: True}),
                      probed=f"its own decisions take one more loop iteration than {engine.options.criterion} "
                             "allows (--long-probes)")
        if added >= limit:
            break
    return added


_INT_DIGITS = sys.get_int_max_str_digits() or 4300  # Python's limit on an int literal's digits


def _has_huge_int(case: TestCase) -> bool:
    """Does the test state an int too long to write as a literal? (Read off
    its bit length: converting it to text is what fails.)"""
    bits = _INT_DIGITS * 3  # fewer than _INT_DIGITS decimal digits
    todo: list[Any] = [case.inputs, case.value, case.heap_in, case.heap_final, case.cost_values]
    while todo:
        value = todo.pop()
        if isinstance(value, int) and not isinstance(value, bool):
            if value.bit_length() > bits:
                return True
        elif isinstance(value, dict):
            todo.extend(value.values())
        elif isinstance(value, (list, tuple)):
            todo.extend(value)
    return False


def _exact(value: Any) -> Any:
    """A test input as a key of `covered`: an int, or its type and repr
    (`True` is not `1`; lists and objects are never the same value)."""
    return value if type(value) is int else (type(value).__name__, repr(value))


def renumbered(cases: list[TestCase], prefix: str) -> list[TestCase]:
    """Tests named `PREFIX<n>_...` numbered 1, 2, ... again in their order."""
    out = []
    for number, case in enumerate(cases, 1):
        rest = case.name[len(prefix):].partition("_")[2] if case.name.startswith(prefix) else ""
        out.append(replace(case, name=f"{prefix}{number}_{rest}" if rest else case.name))
    return out


def _driven_plan(options: GenerateOptions, program: Program, qualname: str, plan: object,
                 notes: list[str]) -> DrivenPlan | None:
    """What resource-driven generation answers (one worst:COST policy, or
    threshold policies), or None (with a note saying why) when it falls
    back to resource-aware generation."""
    worst = [p for p in options.policies if isinstance(p, Worst)]
    thresholds = tuple(p for p in options.policies if isinstance(p, Threshold))
    if not (len(worst) == 1 and len(options.policies) == 1 or thresholds and len(thresholds) == len(options.policies)):
        notes.append("resource-driven generation answers one worst:COST policy alone, or threshold policies "
                     "(memory>48); resource-aware search used")
        return None
    costs = [worst[0].cost] if worst else [t.cost for t in thresholds]
    problem = next((f"{c} is not observable from traces (it depends on list lengths a trace does not carry)"
                    for c in costs if not observable(c)), None)
    if problem is None and (plan is not None or options.trace is not None):
        problem = "it works on free objects and without --trace"
    if problem is None:
        problem = whole_run_gap(program, qualname)
    if problem is not None:
        notes.append(f"resource-driven generation: {problem}; resource-aware search used")
        return None
    return DrivenPlan(worst[0].cost if worst else None, thresholds)


def _classes_named(case: TestCase) -> set[str]:
    """The classes a test names: its objects' and its exception's."""
    found = {case.exc_type} if case.exc_type else set()
    pending: list[Any] = [dict(case.heap_in), dict(case.heap_final), case.value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if isinstance(item.get("class"), str):
                found.add(item["class"])
            pending.extend(item.values())
        elif isinstance(item, (list, tuple)):
            pending.extend(item)
    return found


def _cost(path: SymbolicPath, name: str) -> Any:
    return normalize(path.costs.get(name), bounds_of(path.store))


def _satisfy(engine: Engine, path: SymbolicPath, thresholds: list[Threshold]) -> SymbolicPath | None:
    """`path` narrowed so that every threshold policy holds, or None."""
    for policy in thresholds:
        condition = policy.condition(_cost(path, policy.cost))
        if condition is True:
            continue
        if condition is False:
            return None
        narrowed = engine.brancher.narrow(path.store, path.model, condition)
        if narrowed is None:
            return None
        path = replace(path, store=narrowed[0], model=narrowed[1])
    return path


def _select(engine: Engine, paths: list[SymbolicPath],
            selections: Sequence[Policy]) -> list[tuple[SymbolicPath, str | None]]:
    """Apply worst:/top: policies (in order) to the paths kept so far."""
    chosen: list[tuple[SymbolicPath, str | None]] = [(p, None) for p in paths]
    for policy in selections:
        if isinstance(policy, Top):
            ranked = sorted(chosen, key=lambda item: -int(evaluate(_cost(item[0], policy.cost), item[0].model)))
            chosen = ranked[: policy.n]
        elif isinstance(policy, Worst):
            chosen = _worst(engine, [p for p, _ in chosen], policy.cost)
    return chosen


def _worst(engine: Engine, paths: list[SymbolicPath], cost: str) -> list[tuple[SymbolicPath, str | None]]:
    constants = [int(_cost(p, cost)) for p in paths if is_const(_cost(p, cost))]
    top = max(constants) if constants else None
    winners: list[tuple[SymbolicPath, str | None]] = []
    for path in paths:
        value = _cost(path, cost)
        if is_const(value) or top is None:
            continue
        condition = T.relation("gt", value, top)
        narrowed = engine.brancher.narrow(path.store, path.model, condition)
        if narrowed is not None:
            winners.append((replace(path, store=narrowed[0], model=narrowed[1]),
                            f"worst {cost} when {exceed_condition(value, top)}"))
    if winners:
        return winners
    if top is None:  # only symbolic costs, none comparable: keep them all
        return [(p, None) for p in paths]
    return [(p, f"worst {cost}: {top}") for p in paths
            if is_const(_cost(p, cost)) and int(_cost(p, cost)) == top]


def outcome_words(case: TestCase) -> str:
    """`returns_20`, `returns_minus_1`, `returns_none`, `raises_value_error`,
    `returns_vector`, `returns_tuple`: test names that say what the test checks."""
    import re

    if case.kind == "raise":
        words = re.sub(r"(?<!^)(?=[A-Z])", "_", (case.exc_type or "exception").rpartition(".")[2]).lower()
        return f"raises_{words}"
    value = case.value
    if isinstance(value, dict):
        target = case.heap_final.get(value["$ref"], {}) or case.heap_in.get(value["$ref"], {})
        kind = target.get("class", next((k for k in ("dict", "set", "deque") if k in target), "list")) \
            if target else "object"
        return f"returns_{re.sub(r'(?<!^)(?=[A-Z])', '_', kind.rpartition('.')[2]).lower()}"  # `Outer.Inner`
    if value is None or isinstance(value, bool):
        return f"returns_{str(value).lower()}"
    if isinstance(value, tuple):
        return "returns_tuple"
    if isinstance(value, int):
        return f"returns_{'minus_' if value < 0 else ''}{abs(value)}" if abs(value) < 10**6 else "returns_int"
    return "returns"
