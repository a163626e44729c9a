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

The data types live in `engine.state`; heap operations and method dispatch
in `engine.heapstep`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from dataclasses import replace

from pathcraft.cost.models import Costs
from pathcraft.engine.heapstep import HeapSteps
from pathcraft.engine.search import make_searcher
from pathcraft.engine.state import (
    EngineOptions,
    EngineStats,
    Event,
    EventNode,
    Frame,
    Outcome,
    Path,
    Stack,
    State,
)
from pathcraft.engine.values import UNDEFINED, ExcValue, Value, exception_is_a, unbound_local
from pathcraft.heap.cells import Addr, Heap, ListCell
from pathcraft.errors import Unsupported
from pathcraft.heap.factory import make_heap_model
from pathcraft.ir.nodes import (
    HEAP_OPS,
    Assign,
    Binary,
    BindException,
    Call,
    CallMethod,
    CheckExceptionType,
    Const,
    Expr,
    FunctionInfo,
    Goto,
    Guard,
    ListOp,
    Mark,
    Predicate,
    Program,
    Raise,
    Return,
    Text,
    Unary,
    Var,
)
from pathcraft.ir.trace import TraceTerm
from pathcraft.solver import terms as T
from pathcraft.solver.chain import SAT, UNKNOWN, Query, SolverChain
from pathcraft.solver.path import extend
from pathcraft.solver.terms import Sym, Term

EXC_VAR = "$exc"






class _Raise(Exception):
    """Internal: an expression raised (e.g. an unbound local)."""

    def __init__(self, exc: ExcValue) -> None:
        self.exc = exc


def _type_error(left: object, right: object = None) -> Exception:
    """An operator on a reference: Python's TypeError for None (the test
    checks the type only: CPython's wording names the operand types), but
    lists and objects may well support it (`list + list`, `__add__`): not
    modelled, so the path is dropped."""
    if isinstance(left, Addr) or isinstance(right, Addr):
        return Unsupported("operators on lists or objects")
    return _Raise(ExcValue("TypeError", None))


Successors = list[State | Path]


