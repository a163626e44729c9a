"""What the float operators mean: the Python and Z3 columns of their rows
in `ops.py`, kept here so that the table stays one line per operator.

Python floats are IEEE-754 doubles rounded to nearest-even, which is Z3's
`Float64` under `RNE`: `+ - * /` and the comparisons map one to one. What
Python defines on top of IEEE is written out exactly: `//` and `%` follow
CPython's `_float_div_mod` (fmod, then adjust to the divisor's sign and
snap the quotient), and a comparison between an int and a float is exact
(Python does not convert the int: `2**53 + 1 > 2.0**53`), so it compares
reals, with nan false and the infinities beyond every int. The Python
columns are total (an operand the guards exclude gives 0 / nan), because
a term may be evaluated under any model.
"""

from __future__ import annotations

import math
import struct
from types import MappingProxyType
from typing import Any

# orderings and what they are against +inf / -inf / nan (int on the left)
_AGAINST_INF = MappingProxyType({"eq": (False, False), "ne": (True, True), "lt": (True, False), "le": (True, False),
                                 "gt": (False, True), "ge": (False, True)})
_FLIPPED = MappingProxyType({"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"})


def float_bits(value: float) -> int:
    """The IEEE-754 bit pattern of a double (nan gives Python's quiet nan)."""
    return int(struct.unpack("<Q", struct.pack("<d", value))[0])


def from_bits(bits: int) -> float:
    return float(struct.unpack("<d", struct.pack("<Q", bits))[0])


def same_float(x: float, y: float) -> bool:
    """Identity of float constants as terms: -0.0 is not 0.0, nan is nan."""
    return x.hex() == y.hex()


def float_literal(value: float) -> str:
    """A Python expression for a double that evaluates back to it:
    `repr`, except for nan and the infinities, whose repr is not a name."""
    if math.isnan(value):
        return "float('nan')"
    if math.isinf(value):
        return "float('inf')" if value > 0 else "-float('inf')"
    return repr(value)


# ----------------------------------------------------------------- Python


def py_floordiv(x: float, y: float) -> float:
    return x // y if y != 0 else math.nan


def py_mod(x: float, y: float) -> float:
    return x % y if y != 0 else math.nan


def py_truediv(x: float, y: float) -> float:
    return x / y if y != 0 else math.nan


def py_trunc(x: float) -> int:
    """`int(x)`; 0 off its domain (nan, inf), which its guard excludes."""
    return int(x) if math.isfinite(x) else 0


def py_round(x: float) -> int:
    return round(x) if math.isfinite(x) else 0


def py_floor(x: float) -> int:
    return math.floor(x) if math.isfinite(x) else 0


def py_ceil(x: float) -> int:
    return math.ceil(x) if math.isfinite(x) else 0


def py_sqrt(x: float) -> float:
    """`math.sqrt` (correctly rounded, as IEEE's); nan below -0.0, which its guard excludes."""
    return math.sqrt(x) if not x < 0 else math.nan


def py_round_digits(x: float, n: int) -> float:
    return round(x, n)


def py_int_truediv(x: int, y: int) -> float:
    """`int / int`, correctly rounded (Python does not convert first);
    total: 0 divisor or too large a quotient give nan / inf."""
    if y == 0:
        return math.nan
    try:
        return x / y
    except OverflowError:
        return math.inf if (x < 0) == (y < 0) else -math.inf


def py_to_float(x: int) -> float:
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


# -------------------------------------------------------------------- Z3
# (every z3 FP builder is given its context: they default to the global one)


def z3_sort(z3: Any, ctx: Any) -> Any:
    return z3.Float64(ctx)


def z3_const(z3: Any, value: float, ctx: Any) -> Any:
    """A double as Z3 constant, from its bits (exact, nan and -0.0 too)."""
    return z3.fpBVToFP(z3.BitVecVal(float_bits(value), 64, ctx), z3.Float64(ctx), ctx)


def _rne(z3: Any, x: Any) -> Any:
    return z3.RNE(x.ctx)


