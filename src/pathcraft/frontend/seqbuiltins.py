"""Lowering rules for the builtins that make or walk containers: `len`,
`dict`, `set`, `list`, `tuple`, `sorted`, `next(iter(x))`, `any`, `all`,
`sum`, `min`, `max` of one iterable, a consumer of a generator
expression, a keyed sort, `print`.

Why: each is a rule `(lowerer, name, call) -> Expr | None` (None: the
rule does not apply to these arguments, the next one is tried), listed
by name in `builtincalls.py`; the containers' own loops live in the
prelude, so a rule only evaluates the arguments and calls them.
"""

from __future__ import annotations

import ast

from pathcraft.frontend import arith, displays
from pathcraft.frontend.builtins import PRINT
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.ir.builtin_names import LIST_PROTOCOL, NEXT_CALL, function_predicate
from pathcraft.ir.nodes import Call, CallMethod, Const, Expr, ListOp, NewList, Var


def length(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`len(x)`: the engine asks the value (a class's `__len__` too)."""
    if len(node.args) != 1 or node.keywords:
        return None
    lst = ex.expr(node.args[0])
    tmp = ex.blocks.temp()
    ex.calls.methods_called.add("__len__")
    ex.blocks.emit(ListOp("len", tmp, lst, (), node.lineno))
    return Var(tmp)


def empty_container(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`dict()`, `set()`: as the displays `{}` and an empty set."""
    if node.args or node.keywords or name in ex.functions:
        return None
    return displays.dict_or_set(ex, ast.Dict([], [], lineno=node.lineno) if name == "dict" else
                                ast.Set([], lineno=node.lineno))


def container_copy(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`dict(x)`, `set(x)`: a copy made by the prelude's loop (`$set`, `$dict`)."""
    if len(node.args) != 1 or node.keywords or name in ex.functions \
            or isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp, ast.Starred)):
        return None
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, function_predicate(name), (ex.expr(node.args[0]),), node.lineno))
    return Var(tmp)


def generator_consumer(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`sum(x for x in xs)` and kin: the statement lowerer's (frontend/generators.py)."""
    if len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp) \
            and not node.keywords and ex.generator is not None:
        return ex.generator(name, node.args[0])
    return None


