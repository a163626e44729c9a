"""The allow-list of concolic mode: standard-library functions pathcraft
may run during analysis, in-process, on concrete numbers.

A call of one of these that the model has no summary of (`math.log`,
`math.isqrt`, `math.comb`, ...) is lowered to a `$concrete<n>` predicate
call. Without `--concolic` that predicate drops the path, as any
unmodelled library call does; with it, the engine fixes the arguments to
the values of the path's model, runs the real function on them and goes on
with its result (the path is then *concretized*: its test states exactly
those values). Only functions that are pure, total on numbers (or raise),
quick, and return an int, float or bool are listed: running them can
change nothing, and the two whose time grows with their arguments run only
on small ones (`BOUNDED`), so a call cannot hang.

The frontend reads the names and arities; the engine reads the callables.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import MappingProxyType

from pathcraft.ir.builtin_names import function_predicate

# `math.<name>`: (fewest, most) positional arguments
_MATH: dict[str, tuple[int, int]] = {
    **{name: (1, 1) for name in (
        "acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "erf", "erfc", "exp", "expm1",
        "gamma", "isqrt", "lgamma", "log10", "log1p", "log2", "sin", "sinh", "tan", "tanh", "trunc", "ulp")},
    **{name: (2, 2) for name in ("atan2", "copysign", "fmod", "ldexp", "nextafter", "remainder")},
    "log": (1, 2), "comb": (2, 2), "perm": (1, 2), "hypot": (0, 8),
}
for _name in ("cbrt", "exp2"):  # new in Python 3.11
    if hasattr(math, _name):
        _MATH[_name] = (1, 1)

ARITIES = MappingProxyType({f"math.{name}": bounds for name, bounds in _MATH.items()})
FUNCTIONS: MappingProxyType[str, Callable[..., object]] = MappingProxyType(
    {f"math.{name}": getattr(math, name) for name in _MATH})

MAX_ARGS = max(most for _least, most in _MATH.values())
# `$concrete<n>(message, function, a0, ..., a<n-1>)`: one predicate per arity
PREDICATES = MappingProxyType({n: function_predicate(f"concrete{n}") for n in range(MAX_ARGS + 1)})
PREDICATE_NAMES = frozenset(PREDICATES.values())

# functions whose time grows with their arguments (`comb(10**9, 5 * 10**8)` runs for
# minutes): run only on ints up to this size, so a call stays quick
BOUNDED = MappingProxyType({"math.comb": 10_000, "math.perm": 10_000})

# exceptions these functions raise on some numbers (a domain error, an
# overflow, a negative count); the test asserts the type alone
RAISES = (ValueError, OverflowError, ZeroDivisionError, TypeError)
