"""Heap contents: references, objects and lists, all immutable.

A reference is an `Addr`; `None` is Python's None. An input object's
reference field that the run has not read yet holds `Lazy`: lazy
initialization decides what it points to only when it is read. Lists come
in two shapes: a tuple of items (concrete length) and an array term with a
symbolic length (`list[int]`/`list[bool]` inputs, `[v] * n`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Union

from pathcraft.ir.types import Type
from pathcraft.solver.terms import Term


@dataclass(frozen=True, slots=True)
class Addr:
    id: int

    def __repr__(self) -> str:
        return f"@{self.id}"


@dataclass(frozen=True, slots=True)
class Lazy:
    """A not-yet-read reference of an input object, of declared type `type`,
    reached through `label` (an access path like `x.next`)."""

    type: Type
    label: str


@dataclass(frozen=True)
class ObjectCell:
    cls: str
    fields: Mapping[str, object]
    origin: str  # "input" | "new"
    label: str


@dataclass(frozen=True)
class ListCell:
    elem: Type | None
    origin: str
    label: str
    items: tuple[object, ...] | None = None  # concrete length
    length: Term | None = None  # symbolic length (array shape)
    data: Term | None = None  # array term (array shape)
    is_tuple: bool = False  # an immutable sequence: a tuple (see `heap/tuples.py`)
    named: tuple[str, tuple[str, ...]] | None = None  # a NamedTuple's class and fields (a tuple)
    # a `collections.deque` (see `heap/deques.py`): its mutation count, and
    # the count each running loop over it started at, by the loop's line
    is_deque: bool = False
    version: int = 0
    iters: tuple[tuple[int, int], ...] = ()

    @property
    def is_array(self) -> bool:
        return self.items is None

    def size(self) -> Term:
        if self.items is not None:
            return len(self.items)
        assert self.length is not None
        return self.length


@dataclass(frozen=True)
class DictCell:
    """A dict, or a set (`values` is None): its entries in insertion order,
    keys pairwise distinct (by construction, or by a path constraint for an
    input). `version` counts the insertions and deletions, and `iters`
    holds, per running `for` loop over the dict (its line and frame depth),
    the version it started at: Python raises or misbehaves when a dict
    changes size or keys while a loop walks it (see `heap/dicts.py`)."""

    key: Type | None
    elem: Type | None
    origin: str
    label: str
    keys: tuple[object, ...] = ()
    values: tuple[object, ...] | None = ()
    version: int = 0
    iters: Mapping[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # site -> (version, size)
    # a set's keys ever added (CPython's slots, hence its order, depend on them)
    added: tuple[object, ...] = ()
    # a defaultdict's factory: ("int",), ("list",), ...
    default: tuple[object, ...] | None = None

    @property
    def is_set(self) -> bool:
        return self.values is None

    def size(self) -> int:
        return len(self.keys)


@dataclass(frozen=True)
class ViewCell:
    """`d.keys()`, `d.values()` or `d.items()` (`what`): a live view of the
    dict at `of`."""

    of: Addr
    what: str
    origin: str = "new"
    label: str = "view"


@dataclass(frozen=True)
class GeneratorCell:
    """A generator object of `function`: `status` "new" (not started;
    `frames` holds the arguments its first run enters `entry` with), "suspended" (`frames` is its
    suspended frames), "running", or "done"; `count` items yielded so far,
    the last of them `last`. Frames are the engine's, opaque here."""

    function: str
    entry: str  # the function's entry predicate
    status: str
    frames: object
    count: int = 0
    last: object = None
    closable: bool = True  # suspended where closing it runs none of its code
    owned: bool = False  # made for a loop by its object's `__iter__`: the loop holds the only reference
    origin: str = "new"
    label: str = "generator"


Cell = Union[ObjectCell, ListCell, DictCell, ViewCell, GeneratorCell]


@dataclass(frozen=True)
class Heap:
    """The heap of one state: cells by address, plus the input cells as
    they were when first materialized (the test's input heap)."""

    cells: Mapping[int, Cell] = field(default_factory=dict)
    initial: Mapping[int, Cell] = field(default_factory=dict)
    roots: Mapping[str, object] = field(default_factory=dict)
    next_id: int = 1
    # what each lazy reference (by label) was materialized to: a copy of a
    # lazy slot (list.copy, say) must see the same object
    resolved: Mapping[str, object] = field(default_factory=dict)
    # symbolic heap only: the identity term of each input object cell (two
    # cells are the same object where their identities are equal), the
    # writes made to input objects, per field, oldest first, and
    # constraints a heap operation produced for the path
    ids: Mapping[int, Term] = field(default_factory=dict)
    writes: Mapping[str, tuple[tuple[Term, object], ...]] = field(default_factory=dict)
    pending: tuple[Term, ...] = ()

    def cell(self, addr: Addr) -> Cell:
        return self.cells[addr.id]

    def with_cell(self, addr: Addr, cell: Cell, initial: bool = False) -> Heap:
        cells = dict(self.cells)
        cells[addr.id] = cell
        init = self.initial
        if initial:
            init = dict(init)
            init[addr.id] = cell
        return replace(self, cells=cells, initial=init)

    def allocate(self, cell: Cell, initial: bool = False) -> tuple[Heap, Addr]:
        addr = Addr(self.next_id)
        heap = replace(self, next_id=self.next_id + 1)
        return heap.with_cell(addr, cell, initial), addr

    def with_root(self, name: str, value: object) -> Heap:
        return replace(self, roots={**self.roots, name: value})

    def with_initial(self, addr: Addr, cell: Cell) -> Heap:
        return replace(self, initial={**self.initial, addr.id: cell})

    def resolve(self, label: str, value: object) -> Heap:
        return replace(self, resolved={**self.resolved, label: value})

    def constrain(self, *terms: Term) -> Heap:
        kept = tuple(t for t in terms if t is not True)
        return replace(self, pending=self.pending + kept) if kept else self

    def drain(self) -> tuple[Heap, tuple[Term, ...]]:
        return replace(self, pending=()), self.pending

    def current(self, value: object) -> object:
        """A lazy reference that was materialized elsewhere, as its value."""
        if isinstance(value, Lazy) and value.label in self.resolved:
            return self.resolved[value.label]
        return value

    def input_objects(self) -> list[tuple[Addr, Cell]]:
        return [(Addr(i), c) for i, c in self.initial.items()]
