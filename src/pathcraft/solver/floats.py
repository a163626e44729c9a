"""Python's arithmetic once a float is involved: which float operator of
the table applies, and where an int is converted.

`+ - * / // %` with a float operand convert the int operand to float
(rounding half-even beyond 2**53, as `float(i)` does) and compute in IEEE
doubles; `int / int` is the exactly rounded quotient (Python does not
convert first); comparisons between an int and a float stay exact (no
conversion, except of an int constant that converts exactly). A
conversion Python could refuse (OverflowError for an int of 2**1024 or
more, or an int quotient that large) is kept out of the model by a domain
condition the caller adds to the path: `|i| < 2**1023`.
"""

from __future__ import annotations

from types import MappingProxyType

from pathcraft.errors import Unsupported
from pathcraft.solver.sorts import BOOL, FLOAT
from pathcraft.solver.terms import App, Sym, Term, and_, as_int, fold_float, ge, le, not_, or_, sort_of, truthy

ARITH = MappingProxyType({"add": "fadd", "sub": "fsub", "mul": "fmul", "truediv": "fdiv", "floordiv": "ffloordiv",
                         "mod": "fmod"})
COMPARE = MappingProxyType({"eq": "feq", "ne": "fne", "lt": "flt", "le": "fle", "gt": "fgt", "ge": "fge"})
_UNARY = MappingProxyType({"isnan": "fisnan", "isinf": "fisinf", "abs": "fabs", "trunc": "ftrunc", "round": "fround",
                           "floor": "ffloor", "ceil": "fceil", "sqrt": "fsqrt"})
LIMIT = 2 ** 1023  # ints converted to float stay below this in magnitude (the domain condition)


def is_float(value: object) -> bool:
    """A float term (constant or node)."""
    return isinstance(value, float) or (isinstance(value, (Sym, App)) and value.sort == FLOAT)


def in_range(i: Term) -> Term:
    """The domain condition of converting the int term `i` to float."""
    return and_(ge(i, -LIMIT + 1), le(i, LIMIT - 1))


def to_float(t: Term, domain: list[Term]) -> Term:
    """`float(t)` for an int, bool or float term; the condition under which
    Python would not raise is appended to `domain`."""
    if is_float(t):
        return t
    t = as_int(t)
    if isinstance(t, int):
        if abs(t) >= LIMIT:
            raise Unsupported("an int constant too large for a float")
        return float(t)
    domain.append(in_range(t))
    return fold_float("i2f", t)


def _exact_float(t: Term) -> Term:
    """An int constant as the float equal to it, when there is one (a
    comparison with it is then the same comparison); other terms as they are."""
    if isinstance(t, bool):
        t = int(t)
    if isinstance(t, int) and abs(t) < LIMIT and float(t) == t:
        return float(t)
    return as_int(t) if sort_of(t) == BOOL else t


def binary(op: str, a: Term, b: Term, domain: list[Term]) -> Term:
    """`a op b` (IR operator names) when `a` or `b` is a float or `op` is
    true division."""
    if op in COMPARE:
        return fold_float(COMPARE[op], _exact_float(a), _exact_float(b))
    if op == "round_digits":  # `round(a, b)`, b an int constant
        if is_float(a):
            return fold_float("fround_digits", a, b)
        if isinstance(b, int) and b >= 0:
            return as_int(a)  # an int rounded to digits after the point is itself
        raise Unsupported("round() of an int to negative digits")
    if op in ("and", "or"):
        return and_(a, b) if op == "and" else or_(a, b)
    if op == "truediv" and not is_float(a) and not is_float(b):
        x, y = as_int(a), as_int(b)
        for side in (x, y):
            if not isinstance(side, int):
                domain.append(in_range(side))
            elif abs(side) >= LIMIT:
                raise Unsupported("an int too large for true division")
        return fold_float("idiv", x, y)
    if op in ARITH:
        return fold_float(ARITH[op], to_float(a, domain), to_float(b, domain))
    raise Unsupported(f"operator {op} on floats")


def unary(op: str, a: Term, domain: list[Term]) -> Term:
    """A unary IR operator on a float (`float(x)` on any number)."""
    if op == "float":
        return to_float(a, domain)
    if not is_float(a):
        raise AssertionError(op)
    if op == "neg":
        return fold_float("fneg", a)
    if op in ("int", "pos"):  # `+x`
        return a
    if op == "truth":
        return truthy(a)
    if op == "not":
        return not_(truthy(a))
    if op in _UNARY:
        return fold_float(_UNARY[op], a)
    raise Unsupported(f"operator {op} on floats")


def is_finite(a: Term) -> Term:
    return and_(not_(fold_float("fisnan", a)), not_(fold_float("fisinf", a)))

