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

* the arguments are scalars (one symbol each), and at most one object of
  a class the program defines (002's `this`: the input heap of a case is
  that object's fields, one symbol each, and its output heap the writes
  to them; `ObjectParam`);
* no case touches the heap beyond that object's own fields (no object
  made, no reference field followed, no identity compared), keeps
  search-control data, or leaves a symbol other than a parameter or one
  of the object's fields;
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
from pathcraft.engine.machine import Explorer, Machine, Successors
from pathcraft.engine.state import (ChoiceNode, EngineStats, EventNode, Frame, Outcome, Stack, State, SymbolicPath,
                                   step)
from pathcraft.heap.base import is_scalar
from pathcraft.heap.cells import Addr, Heap, Lazy, ObjectCell
from pathcraft.ir.nodes import (Call, CallMethod, GetField, ListOp, NewList, NewObject, Predicate, Program, RepeatList,
                                SetField, Yield)
from pathcraft.ir.types import Type
from pathcraft.ir.trace import Event, TraceTerm
from pathcraft.ir.values import ExcValue
from pathcraft.engine.summarystore import (SummaryStore, TermTable, decode_costs, decode_outcome,
                                           decode_terms, decode_traces, encode_costs, encode_outcome, encode_trace,
                                           per_program, walk_code)
from pathcraft.solver import terms as T
from pathcraft.solver.path import nodes
from pathcraft.solver.terms import Sym, Term

