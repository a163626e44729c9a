"""`**kwargs`: the dict a call makes of the keywords no parameter takes.

The tested function's own is the test's dict, spread (`f(a, **kwargs)`):
its keys name no parameter a keyword could bind (Python would bind it
there, or raise), and the function gets a copy, as CPython makes one, so
what it does to it is not the test's dict. A call of analysed code
dispatched at run time packs its extra keywords into a new dict
(`engine/methods.bound_call`; the frontend packs direct calls itself).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from pathcraft.engine.values import Value
from pathcraft.heap import dicts
from pathcraft.heap.base import HeapModel
from pathcraft.heap.cells import Addr, DictCell, Heap
from pathcraft.ir.nodes import FunctionInfo, Text
from pathcraft.ir.types import Type
from pathcraft.solver import terms as T


def tested_bindings(model: HeapModel, info: FunctionInfo, heap: Heap, env: Mapping[str, Value], kind: Type,
                    name: str) -> list[tuple[Heap, dict[str, Value]]]:
    """The choices for the tested function's `**name`: the test's dict as
    the root, a copy of it bound."""
    named = [p for p in info.params if p not in (info.kwargs, info.varargs) and p not in info.positional_only]
    out: list[tuple[Heap, dict[str, Value]]] = []
    for h, given in model.materialize(heap, kind, name):
        assert isinstance(given, Addr)
        cell = h.cell(given)
        assert isinstance(cell, DictCell)
        h = h.constrain(*[T.ne(key, p) for key in cell.keys for p in named])  # type: ignore[arg-type]  # str keys
        h, copy = h.allocate(replace(cell, origin="new", label=f"{name} (a copy)"))
        out.append((h.with_root(name, given), {**env, name: copy}))
    return out


def packed(heap: Heap, extra: list[tuple[str, Value]]) -> tuple[Heap, Addr]:
    """A new dict of the keyword arguments `extra`, in the call's order."""
    heap, made = dicts.new(heap, is_set=False)
    cell = dicts.dict_cell(heap, made)
    return heap.with_cell(made, replace(cell, keys=tuple(Text(k) for k, _ in extra),
                                        values=tuple(v for _, v in extra))), made
