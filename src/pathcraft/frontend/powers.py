"""`pow(a, b, m)` and `math.pow(a, b)` on ints, as builtin predicates
(`pow(a, b)` is `a ** b`: the `int_pow` loop of `builtins.py`).

`pow(a, b, m)` multiplies modulo m, b times (a loop: loop-K bounds the
exponents explored); m == 0 is CPython's ValueError; a negative exponent
asks for a modular inverse, not modelled (the path is dropped), as are
operands that are not ints (a float is a TypeError in Python, an object
may define `__pow__`).

`math.pow(a, b)` (its own multiplying loop, like `int_pow`'s) converts to float and calls libm's `pow`, whose error is
below one ulp on every platform CPython supports: where the exact power of
two ints is a double (|a**b| <= 2**53) that is the result. Float operands,
larger powers and negative exponents (but 0 ** -k, a domain error) drop
the path: their rounding is libm's.
"""

from __future__ import annotations

from pathcraft.frontend.builtins import MATH_DOMAIN
from pathcraft.ir.builtin_names import UNSUPPORTED
from pathcraft.solver.bitops import MAX_SHIFT
from pathcraft.ir.nodes import (
    Assign, Binary, Const, Expr, Goto, ListOp, Predicate, Raise, Return, Rule, Unary, Var,
)

POW_MOD = "int_pow_mod"
MATH_POW = "math_pow"
MATH_POW_FIT = "math_pow:fit"  # an int power as a float, where exact
POW_MOD_ZERO = "pow() 3rd argument cannot be 0"
EXACT = 2 ** 53  # every int up to this magnitude is a double


def _is_int(e: Expr) -> Expr:
    return Binary("or", Unary("isint", e), Unary("isbool", e))


def _all_int(*es: Expr) -> Expr:
    out = _is_int(es[0])
    for e in es[1:]:
        out = Binary("and", out, _is_int(e))
    return out


def _pred(name: str, params: tuple[str, ...], rules: tuple[Rule, ...], iterates: str | None = None) -> Predicate:
    return Predicate(name, name.split(":")[0], params, rules, builtin=True, iterates=iterates)


def _pow_mod() -> list[Predicate]:
    a, b, m, r = Var("a"), Var("b"), Var("m"), Var("r")
    ints = _all_int(a, b, m)
    loop, body, start = f"{POW_MOD}:loop", f"{POW_MOD}:body", f"{POW_MOD}:int"
    return [
        _pred(POW_MOD, ("a", "b", "m"), (
            Rule(1, ints, (Assign("a", Unary("int", a), 0), Assign("b", Unary("int", b), 0),
                           Assign("m", Unary("int", m), 0), Goto(start, (a, b, m)))),
            Rule(2, Unary("not", ints), (Raise(UNSUPPORTED, "pow() with a modulus on a float, list or object", 0),)),
        )),
        _pred(start, ("a", "b", "m"), (
            Rule(1, Binary("eq", m, Const(0)), (Raise("ValueError", POW_MOD_ZERO, 0),)),
            Rule(2, Binary("and", Binary("ne", m, Const(0)), Binary("lt", b, Const(0))),
                 (Raise(UNSUPPORTED, "pow() with a negative exponent and a modulus (a modular inverse)", 0),)),
            Rule(3, Binary("and", Binary("ne", m, Const(0)), Binary("ge", b, Const(0))), (
                Assign("r", Binary("mod", Const(1), m), 0),
                Goto(loop, (a, b, m, r), enters_loop=loop))),
        )),
        _pred(loop, ("a", "b", "m", "r"), (
            Rule(1, Binary("gt", b, Const(0)), (Goto(body, (a, b, m, r)),)),
            Rule(2, Binary("le", b, Const(0)), (Return(r, 0),)),
        )),
        _pred(body, ("a", "b", "m", "r"), (Rule(1, None, (
            Assign("r", Binary("mod", Binary("mul", r, a), m), 0),
            Assign("b", Binary("sub", b, Const(1)), 0),
            Goto(loop, (a, b, m, r)))),), iterates=loop),
    ]


