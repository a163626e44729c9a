"""Parameters annotated `X | None` for a scalar X (`int | None`, `str | None`,
`Optional[bool]`): the type X marked optional. The engine starts a run once
with the parameter None and once with a symbol of X (`Run.initial_bindings`);
everything else about None (`x is None`, arithmetic raising TypeError) is the
evaluator's. Fields so annotated stay refused: the heap models build fields
of scalar types as scalars only."""

from __future__ import annotations

import ast

SCALARS = ("int", "bool", "str", "float")


def _none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _scalar(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in SCALARS


def optional_scalar(node: ast.expr) -> ast.expr | None:
    """The X of an annotation `X | None`, `None | X` or `Optional[X]`, X a
    scalar type; None for any other annotation."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        for inner, other in ((node.left, node.right), (node.right, node.left)):
            if _scalar(inner) and _none(other):
                return inner
        return None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "Optional" \
            and _scalar(node.slice):
        return node.slice
    return None
