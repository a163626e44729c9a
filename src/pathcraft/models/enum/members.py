"""What an enum member is under the engine's operators, apart from the
engine (evaluate.py asks these; `semantics.py` answers attributes and
methods): see `semantics.py` for the model as a whole."""

from __future__ import annotations

from pathcraft.engine.values import Value
from pathcraft.errors import Unsupported
from pathcraft.ir.nodes import EnumMember, Program, Text

KIND = "enum"
# the builtin type a member also is; a class mixing it in itself writes its members' text otherwise
MIXINS = {"IntEnum": "int", "StrEnum": "str", "(int, Enum)": "int", "(str, Enum)": "str"}
# the engine's type tests, as `str()` and `int()` ask them (models/str/lowering.py)
TYPE_TESTS = frozenset({"isstr", "isint", "isbool"})


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


def text(program: Program, member: EnumMember, as_repr: bool) -> Text:
    """`str(c)` (`Color.RED`) or `repr(c)` (`<Color.RED: 1>`) of a plain
    Enum's member, as CPython 3.11 and later write them; a mixin's (its
    text changed between versions) or a class that writes its own text is
    not modelled."""
    info = program.classes[member.cls]
    own = [m for m in ("__str__", "__repr__", "__format__") if m in info.methods]
    if info.enum != "Enum" or own:  # (an IntEnum's str() is its int's, but not in every version's format())
        raise Unsupported(f"the text of a member of enum {member.cls}"
                          + (f" (its class's {own[0]})" if own else " (a mixin's text changed between versions)"))
    short = member.cls.rpartition(".")[2]
    if not as_repr:
        return Text(f"{short}.{member.name}")
    return Text(f"<{short}.{member.name}: {dict(info.members)[member.name]!r}>")

