"""`bin(n)`, `oct(n)` and `hex(n)`: an int written in base 2, 8 or 16, as
builtin predicates `$bin`, `$oct`, `$hex` (called by the frontend); and
`format(n, "b")`, `"o"`, `"x"`, the same digits without the prefix.

Exact without a loop, for |n| below 2**64 (beyond it the path is dropped
and counted, as the bit operators' bound): the binary (octal) digits of
`m >= 0` are the decimal digits of `sum(((m // b**i) % b) * 10**i)` (the
term operators `bin_digits`/`oct_digits`: over m's bits in Z3), so
`str.from_int` of that sum writes them without leading zeros; hexadecimal
digits are one character each (`chr` of the digit's code), the leading
zeros cut off by the count of significant digits (one and two digits have
rules of their own: the solver decides those strings at once). A bool is its int; a
str is Python's TypeError; a float, list or object drops the path (a class
may define `__index__`).
"""

from __future__ import annotations

from pathcraft.ir.builtin_names import UNSUPPORTED
from pathcraft.ir.builtin_names import function_predicate
from pathcraft.ir.nodes import (
    Assign, Binary, Const, Expr, Goto, ListOp, Predicate, Raise, Return, Rule, Text, Unary, Var,
)

FORMATS = {"bin": (2, "0b"), "oct": (8, "0o"), "hex": (16, "0x")}
# `format(n, "b")`, `format(n, "o")`, `format(n, "x")`: the digits without the prefix
SPECS = {"b": ("format_b", 2), "o": ("format_o", 8), "x": ("format_x", 16)}
WIDTH = 64  # |n| < 2**WIDTH
_X, _M, _P = Var("x"), Var("m"), Var("p")


def _digit(m: Expr, base: int, i: int) -> Expr:
    """The digit of weight base**i of `m >= 0`."""
    shifted = m if i == 0 else Binary("floordiv", m, Const(base ** i))
    return Binary("mod", shifted, Const(base))


def _decimal_digits(m: Expr, base: int) -> Expr:
    """`m`'s base-`base` digits (2 or 8) as a string, via the number whose
    decimal digits they are (a term operator: in Z3 a linear sum over m's
    bits, `solver/bitops.py`)."""
    return Unary("str_of_nat", Unary({2: "bin_digits", 8: "oct_digits"}[base], m))


def _hex_char(m: Expr, i: int) -> Expr:
    """The hex digit of weight 16**i: code 48 + d, plus 39 from `a` on
    (`(d + 6) // 16` is 1 exactly when d >= 10)."""
    d = _digit(m, 16, i)
    code = Binary("add", Binary("add", Const(48), d),
                  Binary("mul", Const(39), Binary("floordiv", Binary("add", d, Const(6)), Const(16))))
    return Unary("chr", code)


def _hex_body(name: str) -> list[Predicate]:
    """`$hex:digits(m, p)`: the prefix p, then m's digits: one or two digits by their own rules (a string
    the solver decides at once); from three on, all WIDTH // 4 digits and
    then the significant ones: `m >= 16**i` is `(m + 2**WIDTH - 16**i) // 2**WIDTH`."""
    count = WIDTH // 4
    full: Expr = _hex_char(_M, count - 1)
    for i in range(count - 2, -1, -1):
        full = Binary("add", full, _hex_char(_M, i))
    significant: Expr = Const(1)
    for i in range(1, count):
        above = Binary("floordiv", Binary("add", _M, Const(2 ** WIDTH - 16 ** i)), Const(2 ** WIDTH))
        significant = Binary("add", significant, above)
    start = Binary("sub", Const(count), significant)
    rules = (
        Rule(1, Binary("lt", _M, Const(16)), (Return(Binary("add", _P, _hex_char(_M, 0)), 0),)),
        Rule(2, Binary("and", Binary("ge", _M, Const(16)), Binary("lt", _M, Const(256))),
             (Return(Binary("add", _P, Binary("add", _hex_char(_M, 1), _hex_char(_M, 0))), 0),)),
        Rule(3, Binary("ge", _M, Const(256)), (
            ListOp("slice", "r", full, (start, Const(True), Const(count), Const(True)), 0),
            Return(Binary("add", _P, Var("r")), 0))),
    )
    return [Predicate(name, name.split(":")[0], ("m", "p"), rules, builtin=True)]


def _typed(name: str, str_raises: bool = True) -> Predicate:
    """`name(x)`: an int goes on, a bool as its int, a str raises TypeError
    (`format`'s ValueError quotes the format code: the path is dropped)."""
    x = _X
    tests = {kind: Unary(f"is{kind}", x) for kind in ("str", "int", "bool")}
    other = Binary("and", Binary("and", Unary("not", tests["str"]), Unary("not", tests["int"])),
                   Unary("not", tests["bool"]))
    rules = (
        Rule(1, tests["int"], (Goto(f"{name}:int", (x,)),)),
        Rule(2, tests["bool"], (Assign("x", Unary("int", x), 0), Goto(f"{name}:int", (x,)))),
        Rule(3, tests["str"], (Raise("TypeError", None, 0) if str_raises else
                               Raise(UNSUPPORTED, "format() of a str", 0),)),
        Rule(4, other, (Raise(UNSUPPORTED, f"{name[1:].split('_')[0]}() of a float, list or object", 0),)),
    )
    return Predicate(name, name, ("x",), rules, builtin=True)


def _signed(name: str, prefix: str, digits: str) -> Predicate:
    """`name:int(x)`: the prefix, `-` first below zero, then the digits of |x|."""
    x, bound = _X, Const(2 ** WIDTH)
    rules = (
        Rule(1, Binary("and", Binary("ge", x, Const(0)), Binary("lt", x, bound)), (
            Assign("m", x, 0), Assign("p", Const(Text(prefix)), 0), Goto(digits, (_M, Var("p"))),
        )),
        Rule(2, Binary("and", Binary("lt", x, Const(0)), Binary("gt", x, Unary("neg", bound))), (
            Assign("m", Unary("neg", x), 0), Assign("p", Const(Text("-" + prefix)), 0), Goto(digits, (_M, Var("p"))),
        )),
        Rule(3, Binary("or", Binary("ge", x, bound), Binary("le", x, Unary("neg", bound))), (
            Raise(UNSUPPORTED, f"{name[1:].split('_')[0]}() of an int beyond {WIDTH} bits", 0),
        )),
    )
    return Predicate(f"{name}:int", name, ("x",), rules, builtin=True)


def format_predicates() -> dict[str, Predicate]:
    """`$bin`, `$oct`, `$hex` and their blocks."""
    preds: list[Predicate] = []
    kinds = [(word, base, prefix, True) for word, (base, prefix) in FORMATS.items()]
    kinds += [(word, base, "", False) for word, base in SPECS.values()]
    for word, base, prefix, str_raises in kinds:
        name = function_predicate(word)
        digits = f"{name}:digits"
        preds += [_typed(name, str_raises), _signed(name, prefix, digits)]
        if base == 16:
            preds += _hex_body(digits)
        else:
            preds.append(Predicate(digits, name, ("m", "p"), (Rule(1, None, (
                Return(Binary("add", Var("p"), _decimal_digits(_M, base)), 0),)),), builtin=True))
    return {p.name: p for p in preds}

