"""Method summaries and their composition at call sites (paper 002).

A function's summary is the set of its paths from the most general context
(each parameter a fresh symbol): per path, the constraints over the
parameters, the outcome, the trace, the events, the choices, the steps and
the costs. At a call, instead of running the callee's code again, each case
whose constraints are compatible with the caller's path gives one successor
state (002 Fig. 4, `compose_summary`): the path extended by the case's
constraints with the arguments put for the parameters, the result bound,
the trace, events and costs appended as the callee's own run would have
appended them.

Composition is exact only where the callee's run does not depend on the
caller's state beyond the arguments, so a summary is kept only when every
case is closed:

* the arguments are ints or bools (one symbol each, no heap);
* no case touches the heap (no object read, made or written), keeps
  search-control data, or leaves a symbol other than a parameter;
* the callee's run was complete: not stopped by the deadline, no path
  dropped as unsupported or unknown, at most `MAX_CASES` cases.

And at each call only where the criteria say the same inside the callee in
any context: the loop criterion counts recursive activations on the stack,
so a summary is not used while a function its cases activate is already on
the stack (the callee's own recursive calls are inside its summary). The
other criteria (block-K, depth-K, calls-K) count along the whole path and
are not compositional here (`compositional`); composition is then off.
Anything else falls back to running the callee, so composition changes the
time a search takes, never the paths it finds.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any


from pathcraft.cost.models import Costs
from pathcraft.engine.criteria import Criterion, CriterionSpec
from pathcraft.engine.state import ChoiceNode, EngineStats, EventNode, Frame, Outcome, Stack, State, step
from pathcraft.heap.base import is_scalar
from pathcraft.heap.cells import Heap
from pathcraft.ir.nodes import Call, Predicate, Program
from pathcraft.ir.trace import Event, TraceTerm
from pathcraft.ir.values import ExcValue
from pathcraft.engine.summarystore import (BadStoreFile, SummaryStore, TermTable, decode_costs, decode_outcome,
                                           decode_terms, decode_traces, encode_costs, encode_outcome, encode_trace,
                                           per_program)
from pathcraft.solver import terms as T
from pathcraft.solver.path import nodes
from pathcraft.solver.terms import Sym, Term

if TYPE_CHECKING:
    import networkx

    from pathcraft.engine.engine import Engine, Run, Successors

SummaryKey = tuple[str, tuple[str, ...]]  # the callee's predicate, its arguments' sorts
MAX_CASES = 256  # a callee with more paths is run, not summarized
MODES = ("off", "on-demand", "bottom-up")


@dataclass(frozen=True)
class Case:
    """One path of a summarized function, over its parameters."""

    constraints: tuple[tuple[Term, str], ...]  # (constraint, origin), oldest first
    outcome: Outcome  # a returned int/bool/None, or a raised exception
    trace: TraceTerm
    events: tuple[Event, ...]  # after the call event: the callee's lines, calls and its return
    choices: tuple[int, ...]
    steps: int
    costs: Costs
    functions: frozenset[str]  # the functions the case activates (the callee's own included)


@dataclass
class Branches:
    """The cases as the tree the callee's run explored: a case's
    constraints are a path from the root, and cases that share a prefix
    share its nodes, so composing checks each guard once, as the run did."""

    children: dict[tuple[Term, str], Branches] = field(default_factory=dict)
    cases: list[int] = field(default_factory=list)  # the cases whose constraints end here


@dataclass(frozen=True)
class Summary:
    predicate: str
    params: tuple[Sym, ...]
    cases: tuple[Case, ...]
    tree: Branches = field(init=False, repr=False, compare=False)
    functions: frozenset[str] = field(init=False, repr=False, compare=False)  # those any case activates

    def __post_init__(self) -> None:
        root = Branches()
        for index, case in enumerate(self.cases):
            node = root
            for constraint in case.constraints:
                node = node.children.setdefault(constraint, Branches())
            node.cases.append(index)
        object.__setattr__(self, "tree", root)
        object.__setattr__(self, "functions", frozenset().union(*(case.functions for case in self.cases)))


@dataclass
class SummaryStats:
    computed: int = 0
    refused: int = 0  # summaries that could not be kept (the callee is run instead)
    composed: int = 0  # calls answered by a summary
    inlined: int = 0  # calls a summary could not answer (a case's function on the stack)
    refusals: dict[str, str] = field(default_factory=dict)  # predicate -> why
    reused: int = 0  # summaries read from the store
    incomplete: int = 0  # summaries refused because a run did not finish (never stored)
    problems: list[str] = field(default_factory=list)  # store files that could not be used


def compositional(criterion: CriterionSpec) -> bool:
    """Does the criterion say the same inside a callee in every context?"""
    parts = (criterion,) if isinstance(criterion, Criterion) else criterion.parts
    return all(part.kind == "loop" for part in parts)


def composable(callee: Predicate) -> bool:
    """A callee worth a summary: a function's entry (not a block, not one
    of the arithmetic builtins, not a generator)."""
    return callee.is_entry and not callee.generator and not callee.wrapper and not callee.name.startswith("$")


class Summaries:
    """The summaries of one search (and the searches it starts), computed
    on demand and kept by predicate and argument sorts; with a `store`,
    also read from and written to disk (engine/summarystore.py)."""

    def __init__(self, engine: Engine, store: SummaryStore | None = None) -> None:
        self.engine = engine
        self.store = store
        options = engine.options
        self.setting = f"{options.criterion};{options.heap};{options.max_list_length}"
        known: dict[SummaryKey, Summary | None] = per_program(engine.program, f"summaries {self.setting}", dict)
        self.known = known  # every search of this program in this process shares them
        self.active: set[SummaryKey] = set()  # being computed (a recursive call inlines)
        self.unfinished: set[SummaryKey] = set()  # runs the deadline cut: not kept past this search
        self.stats = SummaryStats()

    # ------------------------------------------------------------ summarize

    def summary(self, callee: Predicate, sorts: tuple[str, ...]) -> Summary | None:
        key = (callee.name, sorts)
        if key in self.known:
            return self.known[key]
        if key in self.active or key in self.unfinished:
            return None
        stored_key = None
        if self.store is not None:
            stored_key = self.store.key(self.engine.program, callee.name, sorts, self.setting)
            try:
                document = self.store.load(stored_key)
                if document is not None:
                    made = decode_summary(document)
                    self.known[key] = made
                    self.stats.reused += 1
                    if made is None:
                        self.stats.refusals.setdefault(callee.name, str(document.get("refused")))
                    return made
            except BadStoreFile as bad:
                self.stats.problems.append(f"summary store: {bad}; computed again")
            except (KeyError, IndexError, TypeError, ValueError, AttributeError):
                self.stats.problems.append(f"summary store: {self.store.root}: the file for {callee.name} "
                                           "does not hold a summary; computed again")
        self.active.add(key)
        incomplete = self.stats.incomplete
        try:
            made = self._summarize(callee, sorts)
        finally:
            self.active.discard(key)
        if made is None:
            self.stats.refused += 1
        else:
            self.stats.computed += 1
        if self.stats.incomplete != incomplete:
            self.unfinished.add(key)
            return None
        self.known[key] = made
        if self.store is not None and stored_key is not None:
            self.store.save(stored_key, encode_summary(made, self.stats.refusals.get(callee.name)))
        return made

    def _refuse(self, callee: Predicate, why: str) -> None:
        self.stats.refusals.setdefault(callee.name, why)

    def _summarize(self, callee: Predicate, sorts: tuple[str, ...]) -> Summary | None:
        params = tuple(Sym(p, sort) for p, sort in zip(callee.params, sorts))
        stats = EngineStats()
        paths = []
        for path in self.engine.subtree(callee, dict(zip(callee.params, params)), stats, self):
            paths.append(path)
            if len(paths) > MAX_CASES:
                self._refuse(callee, f"more than {MAX_CASES} paths")
                return None
        if stats.stopped or stats.unsupported or stats.unknown:
            self._refuse(callee, "its run was incomplete (stopped, unsupported or unknown)")
            self.stats.incomplete += 1  # not stored: another run may finish it
            return None
        allowed = frozenset(params)
        cases = []
        program = self.engine.program
        for path in paths:
            if not _heap_untouched(path.heap) or path.ext:
                self._refuse(callee, "a path touches the heap")
                return None
            value = path.outcome.value
            if not (value is None or isinstance(value, ExcValue) or is_scalar(value)):
                self._refuse(callee, "a path returns an object")
                return None
            constraints = tuple((n.constraint, n.origin) for n in nodes(path.store))
            used: set[Sym] = set()
            for term, _ in constraints:
                used |= T.symbols(term)
            if is_scalar(value):
                used |= T.symbols(value)
            for cost in (path.costs.steps, path.costs.memory, *path.costs.calls.values()):
                used |= T.symbols(cost)
            if not used <= allowed:
                self._refuse(callee, "a path makes a symbol of its own")
                return None
            cases.append(Case(constraints, path.outcome, path.trace, path.events, path.choices, path.steps,
                              path.costs, _activated(program, path.trace)))
        return Summary(callee.name, params, tuple(cases))

    def bottom_up(self, function: str) -> None:
        """002 Algorithm 1: the summaries of every function `function` may
        call, strongly connected components of the call graph leaves
        first, each entry from the most general context (its parameters'
        declared types); a function whose parameters are not all ints and
        bools is left to on-demand composition at its calls."""
        import networkx  # only bottom-up needs it: not imported by every run

        program = self.engine.program
        graph = per_program(program, "call graph", lambda: call_graph(program))
        if function not in graph:
            return
        below = networkx.descendants(graph, function)
        components = networkx.condensation(graph.subgraph(below))
        for component in reversed(list(networkx.topological_sort(components))):
            for name in sorted(components.nodes[component]["members"]):
                info = program.functions.get(name)
                if info is None or name == function:
                    continue
                sorts = tuple(_PARAM_SORTS.get(t.kind) if not t.optional else None for t in info.param_types)
                if None in sorts or len(sorts) != len(info.params):
                    continue
                self.summary(program.predicate(info.entry), sorts)  # type: ignore[arg-type]  # None excluded

    # -------------------------------------------------------------- compose

    def compose(self, run: Run, state: State, frame: Frame, target: str | None, callee: Predicate,
                args: Sequence[object]) -> Successors | None:
        """The successors of the call `callee(*args)` from its summary, or
        None if the summary cannot stand for the callee's run here."""
        if not args and callee.params or len(args) != len(callee.params):
            return None
        if not all(is_scalar(a) for a in args):
            return None
        on_stack = _active_functions(state)
        if callee.function in on_stack:  # a recursive call: the outer call's summary holds it
            self.stats.inlined += 1
            return None
        sorts = tuple(T.sort_of(a) for a in args)  # type: ignore[arg-type]  # scalars are terms
        summary = self.summary(callee, sorts)
        if summary is None:
            return None
        if summary.functions & on_stack:
            self.stats.inlined += 1
            return None
        called = run.calling(state, callee)  # what running the callee does before its entry
        if called is None:
            return []
        state = called
        self.stats.composed += 1
        mapping: Mapping[Sym, Term] = dict(zip(summary.params, args))  # type: ignore[arg-type]
        reached: list[tuple[int, State]] = []
        todo: list[tuple[Branches, State]] = [(summary.tree, state)]
        while todo:  # the callee's tree again, its guards checked as its run checks them, its code not run
            node, at = todo.pop()
            reached.extend((index, at) for index in node.cases)
            for (condition, origin), child in reversed(node.children.items()):
                narrowed = run.brancher.constrain(at, T.substitute(condition, mapping), origin)
                if narrowed is not None:
                    todo.append((child, narrowed))
        out: Successors = []
        for index, at in sorted(reached, key=lambda reach: reach[0]):  # the callee's paths in its own order
            case = summary.cases[index]
            events = at.events
            for event in case.events:
                events = EventNode(event, events)
            choices = at.choices
            for choice in case.choices:
                choices = ChoiceNode(choice, choices)
            parent = replace(frame, children=frame.children + (case.trace,))
            assert at.stack is not None
            composed = replace(at, stack=Stack(parent, at.stack.rest), events=events, choices=choices,
                               steps=at.steps + case.steps, costs=at.costs.plus(case.costs.substitute(mapping)))
            if case.outcome.kind == "raise":
                assert isinstance(case.outcome.value, ExcValue)
                out.extend(run.throw(composed, case.outcome.value))
                continue
            value = case.outcome.value
            if is_scalar(value):
                value = T.substitute(value, mapping)
            out.append(step(composed, parent, env=parent.env if target is None else {**parent.env, target: value}))
        return out


