"""Resource-driven generation (paper 000, §4): the trace abstraction as an
oracle for a worst-case resource policy.

Resource-aware generation explores every path within the termination
criterion and then keeps the most expensive. Resource-driven generation
first enumerates the traces of whole runs from the refined trace
abstraction (strategies/tracegen.py, `ProgramScope`), computes what each would
cost, and tries them from the most to the least expensive with a guided
search (`TraceGuide`, a complete trace: one path or none); the first
feasible one is the answer (Theorem 1), found without exploring the rest.

The cost of a trace is *observable* (Def. 8) when the trace alone fixes it.
`steps` is: each term is one rule application plus the goals its rule body
ran (engine.py counts them so). Where a term raised, the trace does not
say at which goal, so its cost is an upper bound, and the search goes on
until no remaining trace can cost more than the best path found (the same
answer, with a few more traces tried). `calls` is always exact. `memory`
depends on list lengths a trace does not carry: not observable here, and
the caller falls back to resource-aware generation (saying so).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from pathcraft.cost.policy import Threshold
from pathcraft.engine.engine import Engine
from pathcraft.strategies.base import TraceCounts
from pathcraft.strategies.guide import TraceGuide
from pathcraft.strategies.points import out_of_time
from pathcraft.engine.state import SymbolicPath
from pathcraft.strategies.tracegen import ProgramScope, TraceGenerator
from pathcraft.errors import PathcraftError
from pathcraft.ir.nodes import Call, CallMethod, CheckMethod, Mark, Program
from pathcraft.ir.pattern import pattern_of
from pathcraft.ir.trace import TraceTerm
from pathcraft.solver import terms as T
from pathcraft.solver.path import bounds_of
from pathcraft.solver.simplify import normalize

OBSERVABLE = ("steps", "calls")


def observable(cost: str) -> bool:
    """Whether a trace tells the cost `cost` (`steps`, `calls`, `calls:f`)."""
    return cost.split(":", 1)[0] in OBSERVABLE


@dataclass(frozen=True)
class TraceCost:
    value: int
    exact: bool  # False: an upper bound (a term raised somewhere in its body)


def trace_cost(program: Program, trace: TraceTerm, cost: str) -> TraceCost:
    """What the run with this trace costs under `cost` (see `observable`)."""
    kind, _, function = cost.partition(":")
    total, exact = 0, True
    stack = [trace]
    while stack:
        term = stack.pop()
        stack.extend(term.children)
        pred = program.predicate(term.predicate)
        if kind == "steps":
            rule = next(r for r in pred.rules if r.index == term.rule)
            total += 1 + sum(1 for i in rule.body if not isinstance(i, (Mark, CheckMethod)))
            exact = exact and not term.raised
        elif pred.is_entry and not pred.builtin and not pred.wrapper and (not function or pred.function == function):
            total += 1
    return TraceCost(total, exact)


def by_cost(program: Program, traces: Iterator[TraceTerm], cost: str) -> list[tuple[TraceCost, TraceTerm]]:
    """The traces, the most expensive first (exact costs before bounds of
    the same value: they need no second look)."""
    ranked = [(trace_cost(program, t, cost), t) for t in traces]
    ranked.sort(key=lambda item: (-item[0].value, not item[0].exact))
    return ranked


def whole_run_gap(program: Program, qualname: str) -> str | None:
    """Why the whole-run trace abstraction may miss traces of this program,
    if it may: Python runs code no call in the translation names (a
    property's getter, `__eq__` or `__bool__` of a class, a generator's
    resumption), and an oracle that misses a trace is not sound."""
    for cls in program.classes.values():
        if cls.properties or cls.setters:
            return f"class {cls.name} has properties (code run by attribute access)"
        if cls.dataclass:
            return f"class {cls.name} is a dataclass (generated methods)"
        dunders = [m for m in cls.methods if m.startswith("__") and m.endswith("__") and m != "__init__"]
        if dunders:
            return f"class {cls.name} defines {dunders[0]} (code run by Python's protocols)"
    generators = [q for q, f in program.functions.items() if f.generator]
    if generators:
        return f"{generators[0]} is a generator function"
    if program.functions[qualname].cached:
        return f"{qualname} is cached (a call may run no code)"
    try:
        walked = TraceGenerator(program, qualname, 0, ProgramScope(program, qualname)).walked
    except PathcraftError as problem:
        return str(problem)
    methods = {m for cls in program.classes.values() for m in cls.methods}
    for pred in walked.values():
        for rule in pred.rules:
            for instr in rule.body:
                if isinstance(instr, CallMethod) and instr.method not in methods:
                    return (f"'.{instr.method}(...)' of a builtin value runs library code no call of the "
                            "translation names")
                if isinstance(instr, Call) and instr.predicate in program.predicates \
                        and program.predicate(instr.predicate).generator:
                    return "a generator (or generator expression) is resumed by the loop that walks it"
    return None


@dataclass(frozen=True)
class DrivenPlan:
    """What resource-driven generation is asked: the worst case of a cost,
    or the paths within threshold policies."""

    worst: str | None
    thresholds: tuple[Threshold, ...] = ()


def may_hold(cost: TraceCost, policy: Threshold) -> bool:
    """Can a run whose trace costs `cost` satisfy `policy`? (An upper bound
    rules a trace out only for a lower-bound policy.)"""
    holds = T.relation(policy.op, cost.value, policy.bound)
    return bool(holds) or not cost.exact and policy.op in ("lt", "le", "eq", "ne")


def resource_driven(engine: Engine, qualname: str, plan: DrivenPlan, k: int, refine: bool, exceptions: bool,
                    counts: TraceCounts) -> Iterator[SymbolicPath]:
    """The tests of `plan` from guided searches along the whole-run traces
    of the refined abstraction. Worst case: the traces from the most to the
    least expensive, stopping at the first feasible one (or, where costs
    are upper bounds, once no trace left can cost more than the best path
    found); every path of the costliest traces is given, as the
    resource-aware worst policy keeps every path of that cost. Thresholds:
    only the traces whose cost may satisfy every policy are tried."""
    program = engine.program
    generator = TraceGenerator(program, qualname, k, ProgramScope(program, qualname), refine)
    traces: list[TraceTerm] = []
    for term in generator:
        if len(traces) % 256 == 0 and out_of_time(engine):
            return
        if exceptions or not term.raised:
            traces.append(term)
    counts.abstraction = len(traces)
    counts.start()
    # one engine for every guided search, its guide told the next trace each
    # time: each search runs to its end, so none leaves the solver mid-search
    guide = TraceGuide(pattern_of(TraceTerm(generator.scope.entry, 0, ())), generator.scope.entry)
    guided = engine.sibling(replace(engine.options, controls=engine.options.controls + (guide,)))

    def follow(term: TraceTerm) -> list[SymbolicPath]:
        counts.tried()
        guide.pattern = pattern_of(term)
        paths = list(guided.explore(qualname))
        if not paths:
            counts.failed()
        return paths

    if plan.worst is None:
        for term in traces:
            if engine.stats.stopped is not None or out_of_time(engine):
                return
            if all(may_hold(trace_cost(program, term, t.cost), t) for t in plan.thresholds):
                yield from follow(term)
        return
    cost = plan.worst
    best: int | None = None
    winners: list[SymbolicPath] = []
    for bound, term in by_cost(program, iter(traces), cost):
        if best is not None and bound.value < best or engine.stats.stopped is not None or out_of_time(engine):
            break
        paths = [p for p in follow(term) if T.is_const(path_cost(p, cost))]
        if not paths:
            continue
        value = path_cost(paths[0], cost)
        assert isinstance(value, int)
        if best is None or value > best:
            best, winners = value, []
        if value == best:
            winners.extend(paths)
    yield from winners


def path_cost(path: SymbolicPath, name: str) -> T.Term:
    return normalize(path.costs.get(name), bounds_of(path.store))
