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

from pathcraft import budget as work
from pathcraft.cost.models import Costs
from pathcraft.depth import interrupted
from pathcraft.engine import cache, dispatch, generators, inputs, protocols
from pathcraft.engine.branch import Brancher, ModelBrancher
from pathcraft.engine.concretize import Concretizer
from pathcraft.engine.control import SearchControl, Verdict
from pathcraft.engine.evaluate import Evaluator, Raised
from pathcraft.engine.heapstep import Effect, HeapExecutor, concrete_bindings
from pathcraft.engine.criteria import Criteria, Criterion
from pathcraft.engine.machine import Composer, Successors
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
from pathcraft.engine.summaries import Summaries, compositional
from pathcraft.engine.summarystore import SummaryStore
from pathcraft.engine.values import UNDEFINED, Value
from pathcraft.errors import Unsupported
from pathcraft.heap.base import HeapModel
from pathcraft.heap.cells import Addr, Heap
from pathcraft.heap.factory import make_heap_model
from pathcraft.ir.builtin_names import LIST_PROTOCOL, method_predicate
from pathcraft.ir.nodes import (
    EXC_VAR,
    Assign,
    BindException,
    Call,
    CallMethod,
    CheckMethod,
    Const,
    FunctionInfo,
    GetField,
    ListOp,
    Mark,
    Predicate,
    Program,
    SetField,
)
from pathcraft.ir.trace import Event, TraceTerm
from pathcraft.ir.values import ExcValue
from pathcraft.solver import terms as T
from pathcraft.solver.chain import SolverChain, SolverOptions
from pathcraft.solver.terms import Model, Sym, Term


def _solver_options(options: EngineOptions) -> SolverOptions:
    """The solver's options, its checks capped by the search's deadline."""
    return replace(options.solver, deadline=options.deadline)


class Engine:
    """Explores functions of one program under one set of options."""

    def __init__(self, program: Program, options: EngineOptions | None = None) -> None:
        self.program = program
        self.options = options or EngineOptions()
        self.solver = SolverChain(_solver_options(self.options))
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
        other.solver = SolverChain(_solver_options(options))
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
        summaries = run.summaries = self._summaries()
        started = time.perf_counter()
        try:
            if summaries is not None and self.options.compose == "bottom-up":
                summaries.bottom_up(info.qualname)
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
                summaries: Composer, heap: Heap | None = None) -> Iterator[SymbolicPath]:
        """The paths of `callee` entered with `env` on an empty stack and
        `heap` (the objects of `env`; empty by default): a summary's cases. Searched under the criteria and the
        deadline only, with a solver and `stats` of its own; its own calls
        are composed with `summaries`."""
        options = replace(self.options, controls=(), cost_bounds=(), max_paths=None, solve_first=False, concolic=0)
        solver = SolverChain(_solver_options(options))
        self.solvers.append(solver)
        anchor = next(iter(self.program.functions.values()))  # a run needs a function; its paths are not tests
        run = self._assembled(anchor, options, Brancher(solver, stats), stats)
        run.summaries = summaries
        run.drains = False  # a summary's callee hands its generator to its caller
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
        budget = work.current()
        for seed in seeds:
            if budget.reason() is not None or (
                    self.options.deadline is not None and time.monotonic() > self.options.deadline):
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


_BUDGET_EVERY = 256  # instructions between two looks at the budget inside one `advance`
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
        self.drains = not function.generator  # a returned generator is drained (a generator function is from the start)
        self.heap_model = heap_model
        self.evaluator = evaluator
        self.heap = heap
        self.brancher = brancher
        self.controls = controls
        self.stats = stats
        self.budget = work.current()  # instructions run and rules entered are work (budget.py)
        self.summaries: Composer | None = None  # composition of calls (engine/summaries.py)
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
        with the model brancher, the one its model's values take. None past
        the function's budget too (a probe may run far longer than a search)."""
        todo: list[State | SymbolicPath] = [state]
        for _ in range(budget):
            if not todo or self.budget.reason() is not None:
                return None
            item = todo.pop()
            if isinstance(item, SymbolicPath):
                return item
            todo.extend(reversed(self.advance(item)))
        return None

    def initial_bindings(self) -> list[tuple[Heap, dict[str, Value]]]:
        """Inputs: one binding per choice of the parameters' values (engine/inputs.py)."""
        return inputs.initial_bindings(self.function, self.heap_model)

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
            self.budget.steps += 1
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
            self.budget.steps += 1
            if not self.budget.steps % _BUDGET_EVERY:
                if interrupted():  # a Ctrl-C whose exception was lost on this thread (depth.interrupted)
                    raise KeyboardInterrupt
                if self.budget.reason() is not None:
                    return []  # a run without choices (a probe's) may be long: the budget cuts it here too
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
        """An instruction that may fork, call, or end the frame (`engine/dispatch.py`)."""
        return dispatch.execute(self, state, frame, instr)


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
                done = replace(state, stack=None, events=events)
                drained = generators.drain_result(self, done, outcome, trace) if self.drains else None
                if drained is not None:  # `list(f(...))`: the tested call returned a generator
                    return drained
                generators.check_none_suspended(self, state)
                return [self.path(done, outcome, generators.whole_trace(done, trace))]
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
                return protocols.checked_truth(self, state, parent, instr.target, outcome.value,
                                          frame.pred.function.endswith(".__bool__"))
            if isinstance(instr, ListOp) and instr.op == "len":
                return protocols.checked_len(self, state, parent, instr.target, outcome.value)
            if isinstance(instr, ListOp):  # `x[i]` (its value) or `x[i] = v` (None, not kept): as Python gives them
                target = instr.target if instr.op == "get" else None
                env = parent.env if target is None else {**parent.env, target: outcome.value}
                return [step(state, parent, env=env)]
            assert isinstance(instr, (Call, CallMethod, GetField, SetField))  # a property's getter or setter
            target = None if isinstance(instr, SetField) else instr.target
            env = parent.env if target is None else {**parent.env, target: outcome.value}
            return [step(state, parent, env=env)]

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


_SORT_OF_KIND = inputs.SORT_OF_KIND

