"""`collections.deque`: a list cell marked `is_deque`.

Length, indexing, `append`, `pop()` and iteration are the list
machinery's; what differs is said here: the messages of its IndexErrors,
and that a loop over a deque raises RuntimeError at its next step once
the deque changed size (CPython's `state` counter: every append or pop
bumps it, `d[i] = x` does not). A loop's `iter` records the count at its
line; its steps compare. A second loop at the same line over a deque
that changed since the first started cannot tell whether the first
still runs: the path is dropped. Loops of prelude code (`x in d`,
`list(d)`, `sum(d)`) run nothing between their steps: not tracked.
Methods a list lacks (`popleft`,
`appendleft`, `rotate`) are prelude code (`models/deque/prelude.py`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from pathcraft.errors import Unsupported
from pathcraft.heap.base import HeapResult, HeapValue, ListOpName
from pathcraft.heap.cells import Addr, Heap, ListCell
from pathcraft.ir.builtin_names import LOOP_LATER, LOOP_STEP
from pathcraft.ir.nodes import Text
from pathcraft.ir.values import ExcValue

EMPTY = "pop from an empty deque"
OUT_OF_RANGE = "deque index out of range"
MUTATED = "deque mutated during iteration"
_CHANGES = ("append", "pop")
# methods whose list prelude code is exact for a deque (its own are in `models/deque/prelude.py`)
DEQUE_AS_LIST = frozenset({"__contains__", "count", "extend", "reverse", "clear", "insert", "__eq__", "__iadd__"})


class ListOps(Protocol):
    def list_op(self, heap: Heap, op: ListOpName, lst: HeapValue, args: tuple[HeapValue, ...]
                ) -> list[HeapResult]: ...


def is_deque(heap: Heap, value: object) -> bool:
    if not isinstance(value, Addr):
        return False
    cell = heap.cells.get(value.id)
    return isinstance(cell, ListCell) and cell.is_deque


def new_deque(heap: Heap, addr: Addr) -> Heap:
    """The list just made at `addr` (a fresh copy of the items), made a deque."""
    cell = heap.cell(addr)
    assert isinstance(cell, ListCell)
    return heap.with_cell(addr, replace(cell, is_deque=True, is_tuple=False, version=0, iters=()))


def _cell(heap: Heap, addr: Addr) -> ListCell:
    cell = heap.cell(addr)
    assert isinstance(cell, ListCell)
    return cell


def deque_op(model: ListOps, heap: Heap, op: ListOpName, dq: Addr, args: tuple[HeapValue, ...],
             line: int | None) -> list[HeapResult]:
    """A list operation on a deque, at source line `line` (0: a method
    call; None: in prelude code, whose loops run no code between steps)."""
    cell = _cell(heap, dq)
    loops = dict(cell.iters)
    if line is None and op in ("iter", "len"):
        return model.list_op(heap, op, dq, args)
    site = line or 0
    if op == "iter":
        if site in loops and loops[site] != cell.version:
            raise Unsupported("a loop over a deque where another loop of that line may still run")
        heap = heap.with_cell(dq, replace(cell, iters=tuple(sorted({**loops, site: cell.version}.items()))))
        return model.list_op(heap, op, dq, args)
    if op == "len" and args and isinstance(args[-1], Text) and args[-1].value in (LOOP_STEP, LOOP_LATER):
        if site not in loops:
            raise Unsupported("a loop step over a deque whose loop start is not known")
        if loops[site] != cell.version:
            return [HeapResult(heap, exc=ExcValue("RuntimeError", MUTATED))]
    out = []
    for result in model.list_op(heap, op, dq, args):
        if result.exc is not None and result.exc.type == "IndexError":
            result = replace(result, exc=ExcValue("IndexError", EMPTY if op == "pop" else OUT_OF_RANGE))
        elif result.exc is not None and result.exc.type == "TypeError":  # CPython's wording differs
            result = replace(result, exc=ExcValue("TypeError", None))
        elif result.exc is None and op in _CHANGES:
            now = _cell(result.heap, dq)
            result = replace(result, heap=result.heap.with_cell(dq, replace(now, version=now.version + 1)))
        elif result.exc is None and op == "copy" and isinstance(result.value, Addr):
            result = replace(result, heap=new_deque(result.heap, result.value))
        out.append(result)
    return out


def as_deques(fresh: list[tuple[Heap, object]]) -> list[tuple[Heap, object]]:
    """Input lists just materialized (`deque[int]` parameters and fields), made deques."""
    out: list[tuple[Heap, object]] = []
    for heap, addr in fresh:
        assert isinstance(addr, Addr)
        cell = _cell(heap, addr)
        out.append((heap.with_cell(addr, replace(cell, is_deque=True), initial=True), addr))
    return out
