"""`a < b` (and `<=`, `>`, `>=`) where a class of the module orders its
instances (`__lt__` and kin): Python's dispatch.

CPython's `do_richcompare`: when the right operand's class is a proper
subclass of the left's and overrides the reflected method, that goes
first; else the left's method (`__lt__` for `<`), then the right's
reflected one (`__gt__`). A class without the method has `object`'s,
which gives NotImplemented; so do None, numbers, strings and lists against
an object. When every one gives NotImplemented, `<` raises TypeError. A
user method is called as written (its NotImplemented is not modelled: the
frontend refuses the name). Between two values that are no objects the
evaluator's own comparison decides.
"""

from __future__ import annotations

from dataclasses import dataclass

from pathcraft.engine.values import Value
from pathcraft.heap.cells import Addr, Heap, ObjectCell
from pathcraft.ir.nodes import Program

# the method of each operator, and the reflected one the right operand is asked
METHODS = {"lt": ("__lt__", "__gt__"), "le": ("__le__", "__ge__"),
           "gt": ("__gt__", "__lt__"), "ge": ("__ge__", "__le__")}
DUNDERS = ("__lt__", "__le__", "__gt__", "__ge__")


@dataclass(frozen=True)
class Dispatch:
    """Call `method` (a qualname) with (receiver, other); `method` None:
    no object takes part (the evaluator compares), `raises`: TypeError."""

    method: str | None
    receiver: Value
    other: Value
    raises: bool = False


def _class(heap: Heap, value: object) -> str | None:
    cell = heap.cell(value) if isinstance(value, Addr) else None
    return cell.cls if isinstance(cell, ObjectCell) else None


def dispatch(program: Program, heap: Heap, op: str, left: Value, right: Value) -> Dispatch:
    own, reflected = METHODS[op]
    lcls, rcls = _class(heap, left), _class(heap, right)
    if lcls is None and rcls is None:
        return Dispatch(None, left, right)
    tries = [(left, lcls, own, right), (right, rcls, reflected, left)]
    if lcls is not None and rcls is not None and lcls != rcls and program.is_subclass(rcls, lcls) \
            and program.resolve_method(rcls, reflected) != program.resolve_method(lcls, reflected):
        tries.reverse()
    for receiver, cls, method, other in tries:
        found = program.resolve_method(cls, method) if cls is not None else None
        if found is not None:
            return Dispatch(found, receiver, other)
    return Dispatch(None, left, right, raises=True)
