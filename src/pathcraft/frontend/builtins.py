"""Builtin predicates: the summaries of `//`, `%`, `abs`, `min`, `max`, and
the `range` step check.

Each is a small predicate with mutually exclusive guarded rules, like the
`div` predicate of the papers, so that a builtin's branches are choice
points of the execution and appear in the trace term.
"""

from __future__ import annotations

import sys

from pathcraft.models.bits.lowering import bit_predicates
from pathcraft.ir.builtin_names import (
    ISINSTANCE_OP, ITERATE, LIST_PROTOCOL, NEW_DEFAULTDICT, NEW_DICT, NEW_SET, NUMBER_CONVERSIONS, UNSUPPORTED,
    method_predicate,
)
from pathcraft.ir.nodes import (
    Assign, Binary, CallMethod, Const, Goto, Guard, Instr, ListOp, Predicate, Raise, Return, Rule, Unary, Var,
)

ZERO_DIVISION_FLOORDIV = "integer division or modulo by zero"
ZERO_DIVISION_MOD = "integer modulo by zero"
RANGE_ZERO_STEP = "range() arg 3 must not be zero"
ZERO_DIVISION_TRUEDIV = "division by zero"
ZERO_DIVISION_FLOAT = "float division by zero"
ZERO_DIVISION_FLOAT_FLOORDIV = "float floor division by zero"
ZERO_DIVISION_FLOAT_DIVMOD = "float divmod()"  # the same from 3.6 to 3.13
NAN_TO_INT = "cannot convert float NaN to integer"
INF_TO_INT = "cannot convert float infinity to integer"

MATH_DOMAIN = "math domain error"
ROUND_DIGITS = 5  # `round(x, n)` with n known at run time: a rule for each of 0..4, the rest dropped


def float_modulo_message() -> str:
    """CPython's message for `x % 0.0`: it changed in 3.13."""
    if sys.version_info >= (3, 13):
        return "float modulo by zero"
    return "float modulo"


PRINT = "print_arg"



def empty_sequence_message(word: str) -> str:
    """CPython's message for `min([])` / `max([])`: it changed in 3.12, and
    the generated tests run under the interpreter that generated them."""
    if sys.version_info >= (3, 12):
        return f"{word}() iterable argument is empty"
    return f"{word}() arg is an empty sequence"

def _pred(name: str, params: tuple[str, ...], *rules: tuple[Guard | None, Instr]) -> Predicate:
    built = []
    for index, (guard, action) in enumerate(rules, start=1):
        built.append(Rule(index, guard, (action,)))
    return Predicate(name, name, params, tuple(built), builtin=True)


def builtin_predicates() -> dict[str, Predicate]:
    a, b = Var("a"), Var("b")
    zero = Const(0)
    preds = [
        _pred(
            "int_floordiv", ("a", "b"),
            (Binary("ne", b, zero), Return(Binary("floordiv", a, b), 0)),
            (Binary("eq", b, zero), Raise("ZeroDivisionError", ZERO_DIVISION_FLOORDIV, 0)),
        ),
        _pred(  # `divmod(a, b)`'s quotient: `//`, with divmod's own message on floats (`float_divmod`)
            "int_divmod", ("a", "b"),
            (Binary("ne", b, zero), Return(Binary("floordiv", a, b), 0)),
            (Binary("eq", b, zero), Raise("ZeroDivisionError", ZERO_DIVISION_FLOORDIV, 0)),
        ),
        _pred(
            "int_mod", ("a", "b"),
            (Binary("ne", b, zero), Return(Binary("mod", a, b), 0)),
            (Binary("eq", b, zero), Raise("ZeroDivisionError", ZERO_DIVISION_MOD, 0)),
        ),
        _pred(
            "abs", ("a",),
            (Binary("ge", a, zero), Return(Unary("int", a), 0)),
            (Binary("lt", a, zero), Return(Unary("neg", a), 0)),
        ),
        # Python's min/max return the first of equal candidates (and of a nan
        # and anything: `not (b < a)` is not `b >= a` on floats)
        _pred(
            "min", ("a", "b"),
            (Binary("lt", b, a), Return(b, 0)),
            (Unary("not", Binary("lt", b, a)), Return(a, 0)),
        ),
        _pred(
            "max", ("a", "b"),
            (Binary("gt", b, a), Return(b, 0)),
            (Unary("not", Binary("gt", b, a)), Return(a, 0)),
        ),
        _pred(
            "range_step", ("a",),
            (Binary("ne", a, zero), Return(a, 0)),
            (Binary("eq", a, zero), Raise("ValueError", RANGE_ZERO_STEP, 0)),
        ),
    ]
    preds.extend(_float_predicates())
    # `print(x)`: one call per argument; the output is not asserted, but
    # the engine checks that printing runs no code of the module (a __str__)
    preds.append(_pred(PRINT, ("a",), (None, Return(Const(None), 0))))
    preds.extend(_power())
    preds.extend(bit_predicates(lambda method: method_predicate("int", method)))
    preds.extend(_fold("list_sum", "add"))
    preds.extend(_fold("list_min", "lt"))
    preds.extend(_fold("list_max", "gt"))
    # built by the engine itself (`engine/dicts.py`): no rules to enter
    preds.extend(Predicate(name, name, (), (), builtin=True) for name in (NEW_DICT, NEW_SET, NEW_DEFAULTDICT, ITERATE))
    return {p.name: p for p in preds}


