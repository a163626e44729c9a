"""Heap assumptions on the inputs, honoured by every heap model:
`non-aliasing(a, b)`, `non-sharing(a, b)` (no object reachable from both),
`acyclic(a)`. Inputs that violate one are never generated.

Input cells are named by the access path that reached them (`x.next[0]`),
so an assumption on parameters is checked on the roots of those labels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pathcraft.errors import PathcraftError


@dataclass(frozen=True)
class Assumptions:
    """Heap assumptions, on parameter names."""

    non_aliasing: tuple[tuple[str, str], ...] = ()
    non_sharing: tuple[tuple[str, str], ...] = ()
    acyclic: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.non_aliasing or self.non_sharing or self.acyclic)

    def allow_alias(self, label: str, other_label: str) -> bool:
        """May the input reached by `label` be the object reached by
        `other_label`?"""
        roots = {root_of(label), root_of(other_label)}
        if len(roots) == 2:
            pair = tuple(sorted(roots))
            if pair in {tuple(sorted(p)) for p in self.non_sharing}:
                return False
            if label in roots and other_label in roots and pair in {tuple(sorted(p)) for p in self.non_aliasing}:
                return False
        elif roots & set(self.acyclic) and (other_label in ancestors(label) or label in ancestors(other_label)):
            return False
        return True


def root_of(label: str) -> str:
    """`x.next[0].val` -> `x`."""
    for i, ch in enumerate(label):
        if ch in ".[":
            return label[:i]
    return label


def ancestors(label: str) -> list[str]:
    """Labels of the cells a cell was reached through: `x.a.b` -> [`x`, `x.a`]."""
    out = []
    for i, ch in enumerate(label):
        if ch in ".[" and i:
            out.append(label[:i])
    return out


def parse_assumptions(items: list[str], params: tuple[str, ...] | None = None) -> Assumptions:
    """`non-aliasing(a, b)`, `non-sharing(a, b)`, `acyclic(a)` (underscores
    work as well as hyphens); names are checked against `params`."""
    non_aliasing: list[tuple[str, str]] = []
    non_sharing: list[tuple[str, str]] = []
    acyclic: list[str] = []
    for item in items:
        match = re.fullmatch(r"\s*(non[-_]aliasing|non[-_]sharing|acyclic)\s*\(([^)]*)\)\s*", item)
        if not match:
            raise PathcraftError(
                f"bad heap assumption '{item}': expected non-aliasing(a, b), non-sharing(a, b) or acyclic(a)")
        kind = match.group(1).replace("_", "-")
        names = [n.strip() for n in match.group(2).split(",") if n.strip()]
        if params is not None:
            for n in names:
                if n not in params:
                    raise PathcraftError(f"heap assumption '{item}' names '{n}', not a parameter")
        if kind == "acyclic":
            if len(names) != 1:
                raise PathcraftError(f"bad heap assumption '{item}': acyclic takes one parameter")
            acyclic.append(names[0])
        else:
            if len(names) != 2:
                raise PathcraftError(f"bad heap assumption '{item}': {kind} takes two parameters")
            (non_aliasing if kind == "non-aliasing" else non_sharing).append((names[0], names[1]))
    return Assumptions(tuple(non_aliasing), tuple(non_sharing), tuple(acyclic))
