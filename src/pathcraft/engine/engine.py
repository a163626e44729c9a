"""CLP-style symbolic execution of the CLP-translated program.

A state is a resolvent: a stack of frames (predicate, chosen rule, position
in its body, bindings), the path constraints, a model of them, and the
partial trace. Entering a predicate is the choice point: the state forks
into one child per rule whose guard the solver chain finds satisfiable.
Straight-line instructions run without going back to the searcher.

Frames entered by a tail call (`Goto`, the next block of the same function)
pass their outcome straight to the frame below; frames entered by `Call`
hand a value back to the caller's instruction, or an exception to the
caller block's handler. All parts of a state are immutable or copied on
write, so forking is cheap and siblings never interfere.

`Engine` holds what outlives one exploration (the solver chain and its
caches, the statistics); `Run` is one exploration of one function, built
from explicit collaborators: the evaluator, the heap executor, the brancher
(the one place conditions meet the path) and the stacked search controls.
"""

from __future__ import annotations

import time
from pathlib import Path
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import replace

from pathcraft.cost.models import Costs
from pathcraft.engine import cache, dicts, generators, namedtuples, objeq, objorder
from pathcraft.engine.branch import Brancher, ModelBrancher
from pathcraft.engine.concretize import Concretizer
from pathcraft.engine.control import SearchControl, Verdict
from pathcraft.engine.evaluate import Evaluator, Raised, is_ref
from pathcraft.engine.heapstep import Effect, HeapExecutor, concrete_bindings
from pathcraft.engine.criteria import Criteria, Criterion
from pathcraft.engine.options import EngineOptions, build_controls
from pathcraft.engine.search import make_searcher
from pathcraft.engine.state import (
    ChoiceNode,
    EngineStats,
    Entry,
    EventNode,
    Frame,
    Outcome,
    Stack,
    State,
    SymbolicPath,
    step,
)
from pathcraft.engine.strings import Mismatch, percent_format
from pathcraft.engine.summaries import Summaries, composable, compositional
from pathcraft.engine.summarystore import SummaryStore
from pathcraft.engine.values import UNDEFINED, Value, value_kind
from pathcraft.errors import Unsupported
from pathcraft.frontend.bitops import BIT_PREDICATES
from pathcraft.frontend.builtins import PRINT
from pathcraft.frontend.generators import SOURCE_PREFIX as GENERATOR_SOURCE
from pathcraft.heap.deques import DEQUE_AS_LIST
from pathcraft.heap.base import (HeapModel, HeapResult, attribute_error, called_field, is_scalar,
                                 uncertain_attribute)
from pathcraft.heap.cells import Addr, DictCell, GeneratorCell, Heap, Lazy, ListCell, ObjectCell, ViewCell
from pathcraft.heap.factory import make_heap_model
from pathcraft.ir.builtin_names import (
    FLOAT_BUILTINS,
    ITERATE,
    NEW_DEFAULTDICT,
    NEW_DICT,
    NEW_SET,
    NUMBER_CONVERSIONS,
    ADD,
    EQ,
    OBJECT_EQ,
    OBJECT_ORDER,
    ORDERINGS,
    IADD,
    LIST_PROTOCOL,
    PROTOCOLS,
    function_predicate,
    method_predicate,
)
from pathcraft.ir.nodes import (
    EXC_VAR,
    Assign,
    Binary,
    Const,
    Expr,
    BindException,
    Call,
    CallMethod,
    CheckMethod,
    FunctionInfo,
    GetField,
    Goto,
    ListOp,
    Mark,
    NewList,
    NewObject,
    Predicate,
    Program,
    Raise,
    RepeatList,
    Return,
    SetField,
    Text,
    Unary,
    Var,
    Yield,
)
from pathcraft.ir import pure_calls
from pathcraft.ir.trace import Event, TraceTerm
from pathcraft.ir.values import ExcValue
from pathcraft.solver import floats
from pathcraft.solver import terms as T
from pathcraft.solver.chain import SolverChain
from pathcraft.solver.terms import Model, Sym, Term

Successors = list[State | SymbolicPath]

# list operations an object may implement itself
_PROTOCOL = {"len": "__len__", "get": "__getitem__", "set": "__setitem__", "iter": "__iter__"}

# builtin predicates over ints: entered only when every operand is an int or bool (or a float, for
# those `FLOAT_BUILTINS` replaces or that compare only)
_INT_BUILTINS = frozenset({"int_mod", "int_floordiv", "int_divmod", "int_pow", "abs", "min", "max"}) | BIT_PREDICATES


# The kinds of argument a list method takes as a sequence; others raise
# TypeError (None, numbers) or drop the path (an object's protocols, dicts).
_SEQUENCE_ARGUMENT = {
    ("list", ADD): ("list",),
    ("list", IADD): ("list", "tuple", "str", "deque"),
    ("list", "extend"): ("list", "tuple", "str", "deque"),
    ("deque", IADD): ("list", "tuple", "str", "deque"),
    ("deque", "extend"): ("list", "tuple", "str", "deque"),
    ("deque", "extendleft"): ("list", "tuple", "str", "deque"),
}


