"""Which statement each source line belongs to, as path signatures count
lines: the frontend marks lines with it (a comprehension's events carry
its statement's line), and real runs are mapped through it too
(`testcase/pathsig.py`)."""

from __future__ import annotations

import ast

_SIMPLE = (
    ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Raise, ast.Assert,
    ast.Pass, ast.Break, ast.Continue, ast.Expr, ast.Delete,
)


def statement_lines(tree: ast.Module) -> dict[int, int]:
    """Source line -> first line of the tracked statement it belongs to."""
    mapping: dict[int, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, _SIMPLE):
            end = node.end_lineno or node.lineno
            for line in range(node.lineno, end + 1):
                mapping[line] = node.lineno
        elif isinstance(node, (ast.If, ast.While)):
            end = node.test.end_lineno or node.test.lineno
            for line in range(node.lineno, end + 1):
                mapping[line] = node.lineno
        elif isinstance(node, ast.With):  # reported on entry and again where `__exit__` runs
            last = node.items[-1].context_expr
            end = last.end_lineno or last.lineno
            for line in range(node.lineno, end + 1):
                mapping[line] = node.lineno
        elif isinstance(node, ast.For):
            end = node.iter.end_lineno or node.iter.lineno
            for line in range(node.lineno, end + 1):
                mapping[line] = node.lineno
        elif isinstance(node, ast.FunctionDef):
            # a nested `def` runs at its line (its defaults and annotations report
            # their own lines, all before the body's), a decorator at its own
            for line in range(node.lineno, max(node.lineno, node.body[0].lineno - 1) + 1):
                mapping[line] = node.lineno
            for decorator in node.decorator_list:
                for line in range(decorator.lineno, (decorator.end_lineno or decorator.lineno) + 1):
                    mapping[line] = decorator.lineno
    return mapping
