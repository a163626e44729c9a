"""Project modules used as namespaces: `from . import idnadata`, then
`idnadata.scripts[name]`.

Libraries often import a sibling module rather than its names (`from .
import utils`, `import pkg.tables as tables`) and reach its definitions as
attributes. The linker (`frontend/imports.py`) merges names, so before the
module is read each such use is rewritten to the name itself, with the
import that binds it (`from .idnadata import scripts`, placed after the
original import), and the definition is then read, never run, as any
imported name is. The rewrite keeps what the code means only when

* every use of the module's name is `module.attr` read as a value (not
  called through `getattr`, stored to, passed on, or rebound anywhere);
* the attribute's name is used nowhere else in the module (no local, no
  parameter, no other definition or import shadows it), nor reached
  through a second module name;
* the import names a module file of the project, and its package's
  `__init__.py` binds no other object under that name (which `from .
  import name` would give instead).

Otherwise the uses stay as they were (an unknown name where they are read).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from pathcraft.frontend.packages import resolve


@dataclass(frozen=True)
class _Namespace:
    """A name the module binds to a project module, and how to import from it."""

    name: str
    module: str  # dotted, relative to `level`
    level: int
    statement: ast.stmt


def flatten_namespaces(path: str, tree: ast.Module) -> None:
    """Rewrite `tree` in place (see the module's docstring)."""
    me = Path(path)
    namespaces = _namespaces(me, tree)
    if not namespaces:
        return
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    used: dict[str, set[str]] = {name: set() for name in namespaces}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in used:
            parent = parents.get(node)
            if isinstance(node.ctx, ast.Load) and isinstance(parent, ast.Attribute) and parent.value is node \
                    and isinstance(parent.ctx, ast.Load):
                used[node.id].add(parent.attr)
            else:
                del used[node.id]  # rebound, stored to, or the module itself passed on
    for node in ast.walk(tree):  # a parameter, definition or `global` of the name: not the module everywhere
        for name in _bound_names(node):
            used.pop(name, None)
    taken = _identifiers(tree)
    imports: dict[str, list[str]] = {}
    for name in sorted(used):
        attrs = sorted(a for a in used[name] if a not in taken)
        taken.update(attrs)
        if attrs:
            imports[name] = attrs
    if not imports:
        return
    _Rewrite({name: set(attrs) for name, attrs in imports.items()}).visit(tree)
    for name, attrs in imports.items():
        space = namespaces[name]
        statement = ast.ImportFrom(module=space.module, names=[ast.alias(name=a) for a in attrs], level=space.level)
        ast.copy_location(statement, space.statement)
        tree.body.insert(tree.body.index(space.statement) + 1, statement)
    ast.fix_missing_locations(tree)


def _namespaces(me: Path, tree: ast.Module) -> dict[str, _Namespace]:
    """The names top-level imports bind to modules of the project, bound once."""
    found: dict[str, _Namespace] = {}
    bound: list[str] = []
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom):
            for alias in statement.names:
                local = alias.asname or alias.name
                bound.append(local)
                dotted = f"{statement.module}.{alias.name}" if statement.module else alias.name
                if alias.name != "*" and resolve(me, dotted, statement.level) is not None \
                        and not _package_binds(me, statement.module, statement.level, alias.name):
                    found[local] = _Namespace(local, dotted, statement.level, statement)
        elif isinstance(statement, ast.Import):
            for alias in statement.names:
                local = alias.asname or alias.name.split(".")[0]
                bound.append(local)
                if alias.asname and resolve(me, alias.name, 0) is not None:
                    found[local] = _Namespace(local, alias.name, 0, statement)
    return {name: space for name, space in found.items() if bound.count(name) == 1}


def _package_binds(me: Path, module: str | None, level: int, name: str) -> bool:
    """Might the package `from MODULE import name` reads from bind `name`
    in its `__init__.py` to another object (then the import gives that)?"""
    init = resolve(me, module, level) if module else _package_init(me, level)
    if init is None or init.name != "__init__.py":
        return init is None  # `from .mod import sub` where mod is a module file: sub is no module of it
    try:
        tree = ast.parse(init.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return True
    for statement in tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if statement.name == name:
                return True
            continue
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) and node.id == name:
                return True
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for alias in node.names:
                if alias.name == "*" and isinstance(node, ast.ImportFrom):
                    if _star_may_bind(init, node, name):
                        return True
                elif (alias.asname or alias.name).split(".")[0] == name and not (
                        isinstance(node, ast.ImportFrom) and node.level == 1 and not node.module
                        and alias.name == name):  # `from . import name` there: the same module
                    return True
    return False


def _star_may_bind(init: Path, star: ast.ImportFrom, name: str) -> bool:
    """Might `from MODULE import *` bind `name`? Only a name without a
    leading underscore, or one its module's text quotes (in `__all__`)."""
    if not name.startswith("_"):
        return True
    source = resolve(init, star.module, star.level)
    if source is None:
        return not star.level  # another package's star: not read
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, ValueError):
        return True
    return f"'{name}'" in text or f'"{name}"' in text


def _package_init(me: Path, level: int) -> Path | None:
    folder = me.resolve().parent
    for _ in range(level - 1):
        folder = folder.parent
    init = folder / "__init__.py"
    return init if init.is_file() else None


def _bound_names(node: ast.AST) -> list[str]:
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return list(node.names)
    return []


def _identifiers(tree: ast.AST) -> set[str]:
    """Every name the code binds or reads, in any scope."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        else:
            names.update(_bound_names(node))
    return names


class _Rewrite(ast.NodeTransformer):
    """`module.attr` -> `attr`, for the chosen attributes of each module name."""

    def __init__(self, attrs: dict[str, set[str]]) -> None:
        self.attrs = attrs

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        value = node.value
        if isinstance(value, ast.Name) and node.attr in self.attrs.get(value.id, ()):
            return ast.copy_location(ast.Name(id=node.attr, ctx=ast.Load()), node)
        self.generic_visit(node)
        return node
