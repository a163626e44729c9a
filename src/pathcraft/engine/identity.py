"""`a is b` between two ints or two bools.

Identity implies equality, so ints of different values are never the same
object. Equal ints are the same object where CPython caches them: the
small ints in [-5, 256] (one object each, whatever computed them). Equal
ints outside that range may or may not be one object (constants of one code
object are shared, results of arithmetic are not), so such a path is not
modelled: the evaluator takes "unequal, or small" onto the path as a domain
condition and the engine counts the rest as dropped (`LIMIT_REASON`).
True and False are one object each: `is` between two bools is `==`.
"""

from __future__ import annotations

from pathcraft.solver import terms as T
from pathcraft.solver.terms import Term

SMALL_MIN, SMALL_MAX = -5, 256  # CPython's cached small ints (_PY_NSMALLNEGINTS, _PY_NSMALLPOSINTS)
LIMIT_REASON = "'is' between equal ints outside [-5, 256] (their identity is not certain)"


def sort(value: object) -> str | None:
    """INT or BOOL for an int or bool value (constant or term), else None."""
    if type(value) is bool:
        return T.BOOL
    if type(value) is int:
        return T.INT
    if isinstance(value, (T.Sym, T.App)) and T.sort_of(value) in (T.INT, T.BOOL):
        return T.sort_of(value)
    return None


def small(value: Term) -> Term:
    """Is the int `value` one of CPython's cached small ints?"""
    return T.and_(T.ge(value, SMALL_MIN), T.le(value, SMALL_MAX))


def same_object(left: Term, right: Term) -> tuple[Term, Term] | None:
    """`left is right` for two ints or two bools: (its truth, the condition
    under which that truth is certain); None for other operands."""
    kinds = (sort(left), sort(right))
    if kinds == (T.BOOL, T.BOOL):
        return T.eq(left, right), True
    if kinds != (T.INT, T.INT):
        return None
    equal = T.eq(left, right)
    return equal, T.or_(T.not_(equal), small(left))