class Engine:
    """Explores functions of one program under one set of options."""

    def __init__(self, program: Program, options: EngineOptions | None = None) -> None:
        self.program = program
        self.options = options or EngineOptions()
        self.solver = SolverChain(self.options.solver)
        self.solvers = [self.solver]  # with those of the sibling engines that ran searches for it
        self.heap_model: HeapModel = make_heap_model(self.options.heap, program, self.options.max_list_length,
                                                     self.options.assumptions)
        self.stats = EngineStats()
        self.brancher = Brancher(self.solver, self.stats)
        self.summaries: Summaries | None = None  # made by the first search that composes

    def sibling(self, options: EngineOptions, stats: EngineStats | None = None) -> Engine:
        """An engine for another search of the same program under `options`,
        sharing this one's statistics (or keeping `stats`), with a solver and a heap model of its
        own: the guided schemes run one search per trace and leave each at
        its first path, which can leave an incremental solver session
        mid-search. Its solver is listed in `solvers` for the counts."""
        other = Engine.__new__(Engine)
        other.program = self.program
        other.options = options
        other.solver = SolverChain(options.solver)
        other.solvers = [other.solver]
        self.solvers.append(other.solver)
        other.heap_model = make_heap_model(options.heap, self.program, options.max_list_length, options.assumptions)
        other.stats = self.stats if stats is None else stats
        other.brancher = Brancher(other.solver, other.stats)
        other.summaries = None
        return other

    def arrives_in_order(self) -> bool:
        """Do paths come out in depth-first order (the canonical one)? If
        not, a caller that writes them sorts them by `SymbolicPath.choices`."""
        searcher = build_controls(self.options, self.brancher).searcher()
        return searcher is None or searcher.in_order

    def explore(self, qualname: str) -> Generator[SymbolicPath, None, None]:
        """Yield the paths of `qualname` as they are found."""
        info = self.program.functions[qualname]
        controls = build_controls(self.options, self.brancher)
        brancher = Brancher(self.solver, self.stats, controls)
        evaluator = Evaluator(self.program, self.heap_model)
        heap = HeapExecutor(self.program, self.heap_model, evaluator, brancher, controls, self.options.size_model)
        run = Run(self.program, info, self.heap_model, evaluator, heap, brancher, controls, self.stats,
                  Concretizer(brancher, self.stats, self.options.concolic) if self.options.concolic else None)
        if self.options.solve_first:
            run.concrete = self._concrete_run(info)
        run.summaries = self._summaries()
        started = time.perf_counter()
        try:
            if run.summaries is not None and self.options.compose == "bottom-up":
                run.summaries.bottom_up(info.qualname)
            try:
                bindings = self._bindings(info, run)
            except Unsupported as unsupported:  # an input the model cannot build: no path at all
                self.stats.note_unsupported(unsupported)
                return
            yield from run.paths(bindings)
        finally:
            self.stats.seconds += time.perf_counter() - started

    def _summaries(self) -> Summaries | None:
        """The summaries a search may compose calls with, if its options
        allow composition (engine/summaries.py); kept for the next search."""
        options = self.options
        if options.compose == "off" or not compositional(options.criterion) or options.controls \
                or options.cost_bounds or options.concolic or options.solve_first or options.concrete is not None:
            return None
        if self.summaries is None:
            store = SummaryStore(Path(options.summary_store)) if options.summary_store else None
            self.summaries = Summaries(self, store)
        return self.summaries

    def subtree(self, callee: Predicate, env: Mapping[str, Value], stats: EngineStats,
                summaries: Summaries, heap: Heap | None = None) -> Iterator[SymbolicPath]:
        """The paths of `callee` entered with `env` on an empty stack and
        `heap` (the objects of `env`; empty by default): a summary's cases. Searched under the criteria and the
        deadline only, with a solver and `stats` of its own; its own calls
        are composed with `summaries`."""
        options = replace(self.options, controls=(), cost_bounds=(), max_paths=None, solve_first=False, concolic=0)
        solver = SolverChain(options.solver)
        self.solvers.append(solver)
        anchor = next(iter(self.program.functions.values()))  # a run needs a function; its paths are not tests
        run = self._assembled(anchor, options, Brancher(solver, stats), stats)
        run.summaries = summaries
        start = State(None, None, {}, None, 0, heap if heap is not None else Heap(), Costs())
        starts: Successors = list(run.enter(start, callee, env, False, {}))
        yield from run.search(starts)

    def probes(self, qualname: str, seeds: Sequence[Model], loops: int) -> Iterator[SymbolicPath]:
        """The path each of `seeds` (values of the inputs) takes, its loops
        bounded by `loops` iterations instead of the criteria (long probes,
        engine/probes.py); seeds that take no path within the bound,
        `PROBE_STEPS` choice points and `PROBE_RULES` rule applications are
        skipped (budgets, not a clock: the same probes find the same paths
        on any machine). The rules bound a run without choices: a probe
        follows its values, so a double recursion on 36 (`lucas(n - 1) +
        lucas(n - 2)`, 30 million calls) is one choice point. No seed starts
        after the run's deadline."""
        info = self.program.functions[qualname]
        bounds = Criteria((Criterion("loop", loops), Criterion("depth", PROBE_RULES)))
        run = self._concrete_run(info, replace(self.options, criterion=bounds, controls=()))
        try:
            bindings = run.initial_bindings()
        except Unsupported:
            return
        for seed in seeds:
            if self.options.deadline is not None and time.monotonic() > self.options.deadline:
                return
            found = run.probe(bindings, seed)
            if found is not None:
                yield found

    def _concrete_run(self, info: FunctionInfo, base: EngineOptions | None = None) -> Run:
        """A run that follows each state's model (Solve-First's concrete
        runs): the termination criteria and the time budget, nothing else;
        its steps are not counted with the search's."""
        base = base or self.options
        obeyed = tuple(c for c in (control.for_concrete_runs() for control in base.controls) if c)
        options = replace(base, controls=obeyed, max_paths=None, cost_bounds=(), solve_first=False)
        stats = EngineStats()
        brancher = ModelBrancher(self.solver, stats)
        run = self._assembled(info, options, brancher, stats)
        run.concretizer = Concretizer(brancher, stats, 1) if self.options.concolic else None
        return run

    def _assembled(self, info: FunctionInfo, options: EngineOptions, brancher: Brancher,
                   stats: EngineStats) -> Run:
        """A run of `info` under `options`' controls, deciding with `brancher`."""
        controls = build_controls(options, brancher)
        brancher.controls = controls
        evaluator = Evaluator(self.program, self.heap_model)
        heap = HeapExecutor(self.program, self.heap_model, evaluator, brancher, controls, self.options.size_model)
        return Run(self.program, info, self.heap_model, evaluator, heap, brancher, controls, stats)

    def _bindings(self, info: FunctionInfo, run: Run) -> list[tuple[Heap, dict[str, Value]]]:
        if self.options.concrete is not None:
            inputs, snapshot = self.options.concrete
            return [concrete_bindings(info, inputs, snapshot)]  # type: ignore[arg-type]  # snapshot descriptions
        return run.initial_bindings()


PROBE_STEPS = 5000  # choice points a probe's run may pass (engine/probes.py)
PROBE_RULES = 20000  # rule applications a probe's run may make


