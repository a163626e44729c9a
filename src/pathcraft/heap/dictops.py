"""The dict and set operations of `HeapModel`, shared by every heap model.

Dicts and sets hold concrete entries under every model (`heap/dicts.py`
says how): no model materializes or aliases them differently once made, so
the models inherit one implementation and the engine's dict model
(`models/dict/semantics.py`) reaches them only through the `HeapModel` protocol.
"""

from __future__ import annotations

from dataclasses import replace

from pathcraft.heap import dicts, tuples
from pathcraft.heap.base import HeapResult, HeapValue, Site, ViewName
from pathcraft.heap.cells import Addr, Heap, ViewCell
from pathcraft.solver.terms import Term


class DictOps:
    """`HeapModel`'s dict and set methods; each returns every outcome."""

    def new_dict(self, heap: Heap, is_set: bool, default: tuple[object, ...] | None = None
                 ) -> tuple[Heap, Addr]:
        """`{}` or `set()`; with `default`, a defaultdict of that factory."""
        heap, addr = dicts.new(heap, is_set)
        if default is None:
            return heap, addr
        return heap.with_cell(addr, replace(dicts.dict_cell(heap, addr), default=default)), addr

    def dict_read(self, heap: Heap, d: Addr, key: HeapValue, default: HeapValue = None,
                  missing_raises: bool = True) -> list[HeapResult]:
        """`d[key]` (KeyError, or a defaultdict's new entry) or `d.get(key, default)`."""
        return dicts.read(heap, d, key, default, missing_raises)

    def dict_write(self, heap: Heap, d: Addr, key: HeapValue, value: HeapValue = None,
                   keep: bool = False) -> list[HeapResult]:
        """`d[key] = value`, `d.setdefault(key, value)` (`keep`), `s.add(key)`."""
        return dicts.write(heap, d, key, value, keep)

    def dict_remove(self, heap: Heap, d: Addr, key: HeapValue, default: HeapValue = None,
                    missing_raises: bool = True) -> list[HeapResult]:
        """`del d[key]`, `d.pop(key[, default])`, `s.remove(key)`, `s.discard(key)`."""
        return dicts.remove(heap, d, key, default, missing_raises)

    def dict_contains(self, heap: Heap, d: Addr, key: HeapValue) -> list[HeapResult]:
        """`key in d`: one outcome, its value the condition."""
        return dicts.contains(heap, d, key)

    def dict_copy(self, heap: Heap, d: Addr) -> tuple[Heap, Addr]:
        return dicts.copy(heap, d)

    def dict_clear(self, heap: Heap, d: Addr) -> Heap:
        return dicts.clear(heap, d)

    def dict_equal(self, heap: Heap, a: HeapValue, b: HeapValue) -> Term:
        """`a == b` where one side is a dict or set."""
        return dicts.equal(heap, a, b)

    def dict_size(self, heap: Heap, d: Addr) -> int:
        """`len(d)` of a dict, set or view."""
        return dicts.underlying(heap, d)[1].size()

    def dict_view(self, heap: Heap, d: Addr, what: ViewName) -> tuple[Heap, Addr]:
        """`d.keys()`, `d.values()`, `d.items()`: a live view of `d`."""
        return heap.allocate(ViewCell(d, what))

    def view_contains(self, heap: Heap, view: Addr, item: HeapValue) -> list[HeapResult]:
        """`x in d.keys()` / `x in d.values()`."""
        return dicts.view_contains(heap, view, item)

    def dict_iter_start(self, heap: Heap, d: Addr, site: Site, unordered: bool = False) -> list[HeapResult]:
        """A loop at `site` starts walking the dict, set or view `d`."""
        return dicts.iter_start(heap, d, site, unordered)

    def dict_iter_more(self, heap: Heap, d: Addr, site: Site, certain: bool = True) -> HeapResult:
        """The loop's next step (RuntimeError once `d` changed size)."""
        return dicts.iter_more(heap, d, site, certain)

    def dict_iter_item(self, heap: Heap, d: Addr, index: HeapValue, part: str) -> HeapResult:
        """The entry at the loop's position `index`: its key or value
        (`part`); of an items view walked whole (`for item in d.items()`),
        a new tuple of both, as CPython makes one per entry."""
        if dicts.walks_items(heap, d) and part not in ("key", "value"):
            key = dicts.iter_item(heap, d, index, "key").value
            value = dicts.iter_item(heap, d, index, "value").value
            heap, pair = self.new_list(heap, (key, value))  # type: ignore[attr-defined]  # the heap model's
            return HeapResult(tuples.new_tuple(heap, pair), pair)
        return dicts.iter_item(heap, d, index, part)
