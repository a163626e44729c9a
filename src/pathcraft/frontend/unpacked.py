"""Module-level constants and class attributes bound by unpacking: `PREV,
NEXT, KEY, VALUE = range(4)`, `LOW, HIGH = 0, 255`.

Why: libraries name the slots of their linked cells and the ends of their
ranges this way, and every function that reads one of the names was
refused as reading an unknown name. Such a statement binds each name to
one item; when the items are known without running anything (a tuple or
list display of the same length whose items name none of the targets, or
`range(...)` of int literals of the same length), the statement is read as
one `NAME = item` per target, at load, for every pass alike. The names
are then constants like any other (folded, linked into sibling modules);
one bound again elsewhere stays no constant, as for a plain binding.
Anything else (a call's result, a starred target, a chained assignment)
is left as written.
"""

from __future__ import annotations

import ast


def split_unpacked_constants(tree: ast.Module) -> None:
    """Replace each module-level unpacking of known items by one plain
    binding per target (see the module docstring), and each in a class
    body (`_html_table_tag, _html_table_tag_close = '<table>', '</table>'`:
    class attributes)."""
    tree.body = _split_all(tree.body)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            node.body = _split_all(node.body)


def _split_all(statements: list[ast.stmt]) -> list[ast.stmt]:
    body: list[ast.stmt] = []
    for statement in statements:
        body.extend(_split(statement) or [statement])
    return body


def _split(statement: ast.stmt) -> list[ast.stmt] | None:
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], (ast.Tuple, ast.List))):
        return None
    targets = statement.targets[0].elts
    if not targets or not all(isinstance(t, ast.Name) for t in targets):
        return None
    names = {t.id for t in targets if isinstance(t, ast.Name)}
    if len(names) != len(targets):
        return None  # `a, a = 1, 2`: the last one wins; left as written
    items = _items(statement.value)
    if items is None or len(items) != len(targets):
        return None
    if any(isinstance(n, ast.Name) and n.id in names for item in items for n in ast.walk(item)):
        return None  # `a, b = b, a`: the items are read before any name is bound
    return [ast.copy_location(ast.Assign(targets=[ast.Name(t.id, ast.Store())], value=item), statement)
            for t, item in zip(targets, items) if isinstance(t, ast.Name)]


def _items(value: ast.expr) -> list[ast.expr] | None:
    """The item expressions a display or a literal `range(...)` unpacks to."""
    if isinstance(value, (ast.Tuple, ast.List)):
        if any(isinstance(e, ast.Starred) for e in value.elts):
            return None
        return list(value.elts)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "range" \
            and not value.keywords and 1 <= len(value.args) <= 3:
        bounds = [_int(a) for a in value.args]
        if any(b is None for b in bounds):
            return None
        ints = [b for b in bounds if b is not None]
        if len(ints) == 3 and ints[2] == 0:
            return None  # range() arg 3 must not be zero: the module raises
        span = range(*ints)
        if len(span) > 64:
            return None
        return [ast.copy_location(ast.Constant(i), value) for i in span]
    return None


def _int(node: ast.expr) -> int | None:
    """An int literal, signed or not."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None
