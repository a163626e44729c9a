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
    computed with): then its class cannot be told this way."""
    found: set[str] = set()
    reached = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
            found.add(node.attr)
            reached.add(id(node.value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _PROTOCOLS \
                and len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id == name:
            found.add(_PROTOCOLS[node.func.id])
            reached.add(id(node.args[0]))
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id == name and id(node) not in reached:
            parent_ok = False
            for outer in ast.walk(fn):  # passed on, compared with `is`, or stored: no attribute needed
                if isinstance(outer, ast.Call) and node in outer.args and not (
                        isinstance(outer.func, ast.Name) and outer.func.id in _PROTOCOLS):
                    parent_ok = True
                elif isinstance(outer, ast.Compare) and isinstance(outer.ops[0], (ast.Is, ast.IsNot)) \
                        and node in (outer.left, *outer.comparators):
                    parent_ok = True
                elif isinstance(outer, (ast.Assign, ast.Return)) and outer.value is node:
                    parent_ok = True
                elif isinstance(outer, ast.keyword) and outer.value is node:
                    parent_ok = True
            if not parent_ok and not isinstance(node.ctx, ast.Store):
                return None
            if isinstance(node.ctx, ast.Store):
                return None  # rebound: its type is not the argument's alone
    return found if found else None


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
