"""The engine's side of dicts, sets and dict views: which heap operation
(`heap/dicts.py`) an instruction on one of them is.

`{k: v}` and `{a}` are the native builtins `$dict`/`$set`; `d[k]`, `d[k] = v`,
`del d[k]`, `len(d)` and a `for` loop's steps are `ListOp`s (a loop's own
`len` and `get` carry a flag, see `ir/builtin_names`); methods arrive as
`CallMethod`s. Each returns the heap model's outcomes (`HeapResult`s) for
the engine to apply. Anything Python does that is not modelled here raises
`Unsupported` (the path is dropped and counted), never a guess.
"""

from __future__ import annotations

from pathcraft.errors import Unsupported
from pathcraft.heap import dicts
from pathcraft.heap.base import HeapResult, type_name
from pathcraft.heap.cells import Addr, DictCell, Heap, ViewCell
from pathcraft.ir.builtin_names import LOOP_KEY, LOOP_STEP, LOOP_VALUE, NEW_SET
from pathcraft.ir.nodes import Text
from pathcraft.ir.values import ExcValue
from pathcraft.solver import terms as T
from pathcraft.solver.terms import Term

_PARTS = {LOOP_STEP: "step", LOOP_KEY: "key", LOOP_VALUE: "value"}


def _both(a: Term | None, b: Term | None) -> Term | None:
    if a is None or b is None:
        return b if a is None else a
    return T.and_(a, b)


def build(heap: Heap, predicate: str, args: tuple[object, ...]) -> list[HeapResult]:
    """`{k1: v1, ...}` (`$dict(k1, v1, ...)`) or `{a, ...}` (`$set(a, ...)`):
    the entries inserted in order, a repeated key keeping its first place."""
    is_set = predicate == NEW_SET
    heap, addr = dicts.new(heap, is_set)
    pairs = [(a, None) for a in args] if is_set else list(zip(args[::2], args[1::2]))
    outcomes = [HeapResult(heap, addr)]
    for key, value in pairs:
        grown: list[HeapResult] = []
        for before in outcomes:
            if before.exc is not None:
                grown.append(before)
                continue
            for after in dicts.write(before.heap, addr, key, value):
                grown.append(HeapResult(after.heap, addr, _both(before.constraint, after.constraint), after.exc))
        outcomes = grown
    return outcomes


def loop_part(args: tuple[object, ...]) -> str | None:
    """The flag of a loop's own `len`/`get` ("step", "key", "value"), if any."""
    last = args[-1] if args else None
    return _PARTS.get(last.value or "") if isinstance(last, Text) else None


def list_op(heap: Heap, op: str, addr: Addr, args: tuple[object, ...], site: tuple[int, int],
            in_builtin: bool) -> list[HeapResult]:
    """`len`, `iter`, `get`, `set`, `del` on a dict, set or view.
    `in_builtin`: the instruction is the prelude's (written for lists)."""
    cell = heap.cell(addr)
    part = loop_part(args)
    name = type_name(addr, heap)
    if op == "iter":
        return dicts.iter_start(heap, addr, site)
    if op == "len":
        if part is not None:
            return [dicts.iter_more(heap, addr, site)]
        return [HeapResult(heap, dicts.underlying(heap, addr)[1].size())]
    if op == "get" and part is not None:
        return [dicts.iter_item(heap, addr, args[0], part)]
    if in_builtin:
        raise Unsupported(f"a {name} where a builtin expects a list")
    if not isinstance(cell, DictCell) or cell.is_set:
        verbs = {"get": "is not subscriptable", "set": "does not support item assignment",
                 "del": "doesn't support item deletion"}
        if op in verbs:
            return [HeapResult(heap, exc=ExcValue("TypeError", f"'{name}' object {verbs[op]}"))]
        raise Unsupported(f"{op} on a {name}")
    if op == "get":
        return dicts.read(heap, addr, args[0])
    if op == "set":
        return dicts.write(heap, addr, args[0], args[1])
    if op == "del":
        return [HeapResult(r.heap, None, r.constraint, r.exc) for r in dicts.remove(heap, addr, args[0])]
    raise Unsupported(f"{op} on a dict")


def method(heap: Heap, addr: Addr, name: str, args: tuple[object, ...]) -> list[HeapResult]:
    """`d.get(k)`, `s.add(x)`, `d.keys()`, `k in d` (`__contains__`), ..."""
    cell = heap.cell(addr)
    if isinstance(cell, ViewCell):
        if name == "__contains__" and len(args) == 1:
            return dicts.view_contains(heap, addr, args[0])
        raise Unsupported(f"{type_name(addr, heap)}.{name}()")
    assert isinstance(cell, DictCell)
    kind = "set" if cell.is_set else "dict"
    n = len(args)
    if name == "__contains__" and n == 1:
        return dicts.contains(heap, addr, args[0])
    if name == "copy" and n == 0:
        heap, copied = dicts.copy(heap, addr)
        return [HeapResult(heap, copied)]
    if name == "clear" and n == 0:
        return [HeapResult(dicts.clear(heap, addr))]
    if cell.is_set:
        if name == "add" and n == 1:
            return [HeapResult(r.heap, None, r.constraint, r.exc) for r in dicts.write(heap, addr, args[0])]
        if name in ("remove", "discard") and n == 1:
            return dicts.remove(heap, addr, args[0], missing_raises=name == "remove")
    else:
        if name == "get" and n in (1, 2):
            return dicts.read(heap, addr, args[0], args[1] if n == 2 else None, missing_raises=False)
        if name == "setdefault" and n in (1, 2):
            return dicts.write(heap, addr, args[0], args[1] if n == 2 else None, keep=True)
        if name == "pop" and n in (1, 2):
            return dicts.remove(heap, addr, args[0], args[1] if n == 2 else None, missing_raises=n == 1)
        if name in ("keys", "values", "items") and n == 0:
            heap, view = heap.allocate(ViewCell(addr, name))
            return [HeapResult(heap, view)]
    if hasattr(set if cell.is_set else dict, name):
        raise Unsupported(f"{kind}.{name}() with {n} arguments")
    return [HeapResult(heap, exc=ExcValue("AttributeError", f"'{kind}' object has no attribute '{name}'"))]


def is_dict_like(heap: Heap, value: object) -> bool:
    """A dict, a set or a view: handled here rather than by the heap model."""
    return isinstance(value, Addr) and isinstance(heap.cell(value), (DictCell, ViewCell))
