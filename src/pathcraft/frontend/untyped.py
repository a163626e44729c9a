"""A class for an unannotated parameter used as an object.

`def merge(self, other): ... other.left ... other.size()`: the parameter is
given the class, among the module's and those it imports from the project,
that has every attribute and method the body reaches through it (its own
or inherited); when several fit and one of them is a base of all the
others, the base; when several unrelated ones fit and the function is a
method of one of them, that class. A guess, announced with the other inferred types; when no
class or several unrelated ones fit, the parameter is refused and the
message says which.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING

from pathcraft.frontend.nested import class_chain, dotted

from pathcraft.ir.types import Type

if TYPE_CHECKING:
    from pathcraft.frontend.source import ModuleSource

# what a builtin applied to the parameter needs of its class
_PROTOCOLS = {"len": "__len__", "iter": "__iter__", "str": "__str__", "repr": "__repr__", "hash": "__hash__"}


# a call's callee and the parameter an argument binds (see `passed_to`)
Follow = Callable[[ast.FunctionDef, ast.Call, int], tuple[ast.FunctionDef, str] | None]


def uses(fn: ast.FunctionDef, name: str, follow: Follow | None = None, depth: int = 0) -> set[str] | None:
    """The attributes `fn` reaches through parameter `name`, or None when it
    uses it in a way no attribute names (indexed, called, iterated,
    computed with, rebound): then its class cannot be told this way.
    With `follow`, an argument passed on to a method of the same class
    (`self._validate(p)`) counts what that method reaches through it."""
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
        elif isinstance(parent, ast.Call) and node in parent.args and follow is not None and depth < 3 \
                and (callee := follow(fn, parent, parent.args.index(node))) is not None:
            further = uses(callee[0], callee[1], follow, depth + 1)
            if further is None and _used_at_all(callee[0], callee[1]):
                return None
            found |= further or set()
        elif isinstance(parent, ast.Call) and node in parent.args or isinstance(parent, ast.keyword) \
                or isinstance(parent, (ast.Assign, ast.Return)) and parent.value is node \
                or isinstance(parent, ast.Compare) and all(isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops):
            continue  # passed on, stored, returned, compared by identity: no attribute needed
        else:
            return None
    return found or None


def _used_at_all(fn: ast.FunctionDef, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(fn))


def passed_to(module: ModuleSource, owner: str | None) -> Follow:
    """`follow` for `uses`: `self.m(..., arg, ...)` in a method of class
    `owner` binds a parameter of `m` (found along `owner`'s bases)."""
    def follow(fn: ast.FunctionDef, call: ast.Call, index: int) -> tuple[ast.FunctionDef, str] | None:
        func = call.func
        if owner is None or not fn.args.args or not isinstance(func, ast.Attribute):
            return None
        chain = chain_names(module, owner)
        if isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name) \
                and func.value.func.id == "super" and not func.value.args:
            chain = chain[1:]  # `super().m(...)`: the bases' `m`
        elif not isinstance(func.value, ast.Name) or func.value.id != fn.args.args[0].arg:
            return None
        for klass in chain:
            method = module.method(klass, func.attr)
            if method is not None:
                params = method.args.args[1:]
                if any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
                       for d in method.decorator_list) or index >= len(params):
                    return None
                return method, params[index].arg
        return None
    return follow


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


def infer_class(module: ModuleSource, fn: ast.FunctionDef, name: str,
                follow: Follow | None = None, owner: str | None = None) -> tuple[Type | None, str]:
    """(the class type, how it was told) or (None, why not). Of several
    unrelated classes that fit, a method's own class (`owner`) is taken:
    `def insert(self, next): ... next.prev` links a node to another node."""
    needed = uses(fn, name, follow)
    if needed is None:
        return None, "its use does not tell int from list[int]"
    fits = sorted(c for c in module.class_infos  # a model class (`Mapping`) is no type a value has here
                  if c not in module.model_classes and all(_has(module, c, a) for a in needed))
    listed = ", ".join(sorted(needed))
    if not fits:
        return None, f"no class of the module or of its imports has all of {listed}"
    bases = [c for c in fits if all(module.is_subclass(other, c) for other in fits)]
    if len(bases) != 1 and owner in fits:
        others = ", ".join(c for c in fits if c != owner)
        return Type("obj", owner), f"its own class, with {listed} ({others} fit too)"
    if len(bases) != 1:
        return None, f"several classes have all of {listed}: {', '.join(fits)} (annotate it)"
    extra = f"; its subclasses {', '.join(c for c in fits if c != bases[0])} fit too" if len(fits) > 1 else ""
    return Type("obj", bases[0]), f"the class with {listed}{extra}"


