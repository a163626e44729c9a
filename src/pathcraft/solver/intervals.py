"""Cheap interval bounds: the layer that decides easy branches without Z3.

Bounds are learnt from path constraints of the form `x <op> c` (one symbol
against a constant, either side) and evaluated over terms with interval
arithmetic. Deciding a condition is three-valued: True means the path
constraints imply it, False that they refute it, None that bounds cannot
tell. The domain is deliberately small: it only has to be sound and fast.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from pathcraft.solver.terms import BOOL, INT, STR, App, Sym, Term

Interval = tuple[int | None, int | None]
Bounds = Mapping[str, Interval]
EMPTY_BOUNDS: Bounds = MappingProxyType({})  # shared by every path root: read-only
_TOP: Interval = (None, None)


def _meet(a: Interval, b: Interval) -> Interval:
    lo = a[0] if b[0] is None else (b[0] if a[0] is None else max(a[0], b[0]))
    hi = a[1] if b[1] is None else (b[1] if a[1] is None else min(a[1], b[1]))
    return (lo, hi)


def _constraint_interval(op: str, c: int, sym_on_left: bool) -> Interval | None:
    if not sym_on_left:
        op = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}.get(op, op)
    return {
        "eq": (c, c),
        "lt": (None, c - 1),
        "le": (None, c),
        "gt": (c + 1, None),
        "ge": (c, None),
    }.get(op)


def learn(bounds: Bounds, constraint: Term) -> Bounds:
    """Bounds after adding `constraint` to the path (a new mapping)."""
    name: str | None = None
    interval: Interval | None = None
    if isinstance(constraint, Sym) and constraint.sort == BOOL:
        name, interval = constraint.name, (1, 1)
    elif isinstance(constraint, App):
        if constraint.op == "not" and isinstance(constraint.args[0], Sym):
            name, interval = constraint.args[0].name, (0, 0)
        elif len(constraint.args) == 2:
            left, right = constraint.args
            if isinstance(left, Sym) and type(right) is int:
                name = left.name
                interval = _constraint_interval(constraint.op, right, True)
                if constraint.op == "ne":
                    interval = _shave(bounds.get(name, _TOP), right)
            elif isinstance(right, Sym) and type(left) is int:
                name = right.name
                interval = _constraint_interval(constraint.op, left, False)
                if constraint.op == "ne":
                    interval = _shave(bounds.get(name, _TOP), left)
    if name is None or interval is None:
        return bounds
    updated = dict(bounds)
    updated[name] = _meet(bounds.get(name, _TOP), interval)
    return updated


def _shave(current: Interval, excluded: int) -> Interval:
    lo, hi = current
    if lo == excluded:
        lo = excluded + 1
    if hi == excluded:
        hi = excluded - 1
    return (lo, hi)


def interval(t: Term, bounds: Bounds) -> Interval:
    if isinstance(t, bool):
        return (int(t), int(t))
    if isinstance(t, int):
        return (t, t)
    if isinstance(t, (float, str)) or t.sort == STR:  # floats and strings have no int bounds here
        return _TOP
    if isinstance(t, Sym):
        default = (0, 1) if t.sort == BOOL else _TOP
        return _meet(default, bounds.get(t.name, _TOP))
    if t.sort == BOOL:
        truth = decide(t, bounds)
        return _TOP if truth is None else (int(truth), int(truth))
    op, args = t.op, t.args
    if op == "ite":
        truth = decide(args[0], bounds)
        if truth is not None:
            return interval(args[1] if truth else args[2], bounds)
        a, b = interval(args[1], bounds), interval(args[2], bounds)
        lo = None if a[0] is None or b[0] is None else min(a[0], b[0])
        hi = None if a[1] is None or b[1] is None else max(a[1], b[1])
        return (lo, hi)
    if op == "neg":
        lo, hi = interval(args[0], bounds)
        return (None if hi is None else -hi, None if lo is None else -lo)
    if len(args) != 2 or t.sort != INT:  # arrays (`karray`, `store`): no interval
        return _TOP
    a, b = interval(args[0], bounds), interval(args[1], bounds)
    if op == "add":
        return (_opt(a[0], b[0], int.__add__), _opt(a[1], b[1], int.__add__))
    if op == "sub":
        return (_opt(a[0], b[1], int.__sub__), _opt(a[1], b[0], int.__sub__))
    if op == "mul":
        for (clo, chi), other in ((a, b), (b, a)):
            if clo is not None and clo == chi:  # a constant factor scales the other bound
                lo = None if other[0] is None else clo * other[0]
                hi = None if other[1] is None else clo * other[1]
                return (lo, hi) if clo >= 0 else (hi, lo)
        (alo, ahi), (blo, bhi) = a, b
        if alo is None or ahi is None or blo is None or bhi is None:
            return _TOP
        products = [x * y for x in (alo, ahi) for y in (blo, bhi)]
        return (min(products), max(products))
    if op == "mod":
        if b[0] is not None and b[0] > 0:
            return (0, None if b[1] is None else b[1] - 1)
        if b[1] is not None and b[1] < 0:
            return (None if b[0] is None else b[0] + 1, 0)
    return _TOP


def _opt(x: int | None, y: int | None, f: Callable[[int, int], int]) -> int | None:
    if x is None or y is None:
        return None
    return f(x, y)


def decide(t: Term, bounds: Bounds) -> bool | None:
    """Whether the bounds imply `t` (True), refute it (False), or neither."""
    if isinstance(t, bool):
        return t
    if isinstance(t, Sym):
        lo, hi = interval(t, bounds)
        if lo is not None and lo >= 1:
            return True
        if hi is not None and hi <= 0:
            return False
        return None
    if not isinstance(t, App):
        return None
    op = t.op
    if op == "not":
        inner = decide(t.args[0], bounds)
        return None if inner is None else not inner
    if op in ("and", "or"):
        left, right = decide(t.args[0], bounds), decide(t.args[1], bounds)
        if op == "and":
            if left is False or right is False:
                return False
            return True if left and right else None
        if left is True or right is True:
            return True
        return False if left is False and right is False else None
    if op not in ("eq", "ne", "lt", "le", "gt", "ge"):
        return None
    (alo, ahi), (blo, bhi) = interval(t.args[0], bounds), interval(t.args[1], bounds)

    def below(x: int | None, y: int | None) -> bool:
        return x is not None and y is not None and x < y

    def at_most(x: int | None, y: int | None) -> bool:
        return x is not None and y is not None and x <= y

    if op == "lt":
        return True if below(ahi, blo) else (False if at_most(bhi, alo) else None)
    if op == "le":
        return True if at_most(ahi, blo) else (False if below(bhi, alo) else None)
    if op == "gt":
        return True if below(bhi, alo) else (False if at_most(ahi, blo) else None)
    if op == "ge":
        return True if at_most(bhi, alo) else (False if below(ahi, blo) else None)
    disjoint = below(ahi, blo) or below(bhi, alo)
    same_point = alo is not None and alo == ahi == blo == bhi
    if op == "eq":
        return True if same_point else (False if disjoint else None)
    return False if same_point else (True if disjoint else None)
