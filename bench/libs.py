"""Library sweep: each typed library of the corpus (`../shared/corpus/libs/`)
run as a new user would run it, as a package (`pathcraft gen PKG -o DIR
--jobs J --timeout T --report R.json`), its tests then run with pytest (the
library's root on the import path). Prints, per library: functions and
methods, those with a passing test on a real path (one that checks a value,
a mutation or an exception other than AttributeError), tests, failing
tests, files that do not collect, internal errors, modules stopped past
their budget; then the refusals most often met (the first blocker of each
skipped function):

    python bench/libs.py --out /tmp/libs-sweep
    python bench/libs.py --out /tmp/libs-sweep --only boltons --timeout 5
    python bench/libs.py --out /tmp/libs-sweep --execute   # observed tests too
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

REPO = Path(__file__).resolve().parent.parent
LIBS = REPO.parent / "shared" / "corpus" / "libs"
sys.path.insert(0, str(Path(__file__).resolve().parent))
from reach import construct  # noqa: E402

COLUMNS = ("functions", "with a real test", "tests", "observed", "failed", "not collected", "internal errors",
           "past budget")
# a test that states only an AttributeError, or only the type of a value, is no real test of the function
WEAK = ("raises_attribute_error", "observed_raises_attribute_error", "observed_returns_type")
TEST = re.compile(r"^def (test_\w+?)_\d+_(\w+)\(", re.MULTILINE)


def package_of(library: Path) -> Path:
    """The importable package inside a library folder (`python_slugify/slugify`)."""
    found = [p for p in sorted(library.iterdir()) if (p / "__init__.py").is_file()]
    if not found:
        raise SystemExit(f"no package in {library}")
    return found[0]


def generate(library: Path, out: Path, jobs: int, timeout: float, execute: bool = False,
             extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """`pathcraft gen` over the library's package, afresh (a package run
    would read an earlier run's unchanged modules back); its JSON report."""
    report = out / f"{library.name}.json"
    shutil.rmtree(out / library.name, ignore_errors=True)
    report.unlink(missing_ok=True)
    subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(package_of(library)), "-o", str(out / library.name),
                    "--jobs", str(jobs), "--timeout", str(timeout), "--report", str(report), "--quiet",
                    *(["--execute"] if execute else []), *extra],
                   capture_output=True, text=True, timeout=7200)
    if not report.exists():
        return {"per module": [], "functions": 0, "skipped functions": 0, "failed functions": 0}
    result: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    return result


def run_tests(library: Path, folder: Path) -> tuple[set[str], collections.Counter[str]]:
    """pytest over the generated tree: the names of the tests that pass, and
    the counts of failures and files that do not collect."""
    counts: collections.Counter[str] = collections.Counter()
    passing: set[str] = set()
    if not folder.is_dir():
        return passing, counts
    junit = folder / "junit.xml"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                          f"--junitxml={junit}", "."], capture_output=True, text=True, cwd=folder, timeout=3600,
                         env={**os.environ, "PYTHONPATH": str(library)})
    if junit.exists():
        for case in ElementTree.parse(junit).getroot().iter("testcase"):
            outcome = {child.tag for child in case}
            if "failure" in outcome:
                counts["failed"] += 1
            elif "error" not in outcome and "skipped" not in outcome:  # errors: the ERROR lines below
                passing.add(f"{case.get('classname', '')}::{case.get('name', '')}")
    counts["not collected"] += len(re.findall(r"^ERROR .*", run.stdout, re.MULTILINE))
    return passing, counts


def sweep_library(library: Path, out: Path, jobs: int, timeout: float,
                  execute: bool = False, extra: tuple[str, ...] = ()) -> tuple[dict[str, int], list[str]]:
    """One library's row and the refusal reasons of its skipped functions
    (`extra`: more options of `pathcraft gen`)."""
    report = generate(library, out, jobs, timeout, execute, extra)
    passing, counts = run_tests(library, out / library.name)
    row = dict.fromkeys(COLUMNS, 0)
    row["functions"] = report["functions"] + report["skipped functions"] + report["failed functions"]
    row["failed"], row["not collected"] = counts["failed"], counts["not collected"]
    reasons: list[str] = []
    for module in report["per module"]:
        reasons += [construct(why) for why in module.get("skipped", {}).values()]
        # each failed function once (a module's message repeats its first failure)
        failed = [str(v) for v in module.get("failed", {}).values()] or [module.get("message", "")]
        row["internal errors"] += sum("internal error" in why for why in failed)
        row["past budget"] += sum("did not finish" in why for why in failed)
        if not module.get("output"):
            continue
        test_file = out / library.name / module["output"]
        if not test_file.is_file():
            continue
        text = test_file.read_text(encoding="utf-8")
        row["tests"] += text.count("\ndef test_")
        row["observed"] += len(re.findall(r"^def test_\w+_\d+_observed_", text, re.MULTILINE))
        classname = ".".join(test_file.relative_to(out / library.name).with_suffix("").parts)
        telling = {m.group(0)[4:-1]: m.group(1) for m in TEST.finditer(text) if m.group(2) not in WEAK}
        row["with a real test"] += len({f for name, f in telling.items() if f"{classname}::{name}" in passing})
    return row, reasons


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="folder for the generated tests and reports")
    parser.add_argument("--libs", type=Path, default=LIBS, help="folder of the libraries [the corpus's libs/]")
    parser.add_argument("--only", action="append", default=[], help="only this library (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, help="pathcraft workers per library [2]")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per function [2]")
    parser.add_argument("--gen", action="append", default=[], metavar="OPTION",
                        help="one more option of pathcraft gen, e.g. --gen=--suite --gen=compact (repeatable; "
                             "'with a real test' counts tests of one path each, not a compact suite's tables)")
    parser.add_argument("--execute", action="store_true",
                        help="run pathcraft with --execute (observed tests for the functions it refuses)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    libraries = [p for p in sorted(args.libs.iterdir()) if p.is_dir() and (not args.only or p.name in args.only)]
    started = time.perf_counter()
    total = dict.fromkeys(COLUMNS, 0)
    reasons: collections.Counter[str] = collections.Counter()
    print(f"library sweep under Python {sys.version.split()[0]} (--jobs {args.jobs} --timeout {args.timeout:g}"
          f"{' --execute' if args.execute else ''})\n")
    print("| library | " + " | ".join(COLUMNS) + " | share |")
    print("|---" * (len(COLUMNS) + 2) + "|")
    for library in libraries:
        row, found = sweep_library(library, args.out, args.jobs, args.timeout, args.execute, tuple(args.gen))
        reasons.update(found)
        for key in COLUMNS:
            total[key] += row[key]
        share = 100 * row["with a real test"] / row["functions"] if row["functions"] else 0
        print(f"| {library.name} | " + " | ".join(str(row[k]) for k in COLUMNS) + f" | {share:.0f}% |", flush=True)
    share = 100 * total["with a real test"] / total["functions"] if total["functions"] else 0
    print("| **all** | " + " | ".join(str(total[k]) for k in COLUMNS) + f" | {share:.1f}% |")
    print(f"\n{time.perf_counter() - started:.0f} s\n")
    print("refusals most often met (first blocker of each skipped function):\n")
    print("| refusal | functions |\n|---|---|")
    for reason, count in reasons.most_common(25):
        print(f"| {reason.replace('|', '/')} | {count} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
