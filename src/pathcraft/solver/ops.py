"""The operators of symbolic terms, each stated once.

Per operator: its arity, result sort, meaning on Python values, Z3
translation, and how `show` writes it (its folding constructor sits with
the others in `terms._FOLD`). Folding, `terms.apply`, `terms.evaluate`, `terms.show`, `terms.substitute`,
the simplifier and the Z3 translator all read this table, so adding an
operator means adding a row here (and its constructor in `terms`).

The Z3 column takes the `z3` module as its first argument instead of this
module importing it: building and evaluating terms (test replay, say) then
never loads Z3.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from pathcraft.solver import bitops as _bits
from pathcraft.solver import fpsem as _fp
from pathcraft.solver import regex as _rx
from pathcraft.solver import strings as _s
from pathcraft.solver.sorts import BOOL, FLOAT, INT, STR, ArrayValue, Value, array_sort, element_sort, sort_of

Term = Any  # a term of `solver.terms` (which imports this table, so it cannot be imported here)

Sorter = Callable[[tuple[Term, ...]], str]


@dataclass(frozen=True, slots=True)
class Op:
    """One operator.

    `py` computes the operator on Python values (on zero-argument thunks of
    them when `lazy`); `z3(z3_module, *args)` builds the Z3 expression from
    translated arguments. `notation` is the syntactic form `show` uses:
    "infix" and "compare" (`a OP b`; comparisons chain in Python, so a
    nested one is always parenthesised), "prefix" (`OP a`), "ite"
    (`a if c else b`), "index" (`a[i]`), "call" (`OP(a, ...)`) or "fill"
    (`[v, ...]`); `precedence` is Python's binding strength (higher binds
    tighter). `negated` names the relation `not` turns it into."""

    name: str
    arity: int
    sort: Sorter
    py: Callable[..., Value]
    z3: Callable[..., Any]
    notation: str
    text: str = ""
    precedence: float = 8
    negated: str | None = None
    lazy: bool = False


def _int(args: tuple[Term, ...]) -> str:
    return INT


def _bool(args: tuple[Term, ...]) -> str:
    return BOOL


def _float(args: tuple[Term, ...]) -> str:
    return FLOAT
def _str(args: tuple[Term, ...]) -> str:
    return STR


def _branch(args: tuple[Term, ...]) -> str:
    return sort_of(args[1])


def _element(args: tuple[Term, ...]) -> str:
    return element_sort(sort_of(args[0]))


def _same_array(args: tuple[Term, ...]) -> str:
    return sort_of(args[0])


def _array_of(args: tuple[Term, ...]) -> str:
    return array_sort(sort_of(args[0]))


def _z3_mod(z3: Any, x: Any, y: Any) -> Any:
    """SMT-LIB mod is Euclidean (never negative); Python's remainder takes
    the sign of the divisor: shift by the divisor when the divisor is
    negative and the remainder non-zero."""
    euclid = x % y
    return z3.If(z3.And(y < 0, euclid != 0), euclid + y, euclid)


def _z3_floordiv(z3: Any, x: Any, y: Any) -> Any:
    """Floored quotient: exact division of what is left after the floored
    remainder."""
    return (x - _z3_mod(z3, x, y)) / y


def _arith(name: str, py: Callable[..., Value], z3: Callable[..., Any], text: str, precedence: float) -> Op:
    return Op(name, 2, _int, py, z3, "infix", text, precedence)


def _compare(name: str, py: Callable[[Any, Any], Any], text: str, negated: str) -> Op:
    """A comparison: Z3 overloads Python's comparison operators, so `py`
    builds the Z3 expression too."""
    return Op(name, 2, _bool, py, lambda z3, x, y: py(x, y), "compare", text, 4, negated)


def _farith(name: str, py: Callable[..., Value], z3: Callable[..., Any], text: str, precedence: int) -> Op:
    return Op(name, 2, _float, py, z3, "infix", text, precedence)


def _fcompare(name: str, py: Callable[[Any, Any], Any], text: str, negated: str | None) -> Op:
    """A comparison with a float side (the other a float or an int):
    `not (x < y)` is not `x >= y` when one is nan, so only `==`/`!=` negate."""
    return Op(name, 2, _bool, py, _fp.z3_compare(name[1:]), "compare", text, 4, negated)


_TABLE = (
    _arith("add", operator.add, lambda z3, x, y: x + y, "+", 5),
    _arith("sub", operator.sub, lambda z3, x, y: x - y, "-", 5),
    _arith("mul", operator.mul, lambda z3, x, y: x * y, "*", 6),
    _arith("floordiv", lambda x, y: x // y if y else 0, _z3_floordiv, "//", 6),
    _arith("mod", lambda x, y: x % y if y else 0, _z3_mod, "%", 6),
    Op("neg", 1, _int, operator.neg, lambda z3, x: -x, "prefix", "-", 7),
    _compare("eq", operator.eq, "==", "ne"),
    _compare("ne", operator.ne, "!=", "eq"),
    _compare("lt", operator.lt, "<", "ge"),
    _compare("le", operator.le, "<=", "gt"),
    _compare("gt", operator.gt, ">", "le"),
    _compare("ge", operator.ge, ">=", "lt"),
    Op("not", 1, _bool, lambda x: not x, lambda z3, x: z3.Not(x), "prefix", "not ", 3),
    Op("and", 2, _bool, lambda x, y: bool(x and y), lambda z3, x, y: z3.And(x, y), "infix", "and", 2),
    Op("or", 2, _bool, lambda x, y: bool(x or y), lambda z3, x, y: z3.Or(x, y), "infix", "or", 1),
    Op("ite", 3, _branch, lambda c, a, b: a() if c() else b(), lambda z3, c, a, b: z3.If(c, a, b),
       "ite", precedence=0, lazy=True),
    Op("select", 2, _element, lambda a, i: a.get(int(i)), lambda z3, a, i: z3.Select(a, i), "index"),
    Op("store", 3, _same_array, lambda a, i, v: a.set(int(i), v),
       lambda z3, a, i, v: z3.Store(a, i, v), "call", "store"),
    Op("karray", 1, _array_of, ArrayValue, lambda z3, v: z3.K(z3.IntSort(v.ctx), v), "fill"),
    # bitwise operators: exact on unbounded ints in Python; Z3 sees & | ^ on
    # signed 64 bits and counts up to MAX_SHIFT, the bounds their guards state
    _arith("bitor", _bits.py_or, _bits.z3_or, "|", 4.25),
    _arith("bitxor", _bits.py_xor, _bits.z3_xor, "^", 4.5),
    _arith("bitand", _bits.py_and, _bits.z3_and, "&", 4.75),
    _arith("shl", _bits.py_shl, _bits.z3_shl, "<<", 4.9),
    _arith("shr", _bits.py_shr, _bits.z3_shr, ">>", 4.9),
    Op("bit_length", 1, _int, _bits.py_bit_length, _bits.z3_bit_length, "call", "int.bit_length"),
    Op("bit_count", 1, _int, _bits.py_bit_count, _bits.z3_bit_count, "call", "int.bit_count"),
    Op("bin_digits", 1, _int, _bits.py_bin_digits, _bits.z3_bin_digits, "call", "bin_digits"),
    Op("oct_digits", 1, _int, _bits.py_oct_digits, _bits.z3_oct_digits, "call", "oct_digits"),
    # floats (`solver/floats.py` builds them; an int operand is converted first, except in comparisons)
    _farith("fadd", operator.add, _fp.z3_add, "+", 5),
    _farith("fsub", operator.sub, _fp.z3_sub, "-", 5),
    _farith("fmul", operator.mul, _fp.z3_mul, "*", 6),
    _farith("fdiv", _fp.py_truediv, _fp.z3_div, "/", 6),
    _farith("ffloordiv", _fp.py_floordiv, _fp.z3_floordiv, "//", 6),
    _farith("fmod", _fp.py_mod, _fp.z3_mod, "%", 6),
    _farith("idiv", _fp.py_int_truediv, _fp.z3_int_truediv, "/", 6),
    Op("fneg", 1, _float, operator.neg, _fp.z3_neg, "prefix", "-", 7),
    Op("fabs", 1, _float, abs, _fp.z3_abs, "call", "abs"),
    Op("i2f", 1, _float, _fp.py_to_float, _fp.z3_to_float, "call", "float"),
    Op("ftrunc", 1, _int, _fp.py_trunc, _fp.z3_trunc, "call", "int"),
    Op("fround", 1, _int, _fp.py_round, _fp.z3_round, "call", "round"),
    Op("fround_digits", 2, _float, _fp.py_round_digits, _fp.z3_round_digits, "call", "round"),
    Op("ffloor", 1, _int, _fp.py_floor, _fp.z3_floor, "call", "math.floor"),
    Op("fceil", 1, _int, _fp.py_ceil, _fp.z3_ceil, "call", "math.ceil"),
    Op("fsqrt", 1, _float, _fp.py_sqrt, _fp.z3_sqrt, "call", "math.sqrt"),
    Op("fisnan", 1, _bool, math.isnan, _fp.z3_isnan, "call", "math.isnan"),
    Op("fisinf", 1, _bool, math.isinf, _fp.z3_isinf, "call", "math.isinf"),
    _fcompare("feq", operator.eq, "==", "fne"),
    _fcompare("fne", operator.ne, "!=", "feq"),
    _fcompare("flt", operator.lt, "<", None),
    _fcompare("fle", operator.le, "<=", None),
    _fcompare("fgt", operator.gt, ">", None),
    _fcompare("fge", operator.ge, ">=", None),
    # strings (meanings in solver/strings.py); `eq`..`ge` above compare them too
    Op("concat", 2, _str, operator.add, lambda z3, x, y: z3.Concat(x, y), "infix", "+", 5),
    Op("strlen", 1, _int, len, lambda z3, x: z3.Length(x), "call", "len"),
    Op("substr", 3, _str, _s.py_substr, lambda z3, x, i, n: z3.SubString(x, i, n), "call", "substr"),
    Op("contains", 2, _bool, lambda s, t: t in s, lambda z3, x, y: z3.Contains(x, y), "call", "contains"),
    Op("prefixof", 2, _bool, lambda s, t: s.startswith(t), lambda z3, x, y: z3.PrefixOf(y, x), "call",
       "startswith"),
    Op("suffixof", 2, _bool, lambda s, t: s.endswith(t), lambda z3, x, y: z3.SuffixOf(y, x), "call",
       "endswith"),
    Op("indexof", 2, _int, _s.py_find, lambda z3, x, y: z3.IndexOf(x, y, 0), "call", "find"),
    Op("str_of_nat", 1, _str, _s.py_str_of_nat, lambda z3, n: z3.IntToStr(n), "call", "str"),
    Op("nat_of_str", 1, _int, _s.py_nat_of_str, lambda z3, x: z3.StrToInt(x), "call", "int"),
    Op("ord", 1, _int, _s.py_ord, lambda z3, x: z3.StrToCode(x), "call", "ord"),
    Op("chr", 1, _str, _s.py_chr, lambda z3, n: z3.StrFromCode(n), "call", "chr"),
    Op("lower", 1, _str, _s.py_lower, _s.z3_case(32), "call", "lower"),
    Op("upper", 1, _str, _s.py_upper, _s.z3_case(-32), "call", "upper"),
    *(Op(name, 1, _bool, py, _s.z3_class(name), "call", name) for name, py in _s.CLASSES.items()),
    # does `re.<mode>(pattern, s, flags)` find a match (the spec: solver/regex.py)
    Op("inre", 2, _bool, _rx.py_member, _rx.z3_member, "call", "re_matches"),
)

OPS: Mapping[str, Op] = MappingProxyType({op.name: op for op in _TABLE})

# the operators over floats (their folding constructor is `terms.fold_float`)
FLOAT_OPS = ("fadd", "fsub", "fmul", "fdiv", "ffloordiv", "fmod", "idiv", "fneg", "fabs", "i2f", "ftrunc", "fround",
             "fround_digits", "ffloor", "fceil", "fsqrt", "fisnan", "fisinf", "feq", "fne", "flt", "fle", "fgt", "fge")
