"""The inputs a run starts from: one binding of the parameters per choice
of their values.

An int, bool, float or str parameter is a symbol (None first when it is
optional; a float too where the function checks it for an int: probes); a
reference parameter is what the heap model materializes (a `**kwargs`
dict: the test's, and a copy bound, engine/keywords.py); a sentinel
default is one more choice (the argument left out). A union parameter
(`x: int | str`, frontend/unions.py) takes each member's values in turn.
"""

from __future__ import annotations

from pathcraft.engine import keywords
from pathcraft.engine.values import Value
from pathcraft.heap.base import HeapModel
from pathcraft.heap.cells import Heap
from pathcraft.ir.nodes import FunctionInfo, Sentinel
from pathcraft.ir.types import Type
from pathcraft.solver import terms as T
from pathcraft.solver.terms import Sym

SORT_OF_KIND = {"int": T.INT, "bool": T.BOOL, "float": T.FLOAT, "str": T.STR}  # parameters that are one symbol

Binding = tuple[Heap, dict[str, Value]]


def initial_bindings(function: FunctionInfo, heap_model: HeapModel) -> list[Binding]:
    bindings: list[Binding] = [(Heap(), {})]
    defaults = dict(function.defaults)
    members = dict(function.alternatives)
    for name, declared in zip(function.params, function.param_types):
        extended: list[Binding] = []
        for heap, env in bindings:
            default = defaults.get(name)
            if isinstance(default, Sentinel):  # left out of the call: its default, a sentinel object
                extended.append((heap.with_root(name, default), {**env, name: default}))
            for kind in members.get(name, (declared,)):
                extended.extend(_values(function, heap_model, heap, env, name, kind))
        bindings = extended
    return bindings


def _values(function: FunctionInfo, heap_model: HeapModel, heap: Heap, env: dict[str, Value], name: str,
            kind: Type) -> list[Binding]:
    """The bindings of parameter `name` to values of type `kind`."""
    if name == function.kwargs:
        return keywords.tested_bindings(heap_model, function, heap, env, kind, name)
    if kind.kind not in SORT_OF_KIND:
        return [(h.with_root(name, v), {**env, name: v})  # type: ignore[dict-item]  # references
                for h, v in heap_model.materialize(heap, kind, name)]
    out: list[Binding] = []
    if kind.optional:  # `int | None` (frontend/optional.py): None first
        out.append((heap.with_root(name, None), {**env, name: None}))
    symbol = Sym(name, SORT_OF_KIND[kind.kind])
    if kind.kind == "str":  # inputs are printable ASCII (solver/strings.py)
        heap = heap.constrain(T.apply("printable", symbol))
    out.append((heap.with_root(name, symbol), {**env, name: symbol}))
    if name in function.probes:  # a float where the function checks for an int
        probe = Sym(name, T.FLOAT)
        out.append((heap.with_root(name, probe), {**env, name: probe}))
    return out