if TYPE_CHECKING:
    import networkx


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
    # the object parameter's fields written, in the order the run wrote them
    # (a field may be written more than once: the symbolic heap logs each write)
    writes: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class ObjectParam:
    """The object a summary's function is called on (or with): its class
    and its fields as the most general context has them, a symbol per
    scalar field (the case's input heap is over them) and None for a
    reference field (which no case reads)."""

    index: int  # among the function's parameters
    cls: str
    fields: tuple[tuple[str, Sym | None], ...]


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
    params: tuple[Sym | None, ...]  # None: the object parameter
    cases: tuple[Case, ...]
    obj: ObjectParam | None = None
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

    def __init__(self, engine: Explorer, store: SummaryStore | None = None) -> None:
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
            document, made, problem = self.store.read(
                stored_key, decode_summary, f"the file for {callee.name} does not hold a summary", "computed again")
            if document is not None:
                self.known[key] = made
                self.stats.reused += 1
                if made is None:
                    self.stats.refusals.setdefault(callee.name, str(document.get("refused")))
                return made
            if problem is not None:
                self.stats.problems.append(problem)
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
        context = self._context(callee, sorts)
        if context is None:
            return None
        params, env, start, obj = context
        stats = EngineStats()
        allowed = frozenset(p for p in params if p is not None)
        if obj is not None:
            allowed |= frozenset(sym for _, sym in obj.fields if sym is not None)
        materialized = frozenset(start.pending)  # the object's identity is positive: the caller's already is
        cases: list[Case] = []
        for path in self.engine.subtree(callee, env, stats, self, start):  # type: ignore[arg-type]  # refs and terms
            if len(cases) == MAX_CASES:
                self._refuse(callee, f"more than {MAX_CASES} paths")
                return None
            if stats.unsupported:  # as deterministic as the code: refused for good
                self._refuse(callee, "a path is not supported")
                return None
            # each path checked as it comes: a search that cannot give a summary stops at its first such path
            case = self._case(callee, path, start, allowed, materialized)
            if case is None:
                return None
            cases.append(case)
        if stats.unsupported:
            self._refuse(callee, "a path is not supported")
            return None
        if stats.stopped or stats.unknown:
            self._refuse(callee, "its run was incomplete (stopped, or a solver query unknown)")
            self.stats.incomplete += 1  # not stored: another run may finish it
            return None
        return Summary(callee.name, tuple(params), tuple(cases), obj)

    def _context(self, callee: Predicate, sorts: tuple[str, ...]
                 ) -> tuple[list[Sym | None], dict[str, object], Heap, ObjectParam | None] | None:
        """The most general context of a call with these sorts: a symbol
        per scalar parameter, at most one object (materialized), the heap
        holding it; None (refused) where that context cannot be built."""
        params: list[Sym | None] = []
        env: dict[str, object] = {}
        heap = Heap()
        obj: ObjectParam | None = None
        for index, (name, sort) in enumerate(zip(callee.params, sorts)):
            if not sort.startswith("obj:"):
                params.append(Sym(name, sort))
                env[name] = params[-1]
                continue
            cls = sort.split(":")[1]
            made = self.engine.heap_model.materialize(heap, Type("obj", cls), name)
            if obj is not None or len(made) != 1 or not isinstance(made[0][1], Addr):
                self._refuse(callee, "more than one object argument")
                return None
            heap, addr = made[0][0], made[0][1]
            assert isinstance(addr, Addr)
            cell = heap.cell(addr)
            assert isinstance(cell, ObjectCell)
            if heap.pending and any(not T.symbols(t) <= {heap.ids.get(addr.id)} for t in heap.pending):
                self._refuse(callee, "its object has fields with constraints of their own (strings)")
                return None
            obj = ObjectParam(index, cls, tuple((f, v if isinstance(v, Sym) else None) for f, v in cell.fields.items()))
            params.append(None)
            env[name] = addr
            reaching = _reaches_beyond_fields(self.engine.program, callee.name)
            if reaching is not None:  # found without a search: its run would be refused
                self._refuse(callee, f"its code {reaching}")
                return None
        return params, env, heap, obj

    def _case(self, callee: Predicate, path: SymbolicPath, start: Heap, allowed: frozenset[Sym],
              materialized: frozenset[Term]) -> Case | None:
        """One path of the callee as a case over its parameters; None
        (refused) if it is not closed: it touches the heap beyond its
        object's fields, returns an object, or makes a symbol of its own."""
        writes = _object_writes(start, path.heap)
        if writes is None or path.ext:
            self._refuse(callee, "a path touches the heap beyond its object's fields")
            return None
        value = path.outcome.value
        if not (value is None or isinstance(value, ExcValue) or is_scalar(value)):
            self._refuse(callee, "a path returns an object")
            return None
        constraints = tuple((n.constraint, n.origin) for n in nodes(path.store)
                            if not (n.origin == "heap" and n.constraint in materialized))
        used: set[Sym] = set()
        for term, _ in constraints:
            used |= T.symbols(term)
        for written in (value, *(v for _, v in writes)):
            if is_scalar(written):
                used |= T.symbols(written)
        for cost in (path.costs.steps, path.costs.memory, *path.costs.calls.values()):
            used |= T.symbols(cost)
        if not used <= allowed:
            self._refuse(callee, "a path makes a symbol of its own")
            return None
        return Case(constraints, path.outcome, path.trace, path.events, path.choices, path.steps,
                    path.costs, _activated(self.engine.program, path.trace), writes)

    def bottom_up(self, function: str) -> None:
        """002 Algorithm 1: the summaries of every function `function` may
        call, strongly connected components of the call graph leaves
        first, each entry from the most general context (its parameters'
        declared types: ints, bools, and at most one object, a method's
        `self` most often); any other function is left to on-demand
        composition at its calls."""
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
                sorts = tuple(None if t.optional else _PARAM_SORTS.get(t.kind) if t.kind != "obj" else
                              object_sort(program, t.cls) if t.cls in program.classes else None
                              for t in info.param_types)
                if None in sorts or len(sorts) != len(info.params) \
                        or sum(s.startswith("obj:") for s in sorts) > 1:  # type: ignore[union-attr]  # None excluded
                    continue
                self.summary(program.predicate(info.entry), sorts)  # type: ignore[arg-type]  # None excluded

    # -------------------------------------------------------------- compose

    def compose(self, machine: Machine, state: State, frame: Frame, target: str | None, callee: Predicate,
                args: Sequence[object]) -> Successors | None:
        """The successors of the call `callee(*args)` from its summary, or
        None if the summary cannot stand for the callee's run here."""
        summary = self._usable(state, callee, args)
        if summary is None:
            return None
        mapping: dict[Sym, Term] = {p: a for p, a in zip(summary.params, args)  # type: ignore[misc]  # scalars
                                    if p is not None}
        receiver: Addr | None = None
        if summary.obj is not None:
            arg = args[summary.obj.index]
            assert isinstance(arg, Addr)
            receiver = arg
            fields = self._fields(state.heap, receiver, summary.obj)
            if fields is None:
                return None
            mapping.update(fields)
        called = machine.calling(state, callee)  # what running the callee does before its entry
        if called is None:
            return []
        self.stats.composed += 1
        out: Successors = []
        for index, at in _reached(machine, summary.tree, called, mapping):
            out.extend(self._return(machine, frame, target, summary.cases[index], at, receiver, mapping))
        return out

    def _usable(self, state: State, callee: Predicate, args: Sequence[object]) -> Summary | None:
        """The callee's summary, if one can stand for this call: arguments
        a summary's key takes, and none of the functions its cases
        activate on the stack (the criteria count them)."""
        if not args and callee.params or len(args) != len(callee.params):
            return None
        sorts = self._sorts(state.heap, args)
        if sorts is None:
            return None
        on_stack = _active_functions(state)
        if callee.function in on_stack:  # a recursive call: the outer call's summary holds it
            self.stats.inlined += 1
            return None
        summary = self.summary(callee, sorts)
        if summary is None:
            return None
        if summary.functions & on_stack:
            self.stats.inlined += 1
            return None
        return summary

    def _return(self, machine: Machine, frame: Frame, target: str | None, case: Case, at: State,
                receiver: Addr | None, mapping: Mapping[Sym, Term]) -> Successors:
        """The caller after a case: the callee's events, choices, trace,
        steps, costs and writes appended, its value bound or its exception raised."""
        events = at.events
        for event in case.events:
            events = EventNode(event, events)
        choices = at.choices
        for choice in case.choices:
            choices = ChoiceNode(choice, choices)
        parent = replace(frame, children=frame.children + (case.trace,))
        assert at.stack is not None
        heap = at.heap if receiver is None else self._written(at.heap, receiver, case.writes, mapping)
        composed = replace(at, stack=Stack(parent, at.stack.rest), events=events, choices=choices, heap=heap,
                           steps=at.steps + case.steps, costs=at.costs.plus(case.costs.substitute(mapping)))
        if case.outcome.kind == "raise":
            assert isinstance(case.outcome.value, ExcValue)
            return machine.throw(composed, case.outcome.value)
        value = case.outcome.value
        if is_scalar(value):
            value = T.substitute(value, mapping)
        return [step(composed, parent, env=parent.env if target is None else {**parent.env, target: value})]

    def _sorts(self, heap: Heap, args: Sequence[object]) -> tuple[str, ...] | None:
        """The arguments' sorts (a summary's key), if a summary can stand
        for the call: scalars, and at most one object of a known class."""
        sorts = []
        for arg in args:
            if is_scalar(arg):
                sorts.append(T.sort_of(arg))
                continue
            cell = heap.cell(arg) if isinstance(arg, Addr) else None
            if not isinstance(cell, ObjectCell) or cell.cls not in self.engine.program.classes \
                    or any(sort.startswith("obj:") for sort in sorts):
                return None
            sorts.append(object_sort(self.engine.program, cell.cls))
        return tuple(sorts)

    def _fields(self, heap: Heap, receiver: Addr, obj: ObjectParam) -> dict[Sym, Term] | None:
        """The object's field symbols of the summary, each put for the
        value the callee's run would read from the caller's object (the
        symbolic heap reads through its log of writes); None if the
        caller's object does not have the summary's fields."""
        cell = heap.cell(receiver)
        assert isinstance(cell, ObjectCell)
        if cell.fields.keys() != {name for name, _ in obj.fields}:
            return None
        model = self.engine.heap_model
        out: dict[Sym, Term] = {}
        for name, sym in obj.fields:
            if sym is None:
                continue
            value = cell.fields[name]
            if model.logged_identity(heap, receiver) is not None:  # read through the log of writes
                read = model.get_field(heap, receiver, name)
                if len(read) != 1 or read[0].exc is not None or read[0].constraint is not None:
                    return None
                value = read[0].value
            if isinstance(value, (Addr, Lazy)) or value is None or T.sort_of(value) != sym.sort:  # type: ignore[arg-type]
                return None
            out[sym] = value  # type: ignore[assignment]  # a term of the symbol's sort
        return out

    def _written(self, heap: Heap, receiver: Addr, writes: Sequence[tuple[str, object]],
                 mapping: Mapping[Sym, Term]) -> Heap:
        """The caller's heap after a case's writes to its object: logged
        (with the object's identity) as the symbolic heap logs writes to
        an input object, else written into the cell."""
        if not writes:
            return heap
        values = [(name, T.substitute(v, mapping) if is_scalar(v) else v) for name, v in writes]
        ident = self.engine.heap_model.logged_identity(heap, receiver)
        if ident is not None:
            logs = dict(heap.writes)
            for name, value in values:
                logs[name] = logs.get(name, ()) + ((ident, value),)
            return replace(heap, writes=logs)
        cell = heap.cell(receiver)
        assert isinstance(cell, ObjectCell)
        fields = dict(cell.fields)
        for name, value in values:
            fields[name] = value
        return heap.with_cell(receiver, replace(cell, fields=fields))


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
            "writes": [[name, None if value is None else terms.add(value)]  # type: ignore[arg-type]  # scalars
                       for name, value in case.writes],
        })
    obj = summary.obj
    return {"predicate": summary.predicate, "params": [None if p is None else terms.add(p) for p in summary.params],
            "object": None if obj is None else [obj.index, obj.cls, [[name, None if sym is None else terms.add(sym)]
                                                                      for name, sym in obj.fields]],
            "terms": terms.rows, "traces": traces, "cases": cases}