def z3_add(z3: Any, x: Any, y: Any) -> Any:
    return z3.fpAdd(_rne(z3, x), x, y, x.ctx)


def z3_sub(z3: Any, x: Any, y: Any) -> Any:
    return z3.fpSub(_rne(z3, x), x, y, x.ctx)


def z3_mul(z3: Any, x: Any, y: Any) -> Any:
    return z3.fpMul(_rne(z3, x), x, y, x.ctx)


def z3_div(z3: Any, x: Any, y: Any) -> Any:
    return z3.fpDiv(_rne(z3, x), x, y, x.ctx)


def z3_neg(z3: Any, x: Any) -> Any:
    return z3.fpNeg(x, x.ctx)


def z3_abs(z3: Any, x: Any) -> Any:
    return z3.fpAbs(x, x.ctx)


def z3_from_real(z3: Any, real: Any) -> Any:
    return z3.fpRealToFP(z3.RNE(real.ctx), real, z3.Float64(real.ctx), real.ctx)


def z3_to_float(z3: Any, i: Any) -> Any:
    """`float(i)` (rounds half-even beyond 2**53; the engine keeps |i| small
    enough that Python does not raise OverflowError, see `floats.in_range`)."""
    return z3_from_real(z3, z3.ToReal(i))


def z3_int_truediv(z3: Any, x: Any, y: Any) -> Any:
    """`x / y` on ints: the exact quotient, rounded once."""
    return z3_from_real(z3, z3.ToReal(x) / z3.ToReal(y))


def _integral(z3: Any, mode: Any, x: Any) -> Any:
    return z3.ToInt(z3.fpToReal(z3.fpRoundToIntegral(mode, x, x.ctx), x.ctx))


def z3_trunc(z3: Any, x: Any) -> Any:
    return _integral(z3, z3.RTZ(x.ctx), x)


def z3_round(z3: Any, x: Any) -> Any:
    return _integral(z3, z3.RNE(x.ctx), x)


def z3_floor(z3: Any, x: Any) -> Any:
    return _integral(z3, z3.RTN(x.ctx), x)


def z3_ceil(z3: Any, x: Any) -> Any:
    return _integral(z3, z3.RTP(x.ctx), x)


def z3_sqrt(z3: Any, x: Any) -> Any:
    return z3.fpSqrt(_rne(z3, x), x, x.ctx)


def z3_round_digits(z3: Any, x: Any, n: Any) -> Any:
    """`round(x, n)` for a constant n: the exact value of x scaled by 10**n,
    rounded half-even to an integer, scaled back and rounded once to the
    nearest double (CPython rounds the exact decimal value: `round(2.675, 2)`
    is 2.67); nan and the infinities unchanged, a zero result keeps x's sign."""
    ctx = x.ctx
    digits = n.as_long()
    scale = z3.RealVal(10 ** digits, ctx) if digits >= 0 else z3.RealVal(1, ctx) / z3.RealVal(10 ** -digits, ctx)
    scaled = z3.fpToReal(x, ctx) * scale
    low = z3.ToInt(scaled)  # floor
    frac = scaled - z3.ToReal(low)
    half = z3.RealVal(1, ctx) / z3.RealVal(2, ctx)
    up = z3.Or(frac > half, z3.And(frac == half, low % 2 == 1))
    whole = z3.If(up, low + 1, low)
    value = z3_from_real(z3, z3.ToReal(whole) / scale)
    zero = _copysign_zero(z3, x)
    return z3.If(z3.Or(z3.fpIsNaN(x, ctx), z3.fpIsInf(x, ctx)), x, z3.If(whole == 0, zero, value))


def z3_isnan(z3: Any, x: Any) -> Any:
    return z3.fpIsNaN(x, x.ctx)


def z3_isinf(z3: Any, x: Any) -> Any:
    return z3.fpIsInf(x, x.ctx)


def _negative(z3: Any, x: Any) -> Any:
    return z3.fpIsNegative(x, x.ctx)


def _copysign_zero(z3: Any, sign: Any) -> Any:
    ctx = sign.ctx
    return z3.If(_negative(z3, sign), z3.fpMinusZero(z3.Float64(ctx)), z3.fpPlusZero(z3.Float64(ctx)))


