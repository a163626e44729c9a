"""`functools.cache` / `lru_cache` as a path sees them.

A cached result changes no value, but a hit runs none of the function's
code, so the path (its line events, what the replay oracle compares) shows
it. The cache is part of the state: an entry per completed call (arguments
and result, least recently used first); a call forks into a hit on each
entry whose arguments equal its own (mutually exclusive: entries' keys are
distinct) and a miss, which runs the function and stores its result when
it returns (an exception is not cached). A bounded `lru_cache` evicts its
least recently used entry exactly as CPython's does. Tests start with empty
caches (the pytest writer clears them before each test).

Keys are ints, bools (`1 == True` hits, as in Python) and strings; other
arguments (floats: nan; lists: unhashable; objects) drop the path. The
frontend refuses calls that would key differently from their values
(keywords, defaults left out).
"""

from __future__ import annotations

from dataclasses import dataclass

from pathcraft.engine.state import State
from pathcraft.engine.strings import as_str, is_str
from pathcraft.errors import Unsupported
from pathcraft.heap.base import is_scalar
from pathcraft.solver import terms as T
from pathcraft.solver.sorts import STR
from pathcraft.solver.terms import Term

CACHE = "functools-cache"  # State.ext: the entries, oldest first
KEY = "functools-key"  # Frame.ext of a call that missed: what to store when it returns


@dataclass(frozen=True)
class Entry:
    function: str
    args: tuple[Term, ...]
    result: object


@dataclass(frozen=True)
class Pending:
    """A missed call, stored when its frame returns."""

    function: str
    args: tuple[Term, ...]
    limit: int | None


def entries(state: State, function: str) -> list[Entry]:
    every: tuple[Entry, ...] = state.ext.get(CACHE, ())  # type: ignore[assignment]
    return [e for e in every if e.function == function]


def key_of(args: list[object]) -> tuple[Term, ...]:
    """The arguments as terms: ints (a bool as its int: `True == 1`, the
    same key) and strings."""
    key: list[Term] = []
    for arg in args:
        if is_scalar(arg):
            key.append(T.as_int(arg))
        elif is_str(arg):
            key.append(as_str(arg))
        else:
            raise Unsupported("a cached call with arguments other than ints, bools and strings")
    return tuple(key)


def same(entry: Entry, key: tuple[Term, ...]) -> Term:
    """Equal keys (a string never equals an int)."""
    condition: Term = True
    for a, b in zip(entry.args, key):
        if (T.sort_of(a) == STR) != (T.sort_of(b) == STR):
            return False
        condition = T.and_(condition, T.eq(a, b))
    return condition


def used(state: State, entry: Entry, limit: int | None) -> State:
    """A hit: a bounded cache makes the entry the most recently used."""
    if limit is None:
        return state
    every: tuple[Entry, ...] = state.ext.get(CACHE, ())  # type: ignore[assignment]
    return state.with_ext(CACHE, tuple(e for e in every if e is not entry) + (entry,))


def stored(state: State, pending: Pending, result: object) -> State:
    """A missed call returned: its entry, evicting the least recently used
    entry of a full bounded cache."""
    every: tuple[Entry, ...] = state.ext.get(CACHE, ())  # type: ignore[assignment]
    mine = [e for e in every if e.function == pending.function]
    if pending.limit is not None and len(mine) >= pending.limit:
        every = tuple(e for e in every if e is not mine[0])
    return state.with_ext(CACHE, every + (Entry(pending.function, pending.args, result),))
