"""The model of enum members (kind "enum"; the frontend's half is
`frontend/enums.py`, the choice of a member for an input `heap/lazy.py`).

A member is an `EnumMember` value: itself under `is`; under `==` equal to
itself only (an object whose class defines `__eq__` is asked: not
modelled). `name` and `value` are constants of its class, a `@property`
of the class runs its getter, a method its code with the member as
`self`. An `IntEnum` or `StrEnum` member (or of a class mixing in `int`
or `str`) is its value in arithmetic, comparisons and truth, as CPython's
mixin makes it. Assigning an attribute raises AttributeError (members are
read-only; the message is not asserted). Anything else -- a member as a
dict key, in a set, `str()` of it, ordering plain members -- drops the
path.
"""

from __future__ import annotations

from pathcraft.engine.binding import bound_call
from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State, step
from pathcraft.engine.values import Value
from pathcraft.errors import Unsupported
from pathcraft.ir.nodes import CallMethod, EnumMember, GetField, SetField, Text
from pathcraft.ir.values import ExcValue
from pathcraft.models.enum.members import KIND, value_of
from pathcraft.models.registry import Model

def _attribute(machine: Machine, state: State, frame: Frame, instr: GetField | SetField,
               subject: Value) -> Successors | None:
    assert isinstance(subject, EnumMember)
    if isinstance(instr, SetField):
        return machine.throw(state, ExcValue("AttributeError", None))
    program = machine.program
    if instr.field in ("name", "_name_"):
        value: Value = Text(subject.name)
    elif instr.field in ("value", "_value_"):
        value = value_of(program, subject)
    else:
        getter = program.property_getter(subject.cls, instr.field)
        if getter is None:
            raise Unsupported(f"attribute '{instr.field}' of a member of enum {subject.cls}")
        info = program.functions.get(getter)
        if info is None:
            raise Unsupported(f"property {getter} was not translated")
        return list(machine.invoke(state, info.entry, {info.params[0]: subject}))
    return [step(state, frame, env={**frame.env, instr.target: value})]


def _method(machine: Machine, state: State, frame: Frame, instr: CallMethod, receiver: Value,
            args: tuple[Value, ...]) -> Successors | None:
    """A method the enum class defines, run with the member as `self`."""
    assert isinstance(receiver, EnumMember)
    if instr.method.startswith("$"):  # an operator the frontend spells as a call (`$object_eq`): the engine's
        return None
    program = machine.program
    qualname = program.resolve_method(receiver.cls, instr.method)
    if qualname is None:
        raise Unsupported(f"{instr.method}() of a member of enum {receiver.cls}")
    info = program.functions.get(qualname)
    if info is None:
        raise Unsupported(f"method {qualname} was not translated")
    return bound_call(machine, state, frame, instr, info, receiver, args)


MODEL = Model("enum", kinds=(KIND,), attribute=_attribute, method=_method)