def _math_pow() -> list[Predicate]:
    a, b, r = Var("a"), Var("b"), Var("r")
    ints = _all_int(a, b)
    start, fit = f"{MATH_POW}:int", MATH_POW_FIT
    loop, body = f"{MATH_POW}:loop", f"{MATH_POW}:body"
    exact = Binary("and", Binary("ge", r, Const(-EXACT)), Binary("le", r, Const(EXACT)))
    return [
        _pred(MATH_POW, ("a", "b"), (
            Rule(1, ints, (Assign("a", Unary("int", a), 0), Assign("b", Unary("int", b), 0), Goto(start, (a, b)))),
            Rule(2, Unary("not", ints), (Raise(UNSUPPORTED, "math.pow() of a float (libm's pow is not modelled)", 0),)),
        )),
        _pred(start, ("a", "b"), (
            Rule(1, Binary("ge", b, Const(0)), (Assign("r", Const(1), 0), Goto(loop, (a, b, r), enters_loop=loop))),
            Rule(2, Binary("and", Binary("lt", b, Const(0)), Binary("eq", a, Const(0))),
                 (Raise("ValueError", MATH_DOMAIN, 0),)),
            Rule(3, Binary("and", Binary("lt", b, Const(0)), Binary("ne", a, Const(0))),
                 (Raise(UNSUPPORTED, "math.pow() with a negative exponent (libm's rounding)", 0),)),
        )),
        _pred(loop, ("a", "b", "r"), (
            Rule(1, Binary("gt", b, Const(0)), (Goto(body, (a, b, r)),)),
            Rule(2, Binary("le", b, Const(0)), (Goto(fit, (r,)),)),
        )),
        _pred(body, ("a", "b", "r"), (Rule(1, None, (
            Assign("r", Binary("mul", r, a), 0), Assign("b", Binary("sub", b, Const(1)), 0),
            Goto(loop, (a, b, r)))),), iterates=loop),
        _pred(fit, ("r",), (
            Rule(1, exact, (Return(Unary("float", r), 0),)),
            Rule(2, Unary("not", exact), (Raise(UNSUPPORTED, "math.pow() beyond 2**53 (libm's rounding)", 0),)),
        )),
    ]


INT_BASE_ARG = "int_base_arg"
INT_BASE = "int_base"
INT_BASE_RADIX = "int_base_radix"
BAD_BASE = "int() base must be >= 2 and <= 36, or 0"  # the same from 3.6 to 3.13
# characters a literal of some base may hold besides its digits (spaces, `_`, a sign, a prefix's letter)
_GRAMMAR = (95, 43, 45, 98, 66, 111, 79, 120, 88)


def _int_base() -> list[Predicate]:
    """`int(s, base)`: the base first, as CPython checks it (2..36, else
    ValueError; 0, where the literal's prefix decides, drops the path), then
    the string argument (an int or bool is CPython's TypeError), then a loop over the characters by
    their codes: a digit of the base accumulates; a character no literal
    of the base holds is ValueError (its message quotes the string: not
    asserted); one that Python's grammar would read (spaces, a sign, a
    prefix, `_`) drops the path."""
    return [_int_base_radix(), _int_base_arg(), *_int_base_digits()]


def _int_base_radix() -> Predicate:
    """The base: an int in 2..36 is returned; anything else raises as
    CPython does, or drops the path."""
    b, is_int = Var("b"), Unary("isint", Var("b"))
    fits = Binary("and", Binary("ge", b, Const(2)), Binary("le", b, Const(36)))
    other = Binary("and", Binary("and", Unary("not", is_int), Unary("not", Unary("isbool", b))),
                   Unary("not", Unary("isstr", b)))
    return _pred(INT_BASE_RADIX, ("b",), (
        Rule(1, Binary("and", is_int, fits), (Return(b, 0),)),
        Rule(2, Binary("and", is_int, Binary("eq", b, Const(0))),
             (Raise(UNSUPPORTED, "int() with base 0 (the literal's prefix decides)", 0),)),
        Rule(3, Binary("and", is_int, Binary("and", Unary("not", fits), Binary("ne", b, Const(0)))),
             (Raise("ValueError", BAD_BASE, 0),)),
        Rule(4, Unary("isbool", b), (Raise(UNSUPPORTED, "int() with a bool base", 0),)),
        Rule(5, Unary("isstr", b), (Raise("TypeError", "'str' object cannot be interpreted as an integer", 0),)),
        Rule(6, other, (Raise(UNSUPPORTED, "int() with a base that is a float, list or object", 0),)),
    ))


def _int_base_arg() -> Predicate:
    """The string argument: a str is returned; an int or bool raises."""
    x = Var("x")
    is_str = Unary("isstr", x)
    number = Binary("or", Unary("isint", x), Unary("isbool", x))
    return _pred(INT_BASE_ARG, ("x",), (
        Rule(1, is_str, (Return(x, 0),)),
        Rule(2, number, (Raise("TypeError", "int() can't convert non-string with explicit base", 0),)),
        Rule(3, Binary("and", Unary("not", is_str), Unary("not", number)),
             (Raise(UNSUPPORTED, "int() with a base of a float, list or object", 0),)),
    ))


