"""The decorators pathcraft follows, read from the source (never run).

* `@staticmethod`: a function of the class namespace; called as `C.m(...)`
  or through an instance, without the receiver.
* `@classmethod`: its `cls` is the class itself, known when lowering
  (`cls(...)` builds one, `cls.m(...)` calls a class or static method), so
  it runs as a static method; refused when a subclass could be `cls`.
* `@property`: a getter run by reading the attribute; `@p.setter` run by
  assigning it (without one, assigning raises AttributeError);
  `abc.abstractproperty` (deprecated) is one too, abstract under `ABC`.
* `functools.cache` / `lru_cache`: results memoized by argument; the engine
  models the cache (`engine/cache.py`) because a hit runs no code of the
  function, which a path (its line events) shows.
* `abc.abstractmethod`: without an `ABC` base (refused elsewhere) it
  changes nothing at run time; nor does `typing.override`.
* `typing.overload`: its stubs are removed before reading (`drop_overloads`):
  the definition that follows them replaces them at import.
* `@assume(...)` (pathcraft's own heap assumptions), `@invariant`.

Any other decorator is refused with its name.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

from pathcraft.errors import unsupported
from pathcraft.frontend.packages import resolve
from pathcraft.frontend.versions import fold_version_branches

LRU_DEFAULT_SIZE = 128  # functools.lru_cache's default maxsize
BINDINGS = {"staticmethod": "static", "classmethod": "class", "property": "property"}


@dataclass(frozen=True)
class Decorations:
    """What a function's decorators mean for the model."""

    binding: str = ""  # "static" | "class" | "property" | "setter" | "" (plain)
    cached: bool = False
    cache_limit: int | None = None
    assumptions: tuple[str, ...] = ()


def read_decorators(path: str, tree: ast.Module, fn: ast.FunctionDef, owner: str | None,
                    defined: set[str], imported: set[str]) -> Decorations:
    """The decorators of `fn` (a method of class `owner`, or a function);
    `defined`, `imported`: names the module binds itself (a decorator name
    among them is not the builtin's or functools')."""
    binding = ""
    cached = False
    limit: int | None = None
    assumptions: list[str] = []
    for deco in fn.decorator_list:
        func = deco.func if isinstance(deco, ast.Call) else deco
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        what = f"decorator '@{ast.unparse(deco)}'"
        if name == "invariant" and not isinstance(deco, ast.Call):
            continue  # read by frontend/invariants.py
        if name == "assume" and isinstance(deco, ast.Call) and not deco.keywords and all(
                isinstance(a, ast.Constant) and isinstance(a.value, str) for a in deco.args):
            assumptions.extend(a.value for a in deco.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
            continue
        if isinstance(deco, ast.Name) and deco.id in BINDINGS and deco.id not in defined | imported:
            if owner is None or binding:
                raise unsupported(path, deco, what + (" outside a class" if owner is None else " with another"))
            binding = BINDINGS[deco.id]
            continue
        if _from(tree, func, "abc", "abstractproperty", defined, path) and not isinstance(deco, ast.Call) \
                and owner is not None and not binding:
            binding = "property"  # a property (abstract under an ABC base: modelclasses.abstract_methods)
            continue
        if isinstance(deco, ast.Attribute) and deco.attr == "setter" and isinstance(deco.value, ast.Name) \
                and deco.value.id == fn.name and owner is not None and not binding:
            binding = "setter"  # the class checked it follows its getter (module._properties)
            continue
        if any(_from(tree, func, typing, "override", defined, path) for typing in ("typing", "typing_extensions")) \
                and not isinstance(deco, ast.Call):
            continue  # PEP 698: sets `__override__` on the function, for type checkers
        if _from(tree, func, "abc", "abstractmethod", defined, path) and not isinstance(deco, ast.Call):
            continue  # without an ABC base (any other base is refused), nothing at run time
        if _from(tree, func, "functools", "cache", defined, path) and not isinstance(deco, ast.Call) \
                or _from(tree, func, "functools", "lru_cache", defined, path):
            if owner is not None or cached:
                raise unsupported(path, deco, what + (" on a method (its key holds self)" if owner else " twice"))
            cached = True
            limit = _lru_size(path, deco) if name == "lru_cache" else None
            continue
        raise unsupported(path, deco, what)
    if cached and limit == 0:  # lru_cache(maxsize=0) keeps nothing
        cached = False
    return Decorations(binding, cached, limit, tuple(assumptions))


def is_abc_name(tree: ast.Module, deco: ast.expr, name: str, path: str) -> bool:
    """`deco` is `abc.name` or `name` imported from `abc` (in a module of `tree`)."""
    return _from(tree, deco, "abc", name, set(), path)


def _from(tree: ast.Module, func: ast.expr, module: str, name: str, defined: set[str], path: str = "") -> bool:
    """`func` is `module.name` (with `import module`) or `name` imported
    from `module`, directly or re-exported by a module of the project
    (`from ._typing import override`, where `_typing` imports it from
    `typing`); `path`: the file of `tree`."""
    if isinstance(func, ast.Attribute) and func.attr == name and isinstance(func.value, ast.Name) \
            and func.value.id not in defined:
        return imported_from(tree, func.value.id, path) == (module, None)
    if isinstance(func, ast.Name) and func.id not in defined:
        return imported_from(tree, func.id, path) == (module, name)
    return False


MAX_REEXPORTS = 4  # project modules followed at most for one name


def imported_from(tree: ast.Module, local: str, path: str = "", depth: int = 0) -> tuple[str, str | None] | None:
    """What the module-level name `local` was imported as: (module, name)
    for `from module import name`, (module, None) for `import module`;
    through a module of the project (relative, or absolute within the
    tree of `path`), what that module imported it as in turn."""
    found: tuple[str, str | None] | None = None
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or node.level):
            for alias in node.names:
                if (alias.asname or alias.name) != local:
                    continue
                source = resolve(Path(path), node.module, node.level) if path else None
                if source is not None:
                    found = _reexported(str(source), alias.name, depth + 1)
                elif node.level == 0 and node.module:
                    found = (node.module, alias.name)
                else:
                    found = None
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if (alias.asname or alias.name) == local and "." not in alias.name:
                    found = (alias.name, None)
    return found


