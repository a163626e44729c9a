"""The model of dicts, sets and dict views: which of the heap model's
dict operations (`HeapModel.dict_*`, `heap/dictops.py`) an instruction on
one of them is, registered for the kinds "dict", "set" and "view" and the
literals `$dict`/`$set`/`$defaultdict`; the methods beyond these are
prelude code (`models/dict/prelude.py`).

`{k: v}` and `{a}` are the native builtins `$dict`/`$set`; `d[k]`, `d[k] = v`,
`del d[k]`, `len(d)` and a `for` loop's steps are `ListOp`s (a loop's own
`len` and `get` carry a flag, see `ir/builtin_names`); methods arrive as
`CallMethod`s. Each returns the heap model's outcomes (`HeapResult`s) for
the engine to apply. Anything Python does that is not modelled here raises
`Unsupported` (the path is dropped and counted), never a guess.
"""

from __future__ import annotations

from dataclasses import replace

from pathcraft.cost.models import SizeModel
from pathcraft.engine.heapstep import operands
from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State
from pathcraft.engine.values import Value
from pathcraft.errors import Unsupported
from pathcraft.frontend.generators import SOURCE_PREFIX as GENERATOR_SOURCE
from pathcraft.heap.base import HeapModel, HeapResult, HeapValue, Site, ViewName, type_name
from pathcraft.heap.cells import Addr, DictCell, Heap, ViewCell
from pathcraft.ir.builtin_names import (
    LOOP_KEY,
    LOOP_LATER,
    LOOP_REVERSED,
    LOOP_STEP,
    LOOP_VALUE,
    MEMO_WRAPPER,
    NEW_DEFAULTDICT,
    NEW_DICT,
    NEW_SET,
    function_predicate,
    method_predicate,
)
from pathcraft.ir.nodes import Call, CallMethod, Const, Expr, ListOp, Text, Var
from pathcraft.ir.values import ExcValue
from pathcraft.solver import terms as T
from pathcraft.solver.terms import Term
from pathcraft.models.registry import Model

_PARTS = {LOOP_STEP: "step", LOOP_KEY: "key", LOOP_VALUE: "value", LOOP_LATER: "later",
          LOOP_REVERSED: "reversed"}
_OWN_PRELUDE = (function_predicate("dict"), function_predicate("set"), method_predicate("view", ""), MEMO_WRAPPER)
# prelude functions whose result does not depend on the order they walk a set in
_UNORDERED = frozenset({function_predicate("set"), *(method_predicate("set", m) for m in (
    "update", "union", "intersection", "difference", "issubset"))})
_VIEWS: dict[str, ViewName] = {"keys": "keys", "values": "values", "items": "items"}
# the methods the engine runs itself, per kind of receiver
NATIVE = {"dict": frozenset({"__contains__", "copy", "clear", "get", "setdefault", "pop", "keys", "values", "items"}),
          "set": frozenset({"__contains__", "copy", "clear", "add", "remove", "discard"}),
          "view": frozenset({"__contains__"})}


def _both(a: Term | None, b: Term | None) -> Term | None:
    if a is None or b is None:
        return b if a is None else a
    return T.and_(a, b)


def build(model: HeapModel, heap: Heap, predicate: str, args: tuple[HeapValue, ...]) -> list[HeapResult]:
    """`{k1: v1, ...}` (`$dict(k1, v1, ...)`) or `{a, ...}` (`$set(a, ...)`):
    the entries inserted in order, a repeated key keeping its first place."""
    if predicate == NEW_DEFAULTDICT:  # `defaultdict(factory)`: its arguments are the factory
        factory = tuple(a.value if isinstance(a, Text) else a for a in args)
        heap, addr = model.new_dict(heap, is_set=False, default=factory)
        return [HeapResult(heap, addr)]
    heap, addr = model.new_dict(heap, is_set=predicate == NEW_SET)
    pairs = [(a, None) for a in args] if predicate == NEW_SET else list(zip(args[::2], args[1::2]))
    outcomes = [HeapResult(heap, addr)]
    for key, value in pairs:
        grown: list[HeapResult] = []
        for before in outcomes:
            if before.exc is not None:
                grown.append(before)
                continue
            for after in model.dict_write(before.heap, addr, key, value):
                grown.append(HeapResult(after.heap, addr, _both(before.constraint, after.constraint), after.exc))
        outcomes = grown
    return outcomes


