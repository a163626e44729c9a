"""Package runs on several cores (issue: whole packages, many cores).

Copies corpus folders into one package (an `__init__.py` in each folder;
the corpus itself is never written) and runs `pathcraft gen PACKAGE -o
DIR` on it with `--jobs 1`, then `--jobs N`, then on a Dask LocalCluster
of N workers (`--scheduler local`), then again unchanged into the same
folder (incremental: only changed modules run). Columns: wall seconds, CPU
seconds of the processes, speed-up against `--jobs 1` measured in the same
run, tests written, and whether the files equal the `--jobs 1` files byte
for byte.

Then one large search split by trace prefixes (`--split-depth`): the
whole search of one function as one work item, against its frontier and
prefix items on 1 and on N local workers; the same paths are checked.

    python bench/scale.py
    python bench/scale.py --folders searches,sorts --timeout 5 --jobs 2
    python bench/scale.py --folders all --examples --timeout 2 --skip-split   # the whole visible corpus
    python bench/scale.py --skip-package --split-target ../shared/examples/rational.py::simp --split-criterion loop-3
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from pathcraft.config import Settings
from pathcraft.app.pool import WorkerPool
from pathcraft.app.workitem import merged_split, settings_dict

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus" / "thealgorithms-python"
EXAMPLES = REPO.parent / "shared" / "examples"


def make_package(folders: list[str], into: Path, examples: bool) -> Path:
    """A package of the corpus `folders` ("all": every one), and of the
    papers' examples with `examples`."""
    package = into / "corpus_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    if folders == ["all"]:
        folders = sorted(p.name for p in CORPUS.iterdir() if p.is_dir() and any(p.rglob("*.py")))
    sources = [(CORPUS / folder, package / folder) for folder in folders]
    if examples:
        sources.append((EXAMPLES, package / "examples"))
    for source, copy in sources:
        shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__", "*.md", "*.txt"))
        for sub in [copy, *(p for p in copy.rglob("*") if p.is_dir())]:
            (sub / "__init__.py").touch()
    return package


def run(package: Path, out: Path, options: list[str]) -> dict[str, float | int]:
    report = out.parent / f"{out.name}-{len(list(out.parent.glob('*.json')))}.json"
    before = os.times()
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(package), "-o", str(out), "-q",
                    "--report", str(report), *options], capture_output=True, text=True, cwd=package.parent,
                   env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    wall = time.perf_counter() - started
    after = os.times()
    summary = json.loads(report.read_text())
    cpu = after.children_user - before.children_user + after.children_system - before.children_system
    return {"wall": round(wall, 1), "cpu": round(cpu, 1),
            "tests": summary["tests"], "modules": summary["modules"], "unchanged": summary["unchanged modules"]}


