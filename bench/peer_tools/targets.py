"""The benchmark's targets: the corpus manifest plus the seed examples.

A target is one function or method, named ``path/to/mod.py::Qual.name``. For
each we find, with ``ast`` on its source file, the line range of its ``def``
(``lineno..end_lineno``) and the functions of the same module it calls
(transitively), whose coverage is reported apart from the target's own.
"""

from __future__ import annotations

import ast
import csv
import hashlib
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

# The seed examples (shared/examples), as ``file::qualname``.
EXAMPLE_TARGETS: tuple[str, ...] = (
    "lcm.py::lcm",
    "lcm.py::gcd",
    "lcm.py::abs_value",
    "vector.py::Vector.add",
    "vector.py::multiples",
    "arraypower.py::arraypower",
    "aliasing.py::m",
    "rational.py::R.simplify",
    "rational.py::simp",
)


@dataclass(frozen=True)
class LineRange:
    qualname: str
    start: int  # the def line
    end: int  # its last line


@dataclass
class Target:
    id: str  # shown in the table, e.g. "examples/lcm.py::lcm"
    file: Path  # absolute path of the source file
    qualname: str
    import_root: Path  # folder to put on sys.path
    module: str  # dotted module name under import_root
    kind: str = ""
    notes: str = ""
    range: LineRange | None = None
    callees: list[LineRange] = field(default_factory=list)
    error: str | None = None  # set when the target itself cannot be resolved
    import_note: str = ""  # how the harness made the module importable

    @property
    def spec(self) -> str:
        """``path/to/mod.py::Name``, pathcraft's target syntax."""
        return f"{self.file}::{self.qualname}"

    @property
    def dotted(self) -> str:
        """``package.module.Qual.name``, CrossHair's target syntax."""
        return f"{self.module}.{self.qualname}"


def import_root_of(file: Path) -> tuple[Path, str]:
    """The folder to put on ``sys.path`` and the module's dotted name.

    Walks up while the folder is a regular package (has ``__init__.py``): the
    Goodrich chapters are packages (``ch07.linked_stack``), TheAlgorithms
    folders are not (``binary_search`` with ``searches/`` on the path).
    """
    file = file.resolve()
    parts = [] if file.name == "__init__.py" else [file.stem]  # a package's own module is the package
    folder = file.parent
    while (folder / "__init__.py").exists() and folder.parent != folder:
        parts.insert(0, folder.name)
        folder = folder.parent
    return folder, ".".join(parts)


def _relative_level(file: Path) -> int:
    """The deepest relative import of ``file`` (2 for ``from ..x import y``)."""
    try:
        tree = ast.parse(file.read_text(), filename=str(file))
    except (OSError, SyntaxError):
        return 0
    return max((n.level for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)), default=0)


def _identifier(name: str) -> str:
    name = re.sub(r"\W", "_", name)
    return "_" + name if name[:1].isdigit() else name


def importable_root(file: Path) -> tuple[Path, str, str]:
    """Like ``import_root_of``, but makes ``from ..x import y`` beyond the top
    package work: the Goodrich chapters import ``..exceptions`` from the bundle's
    folder, which is no package (and whose name has dashes). We link that
    folder under an identifier in a temp folder, where it imports as a
    namespace package: ``goodrich_dsap_python.ch07.linked_stack``.
    Returns (root, module, note).
    """
    root, module = import_root_of(file)
    if "." not in module:
        return root, module, ""
    top_name, _, rest = module.partition(".")
    if not top_name.isidentifier():
        # The bundle's folder is itself a package (the corpus added an
        # ``__init__.py`` to it) but its name has dashes: import it under an
        # identifier through a link.
        alias_dir, link = _alias_link(root / top_name, _identifier(top_name), root / top_name)
        dotted = f"{link.name}.{rest}"
        return alias_dir, dotted, f"imported as {dotted} via link {link} -> {root / top_name}"
    # Any module of the packages under root may be imported on the way
    # (ch08/tree.py imports ..ch07.linked_queue): take the deepest escape.
    extra = 0
    for other in root.rglob("*.py"):
        depth = len(other.relative_to(root).parts) - 1  # package levels above it
        if depth:
            extra = max(extra, _relative_level(other) - depth)
    if extra <= 0:
        return root, module, ""
    top = root
    names = []
    for _ in range(extra):
        names.insert(0, _identifier(top.name))
        top = top.parent
    source = root.parents[extra - 2] if extra > 1 else root
    alias_dir, link = _alias_link(root, names[0], source)
    dotted = ".".join(names + [module])
    return alias_dir, dotted, f"imported as {dotted} via link {link} -> {source}"


