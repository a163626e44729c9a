"""The `math` module's float functions and constants, lowered in place of
a call on an imported module (which the subset does not otherwise have).

Pure ones become expressions (`isnan`, `isinf`, `isfinite`, `fabs`,
`isclose` with its default tolerances, written out as CPython computes
it); those that raise go through builtin predicates (`floor`, `ceil`:
nan and inf have no int; `sqrt`: below zero is a domain error).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable

from pathcraft.frontend.powers import MATH_POW, MATH_POW_FIT
from pathcraft.ir.builtin_names import function_predicate
from pathcraft.ir.nodes import Binary, Call, Const, Expr, Unary, Var

CONSTANTS = {"inf": math.inf, "nan": math.nan, "pi": math.pi, "e": math.e, "tau": math.tau}
PREDICATES = {"floor": "floor", "ceil": "ceil", "sqrt": "sqrt"}
ISCLOSE_REL_TOL = 1e-09


def _isnan(x: Expr) -> Expr:
    return Unary("isnan", x)


def _isinf(x: Expr) -> Expr:
    return Unary("isinf", x)


def _isclose(a: Expr, b: Expr) -> Expr:
    """CPython's `math_isclose_impl` with rel_tol=1e-09, abs_tol=0.0: equal,
    else not infinite and the difference within the relative tolerance of
    either (abs_tol 0: `diff <= 0` only when equal, already covered)."""
    diff = Unary("abs", Binary("sub", b, a))
    within = Binary("or", Binary("le", diff, Unary("abs", Binary("mul", Const(ISCLOSE_REL_TOL), b))),
                    Binary("le", diff, Unary("abs", Binary("mul", Const(ISCLOSE_REL_TOL), a))))
    finite = Unary("not", Binary("or", _isinf(a), _isinf(b)))
    return Binary("or", Binary("eq", a, b), Binary("and", finite, within))


PURE: dict[str, tuple[int, Callable[..., Expr]]] = {
    "isnan": (1, _isnan),
    "isinf": (1, _isinf),
    "isfinite": (1, lambda x: Unary("not", Binary("or", _isnan(x), _isinf(x)))),
    "fabs": (1, lambda x: Unary("abs", x)),
    "isclose": (2, _isclose),
    # CPython: `x * degToRad` with the double `Py_MATH_PI / 180.0` (and back): one IEEE product
    "radians": (1, lambda x: Binary("mul", x, Const(math.pi / 180.0))),
    "degrees": (1, lambda x: Binary("mul", x, Const(180.0 / math.pi))),
}
# int functions written as prelude code (`prelude/stdlib.py`): name -> arguments
INT_FUNCTIONS = {"gcd": 2, "lcm": 2}  # (factorial: see below)


def is_math(node: ast.expr, imported: set[str], local_names: frozenset[str]) -> bool:
    """`node` names the imported `math` module (not a local of that name)."""
    return isinstance(node, ast.Name) and node.id == "math" and "math" in imported and "math" not in local_names


def lower_call(name: str, args: list[Expr], emit: Callable[[Call], None], temp: Callable[[], str],
               line: int) -> Expr | None:
    """`math.name(*args)` (arguments already lowered), or None if not modelled.
    Arguments are converted to float first, as the C functions do."""
    if INT_FUNCTIONS.get(name) == len(args):
        tmp = temp()
        emit(Call(tmp, function_predicate(f"math_{name}"), tuple(args), line))
        return Var(tmp)
    floats = [Unary("float", a) for a in args]
    if name in PURE and PURE[name][0] == len(args):
        return PURE[name][1](*floats)
    if name == "pow" and len(args) == 2:  # exact on ints only (`frontend/powers.py`)
        tmp = temp()
        exponent = args[1]
        if isinstance(exponent, Const) and type(exponent.value) is int and 0 <= exponent.value <= 8:
            # `x ** k` unrolled (no loop to bound; a float x drops the path)
            emit(Call(tmp, MATH_POW_FIT, (Binary("pow", args[0], exponent),), line))
        else:
            emit(Call(tmp, MATH_POW, tuple(args), line))
        return Var(tmp)
    if name == "factorial" and len(args) == 1:  # on ints, the prelude's loop (models/math/prelude.py)
        tmp = temp()
        emit(Call(tmp, function_predicate("factorial"), (args[0],), line))
        return Var(tmp)
    if name in PREDICATES and len(args) == 1:
        tmp = temp()
        emit(Call(tmp, PREDICATES[name], (args[0],), line))
        return Var(tmp)
    return None
