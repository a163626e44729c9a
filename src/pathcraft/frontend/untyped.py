"""A class for an unannotated parameter used as an object.

`def merge(self, other): ... other.left ... other.size()`: the parameter is
given the class, among the module's and those it imports from the project,
that has every attribute and method the body reaches through it (its own
or inherited); when several fit and one of them is a base of all the
others, the base. A guess, announced with the other inferred types; when no
class or several unrelated ones fit, the parameter is refused and the
message says which.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from pathcraft.ir.types import Type

if TYPE_CHECKING:
    from pathcraft.frontend.module import ModuleSource

# what a builtin applied to the parameter needs of its class
_PROTOCOLS = {"len": "__len__", "iter": "__iter__", "str": "__str__", "repr": "__repr__", "hash": "__hash__"}


def uses(fn: ast.FunctionDef, name: str) -> set[str] | None:
    """The attributes `fn` reaches through parameter `name`, or None when it
    uses it in a way no attribute names (indexed, called, iterated,
    computed with, rebound): then its class cannot be told this way."""
    parents = {id(child): node for node in ast.walk(fn) for child in ast.iter_child_nodes(node)}
    found: set[str] = set()
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Name) and node.id == name):
            continue
        if not isinstance(node.ctx, ast.Load):
            return None  # rebound: its type is not the argument's alone
        parent = parents.get(id(node))
        if isinstance(parent, ast.Attribute):
            found.add(parent.attr)
        elif isinstance(parent, ast.Call) and node in parent.args and isinstance(parent.func, ast.Name) \
                and parent.func.id in _PROTOCOLS and len(parent.args) == 1:
            found.add(_PROTOCOLS[parent.func.id])
        elif isinstance(parent, ast.Call) and node in parent.args or isinstance(parent, ast.keyword) \
                or isinstance(parent, (ast.Assign, ast.Return)) and parent.value is node \
                or isinstance(parent, ast.Compare) and all(isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops):
            continue  # passed on, stored, returned, compared by identity: no attribute needed
        else:
            return None
    return found or None


def _has(module: ModuleSource, cls: str, attribute: str) -> bool:
    seen: set[str] = set()
    current: str | None = cls
    while current is not None and current not in seen:
        seen.add(current)
        info = module.class_infos.get(current)
        if info is None:
            return False
        if attribute in info.methods or attribute in dict(info.fields) or attribute in dict(info.defaults) \
                or attribute in info.opaque:  # set by its code, of a type not modelled: there all the same
            return True
        current = info.base
    return False


def infer_class(module: ModuleSource, fn: ast.FunctionDef, name: str) -> tuple[Type | None, str]:
    """(the class type, how it was told) or (None, why not)."""
    needed = uses(fn, name)
    if needed is None:
        return None, "its use does not tell int from list[int]"
    fits = sorted(c for c in module.class_infos if all(_has(module, c, a) for a in needed))
    listed = ", ".join(sorted(needed))
    if not fits:
        return None, f"no class of the module or of its imports has all of {listed}"
    bases = [c for c in fits if all(module.is_subclass(other, c) for other in fits)]
    if len(bases) != 1:
        return None, f"several classes have all of {listed}: {', '.join(fits)} (annotate it)"
    extra = f"; its subclasses {', '.join(c for c in fits if c != bases[0])} fit too" if len(fits) > 1 else ""
    return Type("obj", bases[0]), f"the class with {listed}{extra}"