# ----------------------------------------------- fields of untyped classes


def structural_class(module: ModuleSource, fn: ast.FunctionDef, name: str, follow: Follow | None = None) -> str | None:
    """`infer_class` read off the classes' code alone (their `self.f = ...`
    and methods), for typing fields while the class infos are being made:
    the single class, or the common base, with every attribute `fn`
    reaches through `name`."""
    needed = uses(fn, name, follow)
    if needed is None:
        return None
    fits = sorted(c for c in module.classes if c not in module.exception_bases
                  and needed <= bound_by_code(module, c))
    bases = [c for c in fits if all(c in chain_names(module, other) for other in fits)]
    return bases[0] if len(bases) == 1 else None


def chain_names(module: ModuleSource, cls: str) -> list[str]:
    return [c.name for c in class_chain(module.classes, module.user_classes, module.classes[cls])]


def bound_by_code(module: ModuleSource, cls: str) -> set[str]:
    """The attributes class `cls` (with its bases) defines or sets on `self`."""
    out: set[str] = set()
    for klass in chain_names(module, cls):
        for item in module.classes[klass].body:
            if isinstance(item, ast.FunctionDef):
                out.add(item.name)
                if item.args.args:
                    me = item.args.args[0].arg
                    out.update(t.attr for n in ast.walk(item) if isinstance(n, (ast.Assign, ast.AnnAssign))
                               for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                               if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me)
            elif isinstance(item, ast.Assign):
                out.update(t.id for t in item.targets if isinstance(t, ast.Name))
    return out


def call_arguments(module: ModuleSource, owner: str | None, fn: ast.FunctionDef, name: str,
                   nested_class: Callable[[str, str], str | None],
                   receiver_class: Callable[[ast.expr, ast.FunctionDef, str | None], str | None]
                   ) -> list[tuple[ast.expr, ast.FunctionDef, str | None]] | None:
    """What the module passes for parameter `name` of `fn` at each call
    (`owner(...)` for an `__init__`, also `self.Inner(...)` for a nested
    class; `self.m(...)` in a class whose `m` is `fn`; `f(...)` for a
    function; `x.m(...)` where `receiver_class` tells x is of such a class;
    `super().m(...)` in a subclass): (the argument or the parameter's
    default, the calling function, its class), or None where a call cannot
    be matched (`*args`)."""
    params = [a.arg for a in fn.args.args[1 if owner is not None else 0:]]
    if name not in params:
        return None
    index = params.index(name)
    defaults = dict(zip(params[len(params) - len(fn.args.defaults):], fn.args.defaults))
    found: list[tuple[ast.expr, ast.FunctionDef, str | None]] = []
    callers = [(f, None) for f in module.functions.values()] + [
        (item, klass) for klass, node in module.classes.items() for item in node.body
        if isinstance(item, ast.FunctionDef)]
    for caller, where in callers:
        me = caller.args.args[0].arg if where is not None and caller.args.args else None
        for node in ast.walk(caller):
            if isinstance(node, ast.Call) and _calls(module, node.func, fn, owner, me, where, nested_class,
                                                     lambda e: receiver_class(e, caller, where)):
                if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
                    return None
                given = node.args[index] if index < len(node.args) else \
                    next((k.value for k in node.keywords if k.arg == name), defaults.get(name))
                if given is None:
                    return None
                found.append((given, caller, where))
    return found


def _calls(module: ModuleSource, func: ast.expr, fn: ast.FunctionDef, owner: str | None, me: str | None,
           where: str | None, nested_class: Callable[[str, str], str | None],
           receiver_class: Callable[[ast.expr], str | None]) -> bool:
    """Is `func(...)` a call of `fn` (a method of `owner`, or a function)?"""
    if owner is None:
        return isinstance(func, ast.Name) and module.functions.get(func.id) is fn
    mine = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == me \
        and where is not None
    if fn.name == "__init__":
        made = dotted(func)
        if made != owner and mine:
            assert isinstance(func, ast.Attribute) and where is not None
            made = nested_class(where, func.attr)
        return made == owner
    if not isinstance(func, ast.Attribute) or func.attr != fn.name:
        return False
    if isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name) and func.value.func.id == "super" \
            and not func.value.args and where is not None:
        chain = chain_names(module, where)[1:]  # `super().m`: the bases' `m`
    elif mine:
        assert where is not None
        chain = chain_names(module, where)  # the `m` that `self.m` finds from the caller's class
    else:
        held = receiver_class(func.value)  # `self._data.add_first(x)`: by the receiver's class
        chain = chain_names(module, held) if held in module.classes else []
    for klass in chain:
        method = module.method(klass, fn.name)
        if method is not None:
            return method is fn
    return False