def split_search(source: str, qualname: str, criterion: str, depth: int, jobs: int) -> dict[str, Any]:
    """One function's search as frontier and prefix items on `jobs` local
    workers (depth 0: the whole search as one item): wall and CPU seconds,
    parts, and the tests' paths (names and comments)."""
    settings = settings_dict(Settings(criterion=criterion, timeout=3600, long_probes=0, edge_tests=0))
    started = time.perf_counter()
    before = os.times()
    pool = WorkerPool(jobs)
    try:
        if depth == 0:
            result = pool.submit({"kind": "function", "source": source, "qualname": qualname,
                                  "settings": settings}).result()
            parts = 1
        else:
            frontier = pool.submit({"kind": "function", "source": source, "qualname": qualname,
                                    "settings": settings, "frontier": depth}).result()
            futures = [pool.submit({"kind": "function", "source": source, "qualname": qualname,
                                    "settings": settings, "prefix": prefix}, tuple(prefix))
                       for prefix in frontier["prefixes"]]
            result = merged_split(qualname, [frontier, *(f.result() for f in futures)])
            parts = 1 + len(futures)
    finally:
        pool.shutdown()
    wall = time.perf_counter() - started
    after = os.times()
    cpu = after.children_user - before.children_user + after.children_system - before.children_system
    paths = [(re.search(r"def (\w+)", t).group(1),  # type: ignore[union-attr]
              "\n".join(line for line in t.splitlines() if line.lstrip().startswith("#")))
             for t in result["tests"]]
    return {"wall": round(wall, 1), "cpu": round(cpu, 1), "parts": parts, "tests": len(paths), "paths": paths}


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*.py"))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folders", default="bit_manipulation,searches,sorts,conversions",
                        help="corpus folders that make the package ('all': every one)")
    parser.add_argument("--examples", action="store_true", help="the papers' examples in the package too")
    parser.add_argument("--timeout", default="5", help="seconds per function [5]")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="jobs of the parallel run")
    parser.add_argument("--skip-package", action="store_true", help="only the split search")
    parser.add_argument("--skip-split", action="store_true", help="only the package runs")
    parser.add_argument("--split-target", default=str(REPO.parent / "shared" / "examples" / "rational.py") + "::simp",
                        help="the function whose search is split [the examples' rational.py::simp]")
    parser.add_argument("--split-criterion", default="loop-3", help="its criterion [loop-3]")
    parser.add_argument("--split-depth", type=int, default=8, help="choices down to split at [8]")
    args = parser.parse_args(argv)
    if not args.skip_package:
        package_table(args)
    if args.skip_split:
        return 0
    source, _, qualname = args.split_target.partition("::")
    whole = split_search(source, qualname, args.split_criterion, 0, 1)
    one = split_search(source, qualname, args.split_criterion, args.split_depth, 1)
    many = split_search(source, qualname, args.split_criterion, args.split_depth, args.jobs)
    print(f"\none search: {qualname} at {args.split_criterion}, split {args.split_depth} choices down\n")
    print("| run | parts | wall s | CPU s | speed-up vs whole | tests | same paths as whole |")
    print("|---|---|---|---|---|---|---|")
    for label, row in (("whole search, 1 worker", whole), ("split, 1 worker", one),
                       (f"split, {args.jobs} workers", many)):
        print(f"| {label} | {row['parts']} | {row['wall']} | {row['cpu']} | {whole['wall'] / row['wall']:.2f}× | "
              f"{row['tests']} | {'yes' if row['paths'] == whole['paths'] else 'no'} |")
    return 0


def package_table(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        package = make_package(args.folders.split(","), root, args.examples)
        common = ["--timeout", args.timeout, "--no-incremental"]
        one = run(package, root / "one", [*common, "--jobs", "1"])
        many = run(package, root / "many", [*common, "--jobs", str(args.jobs)])
        dask = run(package, root / "dask", [*common, "--jobs", str(args.jobs), "--scheduler", "local"])
        again = run(package, root / "many", ["--timeout", args.timeout, "--jobs", str(args.jobs)])
        same = files(root / "one") == files(root / "many")
        same_dask = files(root / "one") == files(root / "dask")
    print(f"package: {args.folders} ({one['modules']} modules), --timeout {args.timeout}, "
          f"{os.cpu_count()} cores\n")
    print("| run | wall s | CPU s | speed-up vs --jobs 1 | tests | modules run again |")
    print("|---|---|---|---|---|---|")
    print(f"| --jobs 1 | {one['wall']} | {one['cpu']} | 1.00× | {one['tests']} | {one['modules']} |")
    print(f"| --jobs {args.jobs} | {many['wall']} | {many['cpu']} | {one['wall'] / many['wall']:.2f}× | "
          f"{many['tests']} | {many['modules']} |")
    print(f"| --scheduler local, {args.jobs} Dask workers | {dask['wall']} | {dask['cpu']} | "
          f"{one['wall'] / dask['wall']:.2f}× | {dask['tests']} | {dask['modules']} |")
    print(f"| --jobs {args.jobs}, unchanged, incremental | {again['wall']} | {again['cpu']} | "
          f"{one['wall'] / again['wall']:.1f}× | {again['tests']} | {again['modules'] - again['unchanged']} |")
    print(f"\nfiles of --jobs {args.jobs} equal to those of --jobs 1: {'yes' if same else 'no'}"
          + ("" if same else " (a time budget ran out differently under load)"))
    print(f"files of the Dask run equal to those of --jobs 1: {'yes' if same_dask else 'no'}")


if __name__ == "__main__":
    sys.exit(main())
