"""The handler of `ListOp` (`len`, `get`, `set`, `del`, `iter`, `truth`,
`close` of a loop or of syntax on a value): a generator's loop step, the
model of the value's kind (`pathcraft.models`), an object's protocols, else
the heap executor's own list and string operations."""

from __future__ import annotations

from dataclasses import replace

from pathcraft.engine import generators
from pathcraft.engine.heapstep import Effect
from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.protocols import object_protocol, object_truth
from pathcraft.engine.state import Frame, State
from pathcraft.engine.values import value_kind
from pathcraft.heap.cells import Addr
from pathcraft.ir.nodes import ListOp
from pathcraft.ir.values import ExcValue
from pathcraft.models.catalog import REGISTRY


def list_op(machine: Machine, state: State, frame: Frame, instr: ListOp) -> Successors:
    walked = generators.walk(machine, state, frame, instr)
    if walked is not None:
        return walked
    subject = machine.evaluator.eval(instr.lst, frame.env, state.heap)
    model = REGISTRY.of_kind(value_kind(subject, state.heap.cell(subject) if isinstance(subject, Addr) else None))
    if model is not None and model.list_op is not None:
        answered = model.list_op(machine, state, frame, instr, subject)
        if answered is not None:
            return answered
    for guard in REGISTRY.guards:
        guard(instr)
    if instr.op == "truth":  # `if x:` in a module with `__bool__`/`__len__`
        return object_truth(machine, state, frame, instr)
    protocol = object_protocol(machine, state, frame, instr, subject)
    if protocol is not None:
        return protocol
    effects = machine.heap.execute(state, instr, frame.env)
    if instr.op == "len" and frame.pred.builtin:
        effects = [_type_error_by_type(e) for e in effects]
    return machine.effects(frame, instr.target, effects)


def _type_error_by_type(effect: Effect) -> Effect:
    """A builtin's own `len` of its argument (`max(xs)`, `sum(xs)` walk it):
    on what is not a sequence, Python's builtin fails as it iterates, with a
    message of its own (`'int' object is not iterable`), not len()'s; the
    test asserts the TypeError alone."""
    if effect.exc is not None and effect.exc.type == "TypeError" and effect.exc.message is not None:
        return replace(effect, exc=ExcValue("TypeError", None))
    return effect
