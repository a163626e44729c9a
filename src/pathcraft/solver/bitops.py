"""What the bitwise operators mean, on Python values and in Z3.

Python's ints are unbounded two's complement. On operands that fit in
signed 64 bits, `&`, `|` and `^` give exactly the signed 64-bit result, so
Z3 computes them bit by bit on 64 bits; the builtin predicates that apply
them (`models/bits/lowering.py`) guard both operands with that range, which
becomes part of the path constraint. Shifts by a symbolic count multiply
or divide by a power of two picked from the counts 0..MAX_SHIFT (the
guard bounds the count), and `bit_length`/`bit_count` are sums over the
64 bits. The Python side is total (the guards exclude what it does not
define), because terms are evaluated under arbitrary models.

In Z3 an operand's bits are Booleans tied to it by a linear definition
(`x == b0 + 2*b1 + ... - 2**63*b63`), which the translator asserts with
every constraint that uses them (`z3.bits(x)`: see `z3backend`): linear
arithmetic over Booleans, which Z3 decides far better than its bridge
between ints and bit-vectors (`int2bv`), on which it mostly answers
unknown.
"""

from __future__ import annotations

from typing import Any

WIDTH = 64
LOW: int = -(1 << (WIDTH - 1))  # what fits in signed 64 bits
HIGH: int = (1 << (WIDTH - 1)) - 1
MAX_SHIFT = 64  # the largest symbolic shift count the solver sees
# their Z3 form uses an operand's bits
BIT_OPERATORS = frozenset({"bitand", "bitor", "bitxor", "bit_count", "bin_digits", "oct_digits"})


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


def py_bin_digits(x: int) -> int:
    """The int whose decimal digits are the binary digits of |x|
    (`bin(5)` is '0b101': 101), so `str()` of it writes them."""
    return int(bin(abs(int(x)))[2:])


def py_oct_digits(x: int) -> int:
    """Likewise for the octal digits (`oct(9)` is '0o11': 11)."""
    return int(oct(abs(int(x)))[2:])


def _digits(z3: Any, x: Any, group: int) -> Any:
    """`x`'s bits (0 <= x < 2**WIDTH, as the guards of `models/int/lowering.py`
    state) in groups of `group`, each group a decimal digit: linear."""
    bits = z3.bits(x, False)
    ctx = x.ctx
    zero = z3.IntVal(0, ctx)
    terms = [z3.If(b, z3.IntVal((2 ** (k % group)) * 10 ** (k // group), ctx), zero) for k, b in enumerate(bits)]
    return z3.Sum(terms)


def z3_bin_digits(z3: Any, x: Any) -> Any:
    return _digits(z3, x, 1)


def z3_oct_digits(z3: Any, x: Any) -> Any:
    return _digits(z3, x, 3)


def _weighted(z3: Any, bits: list[Any], signed: bool) -> Any:
    """The int whose bits (two's complement when `signed`) are `bits`."""
    ctx = bits[0].ctx
    zero = z3.IntVal(0, ctx)
    terms = [z3.If(b, z3.IntVal(2 ** k, ctx), zero) for k, b in enumerate(bits)]
    if signed:
        terms[-1] = z3.If(bits[-1], z3.IntVal(-(2 ** (WIDTH - 1)), ctx), zero)
    return z3.Sum(terms)


def _bitwise(z3: Any, how: str, x: Any, y: Any) -> Any:
    combine = z3.And if how == "and" else z3.Or if how == "or" else z3.Xor
    a, b = z3.bits(x, True), z3.bits(y, True)
    return _weighted(z3, [combine(p, q) for p, q in zip(a, b)], True)


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
    """The ones of |x| (|x| < 2 ** 64)."""
    one, zero = z3.IntVal(1, x.ctx), z3.IntVal(0, x.ctx)
    return z3.Sum([z3.If(b, one, zero) for b in z3.bits(_magnitude(z3, x), False)])


def define_bits(z3: Any, x: Any, signed: bool, name: str) -> tuple[list[Any], Any]:
    """Fresh Booleans for the WIDTH bits of `x` and the linear constraint
    that makes them its bits (unsigned: `0 <= x < 2**WIDTH`)."""
    bits = [z3.Bool(f"{name}_{k}", x.ctx) for k in range(WIDTH)]
    return bits, x == _weighted(z3, bits, signed)
