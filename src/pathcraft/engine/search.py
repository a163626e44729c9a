"""Searchers: which open state of the execution tree to extend next."""

from __future__ import annotations

from collections import deque
from typing import Any, Generic, Protocol, TypeVar

T = TypeVar("T")


class Searcher(Protocol[T]):
    in_order: bool  # hands out completed paths in depth-first order

    def add(self, states: list[T]) -> None: ...

    def pop(self) -> T: ...

    def __len__(self) -> int: ...


class DepthFirst(Generic[T]):
    """Rules in source order, deepest first: what CLP's backtracking does,
    and what keeps the incremental solver's stack warm."""

    in_order = True

    def __init__(self) -> None:
        self._stack: list[T] = []

    def add(self, states: list[T]) -> None:
        self._stack.extend(reversed(states))

    def pop(self) -> T:
        return self._stack.pop()

    def __len__(self) -> int:
        return len(self._stack)


class BreadthFirst(Generic[T]):
    in_order = False
    def __init__(self) -> None:
        self._queue: deque[T] = deque()

    def add(self, states: list[T]) -> None:
        self._queue.extend(states)

    def pop(self) -> T:
        return self._queue.popleft()

    def __len__(self) -> int:
        return len(self._queue)


SEARCHERS: dict[str, type[DepthFirst[Any]] | type[BreadthFirst[Any]]] = {"dfs": DepthFirst, "bfs": BreadthFirst}


def make_searcher(name: str) -> Searcher[Any]:
    return SEARCHERS[name]()
