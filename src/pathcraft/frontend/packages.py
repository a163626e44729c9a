"""Where a module sits among packages, and how the tests import it.

A module inside packages (folders with `__init__.py`) is imported by its
dotted name from above the outermost package. A tree whose root folder is
itself a package with no identifier name (`goodrich-dsap-python/__init__.py`,
whose chapters import each other with `..`) is imported under an alias: the
tests load its `__init__.py` by path as that package first (`loader_lines`).
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from pathcraft import rootalias


def import_name(file: Path) -> tuple[str, Path]:
    """How a test imports the module, and the folder that must be on the
    import path: a module inside packages (folders with `__init__.py`) is
    imported by its dotted name from above the outermost package."""
    parts, folder = _package_parts(file)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]  # a package's `__init__.py` is imported as the package itself
    return ".".join(parts), folder


def _package_parts(file: Path) -> tuple[list[str], Path]:
    """The module's dotted parts from the outermost package down (its file
    stem last, `__init__` included), and the folder above that package."""
    parts = [file.stem]
    folder = file.resolve().parent
    while (folder / "__init__.py").is_file() and folder.name.isidentifier():
        parts.insert(0, folder.name)
        folder = folder.parent
    return parts, folder


def installed(top: str) -> bool:
    """Is there a top-level module or package `top` on this Python's path?
    (`find_spec` of a top-level name looks and imports nothing.)"""
    try:
        return importlib.util.find_spec(top) is not None
    except (ImportError, ValueError):
        return False


def resolve(importer: Path, module: str | None, level: int) -> Path | None:
    """The file of the project that `from MODULE import ...` (with `level`
    dots) in `importer` reads, or None (the standard library, an installed
    package, a module that is not there, `from . import mod`)."""
    parts = module.split(".") if module else []
    if not parts:
        return None
    if level == 0:
        if parts[0] in sys.stdlib_module_names or parts[0] == "__future__":
            return None
        base = import_name(importer)[1]
    else:
        base = importer.resolve().parent
        for _ in range(level - 1):
            if not (base / "__init__.py").is_file():
                return None
            base = base.parent
        if not (base / "__init__.py").is_file():
            return None
    folder = base
    for part in parts[:-1]:
        folder = folder / part
        if not (folder / "__init__.py").is_file():
            return None
    file = folder / f"{parts[-1]}.py"
    if file.is_file():
        return file
    package = folder / parts[-1] / "__init__.py"
    return package if package.is_file() else None


def root_alias(file: Path) -> tuple[str, Path] | None:
    """(alias, folder) when the folder above the module's packages is itself
    a package whose name is no identifier (`goodrich-dsap-python`, with an
    `__init__.py`): its modules reach each other with `..`, so the tests
    load it by path under `alias` before importing the module."""
    parts, root = _package_parts(file)
    if root.name.isidentifier() or not (root / "__init__.py").is_file() or len(parts) < 2:
        return None
    alias = re.sub(r"\W", "_", root.name)
    return (alias if alias[:1].isalpha() else f"m_{alias}"), root


def module_name(file: Path) -> str:
    """The dotted name the tests import the module by (under the root's
    alias when there is one)."""
    name = import_name(file)[0]
    alias = root_alias(file)
    return f"{alias[0]}.{name}" if alias else name


LOADER_IMPORTS = ("import importlib.util", "import os", "import sys")  # what `loader_lines` uses


def loader_lines(file: Path) -> list[str]:
    """Lines of a test file that register the root package under its alias
    (nothing when there is none), after `LOADER_IMPORTS`. The root is found
    on the import path by its folder's name (the path itself or a folder in
    it), so the file names no folder of the machine that wrote it; only when
    the alias is not importable already (a link to the root named so, as
    bench/peers.py makes, is used as it is)."""
    alias = root_alias(file)
    if alias is None:
        return []
    name, root = alias
    return [
        f"# the package root {root.name!r} (its folder's name is no identifier), loaded by its path",
        f"# as {name!r} from the import path (unless a package so named is importable there)",
        f"if {name!r} not in sys.modules \\",
        f"        and importlib.util.find_spec({name!r}) is None:",
        "    _ROOT = next((folder for entry in map(os.path.abspath, sys.path)",
        f"                  for folder in (entry, os.path.join(entry, {root.name!r}))",
        f"                  if os.path.basename(folder) == {root.name!r}",
        "                  and os.path.isfile(os.path.join(folder, '__init__.py'))), None)",
        "    if _ROOT is None:",
        f"        raise ImportError({f'the package root {root.name!r} is not on the import path'!r})",
        "    _spec = importlib.util.spec_from_file_location(",
        f"        {name!r}, os.path.join(_ROOT, '__init__.py'),",
        "        submodule_search_locations=[_ROOT])",
        "    assert _spec is not None and _spec.loader is not None",
        f"    sys.modules[{name!r}] = importlib.util.module_from_spec(_spec)",
        f"    _spec.loader.exec_module(sys.modules[{name!r}])",
    ]


def register_root(file: Path) -> None:
    """Register the root package under its alias in this process (replay)."""
    alias = root_alias(file)
    if alias is not None:
        rootalias.register_root(alias[0], str(alias[1]))
