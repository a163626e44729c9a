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
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import MappingProxyType

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