def _alias_link(key: Path, name: str, source: Path) -> tuple[Path, Path]:
    """A temp folder (one per ``key``) holding the link ``name`` -> ``source``."""
    alias_dir = Path(tempfile.gettempdir()) / "pathcraft-peers-roots" / hashlib.sha1(
        str(key).encode()).hexdigest()[:12]
    alias_dir.mkdir(parents=True, exist_ok=True)
    link = alias_dir / name
    if not link.is_symlink():
        link.symlink_to(source, target_is_directory=True)
    return alias_dir, link


def _definitions(tree: ast.Module) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """Module-level functions and methods of module-level classes, by qualname."""
    defs: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defs[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    defs[f"{node.name}.{item.name}"] = item
    return defs


def _called(
    node: ast.AST,
    owner: str | None,
    defs: dict[str, ast.FunctionDef | ast.AsyncFunctionDef],
    classes: set[str],
) -> set[str]:
    """Same-module functions that ``node`` may call (a syntactic approximation).

    ``f(...)`` for a module-level ``f``; ``C(...)`` for ``C.__init__``;
    ``self.m(...)`` for a method of the owner class; ``x.m(...)`` for any
    class's method named ``m`` (the receiver's type is not known).
    """
    found: set[str] = set()
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Call):
            continue
        func = sub.func
        if isinstance(func, ast.Name):
            if func.id in defs and "." not in func.id:
                found.add(func.id)
            elif func.id in classes and f"{func.id}.__init__" in defs:
                found.add(f"{func.id}.__init__")
        elif isinstance(func, ast.Attribute):
            own = f"{owner}.{func.attr}"
            if isinstance(func.value, ast.Name) and func.value.id == "self" and own in defs:
                found.add(own)
                continue
            for qual in defs:
                if "." in qual and qual.split(".", 1)[1] == func.attr:
                    found.add(qual)
    return found


def analyse_source(file: Path, qualname: str) -> tuple[LineRange, list[LineRange]]:
    """The target's line range and those of its same-module callees."""
    tree = ast.parse(file.read_text(), filename=str(file))
    defs = _definitions(tree)
    if qualname not in defs:
        raise LookupError(f"{file}: no function or method named {qualname}")
    classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}

    def rng(qual: str) -> LineRange:
        node = defs[qual]
        assert node.end_lineno is not None
        return LineRange(qual, node.lineno, node.end_lineno)

    seen = {qualname}
    todo = [qualname]
    while todo:
        qual = todo.pop()
        owner = qual.split(".")[0] if "." in qual else None
        for callee in sorted(_called(defs[qual], owner, defs, classes)):
            if callee not in seen:
                seen.add(callee)
                todo.append(callee)
    callees = [rng(q) for q in sorted(seen - {qualname}, key=lambda q: defs[q].lineno)]
    return rng(qualname), callees


def make_target(file: Path, qualname: str, tid: str, kind: str = "", notes: str = "") -> Target:
    file = file.resolve()
    root, module, note = importable_root(file)
    target = Target(tid, file, qualname, root, module, kind, notes, import_note=note)
    try:
        target.range, target.callees = analyse_source(file, qualname)
    except (OSError, SyntaxError, LookupError) as exc:
        target.error = f"{type(exc).__name__}: {exc}"
    return target


def load_manifest(manifest: Path) -> list[Target]:
    """Targets of a TSV manifest with columns ``source``, ``path``, ``qualname``.

    The file is ``<manifest folder>/<source>/<path>``; ``kind`` and ``notes``
    are optional columns.
    """
    base = manifest.resolve().parent
    targets = []
    with open(manifest, newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            source = (row.get("source") or "").strip()
            path = row["path"].strip()
            qual = row["qualname"].strip()
            file = base / source / path
            label = source.rsplit("/", 1)[-1]  # `../../shared/corpus/libs/toolz`: shown as `toolz`
            tid = f"{label}/{path}::{qual}" if source else f"{path}::{qual}"
            targets.append(
                make_target(file, qual, tid, (row.get("kind") or "").strip(),
                            (row.get("notes") or "").strip())
            )
    return targets


def example_targets(folder: Path, specs: tuple[str, ...] = EXAMPLE_TARGETS) -> list[Target]:
    targets = []
    for spec in specs:
        name, qual = spec.split("::")
        targets.append(make_target(folder / name, qual, f"examples/{spec}", "example"))
    return targets


def filter_targets(targets: list[Target], patterns: list[str]) -> list[Target]:
    """Keep targets whose id contains any of ``patterns`` (all when empty)."""
    if not patterns:
        return targets
    return [t for t in targets if any(p in t.id for p in patterns)]
