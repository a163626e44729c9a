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
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Iterator, Mapping, Union

from pathcraft.engine.criteria import Criterion
from pathcraft.engine.search import make_searcher
from pathcraft.engine.values import UNDEFINED, ExcValue, Value, exception_is_a, unbound_local
from pathcraft.ir.nodes import (
    Assign,
    Binary,
    BindException,
    Call,
    CheckExceptionType,
    Const,
    Expr,
    FunctionInfo,
    Goto,
    Guard,
    Mark,
    Predicate,
    Program,
    Raise,
    Return,
    Rule,
    Unary,
    Var,
)
from pathcraft.ir.trace import TraceTerm
from pathcraft.solver import terms as T
from pathcraft.solver.chain import SAT, UNKNOWN, Query, SolverChain, SolverOptions
from pathcraft.solver.path import PathNode, constraints, extend
from pathcraft.solver.terms import Sym, Term

EXC_VAR = "$exc"

# Signature events: ("line", function, line) | ("call", function) | ("return", function)
Event = tuple


@dataclass(frozen=True, slots=True)
class Frame:
    pred: Predicate
    rule: Rule
    pc: int
    env: Mapping[str, Value]
    children: tuple[TraceTerm, ...]
    via_tail: bool
    loops: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Stack:
    top: Frame
    rest: Stack | None


@dataclass(frozen=True, slots=True)
class EventNode:
    event: Event
    prev: EventNode | None


@dataclass(frozen=True, slots=True)
class State:
    stack: Stack | None
    path: PathNode | None
    model: Mapping[str, int | bool]
    events: EventNode | None
    steps: int
    visits: Mapping[str, int]
    heap: object | None = None


@dataclass(frozen=True)
class Outcome:
    """How a path ends: a returned value or a raised exception."""

    kind: str  # "return" | "raise"
    value: Value


@dataclass(frozen=True)
class Path:
    """A successful branch of the tree: the raw material of a test case."""

    function: FunctionInfo
    inputs: tuple[Sym, ...]
    outcome: Outcome
    trace: TraceTerm
    path: PathNode | None
    model: Mapping[str, int | bool]
    events: tuple[Event, ...]
    steps: int

    @property
    def constraints(self) -> list[Term]:
        return constraints(self.path)


@dataclass
class EngineStats:
    steps: int = 0
    paths: int = 0
    pruned: int = 0
    infeasible: int = 0
    unknown: int = 0
    seconds: float = 0.0
    stopped: str | None = None


@dataclass
class EngineOptions:
    criterion: Criterion = field(default_factory=lambda: Criterion("loop", 2))
    search: str = "dfs"
    solver: SolverOptions = field(default_factory=SolverOptions)
    deadline: float | None = None  # time.monotonic() value
    max_paths: int | None = None


class _Raise(Exception):
    """Internal: an expression raised (e.g. an unbound local)."""

    def __init__(self, exc: ExcValue) -> None:
        self.exc = exc


Successors = list[Union[State, Path]]


class Engine:
    def __init__(self, program: Program, options: EngineOptions | None = None) -> None:
        self.program = program
        self.options = options or EngineOptions()
        self.criterion = self.options.criterion
        self.solver = SolverChain(self.options.solver)
        self.stats = EngineStats()
        self._function: FunctionInfo | None = None
        self._inputs: tuple[Sym, ...] = ()

    # -------------------------------------------------------------- driving

    def explore(self, qualname: str) -> Iterator[Path]:
        """Yield the paths of `qualname` as they are found."""
        info = self.program.functions[qualname]
        self._function = info
        self._inputs = tuple(
            Sym(p, T.BOOL if t == "bool" else T.INT) for p, t in zip(info.params, info.param_types)
        )
        env: dict[str, Value] = dict(zip(info.params, self._inputs))
        root = State(None, None, {}, EventNode(("call", info.qualname), None), 0, {})
        searcher = make_searcher(self.options.search)
        started = time.perf_counter()
        try:
            searcher.add(self._enter(root, self.program.predicate(info.entry), env, False, {}))
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
        for rule in pred.rules:
            self.stats.steps += 1
            frame = Frame(pred, rule, 0, env, (), via_tail, loops)
            base = replace(state, stack=Stack(frame, state.stack), events=events, steps=steps, visits=visits)
            if rule.guard is None:
                out.append(base)
                continue
            try:
                guard = self._guard(rule.guard, env)
            except _Raise:
                continue  # guards are total on defined values
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
        return T.truthy(self._eval(guard, env))  # type: ignore[arg-type]

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
        if op == "and":
            return T.and_(left, right)  # type: ignore[arg-type]
        if op == "or":
            return T.or_(left, right)  # type: ignore[arg-type]
        if op in ("eq", "ne") and (left is None or right is None):
            return (left is right) == (op == "eq")
        arith = {"add": T.add, "sub": T.sub, "mul": T.mul, "floordiv": T.floordiv, "mod": T.mod}
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
                if isinstance(instr, Call):
                    successors: Successors = list(self._call(state, frame, instr))
                elif isinstance(instr, Goto):
                    callee = self.program.predicate(instr.block)
                    env = {p: frame.env.get(a.name, UNDEFINED) for p, a in zip(callee.params, instr.args)}  # type: ignore[union-attr]
                    loops = frame.loops
                    if instr.enters_loop is not None:
                        loops = {**loops, instr.enters_loop: 0}
                    successors = list(self._enter(state, callee, env, True, loops))
                elif isinstance(instr, Return):
                    successors = self._finish(state, Outcome("return", self._eval(instr.value, frame.env)))
                elif isinstance(instr, Raise):
                    if instr.reraise is not None:
                        exc = frame.env[instr.reraise]
                        assert isinstance(exc, ExcValue)
                    else:
                        assert instr.exc_type is not None
                        exc = ExcValue(instr.exc_type, instr.message)
                    successors = self._throw(state, exc)
                else:
                    raise AssertionError(f"unknown instruction {instr!r}")
            except _Raise as raised:
                successors = self._throw(state, raised.exc)
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
        env = dict(zip(callee.params, args))
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
                return self._handle(state, outcome.value)
            instr = parent.rule.body[parent.pc]
            assert isinstance(instr, Call)
            env = parent.env if instr.target is None else {**parent.env, instr.target: outcome.value}
            return [self._step(state, parent, env=env)]

    def _throw(self, state: State, exc: ExcValue) -> Successors:
        return self._handle(state, exc)

    def _handle(self, state: State, exc: ExcValue) -> Successors:
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
        )
