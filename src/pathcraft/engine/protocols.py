"""Python's protocols on objects where the engine meets them in a list
operation: truth (`__bool__`, then `__len__`), `len()` through `__len__`
(its result checked as it returns), and the refusals where a class's
`__getitem__`/`__setitem__`/`__iter__` would run."""

from __future__ import annotations

from pathcraft.engine import generators
from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.methods import call_method
from pathcraft.engine.state import Frame, State, step
from pathcraft.engine.values import Value
from pathcraft.errors import Unsupported
from pathcraft.heap.base import is_scalar
from pathcraft.heap.cells import Addr, ObjectCell
from pathcraft.ir.nodes import CallMethod, ListOp, Unary
from pathcraft.ir.values import ExcValue
from pathcraft.solver import terms as T

# list operations an object may implement itself
PROTOCOL = {"len": "__len__", "get": "__getitem__", "set": "__setitem__", "iter": "__iter__"}


def object_truth(machine: Machine, state: State, frame: Frame, instr: ListOp) -> Successors:
    """`bool(x)` as Python computes it: an object's `__bool__`, else its
    `__len__` (non-zero), else true; any other value by its own truth."""
    subject = machine.evaluator.eval(instr.lst, frame.env, state.heap)
    cell = state.heap.cell(subject) if isinstance(subject, Addr) else None
    if isinstance(cell, ObjectCell):
        for method in ("__bool__", "__len__"):
            if machine.program.resolve_method(cell.cls, method):
                return call_method(machine, state, frame, CallMethod(instr.target, instr.lst, method, (), instr.line))
    value = machine.evaluator.eval(Unary("truth", instr.lst), frame.env, state.heap)
    return [step(state, frame, env=frame.env if instr.target is None else {**frame.env, instr.target: value})]


def object_protocol(machine: Machine, state: State, frame: Frame, instr: ListOp, subject: Value) -> Successors | None:
    """`len(obj)`, `obj[i]`, `obj[i] = v` on an object whose class defines
    `__len__`, `__getitem__`, `__setitem__` (called); its `__iter__` other
    than a generator refused; None for anything else."""
    if instr.op not in PROTOCOL:
        return None
    cell = state.heap.cell(subject) if isinstance(subject, Addr) else None
    if not isinstance(cell, ObjectCell):
        return None
    if frame.pred.builtin and instr.op != "iter":  # `sum(obj)` iterates it
        raise Unsupported(f"a builtin walking an object of class {cell.cls} (its __iter__ not followed)")
    if not machine.program.resolve_method(cell.cls, PROTOCOL[instr.op]):
        return None
    if instr.op == "iter" and generators.generator_method(machine, subject, state.heap) is not None:
        return [step(state, frame)]  # a loop walks the generator its `__iter__` makes
    if generators.is_loop_step(instr):
        raise Unsupported(f"a loop over an object of class {cell.cls} (its __iter__ not called)")
    if instr.op in ("get", "set"):  # `x[i]`, `x[i] = v`: the class's own `__getitem__`, `__setitem__`
        return call_method(machine, state, frame, CallMethod(instr.target, instr.lst, PROTOCOL[instr.op],
                                                             instr.args, instr.line))
    if instr.op != "len":  # for v in x on a class that defines `__iter__` other than as a generator
        raise Unsupported(f"{PROTOCOL[instr.op]} of class {cell.cls}")
    return call_method(machine, state, frame, CallMethod(instr.target, instr.lst, "__len__", (), instr.line))


def checked_truth(machine: Machine, state: State, frame: Frame, target: str | None, value: Value,
                  from_bool: bool) -> Successors:
    """What `__bool__` (a bool, else TypeError) or `__len__` (an int of
    at least 0, else TypeError or ValueError; true when not 0) returned."""
    if from_bool:
        if not (isinstance(value, bool) or is_scalar(value) and T.sort_of(value) == "bool"):
            return machine.throw(state, ExcValue("TypeError", None))  # `__bool__ should return bool, ...`
        return [step(state, frame, env=frame.env if target is None else {**frame.env, target: value})]
    return checked_len(machine, state, frame, target, value, truth=True)


def checked_len(machine: Machine, state: State, frame: Frame, target: str | None, value: Value,
                truth: bool = False) -> Successors:
    """`len(x)` through `x.__len__()`: Python checks what it returned;
    `truth`: for `bool(x)`, which is then whether it is not 0."""
    if not is_scalar(value):  # None, an object, a list or a string
        return machine.throw(state, ExcValue("TypeError", None))
    value = T.as_int(value)  # a bool is an int to len()
    out: Successors = []
    ok = machine.brancher.constrain(state.chose(0), T.relation("ge", value, 0))
    if ok is not None:
        result = T.relation("ne", value, 0) if truth else value
        out.append(step(ok, frame, env=frame.env if target is None else {**frame.env, target: result}))
    negative = machine.brancher.constrain(state.chose(1), T.relation("lt", value, 0))
    if negative is not None:
        out.extend(machine.throw(negative, ExcValue("ValueError", "__len__() should return >= 0")))
    return out
