"""Which functions are generators, and the `yield`s pathcraft models.

A function whose own body (not a nested function's) holds `yield` is a
generator function: calling it makes a generator object, and each `next()`
runs its frame up to the next `yield` (engine/generators.py). The yields
modelled are statements: `yield value` and `yield from iterable`; a yield
used as a value (`x = yield`, what `send()` gives) is refused.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from pathcraft.errors import UnsupportedError, at

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def own_nodes(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of `fn`'s body that run in its own frame (nested functions
    and classes left out)."""
    return running_with(fn.body)


def running_with(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of `body` that run when it runs: not the bodies of the
    functions, lambdas and classes it defines."""
    stack: list[ast.AST] = [node for node in body if not isinstance(node, _SCOPES)]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, _SCOPES))


def is_generator(path: str, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Does `fn` yield? Refuses a yield that is not a statement of its own."""
    statements = {id(node.value) for node in own_nodes(fn) if isinstance(node, ast.Expr)}
    found = False
    for node in own_nodes(fn):
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            if id(node) not in statements:
                raise UnsupportedError("unsupported yield used as a value (only 'yield x' and "
                                       "'yield from x' statements)", at(path, node))
            found = True
    return found


def module_has_generators(tree: ast.Module) -> bool:
    """Does any function of the module yield? Its loops then walk iterators
    that may be generators (`$iterate`) and close them where they stop early."""
    return any(isinstance(node, (ast.Yield, ast.YieldFrom)) for node in ast.walk(tree))


def yields_in_try(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[int]:
    """Lines of the yields inside a `try` or `with` of `fn`: closing the
    generator there would run its handlers."""
    lines: set[int] = set()
    for node in own_nodes(fn):
        if isinstance(node, (ast.Try, ast.With, ast.TryStar)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Yield, ast.YieldFrom)):
                    lines.add(inner.lineno)
    return lines
