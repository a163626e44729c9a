"""Builtin predicates of str: its methods (`$str.startswith`, entered by
the engine for a string receiver, see `frontend/prelude`) and the
conversions `str()`, `int()`, `ord()`, `chr()` (`$str`, `$int`, `$ord`,
`$chr`, called by the frontend).

Built like `builtins.py`: guarded rules whose branches are choice points.
A conversion first tests the type of its argument (`isstr`, `isint`,
`isbool` fold to constants in the engine), then goes to the block for
that type, so no guard evaluates a string operator on another type.
Messages are asserted only where CPython's is a constant.
"""

from __future__ import annotations

from pathcraft.ir.builtin_names import UNSUPPORTED
from pathcraft.ir.builtin_names import function_predicate, method_predicate
from pathcraft.ir.nodes import (
    Binary, Const, Expr, Goto, Guard, Instr, ListOp, Predicate, Raise, Return, Rule, Text, Unary, Var,
)

SUBSTRING_NOT_FOUND = "substring not found"
CHR_RANGE = "chr() arg not in range(0x110000)"
CONVERSIONS = ("str", "int", "ord", "chr")

_S, _X = Var("self"), Var("x")


def _pred(name: str, params: tuple[str, ...], *rules: tuple[Guard | None, Instr]) -> Predicate:
    built = tuple(Rule(index, guard, (action,)) for index, (guard, action) in enumerate(rules, start=1))
    return Predicate(name, name.split(":")[0], params, built, builtin=True)


def _not(e: Expr) -> Expr:
    return Unary("not", e)


def _and(a: Expr, b: Expr) -> Expr:
    return Binary("and", a, b)


def _methods() -> list[Predicate]:
    out = []
    for method, op in (("startswith", "prefixof"), ("endswith", "suffixof"), ("__contains__", "contains"),
                       ("find", "indexof")):
        out.append(_pred(method_predicate("str", method), ("self", "x"), (None, Return(Binary(op, _S, _X), 0))))
    # on ASCII (see engine/strings.py), isdecimal and isnumeric are isdigit
    for method, op in (*((m, m) for m in ("isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower",
                                          "lower", "upper")),
                       ("isdecimal", "isdigit"), ("isnumeric", "isdigit")):
        out.append(_pred(method_predicate("str", method), ("self",), (None, Return(Unary(op, _S), 0))))
    # `s.split()`: on printable ASCII the only whitespace is the space
    out.append(_pred(
        method_predicate("str", "split__0"), ("self",),
        (Unary("printable", _S), Goto(method_predicate("str", "_split_spaces"), (_S,))),
        (_not(Unary("printable", _S)), Raise(UNSUPPORTED, "split() of a string with tabs, newlines or non-ASCII", 0)),
    ))
    found = Binary("indexof", _S, _X)
    out.append(_pred(
        method_predicate("str", "index"), ("self", "x"),
        (Binary("ge", found, Const(0)), Return(found, 0)),
        (Binary("lt", found, Const(0)), Raise("ValueError", SUBSTRING_NOT_FOUND, 0)),
    ))
    return out


def _typed(name: str, *cases: tuple[str, Instr]) -> list[Predicate]:
    """`name(x)`: one rule per type test of `cases` (`str`, `int`, `bool`,
    or `other` for the rest), each entering its own block."""
    tests = {kind: Unary(f"is{kind}", _X) for kind in ("str", "int", "bool")}
    rules: list[tuple[Guard | None, Instr]] = []
    for kind, action in cases:
        if kind == "other":
            guard: Expr = _and(_and(_not(tests["str"]), _not(tests["int"])), _not(tests["bool"]))
        else:
            guard = tests[kind]
        rules.append((guard, action))
    return [_pred(function_predicate(name), ("x",), *rules)]


