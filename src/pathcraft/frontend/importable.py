"""Will a module import on the running Python? Read off its code, never run.

A generated test file imports the module it tests; when that import fails,
every test fails to collect. So a module is refused, with the reason, when
a module-level statement is sure to fail: an import of a package that is
not installed or of a project module that is not there, a name its
standard-library module lacks on this Python (`from collections import
MutableMapping`, gone since 3.10), a file it opens when imported that is
not there (`WORDS = load_dictionary()` reading `dictionary.txt`), or an annotation that names a class
inside that class's own body without `from __future__ import annotations`
(evaluated when the `def` runs: NameError). Imports inside `try` are left
alone (the module handles their failure).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from pathcraft.frontend.packages import import_name, installed, resolve


def import_failure(path: str, tree: ast.Module) -> tuple[ast.stmt, str] | None:
    """The first module-level statement sure to fail at import, and why."""
    me = Path(path)
    python = ".".join(map(str, sys.version_info[:2]))
    postponed = any(isinstance(s, ast.ImportFrom) and s.module == "__future__"
                    and any(a.name == "annotations" for a in s.names) for s in tree.body)
    for statement in tree.body:
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                missing = _missing(me, alias.name)
                if missing is not None:
                    return statement, missing
        elif isinstance(statement, ast.ImportFrom) and statement.level and statement.module:
            if resolve(me, statement.module, statement.level) is None:
                return statement, f"no module {'.' * statement.level}{statement.module} next to it"
        elif isinstance(statement, ast.ImportFrom) and not statement.level and statement.module:
            missing = _missing(me, statement.module)
            if missing is not None:
                return statement, missing
            known = sys.modules.get(statement.module)  # one this process has imported: nothing is run
            if known is not None and statement.module in sys.stdlib_module_names:
                for alias in statement.names:
                    if alias.name != "*" and not hasattr(known, alias.name) \
                            and f"{statement.module}.{alias.name}" not in sys.modules:
                        return statement, f"Python {python}'s {statement.module} has no '{alias.name}'"
        elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.Expr)):
            missing_file = _reads_missing_file(me, tree, statement)
            if missing_file is not None:
                return statement, f"it reads {missing_file} when imported, and there is no such file next to it"
        elif isinstance(statement, ast.ClassDef) and not postponed and sys.version_info < (3, 14):
            named = _annotation_naming(statement)
            if named is not None:
                return statement, f"an annotation in class {statement.name} names {named}, which is not " \
                                  "bound yet when the def runs (NameError)"
    return None


def _reads_missing_file(me: Path, tree: ast.Module, statement: ast.stmt) -> str | None:
    """A file that a module-level statement opens, directly or through a
    function of the module it calls, named by a string literal (`open(folder
    + "/dictionary.txt")`) and missing from the module's folder."""
    functions = {s.name: s for s in tree.body if isinstance(s, ast.FunctionDef)}
    bodies: list[ast.AST] = [statement]
    for node in ast.walk(statement):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions:
            bodies.append(functions[node.func.id])
    for body in bodies:
        for node in ast.walk(body):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "open"
                    and node.args):
                continue
            names = [c.value for c in ast.walk(node.args[0]) if isinstance(c, ast.Constant)
                     and isinstance(c.value, str) and "." in c.value]
            if names:
                name = Path(names[-1].lstrip("/")).name
                if name and not (me.parent / name).exists() and not Path(names[-1]).exists():
                    return name
    return None


def _missing(importer: Path, dotted: str) -> str | None:
    """Why `import dotted` fails, if it surely does."""
    top = dotted.split(".")[0]
    if top in sys.stdlib_module_names or top == "__future__" or top in sys.modules:
        return None
    if resolve(importer, dotted, 0) is not None:
        return None  # a module of the project
    root = import_name(importer)[1]
    if (root / top).is_dir() or (root / f"{top}.py").is_file():
        return f"no module named {dotted} in the project"
    return None if installed(top) else f"no module named {top} is installed"


def _annotation_naming(cls: ast.ClassDef) -> str | None:
    """A method annotation (not a string) that names `cls` itself: Python
    evaluates it while the class body runs, before the name is bound."""
    for item in cls.body:
        if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        args = item.args
        annotations = [a.annotation for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if a.annotation]
        annotations += [item.returns] if item.returns is not None else []
        for annotation in annotations:
            for node in ast.walk(annotation):
                if isinstance(node, ast.Name) and node.id == cls.name and isinstance(node.ctx, ast.Load):
                    return cls.name
    return None
