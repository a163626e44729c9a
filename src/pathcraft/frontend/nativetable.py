"""The native summaries a translation has (what `frontend/natives.py`
lowered): kept apart from the lowering, so that every module of the
frontend can hold one without importing the lowerer."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pathcraft.ir.nodes import Predicate


@dataclass(frozen=True)
class Natives:
    """The models of some summary files: library name -> (predicate, arity)."""

    entries: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    predicates: Mapping[str, Predicate] = field(default_factory=dict)

    def modules(self) -> frozenset[str]:
        """The library modules some model stands for a function of."""
        return frozenset(name.rpartition(".")[0] for name in self.entries)