_PARAM_SORTS = {"int": T.INT, "bool": T.BOOL}


def encode_summary(summary: Summary | None, refused: str | None) -> dict[str, Any]:
    """A summary as a JSON document (a refusal is stored as its reason)."""
    if summary is None:
        return {"refused": refused or "not composable"}
    terms = TermTable()
    traces: list[Any] = []
    cases = []
    for case in summary.cases:
        cases.append({
            "constraints": [[terms.add(c), origin] for c, origin in case.constraints],
            "outcome": encode_outcome(case.outcome, terms),
            "trace": encode_trace(case.trace, traces),
            "events": [list(e) for e in case.events],
            "choices": list(case.choices),
            "steps": case.steps,
            "costs": encode_costs(case.costs, terms),
            "functions": sorted(case.functions),
        })
    return {"predicate": summary.predicate, "params": [terms.add(p) for p in summary.params],
            "terms": terms.rows, "traces": traces, "cases": cases}


def decode_summary(document: dict[str, Any]) -> Summary | None:
    if "refused" in document:
        return None
    terms = decode_terms(document["terms"])
    traces = decode_traces(document["traces"])
    params = tuple(terms[i] for i in document["params"])
    if not all(isinstance(p, Sym) for p in params):
        raise ValueError("a parameter is not a symbol")
    cases = tuple(Case(
        constraints=tuple((terms[i], str(origin)) for i, origin in case["constraints"]),
        outcome=decode_outcome(case["outcome"], terms),
        trace=traces[case["trace"]],
        events=tuple(tuple(e) for e in case["events"]),
        choices=tuple(int(c) for c in case["choices"]),
        steps=int(case["steps"]),
        costs=decode_costs(case["costs"], terms),
        functions=frozenset(str(f) for f in case["functions"]),
    ) for case in document["cases"])
    return Summary(str(document["predicate"]), params, cases)