def loop_part(args: tuple[object, ...]) -> str | None:
    """The flag of a loop's own `len`/`get` ("step", "key", "value"), if any."""
    last = args[-1] if args else None
    return _PARTS.get(last.value or "") if isinstance(last, Text) else None


def entry_part(args: tuple[Expr, ...]) -> str | None:
    """"key" or "value" for the `get` of a `for k, v in d.items()` loop."""
    last = args[-1] if args else None
    if isinstance(last, Const) and isinstance(last.value, Text) and last.value.value in (LOOP_KEY, LOOP_VALUE):
        return _PARTS[last.value.value]
    return None


def list_op(model: HeapModel, heap: Heap, op: str, addr: Addr, args: tuple[HeapValue, ...],
            site: Site, builtin: str | None) -> list[HeapResult]:
    """`len`, `iter`, `get`, `set`, `del` on a dict, set or view.
    `builtin`: the builtin predicate the instruction is in, if any: the
    prelude's list functions never index a dict; its set functions build
    results whose membership does not depend on the order they walk a set in."""
    cell = heap.cell(addr)
    part = loop_part(args)
    name = type_name(addr, heap)
    # a prelude function (`$...`); a comprehension inlined from 3.12 is silent but the user's own code
    in_builtin = builtin is not None and builtin.startswith("$") and not builtin.startswith(_OWN_PRELUDE)
    if op == "iter" and part == "reversed" and isinstance(cell, DictCell) and cell.is_set:
        return [HeapResult(heap, exc=ExcValue("TypeError", "'set' object is not reversible"))]
    if op == "iter":
        return model.dict_iter_start(heap, addr, site, unordered=builtin in _UNORDERED)
    if op == "len":
        if part is not None:
            return [model.dict_iter_more(heap, addr, site, certain=part != "later")]
        return [HeapResult(heap, model.dict_size(heap, addr))]
    if op == "get" and part is not None:
        return [model.dict_iter_item(heap, addr, args[0], part)]
    if in_builtin:
        raise Unsupported(f"a {name} where a builtin expects a list")
    if not isinstance(cell, DictCell) or cell.is_set:
        verbs = {"get": "is not subscriptable", "set": "does not support item assignment",
                 "del": "doesn't support item deletion"}
        if op in verbs:
            return [HeapResult(heap, exc=ExcValue("TypeError", f"'{name}' object {verbs[op]}"))]
        raise Unsupported(f"{op} on a {name}")
    if op == "get":
        return model.dict_read(heap, addr, args[0])
    if op == "set":
        return model.dict_write(heap, addr, args[0], args[1])
    if op == "del":
        return [HeapResult(r.heap, None, r.constraint, r.exc) for r in model.dict_remove(heap, addr, args[0])]
    raise Unsupported(f"{op} on a dict")


def method(model: HeapModel, heap: Heap, addr: Addr, name: str, args: tuple[HeapValue, ...]
           ) -> list[HeapResult] | None:
    """`d.get(k)`, `s.add(x)`, `d.keys()`, `k in d` (`__contains__`), ...;
    None for a method left to the prelude (`$dict.update`, say)."""
    cell = heap.cell(addr)
    if isinstance(cell, ViewCell):
        if name == "__contains__" and len(args) == 1:
            return model.view_contains(heap, addr, args[0])
        return None
    assert isinstance(cell, DictCell)
    n = len(args)
    if name == "__contains__" and n == 1:
        return model.dict_contains(heap, addr, args[0])
    if name == "copy" and n == 0:
        heap, copied = model.dict_copy(heap, addr)
        return [HeapResult(heap, copied)]
    if name == "clear" and n == 0:
        return [HeapResult(model.dict_clear(heap, addr))]
    if cell.is_set:
        if name == "add" and n == 1:
            return [HeapResult(r.heap, None, r.constraint, r.exc) for r in model.dict_write(heap, addr, args[0])]
        if name in ("remove", "discard") and n == 1:
            return model.dict_remove(heap, addr, args[0], missing_raises=name == "remove")
    else:
        if name == "get" and n in (1, 2):
            return model.dict_read(heap, addr, args[0], args[1] if n == 2 else None, missing_raises=False)
        if name == "setdefault" and n in (1, 2):
            return model.dict_write(heap, addr, args[0], args[1] if n == 2 else None, keep=True)
        if name == "pop" and n in (1, 2):
            return model.dict_remove(heap, addr, args[0], args[1] if n == 2 else None, missing_raises=n == 1)
        view_name = _VIEWS.get(name)
        if view_name is not None and n == 0:
            heap, view = model.dict_view(heap, addr, view_name)
            return [HeapResult(heap, view)]
    return None


