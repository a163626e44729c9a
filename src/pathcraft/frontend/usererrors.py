"""Raising an exception class of the module's own: what its construction
does to the arguments, read from the classes of its chain.

Why: `raise Bad("x")` is lowered to an exception value (type and message),
not an object, so a class that defines `__init__`, `__new__` or `__str__`
must be read before its message (`str(exc)`, what `pytest.raises(match=)`
checks) or even its type can be claimed: `super().__init__("bad: " + msg)`
changes the message, and an `__init__` that rejects the arguments raises
TypeError instead. Such a class is modelled when its `__init__` is plain:
it only hands its parameters on to the base's `__init__` and stores them
(`self.code = code`); then the call's arguments must bind to its
parameters, keywords included, and the message is certain only when the
base receives the call's own positional arguments unchanged. A `__str__`
leaves the message uncertain (the type alone is asserted); any other
construction is refused. An `__init__` written in the tested module itself
runs lines a test's path would have to show: those paths are dropped.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from pathcraft.frontend.source import ModuleSource

_CONSTRUCTION = ("__init__", "__new__", "__str__")


class NotModelled(Exception):
    """The class's construction is not modelled (the reason)."""


@dataclass(frozen=True)
class Construction:
    """How a call of the class builds the exception."""

    message_kept: bool  # str(exc) is what the builtin makes of the call's positional arguments
    keywords: bool  # the call may pass keyword arguments


BUILTIN = Construction(message_kept=True, keywords=False)


def construction(module: ModuleSource, name: str, call: ast.Call | None) -> Construction:
    """How `name(...)` (the `call`, None for a bare class) builds its exception."""
    chain = _chain(module, name)
    defined = {method: (cls, node) for cls in reversed(chain) for node in cls.body
               if isinstance(node, ast.FunctionDef) and node.name in _CONSTRUCTION for method in [node.name]}
    if not defined:
        return BUILTIN
    if "__new__" in defined:
        raise NotModelled(f"raise of {name}, whose class defines __new__")
    kept = "__str__" not in defined
    if "__init__" not in defined:
        return Construction(kept, keywords=False)
    owner, init = defined["__init__"]
    if module.origins.get(owner.name, module.path) == module.path:
        raise NotModelled(f"raise of {name}, whose __init__ runs in the module (its lines are not followed)")
    passed = _plain_init(owner, init)
    if passed is None:
        raise NotModelled(f"raise of {name}, whose __init__ does more than store and pass on its arguments")
    args = call.args if call is not None else []
    keywords = call.keywords if call is not None else []
    if any(isinstance(a, ast.Starred) for a in args) or any(k.arg is None for k in keywords):
        raise NotModelled(f"*args or **kwargs in a call of {name}")
    if not _binds(init.args, len(args), [str(k.arg) for k in keywords]):
        raise NotModelled(f"arguments to {name}() that its __init__ does not take")
    return Construction(kept and _passes_positionals(init.args, passed, len(args)), keywords=True)


def _chain(module: ModuleSource, name: str) -> list[ast.ClassDef]:
    """The module's classes of `name`'s chain, the class first (first bases)."""
    chain: list[ast.ClassDef] = []
    current: str | None = name
    while current is not None and current in module.classes and len(chain) < 50:
        cls = module.classes[current]
        chain.append(cls)
        bases = module.exception_bases.get(current, ())
        current = bases[0] if bases else None
    return chain


def _plain_init(owner: ast.ClassDef, init: ast.FunctionDef) -> list[ast.expr] | None:
    """The arguments a plain `__init__` passes to its base's (`super().__init__(...)`
    or `Base.__init__(self, ...)`, once), or None when it does anything else
    than that and `self.x = <parameter or constant>`."""
    params = {a.arg for a in [*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs]}
    params |= {a.arg for a in (init.args.vararg, init.args.kwarg) if a is not None}
    me = init.args.args[0].arg if init.args.args else None
    passed: list[ast.expr] | None = None
    for statement in init.body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # a docstring
        if isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            value = statement.value
            if all(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me
                   for t in targets) and (isinstance(value, ast.Constant)
                                          or isinstance(value, ast.Name) and value.id in params):
                continue
            return None
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) and passed is None:
            call = statement.value
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr == "__init__" and not call.keywords:
                if isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name) \
                        and func.value.func.id == "super" and not func.value.args:
                    passed = list(call.args)
                    continue
                if isinstance(func.value, ast.Name) and any(isinstance(b, ast.Name) and b.id == func.value.id
                                                            for b in owner.bases) \
                        and call.args and isinstance(call.args[0], ast.Name) and call.args[0].id == me:
                    passed = list(call.args[1:])
                    continue
        return None
    if passed is None or not all(isinstance(a, ast.Name) and a.id in params or isinstance(a, ast.Starred)
                                 and isinstance(a.value, ast.Name) and a.value.id in params for a in passed):
        return None
    return passed


def _binds(args: ast.arguments, positional: int, keywords: list[str]) -> bool:
    """Do `positional` arguments and these keywords bind to the signature (self left out)?"""
    plain = [a.arg for a in [*args.posonlyargs, *args.args][1:]]
    if positional > len(plain) and args.vararg is None:
        return False
    named = set(plain[positional:]) - {a.arg for a in args.posonlyargs} | {a.arg for a in args.kwonlyargs}
    if any(k not in named for k in keywords) and args.kwarg is None:
        return False
    if len(set(keywords)) != len(keywords):
        return False
    with_default = set(plain[len(plain) - len(args.defaults):]) if args.defaults else set()
    required = [p for p in plain[positional:] if p not in with_default and p not in keywords]
    kw_required = [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None and a.arg not in keywords]
    return not required and not kw_required


def _passes_positionals(args: ast.arguments, passed: list[ast.expr], positional: int) -> bool:
    """Does the base's `__init__` receive exactly the call's positional arguments?"""
    plain = [a.arg for a in [*args.posonlyargs, *args.args][1:]]
    if len(passed) == 1 and isinstance(passed[0], ast.Starred) and args.vararg is not None \
            and isinstance(passed[0].value, ast.Name) and passed[0].value.id == args.vararg.arg:
        return not plain  # `*args` takes every positional argument
    names = [a.id for a in passed if isinstance(a, ast.Name)]
    return len(names) == len(passed) == positional and names == plain[:positional]
