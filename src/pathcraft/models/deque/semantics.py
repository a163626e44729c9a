"""The model of `collections.deque` (kind "deque"): a list cell marked
`is_deque` (`heap/deques.py`: its messages, the mutation count a loop
checks). Its own methods are prelude code (`models/deque/prelude.py`);
those it shares with lists (`DEQUE_AS_LIST`) run the list's."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from pathcraft.engine.machine import Machine
from pathcraft.engine.state import State
from pathcraft.heap.deques import DEQUE_AS_LIST
from pathcraft.ir.builtin_names import IADD, method_predicate
from pathcraft.models.list.semantics import HEAP_METHODS, sequence_methods
from pathcraft.models.registry import Model

_SEQUENCES = ("list", "tuple", "str", "deque")
_ITERABLES = _SEQUENCES + ("generator",)  # walked by the prelude (an iterator is a generator here)
SEQUENCE_ARGUMENT: Mapping[str, tuple[str, ...]] = MappingProxyType({
    IADD: _ITERABLES, "extend": _ITERABLES, "extendleft": _ITERABLES,
})


def _missing(machine: Machine, state: State, method: str) -> str | None:
    """No `$deque.m`: the list's code where a deque behaves as a list."""
    return method_predicate("list", method) if method in DEQUE_AS_LIST else None


def _has_method(cell: object, name: str) -> bool:
    return name in HEAP_METHODS or name in DEQUE_AS_LIST


MODEL = Model("collections.deque", kinds=("deque",), method=sequence_methods(SEQUENCE_ARGUMENT), missing=_missing,
              has_method=_has_method)
