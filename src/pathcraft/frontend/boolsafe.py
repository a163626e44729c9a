"""Which `int` parameters a bool may stand in for, with the same outcome.

`bool` is a subclass of `int`, so `f(False)` is a call an `int` annotation
allows. For most uses the bool behaves as its int (`False < 1`, `-False`,
`False + 2`, `x == False`), and a function that returns such a parameter
unchanged returns the bool itself: `abs_value(False) is False`, where a
version computing `-a` returns the int `0`. The edge tests (generate.py)
use this to tell `a >= 0` from `a > 0`, which no int tells apart.

Only uses whose result Python defines the same for `False`/`True` as for
`0`/`1`, or that are the value returned, qualify; any other use
(formatting, `str`, `type`, `is`, bit operators, a call, storing it) and
any rebinding make the parameter unsafe. Read from the AST alone.
"""

from __future__ import annotations

import ast

from pathcraft.ir.types import INT, Type

# comparisons and arithmetic that give the same answer on a bool as on its int
_COMPARISONS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Pow)  # and `%` with the int on the left
_UNARY = (ast.USub, ast.UAdd, ast.Not)


def bool_safe_ints(fn: ast.FunctionDef | ast.AsyncFunctionDef, names: list[str],
                   types: list[Type]) -> tuple[str, ...]:
    """The `int` parameters of `fn` every use of which treats a bool as its
    int (or returns it as given)."""
    candidates = [n for n, t in zip(names, types) if t == INT]
    if not candidates:
        return ()
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(fn):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    unsafe: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            unsafe.update(node.names)
        elif isinstance(node, ast.Name) and node.id in candidates and not _safe_use(node, parents, fn):
            unsafe.add(node.id)
    return tuple(n for n in candidates if n not in unsafe)


def returned_as_given(fn: ast.FunctionDef | ast.AsyncFunctionDef,
                      params: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """`(p, line)` for each `return p` statement of `fn` (not in a nested
    scope) returning one of `params` itself. The engine's terms fold `+p`,
    `p ** 1` and the like to `p`, so a path's result term tells not
    whether the object is the one passed: the line it returns from does."""
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(fn):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    return tuple((node.value.id, node.lineno) for node in ast.walk(fn)
                 if isinstance(node, ast.Return) and isinstance(node.value, ast.Name)
                 and node.value.id in params and not _nested(node, parents, fn))


def _safe_use(name: ast.Name, parents: dict[ast.AST, ast.AST], fn: ast.AST) -> bool:
    if not isinstance(name.ctx, ast.Load) or _nested(name, parents, fn):
        return False
    parent = parents.get(name)
    if isinstance(parent, ast.Compare):
        return all(isinstance(op, _COMPARISONS) for op in parent.ops)
    if isinstance(parent, ast.BinOp):
        # `"%s" % flag` formats the bool as "False": `%` only with the int on the left
        return isinstance(parent.op, _ARITHMETIC) or isinstance(parent.op, ast.Mod) and parent.left is name
    if isinstance(parent, ast.UnaryOp):
        return isinstance(parent.op, _UNARY)
    return isinstance(parent, ast.Return)


def _nested(node: ast.AST, parents: dict[ast.AST, ast.AST], fn: ast.AST) -> bool:
    """Is `node` inside a function, lambda or comprehension nested in `fn`
    (a closure may see the name rebound, or keep the bool elsewhere)?"""
    at = parents.get(node)
    while at is not None and at is not fn:
        if isinstance(at, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ListComp, ast.SetComp,
                           ast.DictComp, ast.GeneratorExp)):
            return True
        at = parents.get(at)
    return False
