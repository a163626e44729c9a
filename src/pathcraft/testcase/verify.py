"""`--verify`: run the generated tests, check each took its claimed path,
and measure branch coverage of the target module with coverage.py.

Everything that executes analysed code runs in subprocesses, with the
module's folder on PYTHONPATH, as a pytest user would run the file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pathcraft.testcase.model import TestCase


@dataclass
class CaseCheck:
    name: str
    outcome_ok: bool
    path_ok: bool
    detail: str = ""


@dataclass
class VerifyReport:
    tests: int = 0
    passed: int = 0
    failed: int = 0
    cases: list[CaseCheck] = field(default_factory=list)
    coverage: dict[str, dict[str, Any]] = field(default_factory=dict)
    error: str | None = None
    passing: set[str] = field(default_factory=set)  # the test functions pytest ran and passed

    @property
    def paths_ok(self) -> int:
        return sum(1 for c in self.cases if c.path_ok)

    @property
    def ok(self) -> bool:
        return (
            self.error is None
            and self.failed == 0
            and self.passed == self.tests
            and all(c.path_ok and c.outcome_ok for c in self.cases)
        )


def _env(module_dir: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = module_dir + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def same(a: Any, b: Any) -> bool:
    """Equal as JSON, so that True and 1 differ."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _root(module_path: str) -> str:
    from pathcraft.frontend.packages import import_name

    return str(import_name(Path(module_path))[1])


def check_replay(module_path: str, cases: list[TestCase], timeout: float = 300) -> list[CaseCheck]:
    module_path = str(Path(module_path).resolve())
    with tempfile.TemporaryDirectory(prefix="pathcraft-replay-") as tmp:
        data = Path(tmp) / "cases.json"
        data.write_text(json.dumps({"tests": [c.to_json() for c in cases]}), encoding="utf-8")
        results = Path(tmp) / "results.json"
        proc = subprocess.run(
            [sys.executable, "-m", "pathcraft.testcase.replay", module_path, str(data), str(results)],
            capture_output=True, text=True, timeout=timeout, cwd=tmp,
            env=_env(_root(module_path)),
        )
        if proc.returncode != 0:
            raise RuntimeError(f"replay failed: {proc.stderr.strip().splitlines()[-1:]}")
        actual = json.loads(results.read_text(encoding="utf-8"))
    checks = []
    for case, real in zip(cases, actual):
        if case.kind == "return":
            outcome_ok = real["kind"] == "return" and same(real["value"], case.value)
        else:
            outcome_ok = real["kind"] == "raise" and real["type"] == case.exc_type
        outcome_ok = outcome_ok and same(real["heap_final"], dict(case.heap_final))
        claimed = [list(e) for e in case.path]
        path_ok = claimed == real["path"]
        detail = ""
        if not outcome_ok:
            detail = f"expected {case.outcome_json()}, got {real}"
        elif not path_ok:
            detail = _first_difference(claimed, real["path"])
        checks.append(CaseCheck(case.name, outcome_ok, path_ok, detail))
    return checks


def _first_difference(claimed: list[Any], real: list[Any]) -> str:
    index = next((i for i, (a, b) in enumerate(zip(claimed, real)) if a != b), min(len(claimed), len(real)))
    def show(events: list[Any]) -> str:
        return " ".join(":".join(map(str, e[1:])) if e[0] == "line" else f"{e[0]}:{e[1]}"
                        for e in events[max(0, index - 2): index + 3])
    return f"path differs at event {index}: claimed ...{show(claimed)}... real ...{show(real)}..."


def run_pytest_with_coverage(module_path: str, test_file: str, timeout: float = 600) -> VerifyReport:
    module_path = str(Path(module_path).resolve())
    report = VerifyReport()
    with tempfile.TemporaryDirectory(prefix="pathcraft-verify-") as tmp:
        data = str(Path(tmp) / ".coverage")
        junit = str(Path(tmp) / "junit.xml")
        env = _env(_root(module_path))
        cmd = [
            sys.executable, "-m", "coverage", "run", "--branch", f"--data-file={data}",
            f"--include={module_path}", "-m", "pytest", "-q", "-p", "no:cacheprovider",
            f"--junitxml={junit}", str(Path(test_file).resolve()),
        ]
        subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=tmp, env=env)
        if not Path(junit).exists():
            report.error = "pytest did not run the generated file"
            return report
        suite = ET.parse(junit).getroot()
        suite = suite if suite.tag == "testsuite" else suite[0]
        total = int(suite.get("tests", 0))
        bad = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        report.tests, report.failed, report.passed = total, bad, total - bad - int(suite.get("skipped", 0))
        report.passing = {case.get("name", "") for case in suite.iter("testcase")
                          if not any(child.tag in ("failure", "error", "skipped") for child in case)}
        out = str(Path(tmp) / "coverage.json")
        subprocess.run(
            [sys.executable, "-m", "coverage", "json", f"--data-file={data}", "-o", out],
            capture_output=True, text=True, timeout=timeout, cwd=tmp, env=env,
        )
        if Path(out).exists():
            files = json.loads(Path(out).read_text())["files"]
            for info in files.values():
                for name, fn in info.get("functions", {}).items():
                    if name:
                        report.coverage[name] = fn["summary"]
    return report


def verify(module_path: str, test_file: str, cases: list[TestCase]) -> VerifyReport:
    """Run the file under pytest and coverage.py, then replay each case
    traced. A case took its claimed path only if its test also passed under
    pytest: a test that fails (its import, say) may never enter the
    function, whatever the replay saw."""
    report = run_pytest_with_coverage(module_path, test_file)
    if cases:
        try:
            report.cases = check_replay(module_path, cases)
        except (RuntimeError, subprocess.TimeoutExpired) as exc:
            report.error = str(exc)
    for check in report.cases:
        if check.name not in report.passing and check.path_ok:
            check.path_ok = False
            check.detail = check.detail or "its test does not pass under pytest, so its path is not shown taken"
    return report


def coverage_percent(summary: dict[str, Any]) -> float | None:
    """A function's coverage as coverage.py totals it (statements and
    branches together): 0 of 1 lines is 0%, whatever its 0 branches say.
    None when it has nothing to cover."""
    statements = int(summary.get("num_statements", 0)) + int(summary.get("num_branches", 0))
    if not statements:
        return None
    covered = int(summary.get("covered_lines", 0)) + int(summary.get("covered_branches", 0))
    return 100.0 * covered / statements