def decode_summary(document: dict[str, Any]) -> Summary | None:
    if "refused" in document:
        return None
    terms = decode_terms(document["terms"])
    traces = decode_traces(document["traces"])
    params = tuple(None if i is None else terms[i] for i in document["params"])
    if not all(p is None or isinstance(p, Sym) for p in params):
        raise ValueError("a parameter is not a symbol")
    obj = None
    if document["object"] is not None:
        index, cls, fields = document["object"]
        obj = ObjectParam(int(index), str(cls), tuple((str(name), None if i is None else terms[i])
                                                      for name, i in fields))
        if not all(sym is None or isinstance(sym, Sym) for _, sym in obj.fields):
            raise ValueError("a field is not a symbol")
    cases = tuple(Case(
        constraints=tuple((terms[i], str(origin)) for i, origin in case["constraints"]),
        outcome=decode_outcome(case["outcome"], terms),
        trace=traces[case["trace"]],
        events=tuple(tuple(e) for e in case["events"]),
        choices=tuple(int(c) for c in case["choices"]),
        steps=int(case["steps"]),
        costs=decode_costs(case["costs"], terms),
        functions=frozenset(str(f) for f in case["functions"]),
        writes=tuple((str(name), None if i is None else terms[i]) for name, i in case["writes"]),
    ) for case in document["cases"])
    return Summary(str(document["predicate"]), params, cases, obj)


