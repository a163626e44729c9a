"""Comparing tuples: `==`/`!=` item by item, `<` and the others
lexicographically, as one term (Python's comparison runs no code of the
program, so it is a value, not a branch).

Items compare as Python compares them: ints and bools by value, strings
whose text is known by text, tuples recursively. What the model cannot
compare exactly (lists or objects inside, a tuple of symbolic length)
drops the path.
"""

from __future__ import annotations

from collections.abc import Callable

from pathcraft.errors import Unsupported
from pathcraft.heap.base import is_scalar
from pathcraft.heap.cells import Addr, Heap, ListCell, ObjectCell
from pathcraft.ir.nodes import Text
from pathcraft.solver import terms as T
from pathcraft.solver.terms import Term

ORDERINGS = ("lt", "le", "gt", "ge")
_SWAPPED = {"gt": "lt", "ge": "le"}


def _tuple_cell(heap: Heap, value: object) -> ListCell | None:
    if isinstance(value, Addr):
        cell = heap.cells.get(value.id)
        if isinstance(cell, ListCell) and cell.is_tuple:
            return cell
    return None


def involves_tuple(heap: Heap, left: object, right: object) -> bool:
    return _tuple_cell(heap, left) is not None or _tuple_cell(heap, right) is not None


def relation(op: str, left: object, right: object, heap: Heap,
             compares_by_value: Callable[[str], bool]) -> Term | None:
    """`left OP right` where at least one side is a tuple; None when Python
    raises TypeError (ordering a tuple and what is not one)."""
    a, b = _tuple_cell(heap, left), _tuple_cell(heap, right)
    if a is None or b is None:
        side = left if b is not None else right
        other = heap.cells.get(side.id) if isinstance(side, Addr) else None
        if isinstance(other, ObjectCell) and compares_by_value(other.cls):
            raise Unsupported(f"comparing a tuple with a {other.cls} object (its comparison is not modelled)")
        if op in ORDERINGS:
            if isinstance(other, ObjectCell):
                raise Unsupported(f"ordering a tuple and a {other.cls} object")
            return None
        return op == "ne"  # a tuple equals only a tuple
    if op in ("eq", "ne"):
        same = _equal(a, b, heap, compares_by_value)
        return same if op == "eq" else T.not_(same)
    if op in _SWAPPED:
        a, b, op = b, a, _SWAPPED[op]
    return _less(a, b, heap, compares_by_value, op == "le")


def _items(cell: ListCell) -> tuple[object, ...]:
    if cell.items is None:
        raise Unsupported("comparing a tuple of symbolic length")
    return cell.items


def _equal(a: ListCell, b: ListCell, heap: Heap, by_value: Callable[[str], bool]) -> Term:
    xs, ys = _items(a), _items(b)
    if len(xs) != len(ys):
        return False
    result: Term = True
    for x, y in zip(xs, ys):
        result = T.and_(result, _item_eq(x, y, heap, by_value))
    return result


def _item_eq(x: object, y: object, heap: Heap, by_value: Callable[[str], bool]) -> Term:
    if is_scalar(x) and is_scalar(y):
        return T.eq(x, y)
    if isinstance(x, Text) and isinstance(y, Text) and x.value is not None and y.value is not None:
        return x.value == y.value
    tx, ty = _tuple_cell(heap, x), _tuple_cell(heap, y)
    if tx is not None and ty is not None:
        return _equal(tx, ty, heap, by_value)
    kinds = {_kind(x, heap), _kind(y, heap)}
    if kinds == {"none"}:
        return True
    if "other" not in kinds and len(kinds) == 2:
        return False  # an int, a string, None and a tuple never equal one another
    raise Unsupported("comparing tuples holding lists, objects or strings not computed")


def _kind(value: object, heap: Heap) -> str:
    if is_scalar(value):
        return "int"
    if isinstance(value, Text):
        return "str"
    if value is None:
        return "none"
    return "tuple" if _tuple_cell(heap, value) is not None else "other"


def _less(a: ListCell, b: ListCell, heap: Heap, by_value: Callable[[str], bool], or_equal: bool) -> Term:
    """`a < b` (`a <= b`): the first items that differ decide, else the lengths."""
    xs, ys = _items(a), _items(b)
    result: Term = len(xs) <= len(ys) if or_equal else len(xs) < len(ys)
    for x, y in reversed(list(zip(xs, ys))):
        if not (is_scalar(x) and is_scalar(y)):
            tx, ty = _tuple_cell(heap, x), _tuple_cell(heap, y)
            if tx is None or ty is None:
                raise Unsupported("ordering tuples holding other than ints, bools and tuples")
            same = _equal(tx, ty, heap, by_value)
            result = T.or_(T.and_(T.not_(same), _less(tx, ty, heap, by_value, False)), T.and_(same, result))
            continue
        result = T.or_(T.relation("lt", x, y), T.and_(T.eq(x, y), result))
    return result
