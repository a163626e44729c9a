"""Runtime values of the symbolic execution besides terms."""

from __future__ import annotations

from typing import Union

from pathcraft.heap.cells import Addr, DictCell, GeneratorCell, ListCell, ViewCell
from pathcraft.errors import Unsupported
from pathcraft.ir.nodes import EnumMember, Sentinel, Text
from pathcraft.ir.values import ExcValue
from pathcraft.solver.terms import BOOL, FLOAT, INT, STR, App, Sym, Term, sort_of


class _Undefined:
    """The value of a local that has not been assigned yet."""

    _instance: _Undefined | None = None

    def __new__(cls) -> _Undefined:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNDEFINED"


UNDEFINED = _Undefined()
# What a variable holds: an int/bool/str term, None, a reference, a string literal,
# a caught exception, a sentinel object, or nothing yet.
Value = Union[Term, None, Addr, Text, ExcValue, Sentinel, EnumMember, _Undefined]


def sentinel_use(value: Sentinel) -> Unsupported:
    """What doing anything but `is` with a sentinel object raises (its class,
    truth and methods are not modelled)."""
    return Unsupported(f"using the sentinel object {value.name} other than with 'is'")


def value_kind(value: object, cell: object) -> str | None:
    """The builtin type whose methods a value has (`list`, `int`, `str`
    ...), or None for None, objects and caught exceptions. `cell` is the
    heap cell of a reference. A bool has int's methods."""
    if isinstance(value, Sentinel):
        raise sentinel_use(value)
    if isinstance(value, EnumMember):
        return "enum"
    if isinstance(cell, ListCell):
        return "tuple" if cell.is_tuple else "deque" if cell.is_deque else "list"
    if isinstance(cell, DictCell):
        return "set" if cell.is_set else "dict"
    if isinstance(cell, ViewCell):
        return "view"
    if isinstance(cell, GeneratorCell):
        return "generator"
    if isinstance(value, (Text, str)):
        return "str"
    if isinstance(value, (int, bool, float, Sym, App)):
        return KIND_OF_SORT.get(sort_of(value))
    return None


# the builtin type of each sort of scalar term
KIND_OF_SORT = {INT: "int", BOOL: "int", FLOAT: "float", STR: "str"}


def unbound_local(name: str) -> ExcValue:
    return ExcValue(
        "UnboundLocalError",
        f"cannot access local variable '{name}' where it is not associated with a value",
    )
