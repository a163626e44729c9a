"""Calls of builtins, looked up by the builtin's name in a table of rules.

Why a table: a builtin's call is lowered by the first of its rules that
applies to the call's arguments (a rule returns None to pass), so adding
a builtin or a form of one is a row here and a function in
`seqbuiltins.py`, `numbuiltins.py` or `isinstances.py`. The order of the
rows of one name is the order they are tried. Three tables, because
Python's order of questions matters: `BEFORE_FUNCTIONS` is tried before
the module's own functions of that name, `WITH_KEYWORDS` after them, then
a call with keywords is refused, then `POSITIONAL`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from pathcraft.frontend import isinstances, iterators, numbuiltins as num, seqbuiltins as seq
from pathcraft.frontend.iterators import ITERATORS
from pathcraft.models.int import lowering as intformat
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.frontend.generators import CONSUMERS
from pathcraft.models.str.lowering import CONVERSIONS
from pathcraft.ir.nodes import Expr

# (lowerer, the builtin's name, the call) -> its value, or None: not this rule
BuiltinRule = Callable[[ExprLowering, str, ast.Call], Expr | None]


def _table(*rows: tuple[tuple[str, ...], BuiltinRule]) -> dict[str, tuple[BuiltinRule, ...]]:
    """Name -> its rules, in the order of the rows that name it."""
    table: dict[str, list[BuiltinRule]] = {}
    for names, rule in rows:
        for name in names:
            table.setdefault(name, []).append(rule)
    return {name: tuple(rules) for name, rules in table.items()}


def _ranges_walked(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`set(range(n))`, `zip(range(a), xs)`, `any(range(a, b))`: a builtin
    that only walks its argument walks a range as it walks `iter(range(...))`,
    a silent generator (the same items; range's own checks made when the
    iterator is made, as when the range is): the call is lowered again with
    the range so written. `list`/`sorted` of a range alone have
    the prelude's loop (`seq.range_list`, tried first)."""
    if name in ("list", "sorted") and len(node.args) == 1 and not node.keywords:
        listed = seq.range_list(ex, name, node)
        if listed is not None:
            return listed
    ranges = [k for k, a in enumerate(node.args) if isinstance(a, ast.Call) and isinstance(a.func, ast.Name)
              and a.func.id == "range" and "range" not in ex.local_names and "range" not in ex.functions
              and not a.keywords]
    if not ranges or name in ("map", "filter") and 0 in ranges or {"iter"} & (ex.local_names | set(ex.functions)):
        return None
    args = [_walk(a) if k in ranges and isinstance(a, ast.Call) else a for k, a in enumerate(node.args)]
    walked = ast.copy_location(ast.Call(node.func, args, node.keywords), node)
    return before_functions(ex, name, walked) or builtin_call(ex, name, walked)


def _walk(call: ast.Call) -> ast.Call:
    """`iter(range(...))`: the silent generator `iter` is (frontend/iterators.py)."""
    walk = ast.Call(ast.Name("iter", ast.Load()), [call], [])
    for part in (walk, walk.func):
        ast.copy_location(part, call)
        part.end_lineno, part.end_col_offset = call.end_lineno, call.end_col_offset
    return walk


# builtins that only walk what they are given and take a generator: a range there is walked as one
WALKERS = ("list", "sorted", "tuple", "set", "zip", "enumerate", "map", "filter", "any", "all")

BEFORE_FUNCTIONS = _table(
    (("set",), _ranges_walked),
    (("len",), seq.length),
    (("dict", "set"), seq.empty_container),
    (("dict", "set"), seq.container_copy),
    (("isinstance",), isinstances.isinstance_rule),
    (("callable",), isinstances.callable_rule),
    (("hasattr",), isinstances.hasattr_rule),
    (("getattr",), isinstances.getattr_rule),
)

WITH_KEYWORDS = _table(
    (WALKERS, _ranges_walked),
    (CONSUMERS, seq.generator_consumer),
    (("print",), seq.print_call),
    (("list", "sorted"), seq.range_list),
    (("sorted",), seq.sorted_list),
    (("list",), seq.list_of),
    (("next",), seq.first_item),
    (("next",), seq.next_item),
    (("tuple",), seq.tuple_of),
    (("sorted", "min", "max"), seq.keyed),
)

POSITIONAL = _table(
    (ITERATORS, iterators.iterator_call),
    (("divmod",), num.divmod_rule),
    (("pow",), num.power),
    (("abs",), num.absolute),
    (("any", "all"), seq.truth_fold),
    (("sum", "min", "max"), seq.list_fold),
    (("min", "max"), num.extreme),
    (("round",), num.round_digits),
    (("int",), num.int_of_base),
    (("int",), num.int_conversion),
    (("int", "round"), num.to_int),
    (("float",), num.float_literal),
    (("float", "bool"), num.float_or_bool),
    (("str",), num.text_of_object),
    ((*CONVERSIONS, *intformat.FORMATS), num.converted),
    (("format",), num.formatted),
)


def _first(table: dict[str, tuple[BuiltinRule, ...]], ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    for rule in table.get(name, ()):
        value = rule(ex, name, node)
        if value is not None:
            return value
    return None


def before_functions(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """The builtins that win over a module function of the same name."""
    return _first(BEFORE_FUNCTIONS, ex, name, node)


def builtin_call(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`name(...)` by the first rule that takes it; None: no rule does.
    Keywords are refused for any name past the rules that take them."""
    value = _first(WITH_KEYWORDS, ex, name, node)
    if value is not None:
        return value
    if node.keywords:
        raise ex.error(node, f"keyword arguments to {name}()")
    return _first(POSITIONAL, ex, name, node)
