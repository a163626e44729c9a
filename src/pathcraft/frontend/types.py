"""Reading types from annotations (never evaluated).

Annotations may be strings or postponed (`from __future__ import
annotations`), may use `Optional[C]` or `C | None`, and may name classes
defined later in the module.
"""

from __future__ import annotations

import ast

from pathcraft.ir.types import BOOL, INT, NONE, Type


class TypeSyntaxError(ValueError):
    """An annotation outside the subset; the message names it."""


def parse_type(node: ast.expr | None, classes: set[str], owner: str | None = None) -> Type:
    """`owner`: the class whose body the annotation is in (for `Self`).
    `Any` and `object` are modelled as int: a value of any type will do, and
    an int is the simplest one the generated tests can pass."""
    if node is None:
        raise TypeSyntaxError("missing type annotation")
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            parsed = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            raise TypeSyntaxError(f"type '{node.value}'") from None
        return parse_type(parsed, classes, owner)
    if isinstance(node, ast.Constant) and node.value is None:
        return NONE
    if isinstance(node, ast.Name):
        if node.id == "int":
            return INT
        if node.id == "bool":
            return BOOL
        if node.id in classes:
            return Type("obj", node.id)
        if node.id == "Self" and owner is not None:
            return Type("obj", owner)
        if node.id in ("Any", "object"):
            return INT
        raise TypeSyntaxError(f"type '{node.id}'")
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "typing":
        return parse_type(ast.Name(node.attr), classes, owner)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left, right = parse_type(node.left, classes, owner), parse_type(node.right, classes, owner)
        if right.kind == "none" and left.is_ref:
            return left.nullable()
        if left.kind == "none" and right.is_ref:
            return right.nullable()
        raise TypeSyntaxError(f"type '{ast.unparse(node)}'")
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        head = node.value.id
        if head == "Optional":
            inner = parse_type(node.slice, classes, owner)
            if not inner.is_ref:
                raise TypeSyntaxError(f"type '{ast.unparse(node)}' (Optional of a non-reference)")
            return inner.nullable()
        if head in ("list", "List"):
            elem = parse_type(node.slice, classes, owner)
            if elem.kind == "list":
                raise TypeSyntaxError(f"type '{ast.unparse(node)}' (nested lists)")
            return Type("list", elem=elem)
    raise TypeSyntaxError(f"type '{ast.unparse(node)}'")
