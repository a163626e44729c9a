"""`dataclasses.field(...)` as a dataclass field's default.

Why: typed libraries give a field a list, dict or set of its own with
`items: list[int] = field(default_factory=list)` (a plain `= []` is
refused by `dataclasses` itself); a refused default refused the class.
`field(default_factory=list)` (or `dict`, `set`, `collections.deque`) is a `FreshContainer`:
the generated `__init__` gets a new empty container at each call that
leaves the argument out. `field(default=c)` of a constant is that
constant. `repr=` changes nothing the model reads; any other option
(`init=False`, `compare=False`, `hash=`, `kw_only=`, a factory other
than those builtins) keeps the field refused.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from pathcraft.frontend.decorators import imported_from
from pathcraft.ir.nodes import FreshContainer

if TYPE_CHECKING:
    from pathcraft.frontend.source import ModuleSource

_FACTORIES = ("list", "dict", "set")
_OPTIONS = frozenset({"default", "default_factory", "repr"})


def field_default(module: ModuleSource, node: ast.expr) -> tuple[bool, object]:
    """(True, the default: a constant, a `FreshContainer`, or `missing`
    when the call gives none) for a `field(...)` call the model reads;
    (False, None) for anything else."""
    from pathcraft.frontend.source import NO_DEFAULT

    if not isinstance(node, ast.Call) or node.args or not _is_field(module, node.func):
        return False, None
    options = {k.arg: k.value for k in node.keywords}
    if None in options or set(options) - _OPTIONS or "default" in options and "default_factory" in options:
        return False, None
    if "default" in options:
        value = options["default"]
        if isinstance(value, ast.Constant) and isinstance(value.value, (int, bool, type(None))):
            return True, value.value
        return False, None
    factory = options.get("default_factory")
    if factory is None:
        return True, NO_DEFAULT
    if isinstance(factory, ast.Name) and factory.id in _FACTORIES and factory.id not in module.functions \
            and factory.id not in module.classes and factory.id not in module.imported:
        return True, FreshContainer(factory.id)
    deque = ("collections", "deque")
    if isinstance(factory, ast.Name) and imported_from(module.tree, factory.id, module.path) == deque \
            or isinstance(factory, ast.Attribute) and factory.attr == "deque" and isinstance(factory.value, ast.Name) \
            and factory.value.id == "collections" and "collections" in module.imported:
        return True, FreshContainer("deque")
    return False, None


def _is_field(module: ModuleSource, func: ast.expr) -> bool:
    """`field` imported from `dataclasses`, or `dataclasses.field`."""
    if isinstance(func, ast.Name):
        return imported_from(module.tree, func.id, module.path) == ("dataclasses", "field")
    return isinstance(func, ast.Attribute) and func.attr == "field" and isinstance(func.value, ast.Name) \
        and func.value.id == "dataclasses" and "dataclasses" in module.imported
