"""Package runs: every module of a package, on several cores, again only
where something changed (issue: whole packages, many cores).

`pathcraft gen src/mypkg -o tests/generated/` walks the package (folders
with an `__init__.py`, tests and `exclude` patterns skipped) and writes one
test file per module under a mirrored tree. Each module is one work item:
a `pathcraft gen MODULE -o FILE` process of its own, given the run's
settings as JSON, so nothing but a path and plain settings crosses a
process boundary, a module that crashes or hangs its process costs only
itself, and the file a module gets is the one `--jobs 1` writes. Items run
`jobs` at a time.

A manifest beside the tests (`.pathcraft-manifest.json`) keeps, per
module, the hash of its source, of the project modules it imports
(transitively), of the settings and of pathcraft's version: a module whose
hash and test file are unchanged is not run again.
"""

from __future__ import annotations

import ast
import fnmatch
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pathcraft import __version__
from pathcraft.frontend.packages import resolve

MANIFEST = ".pathcraft-manifest.json"
NOTHING_TO_TEST = "no functions or methods to test"  # what `gen` says of a module without any
_SKIPPED_FOLDERS = {"tests", "test", "__pycache__", "build", "dist"}


@dataclass(frozen=True)
class ModuleOutcome:
    """What one module's work item did."""

    module: str  # relative to the package's parent
    output: str
    status: str  # "written", "unchanged", "no tests", "failed"
    tests: int = 0
    functions: int = 0
    skipped: dict[str, str] = field(default_factory=dict)  # function -> why
    seconds: float = 0.0
    message: str = ""


def package_modules(root: Path, exclude: Sequence[str] = ()) -> list[Path]:
    """The modules of the package at `root`, sorted: its files and those of
    its subpackages (folders with an `__init__.py`), without tests
    (`test_*.py`, `*_test.py`, `conftest.py`, `tests/`) and without what an
    `exclude` pattern (relative to `root`, fnmatch) matches."""
    out: list[Path] = []
    todo = [root]
    while todo:
        folder = todo.pop()
        for entry in sorted(folder.iterdir()):
            relative = entry.relative_to(root).as_posix()
            if entry.name.startswith(".") or any(fnmatch.fnmatch(relative, p) for p in exclude):
                continue
            if entry.is_dir():
                if entry.name not in _SKIPPED_FOLDERS and (entry / "__init__.py").is_file():
                    todo.append(entry)
            elif entry.suffix == ".py" and not (entry.name.startswith("test_") or entry.name.endswith("_test.py")
                                                or entry.name == "conftest.py"):
                out.append(entry)
    return sorted(out)


def test_file_for(module: Path, root: Path, out: Path) -> Path:
    """`root/sub/mod.py` -> `out/sub/test_sub__mod.py`: the tree mirrored,
    and a base name no other module's file has (pytest needs that)."""
    relative = module.relative_to(root).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    name = "__".join(parts) or root.name
    return out.joinpath(*relative.parts[:-1], f"test_{name}.py")


