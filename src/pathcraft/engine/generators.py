"""Generator objects: frames suspended at a `yield` and resumed per item.

CPython runs a generator function's body in a frame of its own that
survives between items: calling the function only makes the generator (no
event), each `next()` resumes the frame (a call event) up to the next
`yield` (a return event, the item to the resumer) or to its end (a return
event, the iteration stops). The engine does the same with its own frames:
a `GeneratorCell` keeps what the first run enters, then the suspended frames
(the function's entry frame and the block frames above it, each with its
position, bindings and loop counts), and a resumption pushes them back on
the stack above the resumer.

The resumer is a loop's own `len` step (ListOp "len" flagged LOOP_STEP or
LOOP_LATER): it receives the number of items so far when an item came
(more than the loop's counter, even when another loop took items from the
same generator meanwhile) and 0 when the generator ended (no counter is
below it); the loop's `get` step then reads the last item. So `for` loops, comprehensions,
generator expressions and prelude loops walk a generator unchanged.

Closing follows CPython where it is certain: a loop that stops early closes
its generator (ListOp "close"); one suspended at a plain `yield` runs for a
call and a return event up to 3.12, none from 3.13. Closing one suspended
in a `try`/`with` or in `yield from` would run more code: the path is
dropped. A generator still suspended when the path ends would be closed
whenever CPython drops it: that path is dropped too.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import EventNode, Frame, Outcome, Stack, State, step
from pathcraft.engine.values import Value
from pathcraft.errors import Unsupported
from pathcraft.heap.cells import Addr, GeneratorCell, Heap, ObjectCell
from pathcraft.ir.builtin_names import LIST_PROTOCOL, LOOP_LATER, LOOP_STEP, method_predicate
from pathcraft.ir.nodes import Call, Const, ListOp, Predicate, Text, Yield
from pathcraft.ir.trace import TraceTerm
from pathcraft.ir.values import ExcValue

ENDED = 0  # what a loop's `len` step gets from a generator that has ended
KIND = "generator"  # the value kind of a generator (engine/values.py: value_kind)
KEY = "generator"  # Frame.ext of a generator's entry frame while it runs: its address

# closing a generator suspended at a plain yield runs its frame (a call and a return event) up to 3.12
_CLOSE_RUNS_FRAME = sys.version_info < (3, 13)


@dataclass(frozen=True)
class NotStarted:
    """The arguments a generator's first run enters its function with."""

    env: dict[str, Value]


def generator_method(machine: Machine, value: Value, heap: Heap) -> Predicate | None:
    """The entry of the generator function an object's `__iter__` is, if it is one."""
    if not isinstance(value, Addr):
        return None
    cell = heap.cell(value)
    if not isinstance(cell, ObjectCell):
        return None
    qualname = machine.program.resolve_method(cell.cls, "__iter__")
    info = machine.program.functions.get(qualname) if qualname is not None else None
    return machine.program.predicate(info.entry) if info is not None and info.generator else None


def new(state: State, entry: Predicate, env: dict[str, Value], owned: bool = False) -> tuple[State, Addr]:
    """Calling a generator function (`entry` is its entry predicate): a new
    generator, nothing run yet."""
    heap, addr = state.heap.allocate(GeneratorCell(entry.function, entry.name, "new", NotStarted(env), owned=owned))
    return replace(state, heap=heap), addr


def make(state: State, frame: Frame, target: str | None, entry: Predicate, env: dict[str, Value],
         owned: bool = False) -> State:
    """A call of a generator function, its generator in `target`."""
    state, addr = new(state, entry, env, owned)
    return step(state, frame, env=frame.env if target is None else {**frame.env, target: addr})