@functools.lru_cache(maxsize=64)
def _module_tree(path: str) -> ast.Module | None:
    """A project module's tree, version branches folded (read once a process)."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return None
    fold_version_branches(tree)
    return tree


def _reexported(path: str, name: str, depth: int) -> tuple[str, str | None] | None:
    tree = _module_tree(path) if depth <= MAX_REEXPORTS else None
    return None if tree is None else imported_from(tree, name, path, depth)


def _lru_size(path: str, deco: ast.expr) -> int | None:
    """`@lru_cache`, `@lru_cache()`, `@lru_cache(N)`, `@lru_cache(maxsize=N)`
    (N an int constant or None)."""
    if not isinstance(deco, ast.Call):
        return LRU_DEFAULT_SIZE
    given = list(deco.args) + [k.value for k in deco.keywords if k.arg == "maxsize"]
    if len(given) > 1 or any(k.arg != "maxsize" for k in deco.keywords):
        raise unsupported(path, deco, f"decorator '@{ast.unparse(deco)}' (typed= or several arguments)")
    if not given:
        return LRU_DEFAULT_SIZE
    value = given[0]
    if isinstance(value, ast.Constant) and (value.value is None or type(value.value) is int):
        return None if value.value is None else max(0, value.value)
    raise unsupported(path, value, "lru_cache maxsize other than an int constant or None")


def drop_overloads(tree: ast.Module) -> None:
    """Remove the `@typing.overload` stubs of the module and its classes:
    each is replaced at import by the later definition of its name, the
    one that runs. A stub with no such definition stays (and is refused)."""
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(node, (ast.Module, ast.ClassDef)) or not isinstance(body, list):
            continue
        kept: list[ast.stmt] = []
        for index, statement in enumerate(body):
            later = {s.name for s in body[index + 1:] if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
            if isinstance(statement, ast.FunctionDef) and statement.name in later and any(
                    _from(tree, d, typing, "overload", set()) for d in statement.decorator_list
                    for typing in ("typing", "typing_extensions")):
                continue
            kept.append(statement)
        node.body = kept
