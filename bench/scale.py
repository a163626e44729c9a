"""Package runs on several cores (issue: whole packages, many cores).

Copies corpus folders into one package (an `__init__.py` in each folder;
the corpus itself is never written) and runs `pathcraft gen PACKAGE -o
DIR` on it with `--jobs 1`, then `--jobs N`, then again unchanged into the
same folder (incremental: only changed modules run). Columns: wall
seconds, CPU seconds of the module processes, speed-up against `--jobs 1`
measured in the same run, tests written, and whether the files equal the
`--jobs 1` files byte for byte.

    python bench/scale.py
    python bench/scale.py --folders searches,sorts --timeout 5 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus" / "thealgorithms-python"


def make_package(folders: list[str], into: Path) -> Path:
    package = into / "corpus_pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for folder in folders:
        shutil.copytree(CORPUS / folder, package / folder, ignore=shutil.ignore_patterns("__pycache__"))
        for sub in [package / folder, *(p for p in (package / folder).rglob("*") if p.is_dir())]:
            (sub / "__init__.py").touch()
    return package


def run(package: Path, out: Path, options: list[str]) -> dict[str, float | int]:
    report = out.parent / f"{out.name}-{len(list(out.parent.glob('*.json')))}.json"
    before = os.times()  # (bench/resource.py shadows the resource module here)
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


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*.py"))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folders", default="bit_manipulation,searches,sorts,conversions",
                        help="corpus folders that make the package")
    parser.add_argument("--timeout", default="5", help="seconds per function [5]")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="jobs of the parallel run")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        package = make_package(args.folders.split(","), root)
        common = ["--timeout", args.timeout, "--no-incremental"]
        one = run(package, root / "one", [*common, "--jobs", "1"])
        many = run(package, root / "many", [*common, "--jobs", str(args.jobs)])
        again = run(package, root / "many", ["--timeout", args.timeout, "--jobs", str(args.jobs)])
        same = files(root / "one") == files(root / "many")
    print(f"package: {args.folders} ({one['modules']} modules), --timeout {args.timeout}, "
          f"{os.cpu_count()} cores\n")
    print("| run | wall s | CPU s | speed-up vs --jobs 1 | tests | modules run again |")
    print("|---|---|---|---|---|---|")
    print(f"| --jobs 1 | {one['wall']} | {one['cpu']} | 1.00× | {one['tests']} | {one['modules']} |")
    print(f"| --jobs {args.jobs} | {many['wall']} | {many['cpu']} | {one['wall'] / many['wall']:.2f}× | "
          f"{many['tests']} | {many['modules']} |")
    print(f"| --jobs {args.jobs}, unchanged, incremental | {again['wall']} | {again['cpu']} | "
          f"{one['wall'] / again['wall']:.1f}× | {again['tests']} | {again['modules'] - again['unchanged']} |")
    print(f"\nfiles of --jobs {args.jobs} equal to those of --jobs 1: {'yes' if same else 'no'}"
          + ("" if same else " (a time budget ran out differently under load)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
