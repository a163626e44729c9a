"""Parameters annotated `X | None` for a scalar X (`int | None`, `str | None`,
`Optional[bool]`): the type X marked optional. The engine starts a run once
with the parameter None and once with a symbol of X (`engine/inputs.py`);
everything else about None (`x is None`, arithmetic raising TypeError) is the
evaluator's. A field so annotated is None or a symbol, chosen when read.

Also the two readings of annotations the other annotation readers share
(frontend/callables.py, frontend/unions.py): a string annotation parsed, and
the name a subscripted or dotted annotation starts with."""

from __future__ import annotations

import ast

SCALARS = ("int", "bool", "str", "float")


def unquoted(node: ast.expr) -> ast.expr | None:
    """The annotation, a string one parsed (None: the string is no expression)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return None
    return node


def annotation_head(node: ast.expr) -> str | None:
    """`Callable`, `typing.Callable`, `collections.abc.Callable` -> 'Callable'."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _scalar(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in SCALARS


def optional_scalar(node: ast.expr) -> ast.expr | None:
    """The X of an annotation `X | None`, `None | X` or `Optional[X]`, X a
    scalar type; None for any other annotation."""
    parsed = unquoted(node)
    if parsed is None:
        return None
    node = parsed
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        for inner, other in ((node.left, node.right), (node.right, node.left)):
            if _scalar(inner) and _none(other):
                return inner
        return None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "Optional" \
            and _scalar(node.slice):
        return node.slice
    return None


def admits_none(node: ast.expr) -> bool:
    """Does the annotation take None among its alternatives (`X | None`,
    `None | X | Y`, `Optional[X]`, `Union[X, None]`)? A parameter or field
    so annotated whose other alternatives the model has no values of
    still has one value the model knows: None."""
    parsed = unquoted(node)
    if parsed is None:
        return False
    if isinstance(parsed, ast.BinOp) and isinstance(parsed.op, ast.BitOr):
        return admits_none(parsed.left) or admits_none(parsed.right)
    if isinstance(parsed, ast.Subscript) and annotation_head(parsed.value) == "Optional":
        return True
    if isinstance(parsed, ast.Subscript) and annotation_head(parsed.value) == "Union":
        items = parsed.slice.elts if isinstance(parsed.slice, ast.Tuple) else [parsed.slice]
        return any(admits_none(item) for item in items)
    return _none(parsed)