def _int_base_digits() -> list[Predicate]:
    """The loop over the string's characters, accumulating digits."""
    s, i, r, o, n = Var("s"), Var("i"), Var("r"), Var("o"), Var("n")
    loop, cond, body, pick = (f"{INT_BASE}:{part}" for part in ("loop", "cond", "body", "pick"))
    state = (s, Var("base"), i, r)
    return [
        _pred(INT_BASE, ("s", "base"), (
            Rule(1, Binary("eq", Unary("strlen", s), Const(0)), (Raise("ValueError", None, 0),)),
            Rule(2, Binary("gt", Unary("strlen", s), Const(0)), (
                Assign("i", Const(0), 0), Assign("r", Const(0), 0), Goto(loop, state, enters_loop=loop))),
        )),
        _pred(loop, ("s", "base", "i", "r"), (Rule(1, None, (ListOp("len", "n", s, (), 0), Goto(cond, (*state, n)))),)),
        _pred(cond, ("s", "base", "i", "r", "n"), (
            Rule(1, Binary("lt", i, n), (Goto(body, state),)),
            Rule(2, Binary("ge", i, n), (Return(r, 0),)),
        )),
        _pred(body, ("s", "base", "i", "r"), (Rule(1, None, (
            ListOp("get", "c", s, (i,), 0), Assign("o", Unary("ord", Var("c")), 0), Goto(pick, (*state, o)))),),
            iterates=loop),
        _pred(pick, ("s", "base", "i", "r", "o"), _character_rules(loop, state)),
    ]


def _character_rules(loop: str, state: tuple[Var, ...]) -> tuple[Rule, ...]:
    """One character (its code `o`): a digit of the base (0-9, a-z, A-Z)
    accumulates and loops; else ValueError, or the path drops where
    Python's grammar would read it."""
    o, base, i, r = Var("o"), Var("base"), Var("i"), Var("r")

    def digit(lo: int, hi: int, value: int) -> Expr:
        return Binary("and", Binary("and", Binary("ge", o, Const(lo)), Binary("le", o, Const(hi))),
                      Binary("lt", Binary("sub", o, Const(value)), base))

    kinds = ((48, 57, 48), (97, 122, 87), (65, 90, 55))
    valid = digit(*kinds[0])
    for kind in kinds[1:]:
        valid = Binary("or", valid, digit(*kind))
    grammar: Expr = Binary("le", o, Const(32))
    for code in _GRAMMAR:
        grammar = Binary("or", grammar, Binary("eq", o, Const(code)))
    rules = [Rule(k + 1, digit(*kind), (
        Assign("r", Binary("add", Binary("mul", r, base), Binary("sub", o, Const(kind[2]))), 0),
        Assign("i", Binary("add", i, Const(1)), 0), Goto(loop, state))) for k, kind in enumerate(kinds)]
    rules.append(Rule(4, Binary("and", Unary("not", valid), grammar), (
        Raise(UNSUPPORTED, "int() with a base of a literal with spaces, a sign, a prefix or '_'", 0),)))
    rules.append(Rule(5, Binary("and", Unary("not", valid), Unary("not", grammar)), (Raise("ValueError", None, 0),)))
    return tuple(rules)


POW2 = "int_pow2"


def _pow2() -> list[Predicate]:
    """`2 ** n` for an int n: `1 << n` up to n = 64 (no loop, so loop-K
    does not bound n), `int_pow`'s loop beyond; a negative n makes a float
    (dropped, as `int_pow` does), a non-int n drops the path too."""
    a, b = Var("a"), Var("b")
    ints = _is_int(b)
    start = f"{POW2}:int"
    return [
        _pred(POW2, ("b",), (
            Rule(1, ints, (Assign("b", Unary("int", b), 0), Goto(start, (b,)))),
            Rule(2, Unary("not", ints), (Raise(UNSUPPORTED, "'2 ** x' of a float, str or object", 0),)),
        )),
        _pred(start, ("b",), (
            Rule(1, Binary("and", Binary("ge", b, Const(0)), Binary("le", b, Const(MAX_SHIFT))),
                 (Return(Binary("shl", Const(1), b), 0),)),
            Rule(2, Binary("gt", b, Const(MAX_SHIFT)), (Assign("a", Const(2), 0), Goto("int_pow", (a, b)))),
            Rule(3, Binary("lt", b, Const(0)), (Raise(UNSUPPORTED, "a negative exponent (float result)", 0),)),
        )),
    ]


def power_predicates() -> dict[str, Predicate]:
    return {p.name: p for p in (*_pow_mod(), *_math_pow(), *_int_base(), *_pow2())}
