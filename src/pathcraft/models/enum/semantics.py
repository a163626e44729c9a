"""The model of enum members (kind "enum"; the frontend's half is
`frontend/enums.py`, the choice of a member for an input `heap/lazy.py`).

A member is an `EnumMember` value: itself under `is`; under `==` equal to
itself only (an object whose class defines `__eq__` is asked: not
modelled). `name` and `value` are constants of its class, a `@property`
of the class runs its getter, a method its code with the member as
`self`. An `IntEnum` or `StrEnum` member (or of a class mixing in `int`
or `str`) is its value in arithmetic, comparisons and truth, as CPython's
mixin makes it. Assigning an attribute raises AttributeError (members are
read-only; the message is not asserted). `Color(v)` looks the value up
(`_lookup`); the text of a plain member and the operators are
`members.py`'s. Anything else -- a member as a dict key, in a set,
`str()` of it, ordering plain members -- drops the path.
"""

from __future__ import annotations

from pathcraft.engine.binding import bound_call
from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State, step
from pathcraft.engine.values import Value, value_kind
from pathcraft.errors import Unsupported
from pathcraft.ir.nodes import Binary, CallMethod, EnumMember, FunctionInfo, GetField, SetField, Text, Var
from pathcraft.ir.values import ExcValue
from pathcraft.ir.builtin_names import ENUM_LOOKUP
from pathcraft.models.enum.members import KIND, operand, value_of
from pathcraft.models.registry import Model
from pathcraft.solver import terms as T
from pathcraft.solver.terms import Term


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
        info = _translated(machine, program.property_getter(subject.cls, instr.field),
                           f"attribute '{instr.field}' of a member of enum {subject.cls}")
        return list(machine.invoke(state, info.entry, {info.params[0]: subject}))
    return [step(state, frame, env={**frame.env, instr.target: value})]


def _method(machine: Machine, state: State, frame: Frame, instr: CallMethod, receiver: Value,
            args: tuple[Value, ...]) -> Successors | None:
    """A method the enum class defines, run with the member as `self`."""
    assert isinstance(receiver, EnumMember)
    if instr.method == ENUM_LOOKUP:
        return _lookup(machine, state, frame, instr, receiver.cls, args[0])
    if instr.method.startswith("$"):  # an operator the frontend spells as a call (`$object_eq`): the engine's
        return None
    info = _translated(machine, machine.program.resolve_method(receiver.cls, instr.method),
                       f"{instr.method}() of a member of enum {receiver.cls}")
    return bound_call(machine, state, frame, instr, info, receiver, args)


def _translated(machine: Machine, qualname: str | None, missing: str) -> FunctionInfo:
    """The class's own method or property `qualname` (None: the class has
    none, `missing` says what was asked), or the path is dropped."""
    if qualname is None:
        raise Unsupported(missing)
    info = machine.program.functions.get(qualname)
    if info is None:
        raise machine.program.not_translated(qualname)
    return info


def _lookup(machine: Machine, state: State, frame: Frame, instr: CallMethod, cls: str,
            value: Value) -> Successors:
    """`Color(v)`: the member `v` is, or whose value equals `v` (CPython
    looks the value up: `1`, `1.0` and `True` find one member), the first
    in definition order; else ValueError (its message, the value's repr,
    is not asserted)."""
    out: Successors = []
    missed: Term = True
    members = machine.program.classes[cls].members
    for index, (name, _) in enumerate(members):
        member = EnumMember(cls, name)
        found = T.and_(missed, _finds(machine, state, value, member))
        chosen = machine.brancher.constrain(state.chose(index), found) if found is not False else None
        if chosen is not None:
            out.append(step(chosen, frame, env=frame.env if instr.target is None else
                            {**frame.env, instr.target: member}))
        missed = T.and_(missed, T.not_(found))
    rest = machine.brancher.constrain(state.chose(len(members)), missed) if missed is not False else None
    if rest is not None:
        out.extend(machine.throw(rest, ExcValue("ValueError", None)))
    return out


def _finds(machine: Machine, state: State, value: Value, member: EnumMember) -> Term:
    """Does looking `value` up find `member`? A member finds itself; a
    number or str finds the member of an equal value (a value of another
    kind none: no `==` between a str and a number is asked)."""
    if isinstance(value, EnumMember):
        value = operand(machine.program, value)
        if isinstance(value, EnumMember):
            return value == member
    wanted = value_of(machine.program, member)
    kinds = {value_kind(value, None), value_kind(wanted, None)}
    if value is None or wanted is None:
        return value is wanted
    if not (kinds <= {"int", "float"} or kinds == {"str"}):
        return False
    same = machine.evaluator.eval(Binary("eq", Var("$v"), Var("$m")), {"$v": value, "$m": wanted}, state.heap)
    return same  # type: ignore[return-value]  # an int/bool/str comparison: a term


MODEL = Model("enum", kinds=(KIND,), attribute=_attribute, method=_method)
