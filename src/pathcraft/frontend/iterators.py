"""`iter`, `map`, `filter`, `zip`, `enumerate` and `reversed` as values:
CPython's C iterators, written as the generator expressions they equal and
run silent.

`iter(xs)` is `(x for x in xs)`, `map(f, xs)` is `(f(x) for x in xs)`, `filter(f, xs)` is `(x for x in xs
if f(x))` (`filter(None, xs)`: `if x`), `zip(a, b)` is `((x, y) for x, y
in zip(a, b))` (and so for up to six sources), `enumerate(xs, k)` is `((i, x) for i, x in enumerate(xs,
k))`, `reversed(xs)` is `(x for x in reversed(xs))`: the same items,
taken from the sources in the same order, the sources' iterability checked at the call (frontend/genexprs.py evaluates
and checks the first clause's iterables there). What differs is only
that a C iterator has no frame: the generator is silent (no call, line or
return events of its own; `f`'s own frames are events as in CPython). Its
loop is bounded by the criterion like any loop (loop-K: at most K items
of a source walked through it). `f` must be a function of the
module or a builtin the lowering calls by name (evaluated once in
CPython, looked up at each item here: the same object, as nothing of
the module rebinds a function while it runs), a callable parameter, an
`operator` function (`map(lt, a, b)` is `(x < y for x, y in zip(a, b))`)
or a method of a local's object (`map(buffer.append, xs)`).

A `for` loop or a comprehension over `zip`/`enumerate` is no value: the
loop lowering walks those itself (frontend/stmt_loops.py).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from pathcraft.frontend.callables import callable_parameter
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.frontend.getters import getter_read
from pathcraft.frontend.stmt_loops import ZIP_MOST
from pathcraft.ir.nodes import Expr

ITERATORS = ("iter", "map", "filter", "zip", "enumerate", "reversed")
# builtins a rewritten `map`/`filter` may call by name (each lowered by its own rule, or refused there)
_CALLABLE_BUILTINS = frozenset({"int", "str", "float", "bool", "abs", "len", "repr", "ord", "chr", "round",
                                "sorted", "list", "tuple", "sum", "min", "max", "hex", "bin", "oct", "set", "any",
                                "all", "iter"})


def iterator_call(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """The builtin-call rule (see builtincalls.py)."""
    if ex.iterator_value is None or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    generator = _as_generator(ex, name, node)
    if generator is None:
        return None
    return ex.iterator_value(generator)


def _as_generator(ex: ExprLowering, name: str, node: ast.Call) -> ast.GeneratorExp | None:
    args = node.args
    x, y = _name("__pc_it0"), _name("__pc_it1")
    if name == "map" and len(args) in (2, 3):
        each = applied(ex, args[0], [_load(x)] if len(args) == 2 else [_load(x), _load(y)])
        if each is None:
            return None
        if len(args) == 2:
            return _generator(node, each, x, args[1])
        return _generator(node, each, ast.Tuple([x, y], ast.Store()), ast.Call(_load(_name("zip")), args[1:], []))
    if name == "filter" and len(args) == 2:
        test: ast.expr | None = None
        if isinstance(args[0], ast.Constant) and args[0].value is None:
            test = _load(x)
        elif _plain_function(ex, args[0]):
            test = ast.Call(args[0], [_load(x)], [])
        return None if test is None else _generator(node, _load(x), x, args[1], test)
    if name == "zip" and 1 <= len(args) <= ZIP_MOST:  # `zip(a, b, c)`: a tuple of an item of each
        items: list[ast.expr] = [_name(f"__pc_it{k}") for k in range(len(args))]
        loads: list[ast.expr] = [ast.Name(f"__pc_it{k}", ast.Load()) for k in range(len(args))]
        return _generator(node, ast.Tuple(loads, ast.Load()), ast.Tuple(items, ast.Store()),
                          ast.Call(_load(_name("zip")), args, []))
    if name == "iter" and len(args) == 1:  # `iter(callable, sentinel)` is another thing
        return _generator(node, _load(x), x, args[0])
    if name == "reversed" and len(args) == 1:  # a sequence walked backwards (TypeError on a set, a generator)
        return _generator(node, _load(x), x, ast.Call(_load(_name("reversed")), args, []))
    if name == "enumerate" and len(args) in (1, 2):
        return _generator(node, ast.Tuple([_load(x), _load(y)], ast.Load()), ast.Tuple([x, y], ast.Store()),
                          ast.Call(_load(_name("enumerate")), args, []))
    return None


# `operator`'s functions of one or two arguments: the expression each computes
_OPERATORS: dict[str, Callable[[list[ast.expr]], ast.expr]] = {
    **{name: (lambda op: lambda a: ast.Compare(a[0], [op()], [a[1]]))(op) for name, op in (
        ("lt", ast.Lt), ("le", ast.LtE), ("gt", ast.Gt), ("ge", ast.GtE), ("eq", ast.Eq), ("ne", ast.NotEq),
        ("is_", ast.Is), ("is_not", ast.IsNot))},
    **{name: (lambda op: lambda a: ast.BinOp(a[0], op(), a[1]))(op) for name, op in (
        ("add", ast.Add), ("sub", ast.Sub), ("mul", ast.Mult), ("floordiv", ast.FloorDiv), ("mod", ast.Mod),
        ("truediv", ast.Div), ("and_", ast.BitAnd), ("or_", ast.BitOr), ("xor", ast.BitXor))},
    "neg": lambda a: ast.UnaryOp(ast.USub(), a[0]),
    "not_": lambda a: ast.UnaryOp(ast.Not(), a[0]),
    "getitem": lambda a: ast.Subscript(a[0], a[1], ast.Load()),
    "contains": lambda a: ast.Compare(a[1], [ast.In()], [a[0]]),
}
_ARITY = {"neg": 1, "not_": 1}


def applied(ex: ExprLowering, function: ast.expr, items: list[ast.expr]) -> ast.expr | None:
    """What `map(function, ...)` computes of each item (or pair of items):
    a call of a function of the module, a builtin or a callable parameter;
    the expression an `operator` function stands for (`map(lt, a, b)`:
    `x < y`); an `operator` getter of constants (`itemgetter(0)`: `x[0]`);
    a method of a local's object (`map(window.append, xs)`: the
    generator holds the object the name had when it was made, and the
    bound method CPython makes once is the same method at each item).
    None for anything else."""
    if _plain_function(ex, function):
        return ast.Call(function, items, [])
    if len(items) == 1 and (read := getter_read(ex.stdlib.origin, function, items[0])) is not None:
        return read  # `map(itemgetter(0), pairs)`: `x[0]` (frontend/getters.py)
    origin = ex.stdlib.origin(function)
    if origin is not None and origin[0] == "operator" and origin[1] in _OPERATORS \
            and _ARITY.get(origin[1], 2) == len(items):
        return _OPERATORS[origin[1]](items)
    if origin is None and isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name) \
            and function.value.id in ex.local_names:  # the generator holds the object it had when made
        return ast.Call(function, items, [])
    return None


def _plain_function(ex: ExprLowering, node: ast.expr) -> bool:
    """A function of the module, or a builtin called by name, not shadowed;
    or a callable parameter (frontend/callables.py)."""
    if isinstance(node, ast.Name) and callable_parameter(ex, node.id) is not None:  # a function the caller passes
        return True
    return isinstance(node, ast.Name) and node.id not in ex.local_names \
        and (node.id in ex.functions or node.id in _CALLABLE_BUILTINS and node.id not in ex.module.imported)


def _generator(at: ast.Call, elt: ast.expr, target: ast.expr, source: ast.expr,
               test: ast.expr | None = None) -> ast.GeneratorExp:
    made = ast.GeneratorExp(elt, [ast.comprehension(target, source, [test] if test is not None else [], 0)])
    for part in ast.walk(made):  # at the call's place (the sources keep their own)
        if "lineno" in part._attributes and not hasattr(part, "lineno"):
            ast.copy_location(part, at)
    return made


def _name(identifier: str) -> ast.Name:
    return ast.Name(identifier, ast.Store())


def _load(name: ast.Name) -> ast.Name:
    return ast.Name(name.id, ast.Load())
