"""Builtin predicates: the summaries of `//`, `%`, `abs`, `min`, `max`, and
the `range` step check.

Each is a small predicate with mutually exclusive guarded rules, like the
`div` predicate of the papers, so that a builtin's branches are choice
points of the execution and appear in the trace term.
"""

from __future__ import annotations

from pathcraft.ir.nodes import Binary, Const, Expr, Predicate, Raise, Return, Rule, Unary, Var

ZERO_DIVISION_FLOORDIV = "integer division or modulo by zero"
ZERO_DIVISION_MOD = "integer modulo by zero"
RANGE_ZERO_STEP = "range() arg 3 must not be zero"


def _pred(name: str, params: tuple[str, ...], *rules: tuple[Expr, object]) -> Predicate:
    built = []
    for index, (guard, action) in enumerate(rules, start=1):
        built.append(Rule(index, guard, (action,)))  # type: ignore[arg-type]
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
        # Python's min/max return the first of equal candidates.
        _pred(
            "min", ("a", "b"),
            (Binary("lt", b, a), Return(b, 0)),
            (Binary("ge", b, a), Return(a, 0)),
        ),
        _pred(
            "max", ("a", "b"),
            (Binary("gt", b, a), Return(b, 0)),
            (Binary("le", b, a), Return(a, 0)),
        ),
        _pred(
            "range_step", ("a",),
            (Binary("ne", a, zero), Return(a, 0)),
            (Binary("eq", a, zero), Raise("ValueError", RANGE_ZERO_STEP, 0)),
        ),
    ]
    return {p.name: p for p in preds}
