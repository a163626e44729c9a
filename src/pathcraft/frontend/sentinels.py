"""Sentinel objects: module-level names bound only to objects made to be
told apart by identity, `_MISSING = object()` and kin, used as parameter
defaults (`def first(items, default=_MISSING)`) and compared with `is`.

A name is one when every module-level binding of it is a fresh object
(in each branch of a `try`/`except ImportError` or conditional): `object()`,
`builtins.sentinel(...)`, or a call of a function of the package whose
every `return` builds an instance of a class (`make_sentinel(...)`), and
no function rebinds it (`global`); or a class attribute bound once to
`object()` in its class body (`class_sentinels`). Such an object is no int or str, so
`x is NAME` is false for every value a test passes, and true for the
default itself (`ir.nodes.Sentinel`). What else the code does with it
drops the path (`engine/values.py`).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

from pathcraft.frontend.names import module_level
from pathcraft.frontend.packages import resolve
from pathcraft.files import read_source
from pathcraft.frontend.yields import own_nodes
from pathcraft.ir.nodes import Sentinel


def sentinels(path: str, tree: ast.Module, functions: Mapping[str, ast.FunctionDef],
              classes: Mapping[str, ast.ClassDef]) -> dict[str, Sentinel]:
    """The module's sentinel names (`functions`/`classes`: the module's
    own and those it merged from the package's modules)."""
    values: dict[str, list[ast.expr]] = {}
    spoiled: set[str] = set()
    for statement in module_level(tree.body):
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                and isinstance(statement.targets[0], ast.Name):
            values.setdefault(statement.targets[0].id, []).append(statement.value)
            continue
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) \
                and statement.value is not None:
            values.setdefault(statement.target.id, []).append(statement.value)
            continue
        spoiled.update(_bound_otherwise(statement))
    candidates = {name: bound for name, bound in values.items()
                  if name not in spoiled and all(_maybe_fresh(v) for v in bound)}
    if not candidates:  # most modules: no walk of their functions, no sibling read
        return {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            spoiled.update(node.names)
    factories = {n.func.id for bound in candidates.values() for v in bound for n in ast.walk(v)
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)} - set(functions)
    imported = {**functions, **_imported_functions(path, tree, factories)}
    return {name: Sentinel(path, name) for name, bound in candidates.items()
            if name not in spoiled and all(_fresh(v, imported, classes) for v in bound)}


def _maybe_fresh(value: ast.expr) -> bool:
    """Could `value` be a fresh object (a call, or a conditional of calls)?"""
    if isinstance(value, ast.IfExp):
        return _maybe_fresh(value.body) and _maybe_fresh(value.orelse)
    return isinstance(value, ast.Call)


def _imported_functions(path: str, tree: ast.Module, wanted_names: set[str]) -> dict[str, ast.FunctionDef]:
    """The functions named `wanted_names` that a module-level `from .sibling
    import f` binds and the module's own code does not use (so the linker
    did not merge them): `make_sentinel`, called only to make the sentinels."""
    found: dict[str, ast.FunctionDef] = {}
    for statement in module_level(tree.body):
        if not isinstance(statement, ast.ImportFrom):
            continue
        wanted = {alias.name: alias.asname or alias.name for alias in statement.names
                  if (alias.asname or alias.name) in wanted_names}
        source = resolve(Path(path), statement.module, statement.level) if wanted else None
        if source is None:
            continue
        try:
            body = ast.parse(read_source(source)).body
        except (SyntaxError, OSError, ValueError):
            continue
        for node in body:
            if isinstance(node, ast.FunctionDef) and node.name in wanted:
                found[wanted[node.name]] = node
    return found


def _bound_otherwise(statement: ast.stmt) -> set[str]:
    """Names a module-level statement binds other than by `NAME = value`."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {statement.name}
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in statement.names}
    parts: list[ast.AST] = [statement.test] if isinstance(statement, (ast.If, ast.While)) else \
        [] if isinstance(statement, ast.Try) else [statement]
    return {n.id for part in parts for n in ast.walk(part)
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))}


def _fresh(value: ast.expr, functions: Mapping[str, ast.FunctionDef], classes: Mapping[str, ast.ClassDef]) -> bool:
    """Does `value` evaluate to an object made there, of no builtin scalar type?"""
    if isinstance(value, ast.IfExp):
        return _fresh(value.body, functions, classes) and _fresh(value.orelse, functions, classes)
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    if isinstance(func, ast.Name) and func.id == "object":
        return not value.args and not value.keywords
    if isinstance(func, ast.Attribute) and func.attr == "sentinel" and isinstance(func.value, ast.Name) \
            and func.value.id == "builtins":
        return True
    if isinstance(func, ast.Name) and func.id in functions:
        return _makes_instances(functions[func.id], classes)
    return False


def _makes_instances(fn: ast.FunctionDef, classes: Mapping[str, ast.ClassDef]) -> bool:
    """Does every `return` of `fn` build an instance of a class (one `fn`
    defines, or a class of the package that is no builtin's subclass)?"""
    local = {n.name: n for n in fn.body if isinstance(n, ast.ClassDef)}
    own = list(own_nodes(fn))  # not those of the class's methods
    returns = [n for n in own if isinstance(n, ast.Return)]
    if not returns or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own):
        return False
    for ret in returns:
        built = ret.value
        if not (isinstance(built, ast.Call) and isinstance(built.func, ast.Name)):
            return False
        cls = local.get(built.func.id) or classes.get(built.func.id)
        if cls is None or any(not isinstance(b, ast.Name) or b.id != "object" for b in cls.bases):
            return False
    return True


def class_sentinels(path: str, cls: ast.ClassDef) -> dict[str, Sentinel]:
    """The class attributes bound once in the class body to `object()`
    (cachetools' `Cache.__marker`, a method's default), by their names as
    written (the caller mangles them): sentinels like a module's."""
    bound: dict[str, int] = {}
    made: set[str] = set()
    for item in cls.body:
        targets = item.targets if isinstance(item, ast.Assign) else \
            [item.target] if isinstance(item, (ast.AnnAssign, ast.AugAssign)) else []
        for target in targets:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    bound[node.id] = bound.get(node.id, 0) + 1
        if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name) \
                and isinstance(item.value, ast.Call) and isinstance(item.value.func, ast.Name) \
                and item.value.func.id == "object" and not item.value.args and not item.value.keywords:
            made.add(item.targets[0].id)
    out: dict[str, Sentinel] = {}
    for name in sorted(made):
        if bound.get(name) == 1:
            out[name] = Sentinel(path, f"{cls.name}.{name}")
    return out