def _fold(name: str, how: str) -> list[Predicate]:
    """`sum(xs)`, `min(xs)`, `max(xs)` over a list: a loop over its items
    (bounded by loop-K like any loop). `min`/`max` of an empty list raise
    ValueError, as Python's do; ties keep the first item. A dict, set,
    view, generator or object is first walked into a list (`__list__`, as
    `list(x)` walks it): indexing it would ask for keys, not items."""
    xs, i, acc, n, x = Var("xs"), Var("i"), Var("acc"), Var("n"), Var("x")
    loop, cond, body, pick = f"{name}_loop", f"{name}_cond", f"{name}_body", f"{name}_pick"
    params = ("xs", "i", "acc")
    if how == "add":
        entry_rules: tuple[Rule, ...] = (Rule(1, None, (
            Assign("acc", Const(0), 0), Assign("i", Const(0), 0),
            Goto(loop, (xs, i, acc), enters_loop=loop),
        )),)
        entry_params: tuple[str, ...] = ("xs",)
        update: tuple[Rule, ...] = (Rule(1, None, (
            Assign("acc", Binary("add", acc, x), 0), Assign("i", Binary("add", i, Const(1)), 0),
            Goto(loop, (xs, i, acc)),
        )),)
    else:
        entry_params = ("xs",)
        entry_rules = (Rule(1, None, (ListOp("len", "n", xs, (), 0), Goto(f"{name}_start", (xs, n)))),)
        update = (
            Rule(1, Binary(how, x, acc), (
                Assign("acc", x, 0), Assign("i", Binary("add", i, Const(1)), 0), Goto(loop, (xs, i, acc)),
            )),
            Rule(2, Unary("not", Binary(how, x, acc)), (
                Assign("i", Binary("add", i, Const(1)), 0), Goto(loop, (xs, i, acc)),
            )),
        )
    preds = [_walked_first(name), Predicate(f"{name}_seq", name, entry_params, entry_rules, builtin=True)]
    if how != "add":
        word = "min" if how == "lt" else "max"
        preds.append(Predicate(f"{name}_start", name, ("xs", "n"), (
            Rule(1, Binary("gt", n, Const(0)), (
                ListOp("get", "acc", xs, (Const(0),), 0), Assign("i", Const(1), 0),
                Goto(loop, (xs, i, acc), enters_loop=loop),
            )),
            Rule(2, Binary("le", n, Const(0)), (Raise("ValueError", empty_sequence_message(word), 0),)),
        ), builtin=True))
    preds += [
        Predicate(loop, name, params, (Rule(1, None, (
            ListOp("len", "n", xs, (), 0), Goto(cond, (xs, i, acc, n)),
        )),), builtin=True),
        Predicate(cond, name, ("xs", "i", "acc", "n"), (
            Rule(1, Binary("lt", i, n), (Goto(body, (xs, i, acc)),)),
            Rule(2, Binary("ge", i, n), (Return(acc, 0),)),
        ), builtin=True),
        Predicate(body, name, params, (Rule(1, None, (
            ListOp("get", "x", xs, (i,), 0), Goto(pick, (xs, i, acc, x)),
        )),), builtin=True, iterates=loop),
        Predicate(pick, name, ("xs", "i", "acc", "x"), update, builtin=True),
    ]
    return preds