class Engine(HeapSteps):
    def __init__(self, program: Program, options: EngineOptions | None = None) -> None:
        self.program = program
        self.options = options or EngineOptions()
        self.criterion = self.options.criterion
        self.solver = SolverChain(self.options.solver)
        self.heap_model = make_heap_model(self.options.heap, program, self.options.max_list_length,
                                          self.options.assumptions)
        self.stats = EngineStats()
        self._heap = Heap()  # the heap of the state being advanced (for truth tests)
        self._function: FunctionInfo | None = None
        self._inputs: tuple[Sym, ...] = ()

    # -------------------------------------------------------------- driving

    def explore(self, qualname: str) -> Iterator[Path]:
        """Yield the paths of `qualname` as they are found."""
        info = self.program.functions[qualname]
        self._function = info
        self._inputs = tuple(
            Sym(p, T.BOOL if t.kind == "bool" else T.INT)
            for p, t in zip(info.params, info.param_types) if t.kind in ("int", "bool")
        )
        searcher = make_searcher(self.options.search)
        started = time.perf_counter()
        try:
            starts: list[State] = []
            bindings = self._initial_bindings(info) if self.options.concrete is None \
                else [self._concrete_bindings(info, *self.options.concrete)]
            for heap, env in bindings:
                root = State(None, None, {}, EventNode(("call", info.qualname), None), 0, {}, heap,
                             Costs().call(info.qualname))
                root = self._settle(root)
                if root is None:
                    continue
                starts.extend(self._enter(root, self.program.predicate(info.entry), env, False, {}))
            searcher.add(starts)
            while len(searcher):
                if self.options.deadline is not None and time.monotonic() > self.options.deadline:
                    self.stats.stopped = "time budget reached"
                    return
                state = searcher.pop()
                assert isinstance(state, State)
                pending: Successors = self._advance(state)
                open_states: list[State] = []
                for item in pending:
                    if isinstance(item, Path):
                        self.stats.paths += 1
                        yield item
                        if self.options.max_paths and self.stats.paths >= self.options.max_paths:
                            self.stats.stopped = "path limit reached"
                            return
                    else:
                        open_states.append(item)
                searcher.add(open_states)
        finally:
            self.stats.seconds += time.perf_counter() - started

    def _note_unsupported(self, problem: Exception) -> None:
        self.stats.unsupported += 1
        if len(self.stats.notes) < 5 and str(problem) not in self.stats.notes:
            self.stats.notes.append(str(problem))

    def _initial_bindings(self, info: FunctionInfo) -> list[tuple[Heap, dict[str, Value]]]:
        """Inputs: a symbol per int/bool parameter; each reference parameter
        materialized by the heap model (one binding per choice)."""
        bindings: list[tuple[Heap, dict[str, Value]]] = [(Heap(), {})]
        for name, kind in zip(info.params, info.param_types):
            extended = []
            for heap, env in bindings:
                if kind.kind in ("int", "bool"):
                    value: object = Sym(name, T.BOOL if kind.kind == "bool" else T.INT)
                    extended.append((heap.with_root(name, value), {**env, name: value}))
                    continue
                for h, v in self.heap_model.materialize(heap, kind, name):
                    extended.append((h.with_root(name, v), {**env, name: v}))  # type: ignore[dict-item]
            bindings = extended
        return bindings

    # ------------------------------------------------------- rule selection

    def _enter(
        self, state: State, pred: Predicate, env: Mapping[str, Value], via_tail: bool,
        loops: Mapping[str, int],
    ) -> list[State]:
        """Push `pred` with bindings `env`: one child state per feasible rule."""
        steps = state.steps + 1
        if not self.criterion.depth_ok(steps):
            self.stats.pruned += 1
            return []
        visits = state.visits
        if self.criterion.kind == "block" and not pred.builtin:
            count = visits.get(pred.name, 0) + 1
            if not self.criterion.block_ok(count):
                self.stats.pruned += 1
                return []
            visits = {**visits, pred.name: count}
        if pred.iterates is not None:
            iterations = loops.get(pred.iterates, 0) + 1
            if not self.criterion.loop_ok(iterations):
                self.stats.pruned += 1
                return []
            loops = {**loops, pred.iterates: iterations}
        events = state.events
        for line in pred.marks:
            events = EventNode(("line", pred.function, line), events)
        out: list[State] = []
        self._heap = state.heap
        costs = state.costs.step()
        if self.options.cost_bounds and not self._within_bounds(replace(state, costs=costs)):
            return []
        for rule in pred.rules:
            self.stats.steps += 1
            frame = Frame(pred, rule, 0, env, (), via_tail, loops)
            base = replace(state, stack=Stack(frame, state.stack), events=events, steps=steps, visits=visits,
                           costs=costs)
            if rule.guard is None:
                out.append(base)
                continue
            try:
                guard = self._guard(rule.guard, env)
            except _Raise:
                continue  # guards are total on defined values
            except Unsupported as unsupported:
                self._note_unsupported(unsupported)
                continue
            if guard is True:
                out.append(base)
                continue
            if guard is False:
                self.stats.infeasible += 1
                continue
            answer = self.solver.check(Query(state.path, state.model, guard))
            if answer.verdict == SAT:
                assert answer.model is not None
                path = state.path if answer.implied else extend(state.path, guard)
                out.append(replace(base, path=path, model=answer.model))
            elif answer.verdict == UNKNOWN:
                self.stats.unknown += 1
            else:
                self.stats.infeasible += 1
        return out

    def _guard(self, guard: Guard, env: Mapping[str, Value]) -> Term:
        if isinstance(guard, CheckExceptionType):
            exc = env[guard.var]
            assert isinstance(exc, ExcValue)
            matched = any(exception_is_a(exc.type, t, self.program.exception_bases) for t in guard.types)
            return matched != guard.negate
        value = self._eval(guard, env)
        if _is_ref(value):
            return self._ref_truth(value)
        return T.truthy(value)  # type: ignore[arg-type]

    def _ref_truth(self, value: object) -> Term:
        """`bool(x)` for None, objects (always true: no `__bool__` or
        `__len__` in the subset) and lists (true when not empty)."""
        if value is None:
            return False
        assert isinstance(value, Addr)
        cell = self._heap.cell(value)
        if isinstance(cell, ListCell):
            return T.relation("gt", cell.size(), 0)
        return True

    # ---------------------------------------------------------- evaluation

    def _eval(self, e: Expr, env: Mapping[str, Value]) -> Value:
        if isinstance(e, Var):
            value = env.get(e.name, UNDEFINED)
            if value is UNDEFINED:
                raise _Raise(unbound_local(e.name))
            return value
        if isinstance(e, Const):
            return e.value
        if isinstance(e, Unary):
            v = self._eval(e.operand, env)
            if isinstance(v, Text):
                if e.op in ("not", "truth") and v.value is not None:
                    return (not v.value) if e.op == "not" else bool(v.value)
                raise Unsupported("operations on strings")
            if e.op in ("not", "truth") and _is_ref(v):
                truth = self._ref_truth(v)
                return T.not_(truth) if e.op == "not" else truth
            if _is_ref(v):
                raise _type_error(v)
            if e.op == "neg":
                return T.neg(v)  # type: ignore[arg-type]
            if e.op == "not":
                return T.not_(v)  # type: ignore[arg-type]
            if e.op == "truth":
                return T.truthy(v)  # type: ignore[arg-type]
            if e.op == "int":
                return T.as_int(v)  # type: ignore[arg-type]
            raise AssertionError(e.op)
        assert isinstance(e, Binary)
        left, right = self._eval(e.left, env), self._eval(e.right, env)
        op = e.op
        if isinstance(left, Text) or isinstance(right, Text):
            if op in ("eq", "ne", "is", "isnot") and isinstance(left, Text) and isinstance(right, Text) \
                    and left.value is not None and right.value is not None:
                return (left.value == right.value) == (op in ("eq", "is"))
            raise Unsupported("operations on strings")
        if op in ("is", "isnot"):
            if _is_ref(left) or _is_ref(right):
                same = self.heap_model.ref_eq(self._heap, left, right)
                return same if op == "is" else T.not_(same)
            raise Unsupported("'is' between int/bool values")
        if op in ("eq", "ne") and (_is_ref(left) or _is_ref(right)):
            same = self.heap_model.ref_eq(self._heap, left, right)  # identity: no __eq__ in the subset
            return same if op == "eq" else T.not_(same)
        if op == "and":
            return T.and_(left, right)  # type: ignore[arg-type]
        if op == "or":
            return T.or_(left, right)  # type: ignore[arg-type]
        arith = {"add": T.add, "sub": T.sub, "mul": T.mul, "floordiv": T.floordiv, "mod": T.mod}
        if _is_ref(left) or _is_ref(right):  # arithmetic or ordering with None / objects
            raise _type_error(left, right)
        if op in arith:
            return arith[op](left, right)  # type: ignore[arg-type]
        return T.relation(op, left, right)  # type: ignore[arg-type]

    # ------------------------------------------------------------ execution

    def _advance(self, state: State) -> Successors:
        """Run the top frame until a choice point or the end of the path."""
        while True:
            assert state.stack is not None
            frame = state.stack.top
            instr = frame.rule.body[frame.pc]
            self._heap = state.heap
            if not isinstance(instr, Mark):
                state = replace(state, costs=state.costs.step())
            try:
                if isinstance(instr, Mark):
                    event = ("line", frame.pred.function, instr.line)
                    state = self._step(state, frame, events=EventNode(event, state.events))
                    continue
                if isinstance(instr, Assign):
                    value = self._eval(instr.value, frame.env)
                    state = self._step(state, frame, env={**frame.env, instr.target: value})
                    continue
                if isinstance(instr, BindException):
                    env = {**frame.env, instr.target: frame.env[EXC_VAR]}
                    state = self._step(state, frame, env=env)
                    continue
                if isinstance(instr, HEAP_OPS):
                    successors: Successors = self._heap_step(state, frame, instr)
                elif isinstance(instr, Call):
                    successors = list(self._call(state, frame, instr))
                elif isinstance(instr, Goto):
                    callee = self.program.predicate(instr.block)
                    env = {p: frame.env.get(a.name, UNDEFINED) for p, a in zip(callee.params, instr.args)}  # type: ignore[union-attr]
                    loops = frame.loops
                    if instr.enters_loop is not None:
                        loops = {**loops, instr.enters_loop: 0}
                    successors = list(self._enter(state, callee, env, True, loops))
                elif isinstance(instr, Return):
                    value = self._eval(instr.value, frame.env)
                    if isinstance(value, Text) and value.value is None:
                        raise Unsupported("returning an f-string (its text is not computed)")
                    successors = self._finish(state, Outcome("return", value))
                elif isinstance(instr, Raise):
                    if instr.reraise is not None:
                        exc = frame.env[instr.reraise]
                        assert isinstance(exc, ExcValue)
                    else:
                        assert instr.exc_type is not None
                        message = instr.message
                        if instr.message_var is not None:
                            text = frame.env.get(instr.message_var)
                            message = text.value if isinstance(text, Text) else None
                        exc = ExcValue(instr.exc_type, message)
                        if instr.exc_type == "$unsupported":
                            raise Unsupported(message or "construct")
                    successors = self._throw(state, exc)
                else:
                    raise AssertionError(f"unknown instruction {instr!r}")
            except _Raise as raised:
                successors = self._throw(state, raised.exc)
            except Unsupported as unsupported:
                self._note_unsupported(unsupported)
                return []
            if len(successors) == 1 and isinstance(successors[0], State):
                state = successors[0]
                continue
            return successors

    @staticmethod
    def _step(state: State, frame: Frame, env: Mapping[str, Value] | None = None,
              events: EventNode | None = None) -> State:
        assert state.stack is not None
        new_frame = replace(frame, pc=frame.pc + 1, env=frame.env if env is None else env)
        return replace(
            state,
            stack=Stack(new_frame, state.stack.rest),
            events=state.events if events is None else events,
        )

    def _call(self, state: State, frame: Frame, instr: Call) -> list[State]:
        callee = self.program.predicate(instr.predicate)
        args = [self._eval(a, frame.env) for a in instr.args]
        return self._invoke(state, callee.name, dict(zip(callee.params, args)))

    def _invoke(self, state: State, predicate: str, env: dict[str, Value]) -> list[State]:
        """Enter a function or builtin predicate from a non-tail call site."""
        callee = self.program.predicate(predicate)
        events = state.events
        if not callee.builtin:
            activations = 1
            node = state.stack
            while node is not None:
                f = node.top
                if f.pred.function == callee.function and f.pred.is_entry and not f.via_tail:
                    activations += 1
                node = node.rest
            if not self.criterion.recursion_ok(activations):
                self.stats.pruned += 1
                return []
            events = EventNode(("call", callee.function), events)
            state = replace(state, costs=state.costs.call(callee.function))
        return self._enter(replace(state, events=events), callee, env, False, {})

    # ---------------------------------------------------- leaving a frame

    def _finish(self, state: State, outcome: Outcome) -> Successors:
        """The top frame ends with `outcome`; hand it to the frame below."""
        while True:
            assert state.stack is not None
            frame, rest = state.stack.top, state.stack.rest
            trace = TraceTerm(frame.pred.name, frame.rule.index, frame.children)
            events = state.events
            if not frame.via_tail and not frame.pred.builtin:
                events = EventNode(("return", frame.pred.function), events)
            if rest is None:
                return [self._path(replace(state, stack=None, events=events), outcome, trace)]
            parent = rest.top
            parent = replace(parent, children=parent.children + (trace,))
            state = replace(state, stack=Stack(parent, rest.rest), events=events)
            if frame.via_tail:
                continue
            if outcome.kind == "raise":
                assert isinstance(outcome.value, ExcValue)
                return self._throw(state, outcome.value)
            instr = parent.rule.body[parent.pc]
            assert isinstance(instr, (Call, CallMethod, ListOp))  # ListOp: len() through __len__
            env = parent.env if instr.target is None else {**parent.env, instr.target: outcome.value}
            return [self._step(state, parent, env=env)]

    def _throw(self, state: State, exc: ExcValue) -> Successors:
        """An exception raised by the top frame's own instruction."""
        assert state.stack is not None
        frame = state.stack.top
        if frame.pred.handler is None:
            return self._finish(state, Outcome("raise", exc))
        handler = self.program.predicate(frame.pred.handler)
        env: dict[str, Value] = {p: frame.env.get(p, UNDEFINED) for p in handler.params}
        env[EXC_VAR] = exc
        return list(self._enter(state, handler, env, True, frame.loops))

    # ------------------------------------------------------------ results

    def _path(self, state: State, outcome: Outcome, trace: TraceTerm) -> Path:
        assert self._function is not None
        events: list[Event] = []
        node = state.events
        while node is not None:
            events.append(node.event)
            node = node.prev
        events.reverse()
        return Path(
            function=self._function,
            inputs=self._inputs,
            outcome=outcome,
            trace=trace,
            path=state.path,
            model=state.model,
            events=tuple(events),
            steps=state.steps,
            heap=state.heap,
            roots=tuple(state.heap.roots.items()),
            costs=state.costs,
        )


def _is_ref(value: object) -> bool:
    return value is None or isinstance(value, Addr)
