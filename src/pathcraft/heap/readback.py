"""Reading a path's heap back in a model of its constraints: which input
cells are one object, and what their fields hold before and after the run.

Under the heap solver several input cells may be one object (their identity
terms are equal in the model) and writes to input objects sit in per-field
logs; the test-case code asks here rather than reading those structures.
Under the lazy models every input cell is its own object and has no log.
"""

from __future__ import annotations

from collections.abc import Iterable

from pathcraft.heap.cells import Heap, Lazy, ObjectCell
from pathcraft.solver.terms import Model, evaluate

ObjectKey = tuple[str, int]


def object_key(heap: Heap, addr_id: int, model: Model) -> ObjectKey:
    """Equal for input cells that are one object in `model`; a created
    object (or a cell without identity) is only itself."""
    ident = heap.ids.get(addr_id)
    if ident is not None:
        return ("id", int(evaluate(ident, model)))
    if addr_id in heap.initial:
        return ("cell", addr_id)
    return ("new", addr_id)


def final_fields(heap: Heap, members: Iterable[int], model: Model, final: bool) -> dict[str, object]:
    """The fields of the input object made of the cells `members`: their
    merged values as materialized, then (if `final`) every logged write whose
    target is this object in `model`, in program order."""
    members = list(members)
    fields: dict[str, object] = {}
    for addr_id in members:
        cell = heap.initial[addr_id] if not final or addr_id in heap.ids else heap.cells[addr_id]
        assert isinstance(cell, ObjectCell)
        for name, value in cell.fields.items():
            value = heap.current(value)
            if not isinstance(value, Lazy) and name not in fields:
                fields[name] = value
    identities = {object_key(heap, addr_id, model) for addr_id in members if addr_id in heap.ids}
    if final and identities:
        for name, log in heap.writes.items():
            for writer, written in log:
                if ("id", int(evaluate(writer, model))) in identities:
                    fields[name] = written
    return fields
