"""Parameters annotated with a union of types: one input per member.

`x: int | str`, `v: Version | str`, `n: Optional[Union[int, list[int]]]`:
where each member is a type of the subset, the parameter's declared type
is the first member and the others are alternatives
(`FunctionInfo.alternatives`); the engine binds the parameter to a fresh
value of each member in turn (one path root each, None too for an
optional union), and the lowering decides nothing by the annotation
(`isinstance` at run time, `+` by the value's kind). `int | float` stays a
float (a float is a value of it) and `X | None` an optional X. A member
the subset cannot build (`Union[RGB, tuple[int, int, int]]` with `RGB` a
NamedTuple) is left out of the inputs, and the note says so.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from pathcraft.frontend.optional import annotation_head as _head
from pathcraft.frontend.optional import unquoted
from pathcraft.frontend.types import TypeSyntaxError
from pathcraft.ir.types import Type

# parses one member, or raises
Parse = Callable[[ast.expr], Type]


def members(annotation: ast.expr) -> list[ast.expr] | None:
    """The members of `A | B | ...` or `Union[A, B]` / `Optional[Union[...]]`
    (strings parsed), flattened; None when the annotation is no union."""
    parsed = unquoted(annotation)
    if parsed is None:
        return None
    annotation = parsed
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        left, right = members(annotation.left), members(annotation.right)
        return (left or [annotation.left]) + (right or [annotation.right])
    if isinstance(annotation, ast.Subscript) and _head(annotation.value) in ("Union", "Optional"):
        parts = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        out: list[ast.expr] = []
        for part in parts:
            out += members(part) or [part]
        if _head(annotation.value) == "Optional":
            out.append(ast.Constant(None))
        return out
    return None


def union_types(annotation: ast.expr, parse: Parse) -> tuple[tuple[Type, ...], tuple[str, ...]] | None:
    """The member types of a union annotation (the first made optional when
    None is a member) and the members left out: those the subset cannot
    build as inputs (a NamedTuple, a class not analysed), when another
    member can be (the tests then pass values of the others, a part of what
    the parameter takes). None when it is no union of two or more types,
    or no member can be built."""
    parts = members(annotation)
    if parts is None:
        return None
    types: list[Type] = []
    left_out: list[str] = []
    for part in parts:
        try:
            types.append(parse(part))
        except TypeSyntaxError:
            left_out.append(ast.unparse(part))
    optional = any(t.kind == "none" for t in types)
    kinds = [t for t in types if t.kind != "none"]
    distinct: list[Type] = []
    for t in kinds:
        if t not in distinct:
            distinct.append(t)
    if not distinct or len(distinct) < 2 and not left_out:
        return None
    first = distinct[0].nullable() if optional else distinct[0]
    return (first, *distinct[1:]), tuple(left_out)


def class_union(annotation: ast.expr, parse: Parse, scope: dict[str, ast.expr]) -> Type | None:
    """A field's union of classes (`Version | BoundaryVersion | None`, or an
    alias of one): the first class, the others its alternatives, optional
    when None is a member; an input object's field holds a fresh object of
    each buildable member in turn (heap/lazy.py), as a union parameter
    does. None when some member is a value other than an object."""
    parts = _flattened(annotation, scope, frozenset())
    union = parts[0]
    for part in parts[1:]:
        union = ast.BinOp(union, ast.BitOr(), part)
    found = union_types(union, parse)
    if found is None or not all(t.kind == "obj" for t in found[0]):
        return None
    first, *others = found[0]
    return Type("obj", first.cls, first.optional, alternatives=tuple(others))


def _flattened(annotation: ast.expr, scope: dict[str, ast.expr], seen: frozenset[str]) -> list[ast.expr]:
    """The members of a union, aliases (`Node = Union[Leaf, Pair]`) read through."""
    node = unquoted(annotation) or annotation
    if isinstance(node, ast.Name) and node.id in scope and node.id not in seen:
        return _flattened(scope[node.id], scope, seen | {node.id})
    parts = members(node)
    if parts is None:
        return [node]
    return [member for part in parts for member in _flattened(part, scope, seen)]
