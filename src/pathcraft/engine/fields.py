"""Handlers of `GetField` and `SetField`: the model of the value's kind
first (a NamedTuple's fields), then a `@property`'s getter or setter, else
the heap model's field."""

from __future__ import annotations

from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State
from pathcraft.engine.values import Value, value_kind
from pathcraft.errors import Unsupported
from pathcraft.heap.cells import Addr, ObjectCell
from pathcraft.ir.nodes import GetField, SetField
from pathcraft.ir.values import ExcValue
from pathcraft.models.catalog import REGISTRY


def get_field(machine: Machine, state: State, frame: Frame, instr: GetField) -> Successors:
    answered = _modelled(machine, state, frame, instr)
    if answered is not None:
        return answered
    return machine.effects(frame, instr.target, machine.heap.execute(state, instr, frame.env))


def set_field(machine: Machine, state: State, frame: Frame, instr: SetField) -> Successors:
    if not instr.force and machine.program.has_frozen and _frozen(machine, state, frame, instr):  # message: varies
        return machine.throw(state, ExcValue("FrozenInstanceError", None))
    answered = _modelled(machine, state, frame, instr)
    if answered is not None:
        return answered
    return machine.effects(frame, None, machine.heap.execute(state, instr, frame.env))


def _frozen(machine: Machine, state: State, frame: Frame, instr: SetField) -> bool:
    """Is the subject an instance of a frozen dataclass (`Program.frozen`)?"""
    subject = machine.evaluator.eval(instr.obj, frame.env, state.heap)
    cell = state.heap.cell(subject) if isinstance(subject, Addr) else None
    return isinstance(cell, ObjectCell) and machine.program.frozen(cell.cls)


def _modelled(machine: Machine, state: State, frame: Frame, instr: GetField | SetField) -> Successors | None:
    subject = machine.evaluator.eval(instr.obj, frame.env, state.heap)
    cell = state.heap.cell(subject) if isinstance(subject, Addr) else None
    model = REGISTRY.of_kind(value_kind(subject, cell))
    if model is not None and model.attribute is not None:
        answered = model.attribute(machine, state, frame, instr, subject)
        if answered is not None:
            return answered
    if isinstance(cell, ObjectCell):
        return property_access(machine, state, frame, instr, subject, cell)
    return None


def property_access(machine: Machine, state: State, frame: Frame, instr: GetField | SetField, receiver: Value,
                    cell: ObjectCell) -> Successors | None:
    """`obj.p` where `p` is a `@property` of obj's class: reading runs
    the getter (its frame, like a call's), assigning its setter, or
    raises AttributeError without one (the message varies between
    Python versions: only the type is asserted). None: a field."""
    program = machine.program
    qualname = program.property_getter(cell.cls, instr.field)
    if qualname is None and program.has_descriptors and (owner := program.descriptor(cell.cls, instr.field)):
        raise Unsupported(f"attribute '{instr.field}', which class {owner} binds to what a call made "
                          "(a descriptor's __get__/__set__ is not followed)")
    if qualname is None:
        return None
    if isinstance(instr, SetField):
        setter = program.property_setter(cell.cls, instr.field)
        if setter is None:
            return machine.throw(state, ExcValue("AttributeError", None))
        info = program.functions.get(setter)
        if info is None:
            raise Unsupported(f"property setter {qualname} was not translated")
        value = machine.evaluator.eval(instr.value, frame.env, state.heap)
        return list(machine.invoke(state, info.entry, dict(zip(info.params, (receiver, value)))))
    info = program.functions.get(qualname)
    if info is None:
        raise program.not_translated(qualname)
    return list(machine.invoke(state, info.entry, {info.params[0]: receiver}))