def walk(machine: Machine, state: State, frame: Frame, instr: ListOp | Yield | Call) -> Successors | None:
    """A yield, `$iterate(x)`, a loop's step on a generator or its close;
    None for anything else."""
    if isinstance(instr, Yield):
        return suspend(machine, state, frame, instr)
    if isinstance(instr, Call):  # `$iterate(x)`: x, or the generator its class's `__iter__` makes
        subject = machine.evaluator.eval(instr.args[0], frame.env, state.heap)
        method = generator_method(machine, subject, state.heap)
        if method is None:
            return [step(state, frame, env=frame.env if instr.target is None else
                         {**frame.env, instr.target: subject})]
        return [make(state, frame, instr.target, method, {method.params[0]: subject}, owned=True)]
    subject = machine.evaluator.eval(instr.lst, frame.env, state.heap)
    cell = state.heap.cell(subject) if isinstance(subject, Addr) else None
    if isinstance(cell, GeneratorCell):
        assert isinstance(subject, Addr)
        return loop_op(machine, state, frame, instr, subject, cell)
    if instr.op == "close":
        return [step(state, frame)]  # a loop over a list: nothing to close
    return None


def is_loop_step(instr: ListOp) -> bool:
    return any(isinstance(a, Const) and isinstance(a.value, Text) and a.value.value in (LOOP_STEP, LOOP_LATER)
               for a in instr.args)


def loop_op(machine: Machine, state: State, frame: Frame, instr: ListOp, addr: Addr, cell: GeneratorCell) -> Successors:
    """A loop's operation on a generator (any other is not modelled)."""
    if instr.op == "iter":
        return [step(state, frame)]
    if instr.op == "close":
        fresh = instr.args[0] if instr.args else None
        if not (isinstance(fresh, Const) and fresh.value is True) and not cell.owned:
            return [step(state, frame)]  # something else still refers to it: CPython does not close it
        return close(machine, state, frame, addr, cell)
    if instr.op == "get" and is_loop_step(instr):
        item: Value = cell.last  # type: ignore[assignment]  # what the generator yielded
        return [step(state, frame, env=frame.env if instr.target is None else {**frame.env, instr.target: item})]
    if instr.op == "len" and is_loop_step(instr):
        return resume(machine, state, frame, addr, cell)
    raise Unsupported(f"'{instr.op}' on a generator (only iteration is modelled)")


def resume(machine: Machine, state: State, frame: Frame, addr: Addr, cell: GeneratorCell) -> Successors:
    """`next()` from a loop's step: run the generator to its next yield."""
    if cell.status == "done":
        target = _len_target(frame)
        return [step(state, frame, env=frame.env if target is None else {**frame.env, target: ENDED})]
    if cell.status == "running":
        raise Unsupported("a generator resumed while it runs (ValueError in CPython)")
    entry = machine.program.predicate(cell.entry)
    admitted = machine.controls.call(state, entry)
    if admitted is None:
        machine.stats.pruned += 1
        return []
    events = admitted.events if entry.builtin or entry.foreign else EventNode(("call", cell.function),
                                                                                admitted.events)
    state = replace(admitted, heap=admitted.heap.with_cell(addr, replace(cell, status="running")),
                    events=events, costs=admitted.costs.call(cell.function))
    if cell.status == "new":
        assert isinstance(cell.frames, NotStarted)
        out: list[State] = []
        for entered in machine.enter(state, entry, cell.frames.env, False, {}):
            out.append(entered.with_frame_ext(KEY, addr))
        return list(out)
    assert isinstance(cell.frames, tuple)
    stack = state.stack
    for suspended in reversed(cell.frames):
        stack = Stack(suspended, stack)
    return [replace(state, stack=stack)]


def suspend(machine: Machine, state: State, frame: Frame, instr: Yield) -> Successors:
    """`yield value`: the generator's frames leave the stack, the resumer
    gets the item."""
    value = machine.evaluator.eval(instr.value, frame.env, state.heap)
    assert state.stack is not None
    segment: list[Frame] = [replace(frame, pc=frame.pc + 1)]
    below = state.stack.rest
    top = frame
    while KEY not in top.ext:
        if not top.via_tail or below is None:
            raise Unsupported("a generator function run other than by iteration")
        top, below = below.top, below.rest
        segment.append(top)
    addr = top.ext[KEY]
    assert isinstance(addr, Addr) and below is not None
    cell = state.heap.cell(addr)
    assert isinstance(cell, GeneratorCell)
    count = cell.count + 1
    heap = state.heap.with_cell(addr, replace(cell, status="suspended", frames=tuple(segment), count=count,
                                              last=value, closable=instr.closable))
    resumer = below.top
    target = _len_target(resumer)
    events = state.events if _silent(machine, cell) else EventNode(("return", cell.function), state.events)
    state = replace(state, heap=heap, stack=Stack(resumer, below.rest), events=events)
    return [step(state, resumer, env=resumer.env if target is None else {**resumer.env, target: count})]


