"""One package of a corpus swept as a new user would sweep it: `pathcraft gen
PKG -o DIR --jobs J --timeout T --report R.json` (one process, its workers
reused across the package's modules), then pytest over the generated tree
with the package's import root on the import path; its row of counts.

Shared by `bench/libs.py` (each typed library of the corpus) and
`bench/reach.py --jobs N` (each top-level folder of TheAlgorithms).
"""

from __future__ import annotations

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

COLUMNS = ("functions", "with a real test", "tests", "observed", "failed", "not collected", "internal errors",
           "past budget", "stopped by budget")
# a test that states only an AttributeError, or only the type of a value, is no real test of the function
WEAK = ("raises_attribute_error", "observed_raises_attribute_error", "observed_returns_type")
TEST = re.compile(r"^def (test_\w+?)_\d+_(\w+)\(", re.MULTILINE)


def generate(package: Path, out: Path, jobs: int, timeout: float, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """`pathcraft gen` over `package` into `out/<package name>`, afresh (a
    package run would read an earlier run's unchanged modules back); its
    JSON report."""
    report = out / f"{package.name}.json"
    out.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(out / package.name, ignore_errors=True)
    report.unlink(missing_ok=True)
    subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(package), "-o", str(out / package.name),
                    "--jobs", str(jobs), "--timeout", str(timeout), "--report", str(report), "--quiet", *extra],
                   capture_output=True, text=True, timeout=7200)
    if not report.exists():
        return {"per module": [], "functions": 0, "skipped functions": 0, "failed functions": 0}
    result: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    return result


def run_tests(import_root: Path, folder: Path, workers: int = 1) -> tuple[set[str], collections.Counter[str]]:
    """pytest over the generated tree (on `workers` xdist workers): the names
    of the tests that pass, and the counts of failures and files that do not
    collect."""
    counts: collections.Counter[str] = collections.Counter()
    passing: set[str] = set()
    if not folder.is_dir():
        return passing, counts
    junit = folder / "junit.xml"
    spread = ["-n", str(workers)] if workers > 1 else ["-p", "no:xdist"]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *spread,
                          f"--junitxml={junit}", "."], capture_output=True, text=True, cwd=folder, timeout=3600,
                         env={**os.environ, "PYTHONPATH": str(import_root)})
    if junit.exists():
        for case in ElementTree.parse(junit).getroot().iter("testcase"):
            outcome = {child.tag for child in case}
            if "failure" in outcome:
                counts["failed"] += 1
            elif "error" not in outcome and "skipped" not in outcome:  # errors: the ERROR lines below
                passing.add(f"{case.get('classname', '')}::{case.get('name', '')}")
    counts["not collected"] += len(re.findall(r"^ERROR .*", run.stdout, re.MULTILINE))
    return passing, counts


def sweep_package(package: Path, import_root: Path, out: Path, jobs: int, timeout: float,
                  extra: tuple[str, ...] = ()) -> tuple[dict[str, Any], dict[str, Any]]:
    """One package's row (COLUMNS, and the seconds of generation and of
    pytest) and its pathcraft report (`extra`: more options of `pathcraft
    gen`)."""
    started = time.perf_counter()
    report = generate(package, out, jobs, timeout, extra)
    generated = time.perf_counter()
    passing, counts = run_tests(import_root, out / package.name, jobs)
    row: dict[str, Any] = dict.fromkeys(COLUMNS, 0)
    row["gen s"] = round(generated - started, 1)
    row["pytest s"] = round(time.perf_counter() - generated, 1)
    row["functions"] = report["functions"] + report["skipped functions"] + report["failed functions"]
    row["failed"], row["not collected"] = counts["failed"], counts["not collected"]
    for module in report["per module"]:
        # each failed function once (a module's message repeats its first failure)
        failed = [str(v) for v in module.get("failed", {}).values()] or [module.get("message", "")]
        row["internal errors"] += sum("internal error" in why for why in failed)
        row["past budget"] += sum("did not finish" in why for why in failed)
        row["stopped by budget"] += sum("budget reached" in str(run.get("stopped", ""))
                                        for run in module.get("per_function", {}).values())
        if not module.get("output"):
            continue
        test_file = out / package.name / module["output"]
        if not test_file.is_file():
            continue
        text = test_file.read_text(encoding="utf-8")
        row["tests"] += text.count("\ndef test_")
        row["observed"] += len(re.findall(r"^def test_\w+_\d+_observed_", text, re.MULTILINE))
        classname = ".".join(test_file.relative_to(out / package.name).with_suffix("").parts)
        telling = {m.group(0)[4:-1]: m.group(1) for m in TEST.finditer(text) if m.group(2) not in WEAK}
        row["with a real test"] += len({f for name, f in telling.items() if f"{classname}::{name}" in passing})
    return row, report


def different_files(one: Path, other: Path) -> list[str]:
    """The generated test files (`test_*.py`) that are not byte-identical
    in the two trees, or are in only one of them."""
    def files(root: Path) -> dict[str, bytes]:
        return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("test_*.py"))}
    mine, theirs = files(one), files(other)
    return sorted(name for name in mine.keys() | theirs.keys() if mine.get(name) != theirs.get(name))
