"""Standard-library sweep: generate tests for every top-level module of the
running Python's standard library, as a new user would (`pathcraft gen
MODULE.py -o test_MODULE.py`, no `--verify`), then run each file with
pytest and count what passes, fails or does not collect. `--folder` sweeps
any tree of modules the same way (each test file run with the module's
import root on the path), e.g. the corpus:

    python bench/stdlib.py --timeout 5 --out /tmp/stdlib-sweep
    python bench/stdlib.py --out /tmp/corpus-sweep --folder ../shared/corpus/thealgorithms-python
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import sysconfig
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from xml.etree import ElementTree


def import_root(module: Path) -> Path:
    """The folder to put on the import path: above the last package."""
    folder = module.parent
    while (folder / "__init__.py").exists():
        folder = folder.parent
    return folder


COUNTS = ("modules", "files", "tests", "passed", "failed", "errors", "not collected", "attribute-error tests",
          "functions with a telling test", "... that passes", "crashes")


def sweep(out: Path, timeout: float, limit: int | None = None, folder: Path | None = None,
          options: tuple[str, ...] = (), jobs: int = 1) -> dict[str, int]:
    """Generate and run tests for each top-level standard-library module
    (or each module under `folder`), `jobs` modules at a time (each module
    is its own pair of processes); the counts (problems are also named on
    stderr)."""
    if folder is None:
        stdlib = Path(sysconfig.get_paths()["stdlib"])
        modules = sorted(p for p in stdlib.glob("*.py") if not p.name.startswith("__"))
    else:
        modules = sorted(p for p in folder.rglob("*.py") if p.name != "__init__.py")
    if limit:
        modules = modules[: limit]
    out.mkdir(parents=True, exist_ok=True)
    counts = dict.fromkeys(COUNTS, 0)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for found in pool.map(lambda m: sweep_module(m, out, timeout, folder, options), modules):
            for key, value in found.items():
                counts[key] += value
    return counts


def sweep_module(module: Path, out: Path, timeout: float, folder: Path | None,
                 options: tuple[str, ...] = ()) -> dict[str, int]:
    """Generate the tests of one module as a user would (`pathcraft gen`,
    with `options` added), run them with pytest, and count (problems are
    named on stderr)."""
    counts = dict.fromkeys(COUNTS, 0)
    counts["modules"] = 1
    relative = module.stem if folder is None else "__".join(module.relative_to(folder).with_suffix("").parts)
    target = out / f"test_{relative}.py"
    gen = subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(module), "-o", str(target),
                          "--timeout", str(timeout), *options], capture_output=True, text=True, timeout=3600)
    if "Traceback (most recent call last)" in gen.stderr or "internal error" in gen.stderr:
        counts["crashes"] += 1
        print(f"crash: {module.name}: {gen.stderr.strip().splitlines()[-1]}", file=sys.stderr)
    if not target.exists() or "\ndef test_" not in target.read_text(encoding="utf-8"):
        return counts
    text = target.read_text(encoding="utf-8")
    counts["files"] += 1
    counts["tests"] += text.count("\ndef test_")
    counts["attribute-error tests"] += len(re.findall(r"raises_attribute_error\(\)", text))
    # a function whose tests check a value, a mutation or another exception than AttributeError
    telling = {m.group(0)[4:-1]: m.group(1)
               for m in re.finditer(r"^def (test_\w+?)_\d+_(\w+)\(", text, re.MULTILINE)
               if m.group(2) != "raises_attribute_error"}
    counts["functions with a telling test"] += len(set(telling.values()))
    report = out / f"{target.stem}.xml"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          f"--junitxml={report}", str(target)],
                         capture_output=True, text=True, timeout=600, cwd=out,
                         env={**os.environ, "PYTHONPATH": str(import_root(module.resolve()))})
    passing = set()
    if report.exists():
        for case in ElementTree.parse(report).getroot().iter("testcase"):
            if not any(child.tag in ("failure", "error", "skipped") for child in case):
                passing.add(case.get("name", ""))
    counts["... that passes"] += len({f for name, f in telling.items() if name in passing})
    last = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ""
    for key, pattern in (("passed", r"(\d+) passed"), ("failed", r"(\d+) failed"), ("errors", r"(\d+) errors?")):
        found = re.search(pattern, last)
        counts[key] += int(found.group(1)) if found else 0
    if run.returncode in (2, 4) or "error" in last and "passed" not in last:
        counts["not collected"] += 1
        print(f"not collected: {target.name}: {last}", file=sys.stderr)
    elif re.search(r"\d+ failed", last):
        print(f"failing: {target.name}: {last}", file=sys.stderr)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="folder for the generated test files")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per function [5]")
    parser.add_argument("--limit", type=int, help="only the first N modules")
    parser.add_argument("--folder", type=Path, help="sweep the modules under this folder instead")
    parser.add_argument("--jobs", type=int, default=1, help="modules swept at a time [1]")
    parser.add_argument("--gen-option", action="append", default=[],
                        help="an option for `pathcraft gen` (repeatable), e.g. --gen-option=--concolic")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    counts = sweep(args.out, args.timeout, args.limit, args.folder, tuple(args.gen_option), args.jobs)
    elapsed = time.perf_counter() - started
    version = ".".join(map(str, sys.version_info[:3]))
    what = "standard library" if args.folder is None else str(args.folder)
    extra = f", {' '.join(args.gen_option)}" if args.gen_option else ""
    print(f"sweep of {what} under Python {version} ({args.timeout:g} s per function{extra})\n")
    print("| " + " | ".join(counts) + " | time s |")
    print("|" + "---|" * (len(counts) + 1))
    print("| " + " | ".join(str(v) for v in counts.values()) + f" | {elapsed:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