def _walked_first(name: str) -> Predicate:
    """The entry of a fold: a list, str or tuple is indexed in place
    (`{name}_seq`); a number or None is CPython's TypeError (its message
    names the type: not claimed); anything else is walked into a list
    first (`__list__`, as `list(x)` walks it)."""
    xs = Var("xs")
    sequence = Unary(f"{ISINSTANCE_OP}list,str,tuple", xs)
    scalar = Binary("or", Unary(f"{ISINSTANCE_OP}bool,float,int", xs), Binary("is", xs, Const(None)))
    return Predicate(name, name, ("xs",), (
        Rule(1, sequence, (Goto(f"{name}_seq", (xs,)),)),
        Rule(2, scalar, (Raise("TypeError", None, 0),)),
        Rule(3, Binary("and", Unary("not", sequence), Unary("not", scalar)),
             (CallMethod("items", xs, LIST_PROTOCOL, (), 0), Goto(f"{name}_seq", (Var("items"),)))),
    ), builtin=True)


def _float_predicates() -> list[Predicate]:
    """True division (ints too), and the float versions of `//`, `%`,
    `abs`, `int()` and `round()`: a zero divisor raises (-0.0 too, nan
    does not), nan and the infinities have no int."""
    a, b = Var("a"), Var("b")
    nonzero, zero = Binary("ne", b, Const(0)), Binary("eq", b, Const(0))
    preds = [
        _pred(name, ("a", "b"), (nonzero, Return(Binary(op, a, b), 0)), (zero, Raise("ZeroDivisionError", message, 0)))
        for name, op, message in (
            ("truediv", "truediv", ZERO_DIVISION_TRUEDIV),
            ("float_truediv", "truediv", ZERO_DIVISION_FLOAT),
            ("float_floordiv", "floordiv", ZERO_DIVISION_FLOAT_FLOORDIV),
            ("float_mod", "mod", float_modulo_message()),
            ("float_divmod", "floordiv", ZERO_DIVISION_FLOAT_DIVMOD),
        )
    ]
    preds.append(_pred("float_abs", ("a",), (None, Return(Unary("abs", a), 0))))
    nan, inf = Unary("isnan", a), Unary("isinf", a)
    finite = Unary("not", Binary("or", nan, inf))
    for name, how in (("float_to_int", "trunc"), ("float_round", "round"), ("float_floor", "floor"),
                      ("float_ceil", "ceil")):
        preds.append(_pred(name, ("a",), (finite, Return(Unary(how, a), 0)),
                           (nan, Raise("ValueError", NAN_TO_INT, 0)),
                           (inf, Raise("OverflowError", INF_TO_INT, 0))))
    # entered only through FLOAT_BUILTINS / NUMBER_CONVERSIONS: never with an int
    preds += [_pred(name, ("a",), (None, Return(Unary("int", a), 0))) for name in sorted(NUMBER_CONVERSIONS)]
    digits = [_pred("round_digits", ("a", "b"), *(
        (Binary("eq", b, Const(k)), Return(Binary("round_digits", a, Const(k)), 0)) for k in range(ROUND_DIGITS)),
        (Unary("not", Binary("and", Binary("ge", b, Const(0)), Binary("lt", b, Const(ROUND_DIGITS)))),
         Raise(UNSUPPORTED, f"round() to a number of digits outside 0..{ROUND_DIGITS - 1}", 0)))]
    preds += digits
    negative = Binary("lt", a, Const(0))
    preds.append(_pred("sqrt", ("a",), (negative, Raise("ValueError", MATH_DOMAIN, 0)),
                       (Unary("not", negative), Return(Unary("sqrt", Unary("float", a)), 0))))
    return preds




def _power() -> list[Predicate]:
    """`a ** b` for a symbolic exponent: a loop multiplying b times, so that
    loop-K bounds the exponents explored. A negative exponent makes a float,
    outside the subset."""
    a, b, r = Var("a"), Var("b"), Var("r")
    zero = Const(0)
    entry = Predicate("int_pow", "int_pow", ("a", "b"), (
        Rule(1, Binary("ge", b, zero), (
            Assign("r", Const(1), 0),
            Goto("int_pow_loop", (a, b, r), enters_loop="int_pow_loop"),
        )),
        Rule(2, Binary("lt", b, zero), (Raise(UNSUPPORTED, "a negative exponent (float result)", 0),)),
    ), builtin=True)
    loop = Predicate("int_pow_loop", "int_pow", ("a", "b", "r"), (
        Rule(1, Binary("gt", b, zero), (Goto("int_pow_body", (a, b, r)),)),
        Rule(2, Binary("le", b, zero), (Return(r, 0),)),
    ), builtin=True)
    body = Predicate("int_pow_body", "int_pow", ("a", "b", "r"), (
        Rule(1, None, (
            Assign("r", Binary("mul", r, a), 0),
            Assign("b", Binary("sub", b, Const(1)), 0),
            Goto("int_pow_loop", (a, b, r)),
        )),
    ), builtin=True, iterates="int_pow_loop")
    return [entry, loop, body]