class Run:
    """One exploration of one function (the per-run context)."""

    def __init__(self, program: Program, function: FunctionInfo, heap_model: HeapModel, evaluator: Evaluator,
                 heap: HeapExecutor, brancher: Brancher, controls: SearchControl, stats: EngineStats,
                 concretizer: Concretizer | None = None) -> None:
        self.program = program
        self.concretizer = concretizer  # concolic mode: allow-listed calls run on concrete values
        self.concrete: Run | None = None  # Solve-First: runs alternatives on their model's values
        self.function = function
        self.heap_model = heap_model
        self.evaluator = evaluator
        self.heap = heap
        self.brancher = brancher
        self.controls = controls
        self.stats = stats
        self.summaries: Summaries | None = None  # composition of calls (engine/summaries.py)
        self.inputs = tuple(
            Sym(p, _SORT_OF_KIND[t.kind])
            for p, t in zip(function.params, function.param_types) if t.kind in _SORT_OF_KIND
        )

    # -------------------------------------------------------------- driving

    def paths(self, bindings: Sequence[tuple[Heap, Mapping[str, Value]]]) -> Iterator[SymbolicPath]:
        return self.search(self.starts(bindings))

    def search(self, starts: Successors) -> Iterator[SymbolicPath]:
        """The paths below `starts`, in the order the searcher hands them out."""
        offered = self.controls.searcher()
        searcher = offered if offered is not None else make_searcher("dfs")
        searcher.add(starts)
        while len(searcher):
            reason = self.controls.stop_reason()
            if reason is not None:
                self.stats.stopped = reason
                return
            item = searcher.pop()
            if isinstance(item, State):
                # completed paths wait in the searcher like open states, so a
                # depth-first searcher hands them out in depth-first order
                successors = self.advance(item)
                searcher.add(successors)
                if self.concrete is not None and len(successors) > 1:
                    for ran in self._solve_first(successors[1:]):
                        self.stats.paths += 1
                        self.stats.concrete_kept += 1
                        yield ran
                        if self.controls.stop_reason() is not None:
                            break
                continue
            verdict = self.controls.finished(item)
            if verdict is Verdict.DROP:
                continue
            self.stats.paths += 1
            yield item
            if verdict is Verdict.STOP:
                self.stats.stopped = self.controls.stop_reason() or "stopped by a search control"
                return

    def starts(self, bindings: Sequence[tuple[Heap, Mapping[str, Value]]], model: Model | None = None) -> Successors:
        """The states entering the function, one per binding of its inputs
        and first choice; `model`: the values they start from (a probe's)."""
        info = self.function
        starts: Successors = []
        entry = self.program.predicate(info.entry)
        for index, (heap, env) in enumerate(bindings):
            if entry.wrapper:  # the wrapper's call of the function is the call
                fresh = State(None, None, model or {}, None, 0, heap, Costs())
            else:
                fresh = State(None, None, model or {}, EventNode(("call", info.qualname), None), 0, heap,
                              Costs().call(info.qualname))
            if len(bindings) > 1:
                fresh = fresh.chose(index)
            root = self.brancher.settle(fresh)
            if root is None:
                continue
            if info.generator:  # its test takes every item: `list(f(...))`, run as the prelude's loop
                made, addr = generators.new(replace(root, events=None, costs=Costs()), entry, dict(env))
                consume = self.program.predicate(method_predicate("generator", LIST_PROTOCOL))
                starts.extend(self.enter(made, consume, {consume.params[0]: addr}, False, {}))
                continue
            starts.extend(self.enter(root, entry, env, False, {}))
        return starts

    def probe(self, bindings: Sequence[tuple[Heap, Mapping[str, Value]]], seed: Model) -> SymbolicPath | None:
        """The path the input values `seed` take, run with the model
        brancher (engine/probes.py); None if they take none within the
        criteria and the step budget."""
        for start in self.starts(bindings, seed):
            ran = start if isinstance(start, SymbolicPath) else self.run_to_end(start, budget=PROBE_STEPS)
            if ran is not None:
                return ran
        return None

    def _solve_first(self, alternatives: Sequence[State | SymbolicPath]) -> Iterator[SymbolicPath]:
        """Solve-First (004 §5): the alternatives the depth-first search will
        come back to were solved when they were made (each carries a model);
        each is now run to its end on those values, without the solver, and
        the path offered to the controls. An item search keeps it if it
        covers a new item, and Look-Ahead may then skip the alternative."""
        assert self.concrete is not None
        for alternative in alternatives:
            if not isinstance(alternative, State):
                continue
            self.stats.concrete_runs += 1
            ran = self.concrete.run_to_end(alternative)
            if ran is not None and self.controls.finished(ran) is not Verdict.DROP:
                yield ran

    def run_to_end(self, state: State, budget: int = 2000) -> SymbolicPath | None:
        """The first path from `state` (depth-first, at most `budget` steps):
        with the model brancher, the one its model's values take."""
        todo: list[State | SymbolicPath] = [state]
        for _ in range(budget):
            if not todo:
                return None
            item = todo.pop()
            if isinstance(item, SymbolicPath):
                return item
            todo.extend(reversed(self.advance(item)))
        return None

    def initial_bindings(self) -> list[tuple[Heap, dict[str, Value]]]:
        """Inputs: a symbol per int/bool parameter; each reference parameter
        materialized by the heap model (one binding per choice)."""
        bindings: list[tuple[Heap, dict[str, Value]]] = [(Heap(), {})]
        for name, kind in zip(self.function.params, self.function.param_types):
            extended: list[tuple[Heap, dict[str, Value]]] = []
            for heap, env in bindings:
                if kind.kind in _SORT_OF_KIND and kind.optional:  # `int | None` (frontend/optional.py): None first
                    extended.append((heap.with_root(name, None), {**env, name: None}))
                if kind.kind in _SORT_OF_KIND:
                    symbol = Sym(name, _SORT_OF_KIND[kind.kind])
                    if kind.kind == "str":  # inputs are printable ASCII (solver/strings.py)
                        heap = heap.constrain(T.apply("printable", symbol))
                    value: Value = symbol
                    extended.append((heap.with_root(name, value), {**env, name: value}))
                    if name in self.function.probes:  # a float where the function checks for an int
                        probe = Sym(name, T.FLOAT)
                        extended.append((heap.with_root(name, probe), {**env, name: probe}))
                    continue
                for h, v in self.heap_model.materialize(heap, kind, name):
                    extended.append((h.with_root(name, v), {**env, name: v}))  # type: ignore[dict-item]  # refs
            bindings = extended
        return bindings

    # ------------------------------------------------------- rule selection

    def _forced(self, state: State) -> bool:
        """Was the step into this loop body no choice: did the loop's head
        (the frame that jumps here) decide on constants alone, as a prelude
        method walking a list of known length (`x in TABLE`) does? Then
        Python goes on to the end, and so does the search, whatever the
        loop bound. A `while True` (constant guards) is never forced."""
        if state.stack is None:
            return False
        head = state.stack.top
        rules = head.pred.rules
        if len(rules) < 2 or any(r.guard is None or isinstance(r.guard, Const) for r in rules):
            return False
        try:
            return all(isinstance(self.evaluator.guard(r.guard, head.env, state.heap), bool)
                       for r in rules if r.guard is not None)
        except (Raised, Unsupported):
            return False
        finally:
            self.evaluator.take_domain()

    def enter(self, state: State, pred: Predicate, env: Mapping[str, Value], via_tail: bool,
              loops: Mapping[str, int]) -> list[State]:
        """Push `pred` with bindings `env`: one child state per feasible rule."""
        if pred.iterates is not None:
            loops = {**loops, pred.iterates: loops.get(pred.iterates, 0) + 1}
        stepped = replace(state, steps=state.steps + 1, costs=state.costs.step())
        admitted = self.controls.enter(stepped, Entry(pred, loops, via_tail))
        if admitted is None and pred.builtin and pred.function.startswith("$") and pred.iterates is not None \
                and via_tail and self._forced(state):
            admitted = stepped  # a builtin's loop over data of known length: not a choice the bound limits
        charged = self.controls.charged(admitted) if admitted is not None else None
        if charged is None:
            self.stats.pruned += 1
            return []
        state = charged
        events = state.events
        for line in pred.marks:
            events = EventNode(("line", pred.function, line), events)
        rules = self.controls.rules(state, pred, pred.rules)
        out: list[State] = []
        for rule in rules:
            self.stats.steps += 1
            # numbered among all the rules (a guide may have kept only some), so
            # a guided search's paths sort as the same paths of the full search
            choices = ChoiceNode(rule.index, state.choices) if len(pred.rules) > 1 else state.choices
            base = replace(state, stack=Stack(Frame(pred, rule, 0, env, (), via_tail, loops), state.stack),
                           events=events, choices=choices)
            if rule.guard is None:
                out.append(base)
                continue
            try:
                guard = self.evaluator.guard(rule.guard, env, state.heap)
            except Raised:
                self.evaluator.take_domain()
                continue  # guards are total on defined values
            except Unsupported as unsupported:
                self.evaluator.take_domain()
                self.stats.note_unsupported(unsupported)
                continue
            within = self.within_domain(base)
            kept = self.brancher.constrain(within, guard) if within is not None else None
            if kept is not None:
                out.append(kept)
        return out

    # ------------------------------------------------------------ execution

    def advance(self, state: State) -> Successors:
        """Run the top frame until a choice point or the end of the path."""
        while True:
            assert state.stack is not None
            frame = state.stack.top
            instr = frame.rule.body[frame.pc]
            if not isinstance(instr, (Mark, CheckMethod)):  # marks and checks are free
                state = replace(state, costs=state.costs.step())
            try:
                if isinstance(instr, Mark):
                    event: Event = ("line", frame.pred.function, instr.line)
                    if state.events is not None and state.events.event == event:
                        state = step(state, frame)  # the same line again: the tracer's repeat is no event
                    else:
                        state = step(state, frame, events=EventNode(event, state.events))
                    continue
                if isinstance(instr, Assign):
                    value = self.evaluator.eval(instr.value, frame.env, state.heap)
                    within = self.within_domain(state)
                    if within is None:
                        return []
                    state = step(within, frame, env={**frame.env, instr.target: value})
                    continue
                if isinstance(instr, BindException):
                    state = step(state, frame, env={**frame.env, instr.target: frame.env[EXC_VAR]})
                    continue
                successors = self.execute(state, frame, instr)
                limits = self.evaluator.limits
                leftover = self.evaluator.take_domain()  # a heap instruction's value, say
                if leftover is not True:
                    self.count_limits(state, limits)
                    constrained = (self.brancher.constrain(s, leftover, origin="domain") if isinstance(s, State)
                                   else s for s in successors)
                    successors = [s for s in constrained if s is not None]
            except Raised as raised:
                self.evaluator.take_domain()
                successors = self.throw(state, raised.exc)
            except Unsupported as unsupported:
                self.evaluator.take_domain()
                self.stats.note_unsupported(unsupported)
                return []
            if len(successors) == 1 and isinstance(successors[0], State):
                state = successors[0]
                continue
            return successors

    def execute(self, state: State, frame: Frame, instr: object) -> Successors:
        """An instruction that may fork, call, or end the frame."""
        if isinstance(instr, CallMethod):
            return self.call_method(state, frame, instr)
        if isinstance(instr, CheckMethod):
            return self.check_method(state, frame, instr)
        if isinstance(instr, (ListOp, Yield)) or isinstance(instr, Call) and instr.predicate == ITERATE:
            walked = self.walk(state, frame, instr)
            if walked is not None:
                return walked
        if isinstance(instr, ListOp) and dicts.is_dict_like(state.heap, self.evaluator.eval(instr.lst, frame.env,
                                                                                         state.heap)):
            return self.dict_op(state, frame, instr)
        if isinstance(instr, ListOp) and dicts.entry_part(instr.args) is not None:
            raise Unsupported("'for a, b in x.items()' where x is not a dict")
        if isinstance(instr, Call) and instr.predicate in (NEW_DICT, NEW_SET, NEW_DEFAULTDICT):
            parts = tuple(self.evaluator.eval(a, frame.env, state.heap) for a in instr.args)
            built = dicts.build(state.heap, instr.predicate, parts)
            return self.dict_effects(state, frame, instr.target, built)
        if isinstance(instr, ListOp) and instr.op == "truth":  # `if x:` in a module with `__bool__`/`__len__`
            return self.object_truth(state, frame, instr)
        if isinstance(instr, ListOp) and instr.op in _PROTOCOL:
            subject = self.evaluator.eval(instr.lst, frame.env, state.heap)
            cell = state.heap.cell(subject) if isinstance(subject, Addr) else None
            if isinstance(cell, ObjectCell) and frame.pred.builtin and instr.op != "iter":  # `sum(obj)` iterates it
                raise Unsupported(f"a builtin walking an object of class {cell.cls} (its __iter__ not followed)")
            if isinstance(cell, ObjectCell) and self.program.resolve_method(cell.cls, _PROTOCOL[instr.op]):
                if instr.op == "iter" and generators.generator_method(self, subject, state.heap) is not None:
                    return [step(state, frame)]  # a loop walks the generator its `__iter__` makes
                if generators.is_loop_step(instr):
                    raise Unsupported(f"a loop over an object of class {cell.cls} (its __iter__ not called)")
                if instr.op != "len":  # x[i], x[i] = v, for v in x on a class that defines them
                    raise Unsupported(f"{_PROTOCOL[instr.op]} of class {cell.cls}")
                return self.call_method(state, frame, CallMethod(instr.target, instr.lst, "__len__", (), instr.line))
        if isinstance(instr, (GetField, SetField)):
            subject = self.evaluator.eval(instr.obj, frame.env, state.heap)
            if namedtuples.tag(state.heap, subject) is not None:  # a NamedTuple's field
                assert isinstance(subject, Addr)
                if isinstance(instr, SetField):
                    return self.throw(state, namedtuples.assignment_error())
                value = namedtuples.read(state.heap, subject, instr.field)
                return [step(state, frame, env={**frame.env, instr.target: value})]  # type: ignore[dict-item]
            accessed = self.property_access(state, frame, instr)
            if accessed is not None:
                return accessed
        if isinstance(instr, (NewObject, NewList, GetField, RepeatList, ListOp)):
            effects = self.heap.execute(state, instr, frame.env)
            if isinstance(instr, ListOp) and instr.op == "len" and frame.pred.builtin:
                effects = [_type_error_by_type(e) for e in effects]
            return self.effects(frame, instr.target, effects)
        if isinstance(instr, SetField):
            return self.effects(frame, None, self.heap.execute(state, instr, frame.env))
        if isinstance(instr, Call):
            callee = self.program.predicate(instr.predicate)
            args = [self.evaluator.eval(a, frame.env, state.heap) for a in instr.args]
            within = self.within_domain(state)
            if within is None:
                return []
            state = within
            if callee.name in pure_calls.PREDICATE_NAMES and self.concretizer is not None:
                return self.concrete_call(state, frame, instr.target, args)
            if callee.name in NUMBER_CONVERSIONS and not any(floats.is_float(a) for a in args):
                value = self.evaluator.eval(Unary("int", instr.args[0]), frame.env, state.heap)  # int(n), round(n)
                return [step(state, frame, env=frame.env if instr.target is None else
                             {**frame.env, instr.target: value})]
            if callee.name == function_predicate("int") and floats.is_float(args[0]):
                callee = self.program.predicate("float_to_int")  # `int(x)` the frontend could not type
            if callee.name in _INT_BUILTINS and not all(is_scalar(a) or floats.is_float(a) for a in args):
                return self.non_int_operands(state, frame, instr, args)  # before a float picks float_mod: 'a' % 0.0
            if any(floats.is_float(a) for a in args):
                if callee.name in BIT_PREDICATES:  # & | ^ << >> on a float
                    return self.throw(state, ExcValue("TypeError", None))
                if callee.name == "int_pow":
                    raise Unsupported("'**' on floats (libm's pow is not modelled)")
                callee = self.program.predicate(FLOAT_BUILTINS.get(callee.name, callee.name))
            if callee.name == PRINT:
                self.check_printable(args[0], state.heap)
            if callee.generator:
                return [generators.make(state, frame, instr.target, callee, dict(zip(callee.params, args)))]
            cached = self.program.functions.get(callee.function) if callee.is_entry else None
            if cached is not None and cached.cached and cached.entry == callee.name:
                return self.cached_call(state, frame, instr, cached, args)
            if self.summaries is not None and composable(callee):
                composed = self.summaries.compose(self, state, frame, instr.target, callee, args)
                if composed is not None:
                    return composed
            return list(self.invoke(state, callee.name, dict(zip(callee.params, args))))
        if isinstance(instr, Goto):
            callee = self.program.predicate(instr.block)
            env = {p: frame.env.get(_var_name(a), UNDEFINED) for p, a in zip(callee.params, instr.args)}
            loops = frame.loops
            if instr.enters_loop is not None:
                loops = {**loops, instr.enters_loop: 0}
            return list(self.enter(state, callee, env, True, loops))
        if isinstance(instr, Return):
            value = self.evaluator.eval(instr.value, frame.env, state.heap)
            within = self.within_domain(state)
            if within is None:
                return []
            state = within
            if isinstance(value, Text) and value.value is None:
                raise Unsupported("returning an f-string (its text is not computed)")
            return self.finish(state, Outcome("return", value))
        if isinstance(instr, Raise):
            return self.throw(state, self._raised(instr, frame))
        raise AssertionError(f"unknown instruction {instr!r}")

    def concrete_call(self, state: State, frame: Frame, target: str | None, args: list[Value]) -> Successors:
        """`$concrete<n>(message, function, *arguments)` in concolic mode: the
        allow-listed function run on the model's values (engine/concretize.py)."""
        assert self.concretizer is not None
        out: Successors = []
        for sample in self.concretizer.run(state, args[1], args[2:]):
            if sample.raised is not None:
                out.extend(self.throw(sample.state, sample.raised))
            else:
                out.append(step(sample.state, frame, env=frame.env if target is None else
                                {**frame.env, target: sample.result}))
        return out

    def walk(self, state: State, frame: Frame, instr: ListOp | Yield | Call) -> Successors | None:
        """Generators (`engine/generators.py`): a yield, `$iterate(x)`, a
        loop's step on a generator or its close; None for anything else."""
        if isinstance(instr, Yield):
            return generators.suspend(self, state, frame, instr)
        if isinstance(instr, Call):  # `$iterate(x)`: x, or the generator its class's `__iter__` makes
            subject = self.evaluator.eval(instr.args[0], frame.env, state.heap)
            method = generators.generator_method(self, subject, state.heap)
            if method is None:
                return [step(state, frame, env=frame.env if instr.target is None else
                             {**frame.env, instr.target: subject})]
            return [generators.make(state, frame, instr.target, method, {method.params[0]: subject}, owned=True)]
        subject = self.evaluator.eval(instr.lst, frame.env, state.heap)
        cell = state.heap.cell(subject) if isinstance(subject, Addr) else None
        if isinstance(cell, GeneratorCell):
            assert isinstance(subject, Addr)
            return generators.loop_op(self, state, frame, instr, subject, cell)
        if instr.op == "close":
            return [step(state, frame)]  # a loop over a list: nothing to close
        return None

    def dict_op(self, state: State, frame: Frame, instr: ListOp) -> Successors:
        """`d[k]`, `d[k] = v`, `del d[k]`, `len(d)` or a loop's step over a
        dict, set or view (`engine/dicts.py`); the loop's site is its line
        and the number of calls below it (blocks are tail-called frames)."""
        subject = self.evaluator.eval(instr.lst, frame.env, state.heap)
        assert isinstance(subject, Addr)
        if isinstance(instr.lst, Var) and instr.lst.name.startswith(GENERATOR_SOURCE):
            raise Unsupported("a generator expression over a dict, set or view (walked by position)")
        args = tuple(self.evaluator.eval(a, frame.env, state.heap) for a in instr.args)
        depth, stack = 0, state.stack
        while stack is not None:
            depth, stack = depth + (not stack.top.via_tail), stack.rest
        builtin = frame.pred.function if frame.pred.builtin else None
        results = dicts.list_op(state.heap, instr.op, subject, args, (instr.line, depth), builtin)
        return self.dict_effects(state, frame, instr.target, results)

    def dict_effects(self, state: State, frame: Frame, target: str | None, results: list[HeapResult]) -> Successors:
        """The outcomes of a dict or set operation, each charged the memory
        its dicts and sets grew by (a slot per key and per value)."""
        effects = []
        for effect in self.heap.apply(state, results):
            grown = dicts.growth(state.heap, effect.state.heap, self.heap.sizes)
            if grown:
                charged = self.controls.charged(replace(effect.state, costs=effect.state.costs.allocate(grown)))
                if charged is None:
                    self.stats.pruned += 1
                    continue
                effect = replace(effect, state=charged)
            effects.append(effect)
        return self.effects(frame, target, effects)

    def within_domain(self, state: State) -> State | None:
        """`state` with the domain conditions of the float conversions just
        evaluated (`floats.in_range`) on its path; None if they cannot hold."""
        limits = self.evaluator.limits
        condition = self.evaluator.take_domain()
        if condition is True:
            return state
        self.count_limits(state, limits)
        return self.brancher.constrain(state, condition, origin="domain")

    def count_limits(self, state: State, limits: list[tuple[Term, str]]) -> None:
        """Count as dropped the paths outside the limits of the model just
        met (`Evaluator.limits`), where they are possible."""
        for condition, reason in limits:
            if self.brancher.feasible(state, T.not_(condition)):
                self.stats.note_unsupported(Unsupported(reason))

    def non_int_operands(self, state: State, frame: Frame, instr: Call, args: list[Value]) -> Successors:
        """`%`, `//`, `**`, `abs`, `min`, `max` on what is not an int: the
        int predicates (with their ZeroDivisionError rules) do not apply.
        `str % x` formats a string (its text is not computed); None raises
        TypeError; strings otherwise, lists and objects (which may define
        the operator) drop the path."""
        if instr.predicate == "int_mod" and isinstance(args[0], Text):
            try:
                text = percent_format(args[0], args[1])
            except Mismatch:
                return self.throw(state, ExcValue("TypeError", None))
            env = frame.env if instr.target is None else {**frame.env, instr.target: text}
            return [step(state, frame, env=env)]
        if any(a is None for a in args) and not any(isinstance(a, (Text, Addr)) for a in args):
            return self.throw(state, ExcValue("TypeError", None))
        raise Unsupported(f"{instr.predicate} on strings, lists or objects")

    def check_printable(self, value: Value, heap: Heap) -> None:
        """`print(x)` calls `str(x)`: an object (or a list holding one) of a
        class that defines how it prints runs module code, which the model
        does not follow; an f-string's text is unknown but printing it is fine."""
        seen: set[int] = set()
        pending: list[object] = [value]
        while pending:
            current = pending.pop()
            if isinstance(current, Lazy) and current.type.kind in ("obj", "list"):
                cls = current.type.cls if current.type.kind == "obj" else \
                    current.type.elem.cls if current.type.elem is not None else None
                if cls is not None and any(self.program.resolve_method(cls, m) or self.program.class_binds(cls, m)
                                           for m in ("__str__", "__repr__", "__format__")):
                    raise Unsupported(f"print() of a {cls} (how it prints is not followed)")
                continue
            if not isinstance(current, Addr) or current.id in seen:
                continue
            seen.add(current.id)
            cell = heap.cell(current)
            if isinstance(cell, ObjectCell):
                for method in ("__str__", "__repr__", "__format__"):
                    if self.program.resolve_method(cell.cls, method) or self.program.class_binds(cell.cls, method):
                        raise Unsupported(f"print() of a {cell.cls} (its {method} is not followed)")
            elif isinstance(cell, ListCell) and cell.items is not None:
                pending.extend(heap.current(item) for item in cell.items)

    @staticmethod
    def _raised(instr: Raise, frame: Frame) -> ExcValue:
        if instr.reraise is not None:
            exc = frame.env[instr.reraise]
            assert isinstance(exc, ExcValue)
            return exc
        assert instr.exc_type is not None
        message = instr.message
        if instr.message_var is not None:
            text = frame.env.get(instr.message_var)
            message = text.value if isinstance(text, Text) else text if isinstance(text, str) else None
        if instr.exc_type == "$unsupported":
            raise Unsupported(message or "construct")
        return ExcValue(instr.exc_type, message)

    def effects(self, frame: Frame, target: str | None, effects: list[Effect]) -> Successors:
        """Step past a heap instruction once per outcome (or throw)."""
        out: Successors = []
        for effect in effects:
            if effect.exc is not None and effect.exc.type == "$unsupported":  # an outcome not modelled
                self.stats.note_unsupported(Unsupported(effect.exc.message or "construct"))
                continue
            if effect.exc is not None:
                out.extend(self.throw(effect.state, effect.exc))
                continue
            env = frame.env if target is None else {**frame.env, target: effect.value}
            out.append(step(effect.state, frame, env=env))
        return out

    def invoke(self, state: State, predicate: str, env: dict[str, Value]) -> list[State]:
        """Enter a function or builtin predicate from a non-tail call site."""
        callee = self.program.predicate(predicate)
        called = self.calling(state, callee)
        return [] if called is None else self.enter(called, callee, env, False, {})

    def calling(self, state: State, callee: Predicate) -> State | None:
        """`state` at a call of `callee`, before its entry: the controls
        admit the call (None: pruned), its event and cost are recorded
        (builtins have none; another file's code has no event)."""
        if callee.builtin:
            return state
        admitted = self.controls.call(state, callee)
        if admitted is None:
            self.stats.pruned += 1
            return None
        events = admitted.events if callee.foreign else EventNode(("call", callee.function), admitted.events)
        return replace(admitted, events=events, costs=admitted.costs.call(callee.function))

    def check_method(self, state: State, frame: Frame, instr: CheckMethod) -> Successors:
        """`obj.method` before the arguments: AttributeError if it is not
        there; the call itself (dispatch, arity) happens at CallMethod."""
        receiver = self.evaluator.eval(instr.obj, frame.env, state.heap)
        cell = state.heap.cell(receiver) if isinstance(receiver, Addr) else None
        kind = value_kind(receiver, cell)
        if isinstance(cell, ObjectCell) and self.program.resolve_method(cell.cls, instr.method) \
                or kind in ("list", "deque") and instr.method in ("append", "pop", "copy") \
                or kind == "deque" and instr.method in DEQUE_AS_LIST \
                or kind is not None and method_predicate(kind, instr.method) in self.program.predicates \
                or isinstance(cell, (DictCell, ViewCell)) and dicts.has_method(cell, instr.method):
            return [step(state, frame)]  # there: CallMethod dispatches
        if isinstance(cell, ObjectCell):
            uncertain = uncertain_attribute(self.program, cell, instr.method) \
                or called_field(self.program, cell, instr.method)
            if uncertain is not None:
                raise Unsupported(f"looking up {uncertain}")
        elif receiver is not None:
            raise Unsupported(f"looking up '{instr.method}' on a value the model does not know")
        return self.throw(state, attribute_error(receiver, state.heap, instr.method))

    def call_method(self, state: State, frame: Frame, instr: CallMethod) -> Successors:
        receiver = self.evaluator.eval(instr.obj, frame.env, state.heap)
        args = tuple(self.evaluator.eval(a, frame.env, state.heap) for a in instr.args)
        heap = state.heap
        cell = heap.cell(receiver) if isinstance(receiver, Addr) else None
        if isinstance(cell, (DictCell, ViewCell)):
            assert isinstance(receiver, Addr)
            results = dicts.method(heap, receiver, instr.method, args)
            if results is not None:
                return self.dict_effects(state, frame, instr.target, results)
        if instr.method == OBJECT_EQ:  # `a == b` in a module whose classes compare by value
            return self.object_equality(state, frame, instr, receiver, args)
        if instr.method == OBJECT_ORDER:  # `a < b` in a module whose classes order their instances
            return self.object_order(state, frame, instr, receiver, args)
        kind = value_kind(receiver, cell)
        if instr.method == EQ:  # `a == b` where the frontend saw a list on one side
            successors = self.list_equality(state, frame, instr, receiver, args[0])
            if successors is not None:
                return successors
        native = instr.method in ("append", "copy") or instr.method == "pop" and not args  # the heap's own
        if kind is not None and (kind not in ("list", "deque") or not native):
            return self.value_method(state, kind, receiver, instr.method, args)
        if isinstance(cell, ListCell):
            assert isinstance(receiver, Addr)
            return self.effects(frame, instr.target, self.heap.list_method(state, receiver, instr.method, args))
        qualname = None
        if isinstance(cell, ObjectCell):
            qualname = self.program.resolve_method(cell.cls, instr.method)
        if qualname is None and instr.method == LIST_PROTOCOL:  # `list(obj)` of a class whose `__iter__` yields
            method = generators.generator_method(self, receiver, heap)
            if method is not None:
                made, addr = generators.new(state, method, {method.params[0]: receiver})
                return self.value_method(made, "generator", addr, LIST_PROTOCOL, ())
        if qualname is None and isinstance(cell, ObjectCell):
            # `self.__class__(...)`, or a callable the class stores (`self.append = stack.append`)
            uncertain = uncertain_attribute(self.program, cell, instr.method) \
                or called_field(self.program, cell, instr.method)
            if uncertain is not None:
                raise Unsupported(f"calling {uncertain}")
        if qualname is None and instr.method in PROTOCOLS:  # `x in c`, `c[a:b]`, `list(c)` on no sequence
            if isinstance(cell, ObjectCell):
                raise Unsupported(f"{instr.method} through class {cell.cls}'s protocols (not modelled)")
            return self.throw(state, ExcValue("TypeError", None))
        if qualname is None:
            return self.throw(state, attribute_error(receiver, heap, instr.method))
        info = self.program.functions.get(qualname)
        if info is None:
            raise Unsupported(f"method {qualname} was not translated")
        if info.binding == "property":  # `obj.p(...)` calls what the getter returns
            raise Unsupported(f"calling the value of property {qualname}")
        values = args if info.binding == "static" else (receiver,) + args
        if len(values) > len(info.params):
            return self.throw(state, ExcValue("TypeError", f"{info.name}() takes {len(info.params)} "
                                                           f"positional arguments but {len(values)} were given"))
        defaults = dict(info.defaults)
        bound: dict[str, Value] = dict(zip(info.params, values))
        for param in info.params[len(values):]:
            if param not in defaults:
                return self.throw(state, ExcValue("TypeError", f"{info.name}() missing argument '{param}'"))
            bound[param] = defaults[param]
        if info.generator:
            return [generators.make(state, frame, instr.target, self.program.predicate(info.entry), bound)]
        callee = self.program.predicate(info.entry)
        # composed only where the call is the instruction itself: a call made
        # by `len(obj)`, truth or a property checks its result as it returns (`finish`)
        if self.summaries is not None and composable(callee) and frame.rule.body[frame.pc] is instr:
            composed = self.summaries.compose(self, state, frame, instr.target, callee,
                                              [bound[p] for p in callee.params])
            if composed is not None:
                return composed
        return list(self.invoke(state, info.entry, bound))

    def object_equality(self, state: State, frame: Frame, instr: CallMethod, left: Value,
                        args: tuple[Value, ...]) -> Successors:
        """`left == right` (`args`: right, and whether the source says `!=`)
        by Python's dispatch (engine/objeq.py): a user or generated `__eq__`
        called, else the evaluator's own `==`, or identity."""
        right, negated = args[0], args[1] is True
        plan = objeq.dispatch(self.program, state.heap, left, right, negated) \
            if objeq.by_value(self.program, state.heap, left, right) else None
        if plan is None or plan.method is None:
            if plan is None:
                same = self.evaluator.eval(Binary("eq", Var("$l"), Var("$r")), {"$l": left, "$r": right}, state.heap)
            else:  # every __eq__ gave NotImplemented: identity
                same = self.heap_model.ref_eq(state.heap, left, right) if is_ref(left) and is_ref(right) else False
            return [step(state, frame, env=frame.env if instr.target is None else
                         {**frame.env, instr.target: same})]
        info = self.program.functions.get(plan.method)
        if info is None:
            raise Unsupported(f"method {plan.method} was not translated")
        if objeq.generated(self.program, plan.method):
            depth, stack = 0, state.stack
            while stack is not None:
                depth += stack.top.pred.builtin and stack.top.pred.function.endswith(".__eq__")
                stack = stack.rest
            if depth >= objeq.MAX_DEPTH:
                raise Unsupported(f"'==' of dataclass objects nested {objeq.MAX_DEPTH} deep "
                                  "(a cycle: CPython raises RecursionError)")
        return list(self.invoke(state, info.entry, dict(zip(info.params, (plan.receiver, plan.other)))))

    def object_order(self, state: State, frame: Frame, instr: CallMethod, left: Value,
                     args: tuple[Value, ...]) -> Successors:
        """`left < right` and kin (`args`: right, the operator's index in
        ORDERINGS) by Python's dispatch (engine/objorder.py): a user method
        called, else the evaluator's own comparison, or TypeError."""
        right, which = args
        assert isinstance(which, int)
        op = ORDERINGS[which]
        plan = objorder.dispatch(self.program, state.heap, op, left, right)
        if plan.raises:  # the message names both types: only the type is asserted
            return self.throw(state, ExcValue("TypeError", None))
        if plan.method is None:
            value = self.evaluator.eval(Binary(op, Var("$l"), Var("$r")), {"$l": left, "$r": right}, state.heap)
            return [step(state, frame, env=frame.env if instr.target is None else {**frame.env, instr.target: value})]
        info = self.program.functions.get(plan.method)
        if info is None:
            raise Unsupported(f"method {plan.method} was not translated")
        return list(self.invoke(state, info.entry, dict(zip(info.params, (plan.receiver, plan.other)))))

    def list_equality(self, state: State, frame: Frame, instr: CallMethod, left: Value,
                      right: Value) -> Successors | None:
        """`left == right` with a list on one side: False across kinds (no
        list equals None, a number, a str, a dict or a tuple), the user's
        `__eq__` when the left is an object that has one (None: call it),
        else the prelude's item by item (None: go on to `$list.__eq__`)."""
        cells = [state.heap.cell(v) if isinstance(v, Addr) else None for v in (left, right)]
        if isinstance(cells[0], ObjectCell):
            if self.program.resolve_method(cells[0].cls, EQ) is not None:
                return None
            return self.effects(frame, instr.target, [Effect(state, False)])  # identity, and a list is not it
        if isinstance(cells[1], ObjectCell):
            raise Unsupported(f"'==' of a list and a {cells[1].cls} (its __eq__ is not followed)")
        lists = [c for c in cells if isinstance(c, ListCell) and not c.is_tuple]
        if len(lists) < 2 or lists[0].is_deque != lists[1].is_deque:  # a deque never equals a list
            return self.effects(frame, instr.target, [Effect(state, False)])  # never equal
        if any(c.elem is not None and c.elem.kind == "float" for c in lists):
            raise Unsupported("'==' of lists of floats (CPython compares items by identity first, nan too)")
        return None

    def cached_call(self, state: State, frame: Frame, instr: Call, info: FunctionInfo,
                    args: list[Value]) -> Successors:
        """A call of a `functools.cache`d function (`engine/cache.py`): a
        hit on each stored entry with equal arguments, else the call runs
        and its frame stores the result when it returns."""
        key = cache.key_of(list(args))
        found = cache.entries(state, info.qualname)
        out: Successors = []
        missed: Term = True
        for index, entry in enumerate(found):
            condition = cache.same(entry, key)
            missed = T.and_(missed, T.not_(condition))
            hit = self.brancher.constrain(state.chose(index), condition)
            if hit is not None:
                hit = cache.used(hit, entry, info.cache_limit)
                out.append(step(hit, frame, env=frame.env if instr.target is None else
                                {**frame.env, instr.target: entry.result}))  # type: ignore[dict-item]
        miss = self.brancher.constrain(state.chose(len(found)), missed) if found else state
        if miss is not None:
            pending = cache.Pending(info.qualname, key, info.cache_limit)
            out.extend(s.with_frame_ext(cache.KEY, pending)
                       for s in self.invoke(miss, info.entry, dict(zip(info.params, args))))
        return out

    def property_access(self, state: State, frame: Frame, instr: GetField | SetField) -> Successors | None:
        """`obj.p` where `p` is a `@property` of obj's class: reading runs
        the getter (its frame, like a call's), assigning its setter, or
        raises AttributeError without one (the message varies between
        Python versions: only the type is asserted). None: a field."""
        receiver = self.evaluator.eval(instr.obj, frame.env, state.heap)
        cell = state.heap.cell(receiver) if isinstance(receiver, Addr) else None
        if not isinstance(cell, ObjectCell):
            return None
        qualname = self.program.property_getter(cell.cls, instr.field)
        if qualname is None:
            return None
        if isinstance(instr, SetField):
            setter = self.program.property_setter(cell.cls, instr.field)
            if setter is None:
                return self.throw(state, ExcValue("AttributeError", None))
            info = self.program.functions.get(setter)
            if info is None:
                raise Unsupported(f"property setter {qualname} was not translated")
            value = self.evaluator.eval(instr.value, frame.env, state.heap)
            return list(self.invoke(state, info.entry, dict(zip(info.params, (receiver, value)))))
        info = self.program.functions.get(qualname)
        if info is None:
            raise Unsupported(f"property {qualname} was not translated")
        return list(self.invoke(state, info.entry, {info.params[0]: receiver}))

    def value_method(self, state: State, kind: str, receiver: Value, method: str,
                     args: tuple[Value, ...]) -> Successors:
        """A method of a builtin value (`xs.index(x)`, `n.bit_length()`):
        its prelude predicate (`frontend/prelude`), or a dropped path when
        the model has none."""
        accepted = _SEQUENCE_ARGUMENT.get((kind, method))
        if accepted is not None:  # `xs + ys`, `xs += ys`, `xs.extend(ys)`, `[*ys]`: what ys may be
            other = value_kind(args[0], state.heap.cell(args[0]) if isinstance(args[0], Addr) else None)
            if other not in accepted:
                if other is None and args[0] is not None or other in ("dict", "set", "view"):
                    raise Unsupported(f"list {method} with a value of another kind")  # __radd__, __iter__
                return self.throw(state, ExcValue("TypeError", None))  # CPython's message names the type
        predicate = self.program.predicates.get(method_predicate(kind, method))
        if predicate is None or len(predicate.params) != len(args) + 1:  # `s.split()` is `$str.split__0`
            predicate = self.program.predicates.get(method_predicate(kind, f"{method}__{len(args)}")) or predicate
        if predicate is None and kind == "deque" and method in DEQUE_AS_LIST:  # the same code as a list's
            predicate = self.program.predicates.get(method_predicate("list", method))
        if predicate is None and kind == "tuple" and not method.startswith("__"):  # a tuple's are index, count
            return self.throw(state, ExcValue("AttributeError", f"'tuple' object has no attribute '{method}'"))
        if predicate is None:
            raise Unsupported(f"{kind}.{method}()")
        values = (receiver,) + args
        if len(values) != len(predicate.params):
            raise Unsupported(f"{kind}.{method}() with {len(args)} arguments")
        return list(self.invoke(state, predicate.name, dict(zip(predicate.params, values))))

    # ---------------------------------------------------- leaving a frame

    def finish(self, state: State, outcome: Outcome) -> Successors:
        """The top frame ends with `outcome`; hand it to the frame below."""
        while True:
            assert state.stack is not None
            frame, rest = state.stack.top, state.stack.rest
            trace = TraceTerm(frame.pred.name, frame.rule.index, frame.children, outcome.kind == "raise")
            events = state.events
            if not frame.via_tail and not frame.pred.builtin and not frame.pred.foreign:
                events = EventNode(("return", frame.pred.function), events)
            if rest is None:
                generators.check_none_suspended(state)
                return [self.path(replace(state, stack=None, events=events), outcome, trace)]
            parent = rest.top
            parent = replace(parent, children=parent.children + (trace,))
            state = replace(state, stack=Stack(parent, rest.rest), events=events)
            walked = frame.ext.get(generators.KEY)
            if isinstance(walked, Addr):  # a generator's frame ended: the loop resuming it stops
                return generators.finished(self, state, parent, walked, outcome)
            pending = frame.ext.get(cache.KEY)
            if isinstance(pending, cache.Pending) and outcome.kind == "return":
                state = cache.stored(state, pending, outcome.value)
            if frame.via_tail:
                continue
            if outcome.kind == "raise":
                assert isinstance(outcome.value, ExcValue)
                return self.throw(state, outcome.value)
            instr = parent.rule.body[parent.pc]
            if isinstance(instr, ListOp) and instr.op == "truth":
                return self.checked_truth(state, parent, instr.target, outcome.value,
                                          frame.pred.function.endswith(".__bool__"))
            if isinstance(instr, ListOp):
                return self.checked_len(state, parent, instr.target, outcome.value)
            assert isinstance(instr, (Call, CallMethod, GetField, SetField))  # a property's getter or setter
            target = None if isinstance(instr, SetField) else instr.target
            env = parent.env if target is None else {**parent.env, target: outcome.value}
            return [step(state, parent, env=env)]

    def object_truth(self, state: State, frame: Frame, instr: ListOp) -> Successors:
        """`bool(x)` as Python computes it: an object's `__bool__`, else its
        `__len__` (non-zero), else true; any other value by its own truth."""
        subject = self.evaluator.eval(instr.lst, frame.env, state.heap)
        cell = state.heap.cell(subject) if isinstance(subject, Addr) else None
        if isinstance(cell, ObjectCell):
            for method in ("__bool__", "__len__"):
                if self.program.resolve_method(cell.cls, method):
                    return self.call_method(state, frame, CallMethod(instr.target, instr.lst, method, (), instr.line))
        value = self.evaluator.eval(Unary("truth", instr.lst), frame.env, state.heap)
        return [step(state, frame, env=frame.env if instr.target is None else {**frame.env, instr.target: value})]

    def checked_truth(self, state: State, frame: Frame, target: str | None, value: Value,
                      from_bool: bool) -> Successors:
        """What `__bool__` (a bool, else TypeError) or `__len__` (an int of
        at least 0, else TypeError or ValueError; true when not 0) returned."""
        if from_bool:
            if not (isinstance(value, bool) or is_scalar(value) and T.sort_of(value) == "bool"):
                return self.throw(state, ExcValue("TypeError", None))  # `__bool__ should return bool, ...`
            return [step(state, frame, env=frame.env if target is None else {**frame.env, target: value})]
        return self.checked_len(state, frame, target, value, truth=True)

    def checked_len(self, state: State, frame: Frame, target: str | None, value: Value,
                    truth: bool = False) -> Successors:
        """`len(x)` through `x.__len__()`: Python checks what it returned;
        `truth`: for `bool(x)`, which is then whether it is not 0."""
        if not is_scalar(value):  # None, an object, a list or a string
            return self.throw(state, ExcValue("TypeError", None))
        value = T.as_int(value)  # a bool is an int to len()
        out: Successors = []
        ok = self.brancher.constrain(state.chose(0), T.relation("ge", value, 0))
        if ok is not None:
            result = T.relation("ne", value, 0) if truth else value
            out.append(step(ok, frame, env=frame.env if target is None else {**frame.env, target: result}))
        negative = self.brancher.constrain(state.chose(1), T.relation("lt", value, 0))
        if negative is not None:
            out.extend(self.throw(negative, ExcValue("ValueError", "__len__() should return >= 0")))
        return out

    def throw(self, state: State, exc: ExcValue) -> Successors:
        """An exception raised by the top frame's own instruction."""
        assert state.stack is not None
        frame = state.stack.top
        if frame.pred.handler is None:
            return self.finish(state, Outcome("raise", exc))
        handler = self.program.predicate(frame.pred.handler)
        env: dict[str, Value] = {p: frame.env.get(p, UNDEFINED) for p in handler.params}
        env[EXC_VAR] = exc
        return list(self.enter(state, handler, env, True, frame.loops))

    # ------------------------------------------------------------ results

    def path(self, state: State, outcome: Outcome, trace: TraceTerm) -> SymbolicPath:
        return SymbolicPath(
            function=self.function,
            inputs=tuple(v if isinstance(v, Sym) and v.name == s.name else s  # a probe's float (frontend: probes)
                         for s in self.inputs for v in [state.heap.roots.get(s.name)]),
            outcome=outcome,
            trace=trace,
            store=state.store,
            model=state.model,
            events=state.events.sequence() if state.events is not None else (),
            steps=state.steps,
            heap=state.heap,
            roots=tuple(state.heap.roots.items()),
            costs=state.costs,
            choices=state.choices.sequence() if state.choices is not None else (),
            ext=state.ext,
        )


_SORT_OF_KIND = {"int": T.INT, "bool": T.BOOL, "float": T.FLOAT, "str": T.STR}  # parameters that are one symbol


def _type_error_by_type(effect: Effect) -> Effect:
    """A builtin's own `len` of its argument (`max(xs)`, `sum(xs)` walk it):
    on what is not a sequence, Python's builtin fails as it iterates, with a
    message of its own (`'int' object is not iterable`), not len()'s; the
    test asserts the TypeError alone."""
    if effect.exc is not None and effect.exc.type == "TypeError" and effect.exc.message is not None:
        return replace(effect, exc=ExcValue("TypeError", None))
    return effect


def _var_name(e: Expr) -> str:
    """Blocks pass their live variables to the next block by name."""
    assert isinstance(e, Var), e
    return e.name
