"""The model of tuples and NamedTuples (kind "tuple"; the frontend's half
is `models/namedtuple/lowering.py`, the comparisons `engine/tuples.py`, the
cell `heap/tuples.py`). A NamedTuple value is a tuple cell tagged with its
class and field names. Reading a field reads its
item; assigning any attribute raises AttributeError (the class has
`__slots__ = ()` and its fields are read-only properties: the message
differs between them and between versions, so only the type is asserted).
Other attributes (`_fields`, `_replace`, `count`) are not modelled. A
tuple's methods are `index` and `count` (prelude code); any other plain
name is AttributeError."""

from __future__ import annotations

from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State, step
from pathcraft.engine.values import Value
from pathcraft.errors import Unsupported
from pathcraft.heap.cells import Addr, Heap, ListCell
from pathcraft.ir.nodes import GetField, SetField
from pathcraft.ir.values import ExcValue
from pathcraft.models.registry import Model


def tag(heap: Heap, value: object) -> tuple[str, tuple[str, ...]] | None:
    """The class and fields of a NamedTuple value, None for anything else."""
    cell = heap.cell(value) if isinstance(value, Addr) else None
    return cell.named if isinstance(cell, ListCell) and cell.is_tuple else None


def read(heap: Heap, value: Addr, name: str) -> object:
    """`value.name` on a NamedTuple value."""
    cell = heap.cell(value)
    assert isinstance(cell, ListCell) and cell.named is not None and cell.items is not None
    cls, fields = cell.named
    if name not in fields:
        raise Unsupported(f"attribute '{name}' of NamedTuple {cls} other than a field")
    return cell.items[fields.index(name)]


def assignment_error() -> ExcValue:
    return ExcValue("AttributeError", None)


def _field(machine: Machine, state: State, frame: Frame, instr: GetField | SetField,
           subject: Value) -> Successors | None:
    """A NamedTuple's field read, or the error of assigning one; None for a plain tuple."""
    if tag(state.heap, subject) is None:
        return None
    assert isinstance(subject, Addr)
    if isinstance(instr, SetField):
        return machine.throw(state, assignment_error())
    value = read(state.heap, subject, instr.field)
    return [step(state, frame, env={**frame.env, instr.target: value})]  # type: ignore[dict-item]


def _missing(machine: Machine, state: State, method: str) -> Successors | None:
    """A method the prelude lacks: a plain name is none of a tuple's."""
    if method.startswith("__"):
        return None
    return machine.throw(state, ExcValue("AttributeError", f"'tuple' object has no attribute '{method}'"))


MODEL = Model("tuple", kinds=("tuple",), attribute=_field, missing=_missing)
