"""Type aliases written as module-level assignments (before PEP 695):
`Matrix = list[list[int]]`, `TPos = tuple[int, int]`, `Pair: TypeAlias =
...`, and type variables `T = TypeVar("T", bound=Node)`. An alias stands for
its value wherever an annotation names it; a type variable for its bound,
its first constraint, or `Any` (modelled as int) — the same reading
`types.type_scope` gives PEP 695's `type X = ...` and `def f[T]`. A
`NewType("Name", str)` stands for its base type, and calling it is its
argument (`new_types`: CPython's NewType returns what it is given). Only
names bound once at module level, to a value that parses as a type of the
subset, are aliases; anything else stays a name the annotation cannot use.
"""

from __future__ import annotations

import ast
from collections.abc import Callable


def _type_var(value: ast.expr) -> ast.expr | None:
    """What `TypeVar("T", ...)` stands for, or None if `value` is no such call."""
    if not (isinstance(value, ast.Call) and (
            isinstance(value.func, ast.Name) and value.func.id == "TypeVar"
            or isinstance(value.func, ast.Attribute) and value.func.attr == "TypeVar")):
        return None
    for keyword in value.keywords:
        if keyword.arg == "bound":
            return keyword.value
    if len(value.args) > 1:  # constrained: the first constraint
        return value.args[1]
    return ast.Name("Any")


def _new_type(value: ast.expr) -> ast.expr | None:
    """The base type of `NewType("N", base)`, or None if `value` is no such call."""
    if isinstance(value, ast.Call) and ast.unparse(value.func).split(".")[-1] == "NewType" \
            and len(value.args) == 2 and not value.keywords and isinstance(value.args[0], ast.Constant):
        return value.args[1]
    return None


def new_types(body: list[ast.stmt]) -> set[str]:
    """The names a module binds to `NewType(...)` at its top level."""
    return {t.id for node in body if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None
            and _new_type(node.value) is not None
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target]) if isinstance(t, ast.Name)}


def module_aliases(body: list[ast.stmt], once: Callable[[str], bool],
                   parses: Callable[[ast.expr], bool]) -> dict[str, ast.expr]:
    """The aliases of a module's top-level `body`: `once(name)` says the name
    is bound only there, `parses(annotation)` that it is a type of the subset."""
    out: dict[str, ast.expr] = {}
    for node in body:
        declared = False  # `X: TypeAlias = ...`: any value that parses
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None \
                and ast.unparse(node.annotation).split(".")[-1] == "TypeAlias":
            name, value, declared = node.target.id, node.value, True
        else:
            continue
        if not once(name):
            continue
        bound = _type_var(value)
        if bound is None:
            bound = _new_type(value)
        if bound is not None:
            if parses(bound):
                out[name] = bound
        elif (declared or isinstance(value, (ast.Subscript, ast.BinOp))) and parses(value):
            out[name] = value
    return out
