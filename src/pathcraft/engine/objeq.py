"""`a == b` where a class of the module compares by value: Python's dispatch.

CPython's `do_richcompare`: when the right operand's class is a proper
subclass of the left's, the right's `__eq__` goes first; then the left's,
then the right's. An object without `__eq__` of its own has `object`'s
(True when identical, else NotImplemented); None, numbers, strings, lists,
tuples and dicts give NotImplemented against an object; a dataclass's
generated one (frontend/dataclass_eq.py) gives NotImplemented unless both
are of the same class. When every one gives NotImplemented, `==` is
identity. A user `__eq__` is called as written (its NotImplemented is not
modelled: the frontend refuses the name). `!=` is the negation of `==`
(a class whose `__ne__` says more than `not (self == other)` drops the path).
"""

from __future__ import annotations

from dataclasses import dataclass

from pathcraft.errors import Unsupported
from pathcraft.engine.values import Value, value_kind
from pathcraft.heap.cells import Addr, Heap, ObjectCell
from pathcraft.ir.nodes import Program

MAX_DEPTH = 12  # generated `__eq__`s running at once; deeper (a cycle: RecursionError in CPython) drops


@dataclass(frozen=True)
class Dispatch:
    """Call `method` (a qualname) with (receiver, other); None: identity."""

    method: str | None
    receiver: Value
    other: Value


def _class(heap: Heap, value: object) -> str | None:
    cell = heap.cell(value) if isinstance(value, Addr) else None
    return cell.cls if isinstance(cell, ObjectCell) else None


def by_value(program: Program, heap: Heap, left: object, right: object) -> bool:
    """Is either side an object whose class compares by value?"""
    return any(c is not None and program.compares_by_value(c) for c in (_class(heap, left), _class(heap, right)))


def generated(program: Program, qualname: str) -> bool:
    """Is `qualname` a dataclass's generated `__eq__` (a silent predicate)?"""
    info = program.functions.get(qualname)
    return info is not None and program.predicate(info.entry).builtin


def dispatch(program: Program, heap: Heap, left: Value, right: Value, negated: bool) -> Dispatch:
    """Which `__eq__` decides `left == right` (see the module docstring)."""
    lcls, rcls = _class(heap, left), _class(heap, right)
    order = [(left, lcls, right, rcls), (right, rcls, left, lcls)]
    if lcls is not None and rcls is not None and lcls != rcls and program.is_subclass(rcls, lcls):
        order.reverse()
    for receiver, cls, other, other_cls in order:
        if cls is None:
            continue  # None, a number, a str, a list, ...: NotImplemented against an object
        ne = program.resolve_method(cls, "__ne__") if negated else None
        if ne is not None and not program.classes[ne.rpartition(".")[0]].plain_ne:
            raise Unsupported(f"'!=' on {cls} objects (its __ne__ is not followed)")
        method = _eq_method(program, cls)
        if method is None:
            continue  # object's: identity, or NotImplemented (the classes differ)
        if generated(program, method) and other_cls != cls:
            continue  # the dataclass's: NotImplemented for another class
        _check_fits(program, heap, method, other)
        return Dispatch(method, receiver, other)
    return Dispatch(None, left, right)


def _eq_method(program: Program, cls: str) -> str | None:
    """The `__eq__` instances of `cls` run: the nearest class that writes
    one or is a dataclass (which generates one over its own fields); None:
    object's. A generated one the frontend did not write drops the path."""
    for klass in program.mro(cls):
        info = program.classes[klass]
        if "__eq__" in info.methods:
            return f"{klass}.__eq__"
        if info.dataclass:
            raise Unsupported(f"'==' on {cls} objects (the __eq__ @dataclass generates for {klass} "
                              "is not modelled: a float field, or fields of a dataclass base)")
    return None


def _check_fits(program: Program, heap: Heap, method: str, other: object) -> None:
    """A user `__eq__` annotated `other: C` given something else: its code
    was lowered for a C (the annotation `object` is typed int, but its
    `isinstance` tests are decided at run time: see frontend/lower.py)."""
    info = program.functions.get(method)
    if info is None or len(info.param_types) != 2:
        return
    declared = info.param_types[1]
    cls = _class(heap, other)
    if declared.kind == "obj":
        fits = other is None and declared.optional or cls is not None and program.is_subclass(cls, str(declared.cls))
    elif declared.kind in ("int", "bool"):
        fits = True  # `object` or `Any` (modelled as int): any value; isinstance is asked at run time
    else:
        kind = value_kind(other, heap.cell(other) if isinstance(other, Addr) else None)
        fits = kind == declared.kind or other is None and declared.optional
    if not fits:
        raise Unsupported(f"'==' calls {method} with a value its annotation ({declared}) does not allow")