def call_graph(program: Program) -> networkx.DiGraph:
    """Functions, and an edge from each to every function its code calls
    directly (the calls composition can answer)."""
    import networkx

    graph = networkx.DiGraph()
    for pred in program.predicates.values():
        graph.add_node(pred.function)
        for rule in pred.rules:
            for instr in rule.body:
                if isinstance(instr, Call) and instr.predicate in program.predicates:
                    graph.add_edge(pred.function, program.predicates[instr.predicate].function)
    return graph


def _heap_untouched(heap: Heap) -> bool:
    return not (heap.cells or heap.initial or heap.roots or heap.resolved or heap.ids or heap.writes
                or heap.pending) and heap.next_id == 1


def _walk(trace: TraceTerm) -> Iterator[TraceTerm]:
    todo = [trace]
    while todo:
        term = todo.pop()
        yield term
        todo.extend(term.children)


def _activated(program: Program, trace: TraceTerm) -> frozenset[str]:
    """The functions whose entry the trace shows (each entry is a call)."""
    out = set()
    for term in _walk(trace):
        pred = program.predicate(term.predicate)
        if pred.is_entry:
            out.add(pred.function)
    return frozenset(out)


def _active_functions(state: State) -> frozenset[str]:
    """The functions with an activation on the stack (as `LoopBound.call` counts them)."""
    out = set()
    node = state.stack
    while node is not None:
        top = node.top
        if top.pred.is_entry and not top.via_tail:
            out.add(top.pred.function)
        node = node.rest
    return frozenset(out)