def finished(machine: Machine, state: State, resumer: Frame, addr: Addr, outcome: Outcome) -> Successors:
    """The generator's frame ended (its frames are off the stack already):
    the resumer's loop stops, or gets the exception."""
    cell = state.heap.cell(addr)
    assert isinstance(cell, GeneratorCell)
    state = replace(state, heap=state.heap.with_cell(addr, replace(cell, status="done", frames=None)))
    if outcome.kind == "raise":
        assert isinstance(outcome.value, ExcValue)
        if outcome.value.type == "StopIteration":
            raise Unsupported("StopIteration raised in a generator (RuntimeError, PEP 479)")
        return machine.throw(state, outcome.value)
    target = _len_target(resumer)
    return [step(state, resumer, env=resumer.env if target is None else {**resumer.env, target: ENDED})]


def close(machine: Machine, state: State, frame: Frame, addr: Addr, cell: GeneratorCell) -> Successors:
    """A loop left early: CPython closes the generator it walked."""
    if cell.status == "suspended":
        if not cell.closable:
            raise Unsupported("closing a generator suspended in try/with or 'yield from' (runs its code)")
        events = state.events
        if _CLOSE_RUNS_FRAME and not _silent(machine, cell):
            events = EventNode(("return", cell.function), EventNode(("call", cell.function), events))
        state = replace(state, events=events)
    if cell.status != "done":
        state = replace(state, heap=state.heap.with_cell(addr, replace(cell, status="done", frames=None)))
    return [step(state, frame)]


def check_none_suspended(machine: Machine, state: State) -> None:
    """At the end of a path: a generator left suspended is closed whenever
    CPython drops it (events the model cannot place); a silent one (the
    frontend's rewriting of `iter(x)`, `map(f, xs)`) runs nothing when closed."""
    for cell in state.heap.cells.values():
        if isinstance(cell, GeneratorCell) and cell.status == "suspended" and not _silent(machine, cell):
            raise Unsupported(f"a generator of {cell.function} left suspended (closed when CPython drops it)")


def _silent(machine: Machine, cell: GeneratorCell) -> bool:
    """Is the generator silent: code pathcraft wrote (CPython's C iterator:
    no frame, no events), or a model's (a `dict` subclass's `__iter__`)?"""
    entry = machine.program.predicate(cell.entry)
    return entry.builtin or entry.foreign


def _len_target(frame: Frame) -> str | None:
    instr = frame.rule.body[frame.pc]
    assert isinstance(instr, ListOp) and instr.op == "len", instr
    return instr.target



DRAINED = "generators.drained"  # state.ext: the trace of the tested call whose returned generator its test drains


def drain_result(machine: Machine, state: State, outcome: Outcome, trace: TraceTerm) -> Successors | None:
    """The tested call returned a generator (an `itertools` iterator, a
    generator expression, `iter(xs)`): its test takes every item,
    `list(f(...))`, so the path goes on into the prelude's loop over it.
    None when the result is no generator, or is the drained list."""
    if outcome.kind != "return" or not isinstance(outcome.value, Addr) or DRAINED in state.ext \
            or not isinstance(state.heap.cell(outcome.value), GeneratorCell):
        return None
    consume = machine.program.predicate(method_predicate("generator", LIST_PROTOCOL))
    marked = state.with_ext(DRAINED, trace)
    return list(machine.enter(marked, consume, {consume.params[0]: outcome.value}, False, {}))


def whole_trace(state: State, trace: TraceTerm) -> TraceTerm:
    """A drained call's trace: the call's, then the loop's over its result."""
    called = state.ext.get(DRAINED)
    return TraceTerm("$drained", 1, (called, trace)) if isinstance(called, TraceTerm) else trace
