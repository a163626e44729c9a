"""Module-level containers the module's code only reads.

`TABLE = {"a": 1.0, "b": 2.5}` or `ROMAN = [(1000, "M"), (900, "CM")]` at
module level, never rebound and, in every function of the module, used
only in ways that cannot change it or let it escape (indexed, `in`, walked
by `for`, formatted in an f-string, passed to `len`/`sorted`/`min`...,
`.get`/`.items`/`.keys`): a read of the name is then as good as a fresh copy of the literal, which is
how the lowerer builds it at each read. `return NAME` in a function that
no code of the module calls or names (PEP 562's `def __dir__(): return
__all__`) hands the container to code outside the module only, after the
call: a copy is as good there too. Items must be literals (or tuples
of them), so nothing reached through the container can be mutated either.
Anything else about the name (a `global`, an alias, a call that could
mutate it) keeps it unknown, and the function that reads it is refused.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

# builtins that only read their argument
_READERS = frozenset({"len", "sorted", "list", "tuple", "set", "min", "max", "sum", "enumerate", "reversed",
                      "any", "all", "str", "print", "dict", "frozenset", "repr"})
# methods of a dict, list or tuple that only read it
_READ_METHODS = frozenset({"get", "items", "keys", "values", "index", "count", "copy"})


def frozen_containers(tree: ast.Module, candidates: dict[str, ast.expr],
                      is_literal: Callable[[ast.expr], bool]) -> dict[str, ast.expr]:
    """The candidates (module-level `NAME = literal container`, never
    rebound) that every function only reads."""
    literal = {name: value for name, value in candidates.items() if _all_literal(value, is_literal)}
    if not literal:
        return {}
    parents: dict[ast.AST, ast.AST] = {}
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
    for function in functions:
        for parent in ast.walk(function):
            for child in ast.iter_child_nodes(parent):
                parents[child] = parent
    named = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} | \
        {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    spoiled: set[str] = set()
    for function in functions:
        if isinstance(function, ast.FunctionDef) and function.name not in named:
            for node in ast.walk(function):  # handed out only to a caller outside the module
                if isinstance(node, ast.Return) and isinstance(node.value, ast.Name):
                    parents.pop(node.value, None)
                    parents[node.value] = _RETURNED
    for function in functions:
        for node in ast.walk(function):
            if isinstance(node, (ast.Global, ast.Nonlocal)):
                spoiled.update(node.names)
            elif isinstance(node, ast.Name) and node.id in literal:
                if not isinstance(node.ctx, ast.Load) or not _read_only_use(node, parents):
                    spoiled.add(node.id)
            elif isinstance(node, ast.arg) and node.arg in literal:
                spoiled.add(node.arg)  # shadowed somewhere: keep it simple
    spoiled |= _changed_at_module_level(tree, set(literal))
    return {name: value for name, value in literal.items() if name not in spoiled}


def _changed_at_module_level(tree: ast.Module, names: set[str]) -> set[str]:
    """The names that module-level code (a class body, an `if`, a `try` at
    import; not a function) uses other than by reading:
    `FLAGS.add(os.SEEK_HOLE)` under `if hasattr(os, "SEEK_HOLE")`."""
    parents: dict[ast.AST, ast.AST] = {}
    changed: set[str] = set()
    todo: list[ast.AST] = [tree]
    while todo:  # top down: a use's parent and grandparent are recorded before the use is met
        parent = todo.pop()
        for child in ast.iter_child_nodes(parent):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue  # functions are read above; their defaults and decorators are not (rare)
            parents[child] = parent
            todo.append(child)
            if isinstance(child, ast.Name) and child.id in names and isinstance(child.ctx, ast.Load) \
                    and not _read_only_use(child, parents):
                changed.add(child.id)
    return changed


def _all_literal(value: ast.expr, is_literal: Callable[[ast.expr], bool]) -> bool:
    if isinstance(value, ast.Dict):
        return all(k is not None and is_literal(k) and _item(v, is_literal) for k, v in zip(value.keys, value.values))
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        return all(_item(e, is_literal) for e in value.elts)
    return False


def _item(value: ast.expr, is_literal: Callable[[ast.expr], bool]) -> bool:
    if isinstance(value, ast.Tuple):
        return all(is_literal(e) for e in value.elts)
    return is_literal(value)


# the parent recorded for `return NAME` in a function nothing in the module calls
_RETURNED = ast.Pass()


def _read_only_use(node: ast.Name, parents: dict[ast.AST, ast.AST]) -> bool:
    parent = parents.get(node)
    if parent is _RETURNED:
        return True
    if isinstance(parent, ast.Subscript) and parent.value is node:
        return isinstance(parent.ctx, ast.Load)
    if isinstance(parent, ast.Compare) and node in parent.comparators:
        return all(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops)
    if isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node:
        return True
    if isinstance(parent, ast.FormattedValue) and parent.value is node:
        return True  # `f"... {TABLE}"` formats it
    if isinstance(parent, ast.Call) and node in parent.args:
        func = parent.func
        return isinstance(func, ast.Name) and func.id in _READERS or \
            isinstance(func, ast.Attribute) and func.attr == "join"
    if isinstance(parent, ast.Attribute) and parent.value is node:
        call = parents.get(parent)
        return parent.attr in _READ_METHODS and isinstance(call, ast.Call) and call.func is parent
    return False


class Relocate(ast.NodeTransformer):
    """A copy of the literal placed at the line that reads it."""

    def __init__(self, at: ast.AST) -> None:
        self.line = getattr(at, "lineno", 0)
        self.col = getattr(at, "col_offset", 0)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        if "lineno" in node._attributes:
            node.lineno = node.end_lineno = self.line  # type: ignore[attr-defined]
            node.col_offset = node.end_col_offset = self.col  # type: ignore[attr-defined]
        return node
