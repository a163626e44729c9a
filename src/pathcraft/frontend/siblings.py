"""A class of a sibling module for an unannotated parameter.

`def insertion_sort(L): ... L.first() ... L.after(marker)` in a module of
its own: the parameter is meant to be a `PositionalList`, defined next door
in the same package and never imported (Python needs no import to call
methods on an argument). When neither the module's classes nor those of
its project imports have every attribute the body reaches through the
parameter, the modules of the same package folder are read (never run;
at most `MAX_SIBLINGS` of them): if exactly one class of exactly one of
them fits (or one is a base of every other fitting class there), the
module is analysed as if it said `from .positional_list import
PositionalList`.

The real module binds no such name, so the tests name the class through
its own module (`ModuleSource.homes`: class -> the dotted name tests import
that module by), and say so in the inferred type's note.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING

from pathcraft.frontend.modelclasses import is_model_file
from pathcraft.frontend.packages import module_name, resolve
from pathcraft.frontend.untyped import bound_by_code, chain_names, uses

if TYPE_CHECKING:
    from pathcraft.frontend.imports import Linker
    from pathcraft.frontend.source import ModuleSource

MAX_SIBLINGS = 40  # modules of the folder read for a guess at most


def import_siblings(module: ModuleSource, linker: Linker) -> None:
    """Add to `module.tree` a relative import of the sibling class each
    unannotated object parameter fits, where nothing closer fits."""
    if any(isinstance(s, ast.ImportFrom) and (s.level or _is_project(module, s)) for s in module.tree.body):
        return  # the module imports from its project: the classes it means are those
    me = Path(module.path).resolve()
    needs: list[set[str]] = []
    for fn in module.functions.values():
        for arg in fn.args.args:
            if arg.annotation is not None:
                continue
            needed = uses(fn, arg.arg)
            if not needed or any(needed <= bound_by_code(module, c) for c in module.classes):
                continue
            needs.append(needed)
    if not needs:
        return
    siblings = sorted(p for p in me.parent.glob("*.py") if p.resolve() != me and p.name != "__init__.py")
    if not (me.parent / "__init__.py").is_file() or len(siblings) > MAX_SIBLINGS:
        return  # a folder of scripts, or a large package (the standard library's): each guess costs a read
    for needed in needs:
        fits: list[tuple[Path, str]] = []
        for path in siblings:
            source = linker.load(path)
            if source is None:
                continue
            found = [c for c in sorted(source.classes) if c not in source.exception_bases
                     and needed <= bound_by_code(source, c)]
            bases = [c for c in found if all(c in chain_names(source, other) for other in found)]
            if bases:
                fits.append((path, bases[0]))
        if len(fits) == 1:
            path, cls = fits[0]
            if cls not in module.homes:
                module.homes[cls] = module_name(path)
                package = (path.parent / "__init__.py").is_file()
                statement = ast.ImportFrom(module=path.stem, names=[ast.alias(name=cls)], level=1 if package else 0)
                module.tree.body.insert(0, ast.fix_missing_locations(statement))


def _is_project(module: ModuleSource, statement: ast.ImportFrom) -> bool:
    return resolve(Path(module.path), statement.module, statement.level) is not None


def home_hidden_classes(module: ModuleSource) -> None:
    """The other classes merged from a sibling module read as imported (a
    class its class uses): tests name them through that module too."""
    files = {module.origins.get(cls) for cls in module.homes} - {None}
    for name in sorted(module.hidden):
        origin = module.origins.get(name)
        # pathcraft's own model classes (frontend/modelclasses.py) are no module a test imports
        if origin is not None and origin in files and not is_model_file(origin):
            module.homes[name] = module_name(Path(origin))
