"""Module-level containers the module's code only reads.

`TABLE = {"a": 1.0, "b": 2.5}` or `ROMAN = [(1000, "M"), (900, "CM")]` at
module level, never rebound and, in every function of the module, used
only in ways that cannot change it or let it escape (indexed, `in`, walked
by `for`, formatted in an f-string, passed to `len`/`sorted`/`min`...,
`.get`/`.items`/`.keys`): a read of the name is then as good as a fresh copy of the literal, which is
how the lowerer builds it at each read. `return NAME` in a function that
no code of the module calls or names (PEP 562's `def __dir__(): return
__all__`) hands the container to code outside the module only, after the
call: a copy is as good there too. Items are literals, tuples of them,
or containers of the same kind (`{"css3": {"aqua": "#00ffff"}}`, `[[1, 2],
[3, 4]]`): a use that reaches an inner container must be a read of the
same kind (`TABLE[spec][name]`, `TABLE.get(spec, {}).get(name)`), or bind
it to a local name that is bound nowhere else in its function and only
read (`row = GRID[i]`, `for row in GRID:`), or return it from a function
the module names nowhere or only calls, each call's value only read
(`def names_of(spec): return NAMES[spec]` ... `names_of(s).get(n)`); a use that hands out items in
any other way (`sorted`, `.values()`, a slice) is a read only where those
items are immutable, so nothing reached through the container can be
mutated either. Anything else about the name (a `global`, a call that
could mutate it, an inner container stored elsewhere) keeps it unknown,
and the function that reads it is refused.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field

# builtins that only read their argument
_READERS = frozenset({"len", "sorted", "list", "tuple", "set", "min", "max", "sum", "enumerate", "reversed",
                      "any", "all", "str", "print", "dict", "frozenset", "repr"})
# ... and of those, the ones whose result holds none of its items (`str` of a container is its text)
_SEALED_READERS = frozenset({"len", "any", "all", "str", "print", "repr"})
# methods of a dict, list or tuple that only read it
_READ_METHODS = frozenset({"get", "items", "keys", "values", "index", "count", "copy"})
_SEALED_METHODS = frozenset({"keys", "index", "count"})  # the result holds no item (keys are hashable)
_MAX_DEPTH = 4  # containers within containers
# items and keys a container of containers may hold in all: each read builds a fresh copy of every inner
# container (webcolors' four name tables: 400; packaging's 700 licenses, each a dict: 2,800, whose reads and
# path conditions cost far more than the budget counts)
_MAX_NESTED_ITEMS = 512


def frozen_containers(tree: ast.Module, candidates: dict[str, ast.expr],
                      is_literal: Callable[[ast.expr], bool]) -> dict[str, ast.expr]:
    """The candidates (module-level `NAME = literal container`, never
    rebound) that every function only reads."""
    literal = {name: value for name, value in candidates.items() if _all_literal(value, is_literal)
               and (not _mutable_items(value) or _size(value) <= _MAX_NESTED_ITEMS)}
    if not literal:
        return {}
    parents: dict[ast.AST, ast.AST] = {}
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]
    for function in functions:
        for parent in ast.walk(function):
            for child in ast.iter_child_nodes(parent):
                parents[child] = parent
    uses = _uses_in(tree, parents)
    named = uses.named
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
                if not isinstance(node.ctx, ast.Load) or not (
                        _immutable_use(node, uses, literal[node.id])
                        or _read_only_use(node, uses, [literal[node.id]])):
                    spoiled.add(node.id)
            elif isinstance(node, ast.arg) and node.arg in literal:
                spoiled.add(node.arg)  # shadowed somewhere: keep it simple
    spoiled |= _changed_at_module_level(tree, literal)
    return {name: value for name, value in literal.items() if name not in spoiled}


def _changed_at_module_level(tree: ast.Module, names: dict[str, ast.expr]) -> set[str]:
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
                    and not _read_only_use(child, _Uses(parents), [names[child.id]]):
                changed.add(child.id)
    return changed


def _all_literal(value: ast.expr, is_literal: Callable[[ast.expr], bool], depth: int = 0) -> bool:
    if depth >= _MAX_DEPTH:
        return False
    if isinstance(value, ast.Dict):
        return all(k is not None and is_literal(k) and _item(v, is_literal, depth)
                   for k, v in zip(value.keys, value.values))
    if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        return all(_item(e, is_literal, depth) for e in value.elts)
    return False


def _item(value: ast.expr, is_literal: Callable[[ast.expr], bool], depth: int) -> bool:
    if isinstance(value, ast.Tuple) and all(is_literal(e) for e in value.elts):
        return True
    return is_literal(value) or _all_literal(value, is_literal, depth + 1)


def _mutable_items(value: ast.expr) -> bool:
    return any(_mutable(item) for item in _items(value))


def _size(value: ast.expr) -> int:
    """The items and keys of a container and of the containers within it."""
    return sum(1 + _size(item) for item in (*_items(value), *(k for k in getattr(value, "keys", ()) if k)))


def _mutable(node: ast.expr) -> bool:
    """Is the literal a container that can change, or a tuple holding one?"""
    if isinstance(node, (ast.List, ast.Dict, ast.Set)):
        return True
    return isinstance(node, ast.Tuple) and any(_mutable(e) for e in node.elts)


def _items(shape: ast.expr) -> list[ast.expr]:
    """What indexing the literal container reads (a dict's values)."""
    if isinstance(shape, ast.Dict):
        return list(shape.values)
    return list(shape.elts) if isinstance(shape, (ast.List, ast.Tuple, ast.Set)) else []


def _walked(shape: ast.expr) -> list[ast.expr]:
    """What iterating the literal container yields (a dict's keys)."""
    if isinstance(shape, ast.Dict):
        return [k for k in shape.keys if k is not None]
    return _items(shape)


# the parent recorded for `return NAME` in a function nothing in the module calls
_RETURNED = ast.Pass()


@dataclass
class _Uses:
    """What deciding a use needs: each node's parent, the names the code
    reads (as names or attributes), the direct calls `f(...)` of each name,
    the names read other than as such a call, and the functions whose
    callers are being checked (a recursion stops there)."""

    parents: dict[ast.AST, ast.AST]
    named: set[str] = field(default_factory=set)
    calls: dict[str, list[ast.Call]] = field(default_factory=dict)
    not_called: set[str] = field(default_factory=set)
    visiting: set[str] = field(default_factory=set)


def _uses_in(tree: ast.AST, parents: dict[ast.AST, ast.AST]) -> _Uses:
    uses = _Uses(parents)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            uses.named.add(node.attr)
            uses.not_called.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            uses.named.add(node.id)
            call = parents.get(node)
            if isinstance(call, ast.Call) and call.func is node:
                uses.calls.setdefault(node.id, []).append(call)
            else:
                uses.not_called.add(node.id)
    return uses


def _read_only_use(node: ast.expr, uses: _Uses, shapes: list[ast.expr]) -> bool:
    """Does the use of `node`, which holds one of the literal containers
    `shapes`, leave it unchanged and hand out none of its mutable parts?"""
    parent = uses.parents.get(node)
    items = _items_of(shapes)
    sealed = not any(_mutable(i) for i in items)  # nothing reached through it can change
    if parent is _RETURNED:
        return True
    if isinstance(parent, ast.Subscript) and parent.value is node:
        if not isinstance(parent.ctx, ast.Load):
            return False
        return sealed or not isinstance(parent.slice, ast.Slice) and _item_use(parent, uses, items)
    if isinstance(parent, ast.Compare) and node in parent.comparators:
        return all(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops)
    if isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node:
        walked = [w for s in shapes for w in _walked(s) if _mutable(w)]
        return not walked or _bound_use(parent.target, uses, walked)  # `for row in GRID:`, rows only read
    if isinstance(parent, ast.Return) and parent.value is node:
        return _returned_use(node, uses, shapes)  # `return TABLE[spec]`, and what its callers do with it
    if isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1:
        return _bound_use(parent.targets[0], uses, shapes)  # `row = GRID[i]`, then only read
    if isinstance(parent, ast.FormattedValue) and parent.value is node:
        return True  # `f"... {TABLE}"` formats it
    if isinstance(parent, ast.Call) and node in parent.args:
        func = parent.func
        reads = isinstance(func, ast.Name) and func.id in _READERS or \
            isinstance(func, ast.Attribute) and func.attr == "join"
        return reads and (sealed or isinstance(func, ast.Name) and func.id in _SEALED_READERS)
    if isinstance(parent, ast.Attribute) and parent.value is node:
        call = uses.parents.get(parent)
        if not (parent.attr in _READ_METHODS and isinstance(call, ast.Call) and call.func is parent):
            return False
        if sealed or parent.attr in _SEALED_METHODS:
            return True
        return parent.attr == "get" and _item_use(call, uses, items)  # the item, or the caller's default
    return False


def _immutable_use(node: ast.expr, uses: _Uses, shape: ast.expr) -> bool:
    """A tuple of literals and such tuples (`_STABLE_SUFFIX = (3, 0, 0)`)
    cannot change, nor can anything in it: whatever the code does with it
    (returns it, stores it, passes it on), a fresh copy at each read is as
    good, except where its identity is asked (`x is SUFFIX`, `id(SUFFIX)`)."""
    if not isinstance(shape, ast.Tuple) or _mutable(shape):
        return False
    parent = uses.parents.get(node)
    if isinstance(parent, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops):
        return False
    return not (isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "id")


def _bound_use(target: ast.expr, uses: _Uses, shapes: list[ast.expr]) -> bool:
    """A local name bound to one of `shapes` (`row = GRID[i]`, `for row in
    GRID`): read-only when it is bound nowhere else in its function (no
    other assignment, parameter, `global` or `nonlocal` of the name) and
    every read of it is a read-only use."""
    if not isinstance(target, ast.Name):
        return False
    scope = _enclosing_function(target, uses)
    if scope is None:
        return False  # bound at module level, or in code the parents do not reach
    reads: list[ast.Name] = []
    for node in ast.walk(scope):
        if isinstance(node, ast.Name) and node.id == target.id:
            if isinstance(node.ctx, ast.Load):
                reads.append(node)
            elif node is not target:
                return False
        elif isinstance(node, ast.arg) and node.arg == target.id or \
                isinstance(node, (ast.Global, ast.Nonlocal)) and target.id in node.names:
            return False
    return all(_read_only_use(read, uses, shapes) for read in reads)


def _returned_use(node: ast.expr, uses: _Uses, shapes: list[ast.expr]) -> bool:
    """`return TABLE[spec]` in a function: read-only when nothing in the
    module names the function (the value goes to callers outside it, after
    the call, as with `return NAME`), or when the module only calls it
    directly (`f(spec).get(name)`) and uses each call's value read-only."""
    function = _enclosing_function(node, uses)
    if not isinstance(function, ast.FunctionDef) or function.name in uses.visiting:
        return False
    if function.name not in uses.named:
        return True
    if function.name in uses.not_called:  # passed on, or a method reached as an attribute
        return False
    uses.visiting.add(function.name)
    try:
        return all(_read_only_use(call, uses, shapes) for call in uses.calls.get(function.name, []))
    finally:
        uses.visiting.discard(function.name)


def _enclosing_function(node: ast.AST, uses: _Uses) -> ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None:
    """The function whose body holds `node` (None at module level)."""
    scope = uses.parents.get(node)
    while scope is not None and not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        scope = uses.parents.get(scope)
    return scope


def _items_of(shapes: list[ast.expr]) -> list[ast.expr]:
    return [item for shape in shapes for item in _items(shape)]


def _item_use(read: ast.expr, uses: _Uses, items: list[ast.expr]) -> bool:
    """`read` gives one of `items`: a read-only use of it, where it may be
    a container that can change."""
    containers = [i for i in items if _mutable(i)]
    return not containers or _read_only_use(read, uses, containers)


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
