"""`threading.Lock()` and `threading.RLock()` made by the analysed code.

A library guards its state with a lock it makes in `__init__`
(`self._lock = RLock()`) and takes with `with self._lock:`; the lock was a
value not modelled, and every method that took it lost its paths. Such a
call is rewritten into the constructor of the lock's plain-Python model
(`models/threading/classes.py`), which is imported into the module and
merged like the callables' model classes; a field that holds one is typed
from it, and a test passes a fresh lock (`ir/builtin_names.MADE_BY`).
"""

from __future__ import annotations

import ast

MODEL_MODULE = "pathcraft.locks"  # the name the model file's STANDS_FOR gives
MODELS = {"Lock": "PathcraftLock", "RLock": "PathcraftRLock"}


def add_models(tree: ast.Module) -> bool:
    """Rewrite the module's `threading.Lock()`/`RLock()` calls (no
    arguments; `from threading import RLock` or `import threading`) into
    the model classes' and import those; whether there was one."""
    names, modules = _threading_names(tree)
    found = False
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or node.args or node.keywords:
            continue
        made = _made(node.func, names, modules)
        if made is not None:
            node.func = ast.copy_location(ast.Name(MODELS[made], ast.Load()), node.func)
            found = True
    if found:
        statement = ast.ImportFrom(module=MODEL_MODULE, names=[ast.alias(name=n) for n in MODELS.values()],
                                   level=0)
        tree.body.insert(0, ast.fix_missing_locations(ast.copy_location(statement, tree)))
    return found


def _threading_names(tree: ast.Module) -> tuple[dict[str, str], set[str]]:
    """Module-level names bound to `threading.Lock`/`RLock`, and to the
    `threading` module itself, bound nowhere else at module level."""
    names: dict[str, str] = {}
    modules: set[str] = set()
    bound: dict[str, int] = {}
    for node in _statements(tree.body):
        for target in _bound(node):
            bound[target] = bound.get(target, 0) + 1
        if isinstance(node, ast.ImportFrom) and node.module == "threading" and not node.level:
            names.update({a.asname or a.name: a.name for a in node.names if a.name in MODELS})
        elif isinstance(node, ast.Import):
            modules.update(a.asname or a.name for a in node.names if a.name == "threading")
    once = {name for name, count in bound.items() if count == 1}
    return {k: v for k, v in names.items() if k in once}, modules & once


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The module's statements, a `try:`'s body in place of it: `try: from
    threading import RLock` never fails (threading is always there), so
    what its handlers bind instead (`class RLock: ...`) never runs."""
    out: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.Try) and any(isinstance(n, (ast.Import, ast.ImportFrom)) and _threading(n)
                                             for n in node.body):
            out.extend(node.body)
            out.extend(node.finalbody)
        else:
            out.append(node)
    return out


def _threading(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.module == "threading" and not node.level
    return any(a.name == "threading" for a in node.names)


def _bound(node: ast.stmt) -> list[str]:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in node.names]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    return [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


def _made(func: ast.expr, names: dict[str, str], modules: set[str]) -> str | None:
    if isinstance(func, ast.Name) and func.id in names:
        return names[func.id]
    if isinstance(func, ast.Attribute) and func.attr in MODELS and isinstance(func.value, ast.Name) \
            and func.value.id in modules:
        return func.attr
    return None