def growth(before: Heap, after: Heap, sizes: SizeModel) -> int:
    """The bytes the dicts and sets of `after` take beyond `before`'s: a new
    one its header and slots, a grown one its new slots (never negative:
    costs do not decrease)."""
    total = 0
    for cell_id, cell in after.cells.items():
        if not isinstance(cell, DictCell) or before.cells.get(cell_id) is cell:
            continue
        old = before.cells.get(cell_id)
        slots = cell.size() * (1 if cell.is_set else 2)
        if isinstance(old, DictCell):
            total += max(0, sizes.slot * (slots - old.size() * (1 if old.is_set else 2)))
        else:
            total += sizes.list_header + sizes.slot * slots
    return total


def has_method(cell: DictCell | ViewCell, name: str) -> bool:
    """Does the dict, set or view have a method `name` the engine runs
    itself? (The prelude's are predicates of their own.)"""
    kind = "view" if isinstance(cell, ViewCell) else "set" if isinstance(cell, DictCell) and cell.is_set else "dict"
    return name in NATIVE[kind]


# ------------------------------------------------------------ the handlers


def _list_op(machine: Machine, state: State, frame: Frame, instr: ListOp, subject: Value) -> Successors | None:
    """`d[k]`, `d[k] = v`, `del d[k]`, `len(d)` or a loop's step over a
    dict, set or view; the loop's site is its line and the number of
    calls below it (blocks are tail-called frames). Truth (`if d:` in a
    module whose classes define `__bool__`) is the engine's: not empty."""
    assert isinstance(subject, Addr)
    if instr.op == "truth":
        return None
    if isinstance(instr.lst, Var) and instr.lst.name.startswith(GENERATOR_SOURCE):
        raise Unsupported("a generator expression over a dict, set or view (walked by position)")
    args = tuple(machine.evaluator.eval(a, frame.env, state.heap) for a in instr.args)
    depth, stack = 0, state.stack
    while stack is not None:
        depth, stack = depth + (not stack.top.via_tail), stack.rest
    builtin = frame.pred.function if frame.pred.builtin else None
    results = list_op(machine.heap_model, state.heap, instr.op, subject, operands(args), (instr.line, depth), builtin)
    return _effects(machine, state, frame, instr.target, results)


def _method(machine: Machine, state: State, frame: Frame, instr: CallMethod, receiver: Value,
            args: tuple[Value, ...]) -> Successors | None:
    """A method the model runs itself; None: the prelude's."""
    assert isinstance(receiver, Addr)
    results = method(machine.heap_model, state.heap, receiver, instr.method, operands(args))
    return None if results is None else _effects(machine, state, frame, instr.target, results)


def _build(machine: Machine, state: State, frame: Frame, instr: Call, args: list[Value]) -> Successors:
    results = build(machine.heap_model, state.heap, instr.predicate, operands(tuple(args)))
    return _effects(machine, state, frame, instr.target, results)



def _loop_shape(instr: ListOp) -> None:
    """`for k, v in x.items()` lowered as a dict's loop, where x is none."""
    if entry_part(instr.args) is not None:
        raise Unsupported("'for a, b in x.items()' where x is not a dict")


def _has_method(cell: object, name: str) -> bool:
    return isinstance(cell, (DictCell, ViewCell)) and has_method(cell, name)


def _effects(machine: Machine, state: State, frame: Frame, target: str | None,
             results: list[HeapResult]) -> Successors:
    """The outcomes of a dict or set operation, each charged the memory
    its dicts and sets grew by (a slot per key and per value)."""
    effects = []
    for effect in machine.heap.apply(state, results):
        grown = growth(state.heap, effect.state.heap, machine.heap.sizes)
        if grown:
            charged = machine.controls.charged(replace(effect.state, costs=effect.state.costs.allocate(grown)))
            if charged is None:
                machine.stats.pruned += 1
                continue
            effect = replace(effect, state=charged)
        effects.append(effect)
    return machine.effects(frame, target, effects)


MODEL = Model("dict", kinds=("dict", "set", "view"), method=_method, has_method=_has_method, list_op=_list_op,
              list_guard=_loop_shape, builds={NEW_DICT: _build, NEW_SET: _build, NEW_DEFAULTDICT: _build})
