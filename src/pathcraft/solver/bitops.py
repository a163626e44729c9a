"""What the bitwise operators mean, on Python values and in Z3.

Python's ints are unbounded two's complement. On operands that fit in
signed 64 bits, `&`, `|` and `^` give exactly the signed 64-bit result, so
Z3 computes them on 64-bit vectors; the builtin predicates that apply
them (`frontend/bitops.py`) guard both operands with that range, which
becomes part of the path constraint. Shifts by a symbolic count multiply
or divide by a power of two picked from the counts 0..MAX_SHIFT (the
guard bounds the count), and `bit_length`/`bit_count` are sums over the
64 bits. The Python side is total (the guards exclude what it does not
define), because terms are evaluated under arbitrary models.
"""

from __future__ import annotations

from typing import Any

WIDTH = 64
LOW: int = -(1 << (WIDTH - 1))  # what fits in signed 64 bits
HIGH: int = (1 << (WIDTH - 1)) - 1
MAX_SHIFT = 64  # the largest symbolic shift count the solver sees


def py_and(x: int, y: int) -> int:
    return x & y


def py_or(x: int, y: int) -> int:
    return x | y


def py_xor(x: int, y: int) -> int:
    return x ^ y


def py_shl(x: int, y: int) -> int:
    return x << y if 0 <= y <= MAX_SHIFT else 0


def py_shr(x: int, y: int) -> int:
    return x >> y if 0 <= y <= MAX_SHIFT else 0


def py_bit_length(x: int) -> int:
    return int(x).bit_length()


def py_bit_count(x: int) -> int:
    return bin(int(x)).count("1")


def _bitwise(z3: Any, how: str, x: Any, y: Any) -> Any:
    a, b = z3.Int2BV(x, WIDTH), z3.Int2BV(y, WIDTH)
    result = a & b if how == "and" else a | b if how == "or" else a ^ b
    return z3.BV2Int(result, is_signed=True)


def z3_and(z3: Any, x: Any, y: Any) -> Any:
    return _bitwise(z3, "and", x, y)


def z3_or(z3: Any, x: Any, y: Any) -> Any:
    return _bitwise(z3, "or", x, y)


def z3_xor(z3: Any, x: Any, y: Any) -> Any:
    return _bitwise(z3, "xor", x, y)


def _power_of_two(z3: Any, count: Any) -> Any:
    """2 ** count for count in 0..MAX_SHIFT (linear: an ite over the counts)."""
    result = z3.IntVal(2 ** MAX_SHIFT, count.ctx)
    for k in range(MAX_SHIFT - 1, -1, -1):
        result = z3.If(count == k, z3.IntVal(2 ** k, count.ctx), result)
    return result


def z3_shl(z3: Any, x: Any, y: Any) -> Any:
    return x * _power_of_two(z3, y)


def z3_shr(z3: Any, x: Any, y: Any) -> Any:
    """Floored division by 2 ** y (SMT-LIB div is floored for a positive divisor)."""
    return x / _power_of_two(z3, y)


def _magnitude(z3: Any, x: Any) -> Any:
    return z3.If(x < 0, -x, x)


def z3_bit_length(z3: Any, x: Any) -> Any:
    """The number of powers of two up to |x| (|x| < 2 ** 64)."""
    size = _magnitude(z3, x)
    one, zero = z3.IntVal(1, x.ctx), z3.IntVal(0, x.ctx)
    return z3.Sum([z3.If(size >= 2 ** k, one, zero) for k in range(WIDTH)])


def z3_bit_count(z3: Any, x: Any) -> Any:
    """The ones of |x| (|x| < 2 ** 64), bit by bit."""
    bits = z3.Int2BV(_magnitude(z3, x), WIDTH)
    return z3.Sum([z3.BV2Int(z3.Extract(k, k, bits)) for k in range(WIDTH)])