def call_graph(program: Program) -> networkx.DiGraph:
    """Functions, and an edge from each to every function its code calls
    (the calls composition can answer): directly, or by a method call, to
    every method of that name (dispatch picks one by the object's class)."""
    import networkx

    graph = networkx.DiGraph()
    methods: dict[str, list[str]] = {}
    for qualname in program.functions:
        methods.setdefault(qualname.rpartition(".")[2], []).append(qualname)
    for pred in program.predicates.values():
        graph.add_node(pred.function)
        for rule in pred.rules:
            for instr in rule.body:
                if isinstance(instr, Call) and instr.predicate in program.predicates:
                    graph.add_edge(pred.function, program.predicates[instr.predicate].function)
                elif isinstance(instr, CallMethod):
                    graph.add_edges_from((pred.function, method) for method in methods.get(instr.method, ())
                                         if "." in method)
    return graph


def object_sort(program: Program, cls: str) -> str:
    """The sort of an object argument in a summary's key: its class and
    the fields the class declares (a new field makes a new summary)."""
    fields = ",".join(f"{name}={kind}" for klass in reversed(program.mro(cls))
                      for name, kind in program.classes[klass].fields)
    return f"obj:{cls}:{fields}"


def _reaches_beyond_fields(program: Program, predicate: str) -> str | None:
    """What in the code a call of `predicate` can run (its calls, and the
    methods of any class its method calls may dispatch to) reaches beyond
    the scalar fields of its object (a reference field, a new object or
    list, a list operation, a generator), said for the report; None if
    nothing does. Static and cautious: a summary it lets through may
    still be refused by its paths, never the other way round."""
    references = {name for info in program.classes.values() for name, kind in info.fields if kind.is_ref}

    def candidates(instr: object) -> list[str]:
        if not isinstance(instr, CallMethod):
            return []
        return [info.entry for info in program.functions.values() if info.qualname.rpartition(".")[2] == instr.method]

    for pred in walk_code(program, predicate, candidates):
        if pred.generator:
            return "makes a generator"
        for rule in pred.rules:
            for instr in rule.body:
                if isinstance(instr, (GetField, SetField)) and instr.field in references:
                    return f"reads or writes reference field '{instr.field}'"
                if isinstance(instr, (NewObject, NewList, RepeatList, ListOp, Yield)):
                    return "makes an object or a list, or works on a list"
    return None


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b