def _conversions() -> list[Predicate]:
    x = _X
    str_of, int_of, ord_of, chr_of = (function_predicate(n) for n in CONVERSIONS)
    n = Unary("strlen", x)
    digits = Unary("isdigit", x)
    preds = [
        # str(x)
        *_typed("str", ("str", Return(x, 0)), ("int", Goto(f"{str_of}:int", (x,))),
                ("bool", Goto(f"{str_of}:bool", (x,))),
                ("other", Raise(UNSUPPORTED, "str() of a value other than an int, bool or str", 0))),
        _pred(f"{str_of}:int", ("x",),
              (Binary("ge", x, Const(0)), Return(Unary("str_of_nat", x), 0)),
              (Binary("lt", x, Const(0)),
               Return(Binary("add", Const(Text("-")), Unary("str_of_nat", Unary("neg", x))), 0))),
        # what `__str__` gave, as `str(obj)` takes it (frontend/numbuiltins.text_of_object)
        _pred(function_predicate("str_result"), ("x",),
              (Unary("isstr", x), Return(x, 0)),
              (_not(Unary("isstr", x)), Raise("TypeError", None, 0))),
        _pred(f"{str_of}:bool", ("x",),
              (Unary("truth", x), Return(Const(Text("True")), 0)),
              (_not(x), Return(Const(Text("False")), 0))),
        # int(x)
        *_typed("int", ("str", Goto(f"{int_of}:str", (x,))), ("int", Return(x, 0)),
                ("bool", Return(Unary("int", x), 0)),
                ("other", Raise(UNSUPPORTED, "int() of a value other than an int, bool or str", 0))),
        _pred(f"{int_of}:str", ("x",),
              (digits, Return(Unary("nat_of_str", x), 0)),
              (_and(_not(digits), _not(Unary("intlike", x))), Raise("ValueError", None, 0)),
              (_and(_not(digits), Unary("intlike", x)),
               Raise(UNSUPPORTED, "int() of a signed, spaced or underscored literal", 0))),
        # ord(c)
        *_typed("ord", ("str", Goto(f"{ord_of}:str", (x,))), ("int", Raise("TypeError", None, 0)),
                ("bool", Raise("TypeError", None, 0)),
                ("other", Raise(UNSUPPORTED, "ord() of a list or object", 0))),
        _pred(f"{ord_of}:str", ("x",),
              (Binary("eq", n, Const(1)), Return(Unary("ord", x), 0)),
              (Binary("ne", n, Const(1)), Raise("TypeError", None, 0))),
        # chr(i)
        *_typed("chr", ("str", Raise("TypeError", None, 0)), ("int", Goto(f"{chr_of}:int", (x,))),
                ("bool", Goto(f"{chr_of}:int", (x,))),
                ("other", Raise(UNSUPPORTED, "chr() of a list or object", 0))),
        _pred(f"{chr_of}:int", ("x",),
              (_and(Binary("ge", x, Const(0)), Binary("lt", x, Const(128))), Return(Unary("chr", x), 0)),
              (Binary("or", Binary("lt", x, Const(0)), Binary("gt", x, Const(0x10FFFF))),
               Raise("ValueError", CHR_RANGE, 0)),
              (_and(Binary("ge", x, Const(128)), Binary("le", x, Const(0x10FFFF))),
               Raise(UNSUPPORTED, "chr() beyond ASCII", 0))),
    ]
    return preds


REVERSED_UP_TO = 4  # `s[::-1]` for strings up to this long (Z3 has no reverse)


def _slices() -> list[Predicate]:
    """`s[a:b:c]` (`x.__getslice__(a, has_a, b, has_b, c)`, see the
    expression lowerer): a step of 1 is a substring (the engine's `slice`
    on strings); `s[::-1]` one rule per length of `s` (each builds the
    reversed string from its characters: Z3 has no reverse), longer
    strings and other steps drop the path."""
    name = method_predicate("str", "__getslice__")
    reverse = method_predicate("str", "__reversed_slice__")
    params = ("self", "a", "has_a", "b", "has_b", "c")
    c, whole = Var("c"), _and(_not(Var("has_a")), _not(Var("has_b")))
    backwards = _and(Binary("eq", c, Const(-1)), whole)
    entry = Predicate(name, name, params, (
        Rule(1, Binary("eq", c, Const(1)), (
            ListOp("slice", "r", _S, (Var("a"), Var("has_a"), Var("b"), Var("has_b")), 0), Return(Var("r"), 0))),
        Rule(2, backwards, (Goto(reverse, (_S,)),)),
        Rule(3, Binary("eq", c, Const(0)), (Raise("ValueError", "slice step cannot be zero", 0),)),
        Rule(4, _and(_and(Binary("ne", c, Const(1)), Binary("ne", c, Const(0))), _not(backwards)),
             (Raise(UNSUPPORTED, "a string slice with a step other than 1 or [::-1]", 0),)),
    ), builtin=True)
    n = Unary("strlen", _S)
    rules = []
    for k in range(REVERSED_UP_TO + 1):
        body: list[Instr] = [ListOp("get", f"c{i}", _S, (Const(i),), 0) for i in range(k)]
        result: Expr = Const(Text(""))
        for i in range(k):
            result = Var(f"c{i}") if i == 0 else Binary("add", Var(f"c{i}"), result)
        rules.append(Rule(k + 1, Binary("eq", n, Const(k)), (*body, Return(result, 0))))
    rules.append(Rule(REVERSED_UP_TO + 2, Binary("gt", n, Const(REVERSED_UP_TO)),
                      (Raise(UNSUPPORTED, f"[::-1] of a string longer than {REVERSED_UP_TO}", 0),)))
    return [entry, Predicate(reverse, reverse, ("self",), tuple(rules), builtin=True)]


def _format_spec() -> Predicate:
    """`$format_spec(value, spec)`: answered by the str model
    (models/str/semantics.py); a value it does not answer drops the path."""
    name = function_predicate("format_spec")
    rule = Rule(1, None, (Raise(UNSUPPORTED, "a format spec applied to this value", 0),))
    return Predicate(name, name, ("value", "spec"), (rule,), builtin=True)


def str_predicates() -> dict[str, Predicate]:
    return {p.name: p for p in (*_methods(), *_conversions(), *_slices(), _format_spec())}
