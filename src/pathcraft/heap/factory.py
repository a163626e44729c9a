"""Heap models by name, as the `--heap` option and `[tool.pathcraft] heap`
spell them."""

from __future__ import annotations

from pathcraft.heap.assumptions import Assumptions
from pathcraft.heap.base import HEAP_MODELS, HeapModel
from pathcraft.heap.lazy import LazyHeap
from pathcraft.heap.symbolic import SymbolicHeap
from pathcraft.ir.nodes import Program

__all__ = ["HEAP_MODELS", "make_heap_model"]


def make_heap_model(name: str, program: Program, max_list_length: int = 3,
                    assumptions: Assumptions | None = None) -> HeapModel:
    assumptions = assumptions or Assumptions()
    if name == "lazy":
        return LazyHeap(program, aliasing=True, max_list_length=max_list_length, assumptions=assumptions)
    if name == "lazy-noalias":
        return LazyHeap(program, aliasing=False, max_list_length=max_list_length, assumptions=assumptions)
    if name == "symbolic":
        return SymbolicHeap(program, max_list_length, assumptions)
    raise ValueError(f"unknown heap model '{name}' ({', '.join(HEAP_MODELS)})")