def print_call(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`print(a, b, sep=..., end=..., flush=...)`: the arguments are
    evaluated and printed, the output not asserted; a `file=` would
    write elsewhere (not modelled)."""
    for keyword in node.keywords:
        if keyword.arg not in ("sep", "end", "flush"):
            raise ex.error(keyword.value if keyword.arg else node, "print() to a file or with **kwargs")
    if any(isinstance(a, ast.Starred) for a in node.args):
        raise ex.error(node, "*args in a call")
    values = [ex.blocks.stable(ex.expr(a), node.lineno) for a in node.args]
    for keyword in node.keywords:
        values.append(ex.blocks.stable(ex.expr(keyword.value), node.lineno))
    for value in values:
        ex.blocks.emit(Call(None, PRINT, (value,), node.lineno))
    return Const(None)


def range_list(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`list(range(...))`, `sorted(range(...))`: the prelude's loop (a
    range of a step that may be negative is no sorted list: not for `sorted`)."""
    if len(node.args) != 1 or node.keywords:
        return None
    walked_range = node.args[0]
    if name == "sorted" and isinstance(walked_range, ast.Call) and len(walked_range.args) == 3 \
            and not (isinstance(walked_range.args[2], ast.Constant) and type(walked_range.args[2].value) is int
                     and walked_range.args[2].value > 0):
        return None
    walked = arith.range_call(ex, node.args[0])
    if walked is None:
        return None
    return arith.range_list(ex, walked, node.lineno)


def sorted_list(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`sorted(xs)`, `sorted(xs, reverse=True)` (a literal flag)."""
    if len(node.args) != 1 or isinstance(node.args[0], ast.GeneratorExp) \
            or not all(k.arg == "reverse" and isinstance(k.value, ast.Constant) and type(k.value.value) is bool
                       for k in node.keywords):
        return None
    items = ex.blocks.stable(ex.expr(node.args[0]), node.lineno)
    flag = node.keywords[0].value if node.keywords else None
    reverse = Const(isinstance(flag, ast.Constant) and flag.value is True)
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, function_predicate("sorted"), (items, reverse), node.lineno))
    return Var(tmp)


def list_of(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`list()`, `list(x)`: each kind's `__list__`."""
    if len(node.args) > 1 or node.keywords or node.args and isinstance(node.args[0], ast.GeneratorExp):
        return None
    tmp = ex.blocks.temp()
    if not node.args:
        ex.blocks.emit(NewList(tmp, (), None, node.lineno))
        return Var(tmp)
    ex.calls.methods_called.update((LIST_PROTOCOL, "__iter__"))
    source = ex.blocks.stable(ex.expr(node.args[0]), node.lineno)
    ex.blocks.emit(CallMethod(tmp, source, LIST_PROTOCOL, (), node.lineno))
    return Var(tmp)


def first_item(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`next(iter(x))`, `next(iter(x), default)`: the prelude's `first`."""
    if node.keywords or not _first_item(node):
        return None
    iterated = node.args[0]
    assert isinstance(iterated, ast.Call)
    args = [ex.blocks.stable(ex.expr(iterated.args[0]), node.lineno)]
    args += [ex.blocks.stable(ex.expr(a), node.lineno) for a in node.args[1:]]
    tmp = ex.blocks.temp()
    first = function_predicate("first" if len(node.args) == 1 else "first_or")
    ex.blocks.emit(Call(tmp, first, tuple(args), node.lineno))
    return Var(tmp)


def next_item(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`next(it)`, `next(it, default)` of anything but `iter(x)` (see
    `first_item`): dispatched by the engine on what `it` is."""
    if len(node.args) not in (1, 2) or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    args = [ex.blocks.stable(ex.expr(a), node.lineno) for a in node.args]
    tmp = ex.blocks.temp()
    ex.calls.methods_called.add("__next__")  # an object's own
    ex.blocks.emit(CallMethod(tmp, args[0], NEXT_CALL, tuple(args[1:]), node.lineno))
    return Var(tmp)


def tuple_of(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`tuple()`, `tuple(x)`: `list(x)` (each kind's `__list__`), frozen."""
    if len(node.args) > 1 or node.keywords or node.args and isinstance(node.args[0], ast.Starred) \
            or node.args and isinstance(node.args[0], ast.GeneratorExp) and ex.generator_value is None:
        return None
    tmp = ex.blocks.temp()
    if not node.args:
        ex.blocks.emit(NewList(tmp, (), None, node.lineno, is_tuple=True))
        return Var(tmp)
    ex.calls.methods_called.update((LIST_PROTOCOL, "__iter__"))
    source = ex.blocks.stable(ex.expr(node.args[0]), node.lineno)
    ex.blocks.emit(CallMethod(tmp, source, LIST_PROTOCOL, (), node.lineno))
    frozen = ex.blocks.temp()
    ex.blocks.emit(ListOp("freeze", frozen, Var(tmp), (), node.lineno))
    return Var(frozen)


def keyed(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`sorted(xs, key=f)`, `min`/`max(xs, key=f)`: the statement
    lowerer's (frontend/keyed.py)."""
    keyed_by = key_and_reverse(node, sort=name == "sorted")
    if keyed_by is not None and len(node.args) == 1 and name not in ex.functions \
            and name not in ex.local_names and ex.keyed is not None and not isinstance(node.args[0], ast.Starred):
        return ex.keyed(name, node.args[0], keyed_by[0], keyed_by[1], node)
    return None


def truth_fold(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`any(xs)`, `all(xs)`: the prelude's loops."""
    if len(node.args) != 1 or isinstance(node.args[0], ast.GeneratorExp):
        return None
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, function_predicate(name), (ex.expr(node.args[0]),), node.lineno))
    return Var(tmp)


def list_fold(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`sum(xs)`, `min(xs)`, `max(xs)`: builtin predicates over a list."""
    if len(node.args) != 1 or isinstance(node.args[0], ast.GeneratorExp):
        return None
    ex.calls.methods_called.update((LIST_PROTOCOL, "__iter__"))  # what is no sequence is walked first
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, f"list_{name}", (ex.expr(node.args[0]),), node.lineno))
    return Var(tmp)


def key_and_reverse(node: ast.Call, sort: bool) -> tuple[ast.expr, bool] | None:
    """`key=f` (and, for sorting, `reverse=<bool literal>`), if those are
    exactly the call's keywords."""
    given = {k.arg: k.value for k in node.keywords}
    if "key" not in given or set(given) - ({"key", "reverse"} if sort else {"key"}):
        return None
    flag = given.get("reverse")
    if flag is not None and not (isinstance(flag, ast.Constant) and type(flag.value) is bool):
        return None
    return given["key"], isinstance(flag, ast.Constant) and flag.value is True


def _first_item(node: ast.Call) -> bool:
    """`next(iter(x))` or `next(iter(x), default)` with a default that
    cannot raise (so evaluating it after `iter(x)` changes nothing)."""
    if not 1 <= len(node.args) <= 2 or not all(isinstance(a, (ast.Constant, ast.Name)) for a in node.args[1:]):
        return False
    inner = node.args[0]
    return isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "iter" \
        and len(inner.args) == 1 and not inner.keywords \
        and not isinstance(inner.args[0], (ast.Starred, ast.GeneratorExp))
