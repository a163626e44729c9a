"""Find a function's `def` in a module's syntax tree by its qualified name.

Shared by what reads a function's own source after a run: the HTML
report (its lines) and the compact suite (its mutants and arcs)."""

from __future__ import annotations

import ast
from collections.abc import Sequence

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


def find_function(tree: ast.Module, qualname: str) -> FunctionNode | None:
    """The `def` named by `qualname` (`Class.method`, `function`), walking
    classes and functions from the module's top level; None when a part is
    missing or the name ends at a class."""
    scope: Sequence[ast.stmt] = tree.body
    node: ast.stmt | None = None
    for part in qualname.split("."):
        node = next((n for n in scope if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                     and n.name == part), None)
        if node is None:
            return None
        scope = node.body
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