def _object_writes(start: Heap, end: Heap) -> tuple[tuple[str, object], ...] | None:
    """What a path did to the heap it started with (at most one object):
    the writes to that object's fields, in order; None if it did anything
    else (made an object, followed a reference, logged a write of a
    reference)."""
    if end.initial != start.initial or end.resolved != start.resolved or end.ids != start.ids \
            or end.next_id != start.next_id or not set(end.pending) <= set(start.pending) or end.roots != start.roots \
            or end.cells.keys() != start.cells.keys():
        return None
    writes: list[tuple[str, object]] = []
    for key, cell in end.cells.items():
        before = start.cells[key]
        if not isinstance(cell, ObjectCell) or not isinstance(before, ObjectCell) or cell.cls != before.cls:
            return None
        for name, value in cell.fields.items():
            if name not in before.fields or not _same(before.fields[name], value):
                writes.append((name, value))
    for name, log in end.writes.items():  # the symbolic heap's writes to input objects
        writes.extend((name, value) for _, value in log)
    if not all(value is None or is_scalar(value) and not isinstance(value, Lazy) for _, value in writes):
        return None
    return tuple(writes)


def _reached(machine: Machine, tree: Branches, state: State, mapping: Mapping[Sym, Term]) -> list[tuple[int, State]]:
    """The callee's tree again, its guards checked as its run checks them,
    its code not run: each case reached with the state that reaches it,
    in the callee's own order of paths."""
    reached: list[tuple[int, State]] = []
    todo: list[tuple[Branches, State]] = [(tree, state)]
    while todo:
        node, at = todo.pop()
        reached.extend((index, at) for index in node.cases)
        for (condition, origin), child in reversed(node.children.items()):
            narrowed = machine.brancher.constrain(at, T.substitute(condition, mapping), origin)
            if narrowed is not None:
                todo.append((child, narrowed))
    return sorted(reached, key=lambda reach: reach[0])


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
