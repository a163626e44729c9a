"""`self.__class__(...)` and `type(self)(...)`: an instance of the class
the object really is, the idiom of a library's `copy()` and `inverted()`.

Why: the class is the object's run-time class, any subclass of the method's
own class. Where the module knows every class that may be (the method's
class and its subclasses among the module's classes, each nameable),
the call is rewritten at load into a choice on `type(self) is C` among them,
each branch the plain construction `C(...)` (its arguments evaluated once,
in the branch taken, as Python evaluates them once). An object of a class
the module does not know (a subclass elsewhere) reaches no branch: the
path is dropped (`DROP_CALL`), never answered with the wrong class.
"""

from __future__ import annotations

import ast
import copy

from pathcraft.frontend.source import ModuleSource

DROP_CALL = "__pc_drop"  # `__pc_drop("why")`: a dropped path, in code the frontend writes (frontend/calls.py)


def rewrite_own_class_calls(module: ModuleSource) -> None:
    """Rewrite each method's `self.__class__(...)` / `type(self)(...)` (see
    the module docstring), in place."""
    for owner, cls in module.classes.items():
        if owner in module.model_classes or owner not in module.class_infos:
            continue
        candidates = sorted(c for c in module.class_infos
                            if c not in module.model_classes and module.is_subclass(c, owner))
        if not candidates or any("." in c for c in candidates):
            continue
        for item in cls.body:
            if isinstance(item, ast.FunctionDef) and item.args.args and not any(
                    isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in item.decorator_list):
                me = item.args.args[0].arg
                if not any(isinstance(n, ast.Name) and n.id == me and not isinstance(n.ctx, ast.Load)
                           for n in ast.walk(item)):
                    _OwnClassCalls(me, candidates).visit(item)


class _OwnClassCalls(ast.NodeTransformer):
    def __init__(self, me: str, candidates: list[str]) -> None:
        self.me = me
        self.candidates = candidates

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        if not self._own_class(node.func):
            return node
        chosen: ast.expr = ast.Call(ast.Name(DROP_CALL, ast.Load()),
                                    [ast.Constant(f"{self.me}.__class__ of a class the module does not define")], [])
        for cls in reversed(self.candidates):
            made = ast.Call(ast.Name(cls, ast.Load()), copy.deepcopy(node.args), copy.deepcopy(node.keywords))
            test = ast.Compare(ast.Call(ast.Name("type", ast.Load()), [ast.Name(self.me, ast.Load())], []),
                               [ast.Is()], [ast.Name(cls, ast.Load())])
            chosen = ast.IfExp(test, made, chosen)
        return ast.fix_missing_locations(ast.copy_location(chosen, node))

    def _own_class(self, func: ast.expr) -> bool:
        """`self.__class__` or `type(self)`?"""
        if isinstance(func, ast.Attribute) and func.attr == "__class__":
            return isinstance(func.value, ast.Name) and func.value.id == self.me
        return isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id == "type" \
            and len(func.args) == 1 and not func.keywords and isinstance(func.args[0], ast.Name) \
            and func.args[0].id == self.me
