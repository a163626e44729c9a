"""Boundary values: the inputs that tell a comparison from its neighbours.

A test per path puts one value on each comparison the path makes, and the
canonical model puts it on the edge of the latest one (solver/canonical.py).
An earlier comparison may then never see its edge: in

    if num < 0: raise ...
    if num < 2: return num

the path `0 <= num < 2` is tested with `num = 1`, and no test has
`num = 0`, so `num <= 0` in place of `num < 0` goes unnoticed. Mutation
analysis names the values that catch such slips (relational operator
replacement: for `x < c`, the values `c - 1`, `c` and `c + 1` tell `<`
from `<=`, `==`, `!=`, `>` and `>=`); this module lists them for the
comparisons of a path between an int parameter and a constant. Which of
them a path can take, and whether a test already has it, is the caller's
question (generate.py's edge tests).

Items have an edge too: a path that finds `items[k] == x` in a sorted
list is tested with its items all different, so no test tells which of
two equal items the function takes (`left | (right - left) // 2` for
`left + (right - left) // 2` in a binary search picks another midpoint
only then). `item_twins` lists, for each such equality, the neighbours
`items[k - 1]` and `items[k + 1]` as candidates to equal `x` as well.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pathcraft.solver import terms as T
from pathcraft.solver.terms import INT, App, Sym, Term


@dataclass(frozen=True)
class Boundary:
    """`parameter = value`, at (`offset` 0) or beside (-1, +1) the constant
    of `comparison`."""

    parameter: Sym
    value: int
    offset: int
    op: str  # the comparison, the parameter on its left: `x < c` is "lt", `c < x` and `not x <= c` are "gt"
    constant: int

    def describe(self) -> str:
        where = "on the edge" if self.offset == 0 else "next to the edge"
        return f"{self.parameter.name} = {self.value}, {where} of " \
            f"{self.parameter.name} {_SPELLING[self.op]} {self.constant}"


def boundary_values(constraints: Iterable[Term], inputs: Iterable[Sym]) -> list[Boundary]:
    """The values at and beside each comparison of an int parameter in
    `inputs` with an int constant, in the order the constraints make them
    (the constant itself first), each `(parameter, value)` once."""
    wanted = {s for s in inputs if s.sort == INT}
    seen: set[tuple[Sym, int]] = set()
    out: list[Boundary] = []
    for constraint in constraints:
        compared = _compared(constraint)
        if compared is None or compared[0] not in wanted:
            continue
        sym, op, bound = compared
        for offset in (0, -1, 1):
            if (sym, bound + offset) not in seen:
                seen.add((sym, bound + offset))
                out.append(Boundary(sym, bound + offset, offset, op, bound))
    return out


@dataclass(frozen=True)
class Twin:
    """`array[index] == matched`, beside the item `array[found]` (at
    position `found` in the model the twin is made from) that the path
    compares equal to `matched`."""

    array: Sym
    index: int
    found: int
    position: Term  # the found item's index as the path computes it
    matched: Term

    def pinned(self) -> Term:
        """The twin, within the list, its neighbour where the model has it."""
        length = Sym(f"len({self.array.name})", INT)  # the length symbol's convention (heap/lazy.py)
        return T.and_(T.and_(T.eq(self.position, self.found), T.gt(length, self.index)),
                      T.eq(T.select(self.array, self.index), self.matched))

    def describe(self) -> str:
        name = self.array.name
        return f"{name}[{self.index}] == {name}[{self.found}] == {T.show(self.matched)}, " \
            "a twin of the item the path finds"


def item_twins(constraints: Iterable[Term], arrays: Iterable[Sym], model: Mapping[str, Any]) -> list[Twin]:
    """For each `array[k] == x` of an input int list (`arrays`), in the
    order the constraints make them, with `k` the found item's position
    in `model`: `array[k - 1] == x` (if `k > 0`) and `array[k + 1] == x`,
    each `(array, index)` once."""
    wanted = set(arrays)
    seen: set[tuple[Sym, int]] = set()
    out: list[Twin] = []
    for constraint in constraints:
        if not (isinstance(constraint, App) and constraint.op == "eq" and len(constraint.args) == 2):
            continue
        for item, matched in (constraint.args, constraint.args[::-1]):
            if not (isinstance(item, App) and item.op == "select" and item.args[0] in wanted):
                continue
            array, position = item.args
            found = T.evaluate(position, model)
            if not isinstance(array, Sym) or type(found) is not int:
                continue
            for index in (found - 1, found + 1):
                if index >= 0 and (array, index) not in seen:
                    seen.add((array, index))
                    out.append(Twin(array, index, found, position, matched))
    return out


_SPELLING = MappingProxyType({"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="})
_NEGATED = MappingProxyType({"lt": "ge", "le": "gt", "gt": "le", "ge": "lt", "eq": "ne", "ne": "eq"})
_MIRRORED = MappingProxyType({"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"})


def _compared(constraint: Term) -> tuple[Sym, str, int] | None:
    """`(x, op, c)` for `x op c`, from `x OP c` or `c OP x`, also under one `not`."""
    negated = isinstance(constraint, App) and constraint.op == "not" and len(constraint.args) == 1
    if negated:
        assert isinstance(constraint, App)
        constraint = constraint.args[0]
    if not (isinstance(constraint, App) and constraint.op in _SPELLING and len(constraint.args) == 2):
        return None
    op = _NEGATED[constraint.op] if negated else constraint.op
    left, right = constraint.args
    if isinstance(left, Sym) and isinstance(right, int) and not isinstance(right, bool):
        return left, op, right
    if isinstance(right, Sym) and isinstance(left, int) and not isinstance(left, bool):
        return right, _MIRRORED[op], left
    return None