def imported_project_modules(module: Path) -> set[Path]:
    """The project modules `module` imports, transitively (their code is
    merged into its program, so a change there changes its tests)."""
    seen: set[Path] = set()
    todo = [module]
    while todo:
        current = todo.pop()
        try:
            tree = ast.parse(current.read_bytes())
        except (OSError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            names: list[tuple[str | None, int]] = []
            if isinstance(node, ast.Import):
                names = [(alias.name, 0) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [(node.module, node.level)]
                names += [(f"{node.module}.{a.name}" if node.module else a.name, node.level) for a in node.names]
            for name, level in names:
                found = resolve(current, name, level) if name else None
                if found is not None and found.resolve() not in seen and found.resolve() != module.resolve():
                    seen.add(found.resolve())
                    todo.append(found)
    return seen


def module_hash(module: Path, settings: str) -> str:
    digest = hashlib.sha256(f"{__version__}\n{settings}\n".encode())
    for source in [module.resolve(), *sorted(imported_project_modules(module))]:
        try:
            digest.update(str(source).encode() + b"\n" + source.read_bytes())
        except OSError:
            digest.update(b"missing")
    return digest.hexdigest()


def _load_manifest(out: Path) -> dict[str, tuple[str, int, int]]:
    """module -> (hash, tests, functions) of the last run; {} if there is
    no manifest or it cannot be read (every module then runs)."""
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
        return {name: (str(entry["hash"]), int(entry["tests"]), int(entry["functions"]))
                for name, entry in data["modules"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _save_manifest(out: Path, entries: dict[str, tuple[str, int, int]]) -> None:
    partial = out / f"{MANIFEST}.{os.getpid()}.tmp"
    modules = {name: {"hash": h, "tests": t, "functions": f} for name, (h, t, f) in sorted(entries.items())}
    partial.write_text(json.dumps({"pathcraft": __version__, "modules": modules}, indent=1), encoding="utf-8")
    os.replace(partial, out / MANIFEST)


def run_module(module: Path, output: Path, settings_file: Path, name: str) -> ModuleOutcome:
    """One work item: `pathcraft gen MODULE -o OUTPUT` in a process of its own."""
    output.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "report.json"
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(module), "-o", str(output),
                               "--settings-json", str(settings_file), "--report", str(report)],
                              capture_output=True, text=True)
        seconds = round(time.perf_counter() - started, 2)
        try:
            summary: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            summary = {}
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
    if not summary:
        if output.exists() and output.stat().st_size == 0:
            output.unlink()
        if last.endswith(NOTHING_TO_TEST):  # an `__init__.py` or a module of constants: nothing wrong
            return ModuleOutcome(name, "", "no tests", seconds=seconds)
        return ModuleOutcome(name, str(output), "failed", seconds=seconds, message=last.removeprefix("pathcraft: "))
    tests = int(summary.get("tests", 0))
    status = "written" if tests else "no tests"
    if not tests and output.exists():
        output.unlink()  # no file for a module without tests
    return ModuleOutcome(name, str(output) if tests else "", status, tests, int(summary.get("functions", 0)),
                         dict(summary.get("skipped", {})), seconds)


def run_package(root: Path, out: Path, settings: dict[str, Any], jobs: int, incremental: bool,
                exclude: Sequence[str] = (), progress: Callable[[ModuleOutcome, int, int], None] | None = None
                ) -> list[ModuleOutcome]:
    """Every module of the package at `root` into `out`, `jobs` at a time;
    the outcomes sorted by module. An interruption keeps the files written
    and the manifest of the modules done."""
    modules = package_modules(root, exclude)
    out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(settings, sort_keys=True)
    manifest = _load_manifest(out) if incremental else {}
    hashes = {str(m.relative_to(root.parent).as_posix()): module_hash(m, text) for m in modules}
    outcomes: list[ModuleOutcome] = []
    todo: list[tuple[Path, Path, str]] = []
    kept: dict[str, tuple[str, int, int]] = {}
    for module in modules:
        name = module.relative_to(root.parent).as_posix()
        output = test_file_for(module, root, out)
        last = manifest.get(name)
        if last is not None and last[0] == hashes[name] and (last[1] == 0 or output.exists()):
            outcomes.append(ModuleOutcome(name, str(output) if last[1] else "", "unchanged", last[1], last[2]))
            kept[name] = last
        else:
            todo.append((module, output, name))
    with tempfile.TemporaryDirectory() as scratch:
        settings_file = Path(scratch) / "settings.json"
        settings_file.write_text(text, encoding="utf-8")
        pool = ThreadPoolExecutor(max_workers=max(1, jobs))
        try:
            futures = [pool.submit(run_module, module, output, settings_file, name) for module, output, name in todo]
            for index, future in enumerate(futures, 1):
                outcome = future.result()
                outcomes.append(outcome)
                if outcome.status != "failed":
                    kept[outcome.module] = (hashes[outcome.module], outcome.tests, outcome.functions)
                if progress is not None:
                    progress(outcome, index, len(futures))
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            _save_manifest(out, kept)
    return sorted(outcomes, key=lambda o: o.module)


def report_json(root: Path, outcomes: list[ModuleOutcome], seconds: float) -> dict[str, Any]:
    return {
        "package": str(root), "pathcraft": __version__, "seconds": round(seconds, 2),
        "modules": len(outcomes), "tests": sum(o.tests for o in outcomes),
        "functions": sum(o.functions for o in outcomes),
        "skipped functions": sum(len(o.skipped) for o in outcomes),
        "failed modules": sum(o.status == "failed" for o in outcomes),
        "unchanged modules": sum(o.status == "unchanged" for o in outcomes),
        "per module": [asdict(o) for o in outcomes],
    }
