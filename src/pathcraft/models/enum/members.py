"""What an enum member is under the engine's operators, apart from the
engine (evaluate.py asks these; `semantics.py` answers attributes and
methods): see `semantics.py` for the model as a whole."""

from __future__ import annotations

from pathcraft.engine.values import Value
from pathcraft.errors import Unsupported
from pathcraft.ir.nodes import EnumMember, Program, Text

KIND = "enum"
MIXINS = {"IntEnum": "int", "StrEnum": "str"}  # the builtin type a member also is


def value_of(program: Program, member: EnumMember) -> Value:
    """The member's value, as the engine holds constants (a str as Text)."""
    value = dict(program.classes[member.cls].members)[member.name]
    return Text(value) if isinstance(value, str) else value


def mixin(program: Program, member: EnumMember) -> str | None:
    """"int" or "str" for a member that is also its value, else None."""
    return MIXINS.get(program.classes[member.cls].enum)


def operand(program: Program, value: Value) -> Value:
    """What an operator works on: a mixin member's value, anything else itself."""
    if isinstance(value, EnumMember) and mixin(program, value) is not None:
        return value_of(program, value)
    return value


def truth(program: Program, member: EnumMember) -> bool:
    """A plain member is true, unless its class says otherwise (not modelled)."""
    for method in ("__bool__", "__len__"):
        if method in program.classes[member.cls].methods:
            raise Unsupported(f"the truth of a member of {member.cls} (its {method} is not followed there)")
    return True


def identical(op: str, left: Value, right: Value) -> bool:
    """`is` / `is not` with a member on one side: a member is itself only."""
    return (left == right) == (op == "is")


def plain_equality(op: str, left: Value, right: Value) -> bool:
    """`==` / `!=` with a plain member on one side (the other side not an
    object: the caller checks): equal to itself only."""
    same = isinstance(left, EnumMember) and left == right
    return same if op == "eq" else not same


def class_name(member: EnumMember) -> Text:
    return Text(member.cls)
