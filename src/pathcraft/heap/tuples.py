"""Tuples: immutable sequence cells.

A tuple is a `ListCell` with `is_tuple` set, so length, indexing (negative
indices too), iteration and `in` are the list machinery's. What differs is
what Python refuses: item assignment raises TypeError, list methods raise
AttributeError, and an index out of range says "tuple". Identity (`is`)
between equal tuples is not promised, as in CPython. An input tuple
holds items of any type (`fresh_tuple`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from pathcraft.errors import Unsupported
from pathcraft.heap.base import HeapResult, HeapValue, ListOpName
from pathcraft.heap.cells import Addr, Heap, Lazy, ListCell, ObjectCell
from pathcraft.ir.nodes import Text
from pathcraft.ir.types import Type
from pathcraft.ir.values import ExcValue
from pathcraft.solver import terms as T
from pathcraft.solver.terms import BOOL, INT, Sym

ITEM_ASSIGNMENT = "'tuple' object does not support item assignment"
INDEX_OUT_OF_RANGE = "tuple index out of range"


class ListOps(Protocol):
    def list_op(self, heap: Heap, op: ListOpName, lst: HeapValue, args: tuple[HeapValue, ...]
                ) -> list[HeapResult]: ...


def is_tuple(heap: Heap, value: object) -> bool:
    if not isinstance(value, Addr):
        return False
    cell = heap.cells.get(value.id)
    return isinstance(cell, ListCell) and cell.is_tuple


def fresh_tuple(heap: Heap, kind: Type, label: str, max_length: int) -> list[tuple[Heap, Addr]]:
    """The choices for an input tuple of type `kind`: `tuple[int, ...]` (of
    ints or bools) an array with a symbolic length, like `list[int]`; any
    other variadic tuple one choice per length up to `max_length`; a fixed
    one its items. A scalar item is a symbol (a string printable ASCII, as
    `solver/strings.py` builds them), any other a reference read lazily."""
    if kind.items is not None:
        items, heap = _fresh_items(heap, kind.items, label)
        return [heap.allocate(ListCell(None, "input", label, items=items, is_tuple=True), initial=True)]
    assert kind.elem is not None
    if kind.elem.kind in ("int", "bool") and not kind.elem.optional:
        length = Sym(f"len({label})", INT)
        data = Sym(label, T.array_sort(kind.elem.kind))
        cell = ListCell(kind.elem, "input", label, length=length, data=data, is_tuple=True)
        return [heap.constrain(T.relation("ge", length, 0)).allocate(cell, initial=True)]
    out: list[tuple[Heap, Addr]] = []
    for n in range(max_length + 1):
        items, h = _fresh_items(heap, (kind.elem,) * n, label)
        out.append(h.allocate(ListCell(kind.elem, "input", label, items=items, is_tuple=True), initial=True))
    return out


def _fresh_items(heap: Heap, kinds: tuple[Type, ...], label: str) -> tuple[tuple[object, ...], Heap]:
    items: list[object] = []
    for k, item in enumerate(kinds):
        name = f"{label}[{k}]"
        if item.optional or item.is_ref:
            items.append(Lazy(item, name))
        elif item.kind == "str":
            items.append(Sym(name, T.STR))
            heap = heap.constrain(T.apply("printable", items[-1]))  # type: ignore[arg-type]  # a Sym
        else:
            items.append(Sym(name, {"bool": BOOL, "float": T.FLOAT}.get(item.kind, INT)))
    return tuple(items), heap


def new_tuple(heap: Heap, addr: Addr, named: tuple[str, tuple[str, ...]] | None = None) -> Heap:
    """The list just allocated at `addr`, made a tuple (of a NamedTuple class: `named`)."""
    cell = heap.cell(addr)
    assert isinstance(cell, ListCell)
    return heap.with_cell(addr, replace(cell, is_tuple=True, named=named))


def tuple_op(model: ListOps, heap: Heap, op: ListOpName, tup: Addr, args: tuple[HeapValue, ...]
             ) -> list[HeapResult]:
    """A list operation on a tuple: what a list does, or what Python raises."""
    if op in ("len", "iter"):
        return model.list_op(heap, op, tup, args)
    if op == "get":
        return [replace(r, exc=ExcValue("IndexError", INDEX_OUT_OF_RANGE))
                if r.exc is not None and r.exc.type == "IndexError" else r
                for r in model.list_op(heap, op, tup, args)]
    if op == "set":
        return [HeapResult(heap, exc=ExcValue("TypeError", ITEM_ASSIGNMENT))]
    return [HeapResult(heap, exc=ExcValue("AttributeError", f"'tuple' object has no attribute '{op}'"))]


def unpack(heap: Heap, value: object, count: int) -> list[HeapResult]:
    """`a, b = value`: the length check of unpacking a list or tuple into
    `count` names (the items are read after it). Python's messages differ
    between versions: only the exception type is promised."""
    cell = heap.cells.get(value.id) if isinstance(value, Addr) else None
    if isinstance(cell, ObjectCell) or isinstance(value, Text):
        raise Unsupported("unpacking a string or an object (its iteration is not modelled)")
    if not isinstance(cell, ListCell):
        return [HeapResult(heap, exc=ExcValue("TypeError", None))]  # None, an int: not iterable
    size = cell.size()
    return [HeapResult(heap, constraint=T.eq(size, count)),
            HeapResult(heap, constraint=T.ne(size, count), exc=ExcValue("ValueError", None))]
