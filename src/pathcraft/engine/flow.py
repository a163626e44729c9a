"""Handlers of the instructions that move control: a tail call to the next
block (`Goto`), `Return` and `Raise`; and the allocations (`NewObject`,
`NewList`, `RepeatList`), which only the heap executor answers."""

from __future__ import annotations

from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, Outcome, State
from pathcraft.engine.values import UNDEFINED
from pathcraft.errors import Unsupported
from pathcraft.ir.builtin_names import MATCH_TYPE, UNSUPPORTED
from pathcraft.ir.nodes import Expr, Goto, NewList, NewObject, Raise, RepeatList, Return, Text, Var
from pathcraft.ir.values import ExcValue
from pathcraft.solver.terms import App, Sym


def goto(machine: Machine, state: State, frame: Frame, instr: Goto) -> Successors:
    """The next block of the same function, its live variables passed by name."""
    callee = machine.program.predicate(instr.block)
    env = {p: frame.env.get(_var_name(a), UNDEFINED) for p, a in zip(callee.params, instr.args)}
    loops = frame.loops
    if instr.enters_loop is not None:
        loops = {**loops, instr.enters_loop: 0}
    return list(machine.enter(state, callee, env, True, loops))


def return_(machine: Machine, state: State, frame: Frame, instr: Return) -> Successors:
    value = machine.evaluator.eval(instr.value, frame.env, state.heap)
    within = machine.within_domain(state)
    if within is None:
        return []
    if isinstance(value, Text) and value.value is None:
        raise Unsupported("returning an f-string (its text is not computed)")
    return machine.finish(within, Outcome("return", value))


def raise_(machine: Machine, state: State, frame: Frame, instr: Raise) -> Successors:
    return machine.throw(state, raised(instr, frame))


def allocate(machine: Machine, state: State, frame: Frame, instr: NewObject | NewList | RepeatList) -> Successors:
    return machine.effects(frame, instr.target, machine.heap.execute(state, instr, frame.env))


def raised(instr: Raise, frame: Frame) -> ExcValue:
    """The exception a `raise` makes (`$unsupported` drops the path)."""
    if instr.reraise is not None:
        exc = frame.env[instr.reraise]
        if isinstance(exc, ExcValue) and exc.type == MATCH_TYPE:  # a regex match object (models/re)
            return ExcValue("TypeError", "exceptions must derive from BaseException")
        if isinstance(exc, ExcValue):
            return exc
        if exc is None or isinstance(exc, (int, float, str, Text, Sym, App)):  # `raise 5`, `raise None`
            return ExcValue("TypeError", "exceptions must derive from BaseException")
        raise Unsupported("raising a value that is no caught exception (an object, a class)")
    assert instr.exc_type is not None
    message = instr.message
    if instr.message_var is not None:
        text = frame.env.get(instr.message_var)
        message = text.value if isinstance(text, Text) else text if isinstance(text, str) else None
    if instr.exc_type == UNSUPPORTED:
        raise Unsupported(message or "construct")
    return ExcValue(instr.exc_type, message)


def _var_name(e: Expr) -> str:
    """Blocks pass their live variables to the next block by name."""
    assert isinstance(e, Var), e
    return e.name
