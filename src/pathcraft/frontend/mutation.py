"""Which methods may change their object: read from the AST, conservatively.

A construction driver calls only methods that may change the object it
builds: a pure query (`is_empty`, `top`, `find`) reaches no new state, and
leaving it out keeps the number of setup sequences down. "May change" errs
on the side of yes: any store into an attribute or an item (of anything:
`node = self.head; node.val = 1` changes the object through an alias), any
call of a method on another value, any call of a module function, and any
method of the object that may itself change it.
"""

from __future__ import annotations

import ast
import builtins

from pathcraft.frontend.source import ModuleSource

# builtins that never change their arguments (what the subset can call)
_PURE_BUILTINS = frozenset({"len", "abs", "min", "max", "int", "bool", "sum", "range", "isinstance", "str"})


def may_mutate(module: ModuleSource, cls: str, method: str) -> bool:
    """May `method`, called on an instance of `cls`, change the instance?"""
    return _may_mutate(module, cls, method, set())


def _lookup(module: ModuleSource, cls: str, method: str) -> ast.FunctionDef | None:
    """The definition an instance of `cls` runs for `method` (single inheritance)."""
    current: str | None = cls
    seen: set[str] = set()
    while current is not None and current not in seen:
        seen.add(current)
        node = module.method(current, method)
        if node is not None:
            return node
        info = module.class_infos.get(current)
        current = info.base if info else None
    return None


def _may_mutate(module: ModuleSource, cls: str, method: str, visiting: set[str]) -> bool:
    if method in visiting:
        return False  # a cycle adds nothing: the other methods on it decide
    fn = _lookup(module, cls, method)
    if fn is None or not fn.args.args:
        return True  # generated (a dataclass's) or unknown: assume it does
    me = fn.args.args[0].arg
    visiting = visiting | {method}
    raised = {id(n.exc) for n in ast.walk(fn) if isinstance(n, ast.Raise) and n.exc is not None}
    for node in ast.walk(fn):
        if id(node) in raised:
            continue  # `raise Empty("...")` makes an exception, it changes nothing
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            return True
        if isinstance(node, ast.Call) and _call_may_mutate(module, cls, me, node, visiting):
            return True
    return False


def _call_may_mutate(module: ModuleSource, cls: str, me: str, call: ast.Call, visiting: set[str]) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        if func.id in _PURE_BUILTINS or _exception_class(module, func.id):
            return False
        # a constructor changes only what it is given: pure unless handed the object
        if func.id in module.class_infos:
            return any(isinstance(n, ast.Name) and n.id == me for a in call.args for n in ast.walk(a))
        return True  # a module function may change anything it is given
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == me:
        return _may_mutate(module, cls, func.attr, visiting)
    return True


def _exception_class(module: ModuleSource, name: str) -> bool:
    """An exception class being made (`raise Empty("...")`), asked without
    `ModuleSource.is_exception`, which records what it guesses."""
    builtin = getattr(builtins, name, None)
    return name in module.exception_bases or isinstance(builtin, type) and issubclass(builtin, BaseException)
