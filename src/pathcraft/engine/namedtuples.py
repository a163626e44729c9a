"""Attributes of NamedTuple values (`frontend/namedtuples.py`): a tuple
cell tagged with its class and field names. Reading a field reads its
item; assigning any attribute raises AttributeError (the class has
`__slots__ = ()` and its fields are read-only properties: the message
differs between them and between versions, so only the type is asserted).
Other attributes (`_fields`, `_replace`, `count`) are not modelled."""

from __future__ import annotations

from pathcraft.errors import Unsupported
from pathcraft.heap.cells import Addr, Heap, ListCell
from pathcraft.ir.values import ExcValue


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
