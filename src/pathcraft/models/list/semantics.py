"""The model of lists (kind "list"): `append`, `pop()` and `copy` are the
heap model's own operations (`heap/base.py: list_method`); every other
method is prelude code (`models/list/prelude.py`), entered once its
sequence argument is checked (`xs + ys`, `xs.extend(ys)`)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State
from pathcraft.engine.values import Value, value_kind
from pathcraft.errors import Unsupported
from pathcraft.heap.cells import Addr
from pathcraft.ir.builtin_names import ADD, IADD
from pathcraft.ir.nodes import CallMethod
from pathcraft.ir.values import ExcValue
from pathcraft.models.registry import MethodHook, Model

HEAP_METHODS = frozenset({"append", "pop", "copy"})  # what the heap model runs itself

_SEQUENCES = ("list", "tuple", "str", "deque")
_ITERABLES = _SEQUENCES + ("generator",)  # what `extend` walks (an iterator is a generator here)
# the kinds of argument a list method takes as a sequence; others raise
# TypeError (None, numbers) or drop the path (an object's protocols, dicts)
SEQUENCE_ARGUMENT: Mapping[str, tuple[str, ...]] = MappingProxyType({
    ADD: ("list",), IADD: _ITERABLES, "extend": _ITERABLES,
})


def heap_method(machine: Machine, state: State, frame: Frame, instr: CallMethod, receiver: Value,
                args: tuple[Value, ...]) -> Successors | None:
    """`xs.append(x)`, `xs.pop()`, `xs.copy()` by the heap model; None for the others."""
    if instr.method in ("append", "copy") or instr.method == "pop" and not args:
        assert isinstance(receiver, Addr)
        return machine.effects(frame, instr.target, machine.heap.list_method(state, receiver, instr.method, args))
    return None


def sequence_argument(machine: Machine, state: State, method: str, accepted: tuple[str, ...] | None,
                      args: tuple[Value, ...]) -> Successors | None:
    """`xs + ys`, `xs += ys`, `xs.extend(ys)`, `[*ys]`: what ys may be;
    None when it is one of the `accepted` kinds (or the method takes none)."""
    if accepted is None:
        return None
    other = value_kind(args[0], state.heap.cell(args[0]) if isinstance(args[0], Addr) else None)
    if other in accepted:
        return None
    if other is None and args[0] is not None or other in ("dict", "set", "view"):
        raise Unsupported(f"list {method} with a value of another kind")  # __radd__, __iter__
    return machine.throw(state, ExcValue("TypeError", None))  # CPython's message names the type


def sequence_methods(accepts: Mapping[str, tuple[str, ...]]) -> MethodHook:
    """The `method` hook of a sequence the heap holds (a list, a deque): its
    own operations, else a method whose argument must be a sequence of the
    kinds `accepts` names for it."""
    def method(machine: Machine, state: State, frame: Frame, instr: CallMethod, receiver: Value,
               args: tuple[Value, ...]) -> Successors | None:
        own = heap_method(machine, state, frame, instr, receiver, args)
        if own is not None:
            return own
        return sequence_argument(machine, state, instr.method, accepts.get(instr.method), args)
    return method


def _has_method(cell: object, name: str) -> bool:
    return name in HEAP_METHODS


MODEL = Model("list", kinds=("list",), method=sequence_methods(SEQUENCE_ARGUMENT), has_method=_has_method)
