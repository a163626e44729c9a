"""The model of `collections.deque` (kind "deque"): a list cell marked
`is_deque` (`heap/deques.py`: its messages, the mutation count a loop
checks). Its own methods are prelude code (`frontend/prelude/deques.py`);
those it shares with lists (`DEQUE_AS_LIST`) run the list's."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State
from pathcraft.engine.values import Value
from pathcraft.heap.deques import DEQUE_AS_LIST
from pathcraft.ir.builtin_names import IADD, method_predicate
from pathcraft.ir.nodes import CallMethod
from pathcraft.models.list import HEAP_METHODS, heap_method, sequence_argument
from pathcraft.models.registry import Model

_SEQUENCES = ("list", "tuple", "str", "deque")
SEQUENCE_ARGUMENT: Mapping[str, tuple[str, ...]] = MappingProxyType({
    IADD: _SEQUENCES, "extend": _SEQUENCES, "extendleft": _SEQUENCES,
})


def _method(machine: Machine, state: State, frame: Frame, instr: CallMethod, receiver: Value,
            args: tuple[Value, ...]) -> Successors | None:
    own = heap_method(machine, state, frame, instr, receiver, args)
    if own is not None:
        return own
    return sequence_argument(machine, state, instr.method, SEQUENCE_ARGUMENT.get(instr.method), args)


def _missing(machine: Machine, state: State, method: str) -> str | None:
    """No `$deque.m`: the list's code where a deque behaves as a list."""
    return method_predicate("list", method) if method in DEQUE_AS_LIST else None


def _has_method(cell: object, name: str) -> bool:
    return name in HEAP_METHODS or name in DEQUE_AS_LIST


MODEL = Model("collections.deque", kinds=("deque",), method=_method, missing=_missing, has_method=_has_method)