def _fmod(z3: Any, x: Any, y: Any) -> Any:
    """C's fmod (exact, sign of x) from IEEE remainder (exact, quotient
    rounded to nearest): they differ by |y| when their signs differ."""
    ctx = x.ctx
    r = z3.fpRem(x, y, ctx)
    differ = z3.And(z3.Not(z3.fpIsZero(r, ctx)), _negative(z3, r) != _negative(z3, x))
    step = z3.If(_negative(z3, x), z3.fpNeg(z3.fpAbs(y, ctx), ctx), z3.fpAbs(y, ctx))
    return z3.If(differ, z3_add(z3, r, step), r)


def _divmod(z3: Any, x: Any, y: Any) -> tuple[Any, Any]:
    """CPython's `_float_div_mod`, step by step."""
    ctx = x.ctx
    mod0 = _fmod(z3, x, y)
    div0 = z3_div(z3, z3_sub(z3, x, mod0), y)
    zero = z3.fpPlusZero(z3.Float64(ctx))
    one, half = z3_const(z3, 1.0, ctx), z3_const(z3, 0.5, ctx)
    nonzero = z3.Not(z3.fpIsZero(mod0, ctx))  # C's `if (mod)`: nan is true
    adjust = z3.And(nonzero, z3.fpLT(y, zero, ctx) != z3.fpLT(mod0, zero, ctx))
    mod = z3.If(nonzero, z3.If(adjust, z3_add(z3, mod0, y), mod0), _copysign_zero(z3, y))
    div = z3.If(adjust, z3_sub(z3, div0, one), div0)
    floor = z3.fpRoundToIntegral(z3.RTN(ctx), div, ctx)
    snapped = z3.If(z3.fpGT(z3_sub(z3, div, floor), half, ctx), z3_add(z3, floor, one), floor)
    floordiv = z3.If(z3.Not(z3.fpIsZero(div, ctx)), snapped, _copysign_zero(z3, z3_div(z3, x, y)))
    return floordiv, mod


def z3_floordiv(z3: Any, x: Any, y: Any) -> Any:
    return _divmod(z3, x, y)[0]


def z3_mod(z3: Any, x: Any, y: Any) -> Any:
    return _divmod(z3, x, y)[1]


def _fp_compare(z3: Any, op: str, x: Any, y: Any) -> Any:
    ctx = x.ctx
    if op == "eq":
        return z3.fpEQ(x, y, ctx)
    if op == "ne":
        return z3.Not(z3.fpEQ(x, y, ctx))
    return {"lt": z3.fpLT, "le": z3.fpLEQ, "gt": z3.fpGT, "ge": z3.fpGEQ}[op](x, y, ctx)


def _real_compare(op: str, x: Any, y: Any) -> Any:
    return {"eq": lambda: x == y, "ne": lambda: x != y, "lt": lambda: x < y, "le": lambda: x <= y,
            "gt": lambda: x > y, "ge": lambda: x >= y}[op]()


def z3_compare(op: str) -> Any:
    """The Z3 column of a float comparison: both floats (IEEE), or an int
    and a float in either order (exact, as Python compares them)."""
    def build(z3: Any, x: Any, y: Any) -> Any:
        if z3.is_fp(x) and z3.is_fp(y):
            return _fp_compare(z3, op, x, y)
        rel, i, f = (op, x, y) if z3.is_fp(y) else (_FLIPPED[op], y, x)
        ctx = f.ctx
        plus_inf, minus_inf = _AGAINST_INF[rel]
        infinite = z3.If(z3.fpIsPositive(f, ctx), z3.BoolVal(plus_inf, ctx), z3.BoolVal(minus_inf, ctx))
        finite = _real_compare(rel, z3.ToReal(i), z3.fpToReal(f, ctx))
        return z3.If(z3.fpIsNaN(f, ctx), z3.BoolVal(rel == "ne", ctx), z3.If(z3.fpIsInf(f, ctx), infinite, finite))
    return build
