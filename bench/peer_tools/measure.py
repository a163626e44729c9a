"""Run a tool's generated tests under coverage.py and measure the target.

Every tool's tests are measured the same way, in the main environment's
Python (which has pytest and coverage):

* the test files are copied into a fresh folder with a ``conftest.py`` that
  (a) interrupts a test after ``test_timeout`` seconds (SIGALRM; the test is
  failed with ``PeersTestTimeout``, a BaseException the code under test
  cannot swallow with ``except Exception``) and (b) logs collection and each
  test's start and outcome to a JSON-lines file;
* ``coverage run --branch -m pytest`` runs them with the target's import root
  on PYTHONPATH (and its own folder appended to sys.path);
* a watchdog kills the run when the log shows no progress for a while (a test
  stuck in C code, e.g. ``2 ** huge``, ignores SIGALRM); the stuck test is
  recorded as timed out, deselected, and the run restarted, so one hung test
  never stalls the harness nor hides the others' results;
* branch coverage of the target alone: the branch arcs (arcs out of lines
  with two or more exits, as coverage.py defines them) whose source line lies
  in the target's ``def`` range, executed over possible. Statement coverage
  of the body is recorded too, and used as the coverage of a function with
  no branch at all.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .procs import kill_group
from .targets import LineRange, Target

# Python run at startup of every tool and test process (via PYTHONPATH): the
# corpus's import shims (see shared/corpus/README.md).
SITECUSTOMIZE = '''\
"""Written by bench/peers.py: import shims for the benchmark corpus."""
import collections
import collections.abc

for _name in ("MutableMapping", "Mapping", "MutableSet", "MutableSequence",
              "Sequence", "Iterable", "Iterator", "Callable", "Hashable"):
    if not hasattr(collections, _name):
        setattr(collections, _name, getattr(collections.abc, _name))
'''

CONFTEST = '''\
"""Written by bench/peers.py: per-test timeout and an event log."""
import json
import os
import signal
import sys

import pytest

_LOG = os.environ["PEERS_EVENTS"]
_TIMEOUT = float(os.environ.get("PEERS_TEST_TIMEOUT", "10"))
for _p in os.environ.get("PEERS_APPEND_PATH", "").split(os.pathsep):
    if _p and _p not in sys.path:
        sys.path.append(_p)


def _emit(**fields):
    with open(_LOG, "a") as fh:
        fh.write(json.dumps(fields) + "\\n")


class PeersTestTimeout(BaseException):
    pass


def _on_alarm(signum, frame):
    raise PeersTestTimeout("test ran longer than %ss" % _TIMEOUT)


def pytest_collectreport(report):
    if report.failed:
        _emit(event="collect_error", nodeid=report.nodeid,
              message=str(report.longrepr)[-3000:])


def pytest_collection_finish(session):
    _emit(event="collected", nodeids=[item.nodeid for item in session.items])


def pytest_runtest_logstart(nodeid, location):
    _emit(event="start", nodeid=nodeid)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, _TIMEOUT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def pytest_runtest_logreport(report):
    text = str(report.longrepr) if report.longrepr else ""
    _emit(event="report", nodeid=report.nodeid, when=report.when,
          outcome=report.outcome, timeout="PeersTestTimeout" in text,
          xfail=hasattr(report, "wasxfail"),
          message=text[-800:] if report.failed else "")


def pytest_runtest_logfinish(nodeid, location):
    _emit(event="finish", nodeid=nodeid)
'''

PYTEST_INI = "[pytest]\naddopts =\npython_files = test_*.py\n"


@dataclass
class RangeCoverage:
    qualname: str
    start: int
    end: int
    branches_total: int = 0
    branches_hit: int = 0
    lines_total: int = 0
    lines_hit: int = 0

    @property
    def percent(self) -> float:
        """Branch coverage; statement coverage when there is no branch."""
        if self.branches_total:
            return 100.0 * self.branches_hit / self.branches_total
        if self.lines_total:
            return 100.0 * self.lines_hit / self.lines_total
        return 0.0

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["percent"] = round(self.percent, 2)
        return data


@dataclass
class TestRun:
    tests: int = 0  # collected test functions
    passed: int = 0
    failed: int = 0  # failures and errors, timeouts included
    skipped: int = 0
    xfailed: int = 0  # included in passed
    timed_out: int = 0
    imports: bool = False  # every generated file was collected without error
    collect_errors: list[str] = field(default_factory=list)
    outcomes: dict[str, str] = field(default_factory=dict)
    restarts: int = 0
    wall: float = 0.0
    error: str | None = None  # the run itself failed (not a test)
    target: RangeCoverage | None = None
    callees: list[RangeCoverage] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "tests": self.tests,
            "passed": self.passed,
            "failed": self.failed,
            "skipped": self.skipped,
            "xfailed": self.xfailed,
            "timed_out": self.timed_out,
            "imports": self.imports,
            "collect_errors": self.collect_errors,
            "outcomes": self.outcomes,
            "restarts": self.restarts,
            "wall": round(self.wall, 3),
            "error": self.error,
            "coverage": self.target.as_dict() if self.target else None,
            "callees": [c.as_dict() for c in self.callees],
        }


def _read_events(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    events = []
    for line in path.read_text(errors="replace").splitlines():
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line cut short by a kill
    return events


def _last_event(path: Path) -> str | None:
    """The kind of the last complete event in the log at ``path``."""
    with open(path, "rb") as fh:
        fh.seek(0, 2)
        fh.seek(max(0, fh.tell() - 65536))
        lines = fh.read().decode(errors="replace").splitlines()
    for line in reversed(lines):
        try:
            return str(json.loads(line)["event"])
        except (json.JSONDecodeError, KeyError, TypeError):
            continue  # a line still being written, or cut by the seek
    return None


def write_support_files(folder: Path) -> Path:
    """Write the shim folder (``sitecustomize.py``) and return it."""
    shim = folder / "_peers_shims"
    shim.mkdir(parents=True, exist_ok=True)
    (shim / "sitecustomize.py").write_text(SITECUSTOMIZE)
    return shim


def base_env(target: Target, shim: Path, extra_path: list[Path] | None = None) -> dict[str, str]:
    """Environment of tool and test processes: import root and shims on the path."""
    env = dict(os.environ)
    parts = [str(target.import_root)] + [str(p) for p in extra_path or []] + [str(shim)]
    env["PYTHONPATH"] = os.pathsep.join(parts)
    env.pop("PYTHONHOME", None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["COLUMNS"] = "200"  # tools printing with rich: fewer wrapped error lines
    return env


def tests_env(target: Target, shim: Path, events_path: Path | str, test_timeout: float) -> dict[str, str]:
    """Environment of a run of generated tests under ``CONFTEST``.

    ``events_path`` receives the event log (``os.devnull`` when nobody reads
    it: the mutation benchmark runs the same tests once per mutant).
    """
    env = base_env(target, shim)
    env["PEERS_EVENTS"] = str(events_path)
    env["PEERS_TEST_TIMEOUT"] = str(test_timeout)
    # The target's own folder, after the standard library (a corpus file must
    # not shadow a stdlib module): pathcraft's tests import it by file name.
    env["PEERS_APPEND_PATH"] = str(target.file.parent)
    return env


def run_tests(
    test_files: list[Path],
    target: Target,
    workdir: Path,
    *,
    test_timeout: float = 10.0,
    python: str = sys.executable,
    stall_slack: float = 20.0,
    collect_limit: float = 90.0,
    max_restarts: int = 8,
    overall_limit: float = 900.0,
) -> TestRun:
    """Run ``test_files`` under coverage and measure ``target``."""
    result = TestRun()
    start = time.monotonic()
    tests_dir = workdir / "tests"
    if tests_dir.exists():
        shutil.rmtree(tests_dir)
    tests_dir.mkdir(parents=True)
    for i, src in enumerate(test_files):
        name = src.name if src.name.startswith("test_") else f"test_{src.name}"
        if (tests_dir / name).exists():
            name = f"test_{i}_{src.name}"
        shutil.copy(src, tests_dir / name)
    (tests_dir / "conftest.py").write_text(CONFTEST)
    (tests_dir / "pytest.ini").write_text(PYTEST_INI)
    shim = write_support_files(workdir)
    events_path = workdir / "test-events.jsonl"
    events_path.unlink(missing_ok=True)
    env = tests_env(target, shim, events_path, test_timeout)
    env["COVERAGE_FILE"] = str(tests_dir / ".coverage")

    hung: list[str] = []
    log_out = workdir / "pytest.out"
    while True:
        cmd = [
            python, "-m", "coverage", "run", "--branch", "--parallel-mode",
            f"--include={target.file}",
            "-m", "pytest", "-q", "-p", "no:cacheprovider", "--continue-on-collection-errors",
            "--rootdir", str(tests_dir), str(tests_dir),
        ]
        for nodeid in hung:
            cmd += ["--deselect", nodeid]
        mark = len(_read_events(events_path))
        killed_reason = _watch(cmd, tests_dir, env, events_path, log_out,
                               test_timeout + stall_slack, collect_limit,
                               overall_limit - (time.monotonic() - start))
        if killed_reason is None:
            break
        run_events = _read_events(events_path)[mark:]
        started = [e["nodeid"] for e in run_events if e["event"] == "start"]
        finished = {e["nodeid"] for e in run_events if e["event"] == "finish"}
        stuck = [n for n in started if n not in finished]
        if not stuck or killed_reason == "overall" or len(hung) >= max_restarts:
            result.error = (
                "test run killed: " + ("no progress during collection" if not started else killed_reason)
                + (f" (last test {stuck[-1]})" if stuck else "")
            )
            hung.extend(stuck)
            break
        hung.append(stuck[-1])
        result.restarts += 1

    events = _read_events(events_path)
    collected: list[str] = []
    for e in events:
        if e["event"] == "collected":
            collected = list(e["nodeids"])  # the last (complete) collection wins
    collected_all = set(collected) | set(hung)
    result.collect_errors = sorted(
        {f"{e['nodeid']}: {e['message'][-600:]}" for e in events if e["event"] == "collect_error"}
    )
    outcomes: dict[str, str] = {}
    for e in events:
        if e["event"] != "report":
            continue
        prev = outcomes.get(e["nodeid"])
        if e["outcome"] == "failed":
            outcomes[e["nodeid"]] = "timeout" if e.get("timeout") else (
                "error" if e["when"] != "call" else "failed")
        elif e["outcome"] == "skipped" and e.get("xfail") and prev is None:
            # Pynguin marks a test whose call raises as xfail(strict=True):
            # the exception it expects did happen. Counted as passing.
            outcomes[e["nodeid"]] = "xfailed"
        elif e["outcome"] == "skipped" and prev is None:
            outcomes[e["nodeid"]] = "skipped"
        elif e["outcome"] == "passed" and e["when"] == "call" and prev is None:
            outcomes[e["nodeid"]] = "passed"
    for nodeid in hung:
        outcomes[nodeid] = "timeout"
    for nodeid in collected_all:
        outcomes.setdefault(nodeid, "error")  # started but never reported
    result.outcomes = dict(sorted(outcomes.items()))
    result.tests = len(collected_all)
    result.passed = sum(1 for v in outcomes.values() if v in ("passed", "xfailed"))
    result.xfailed = sum(1 for v in outcomes.values() if v == "xfailed")
    result.skipped = sum(1 for v in outcomes.values() if v == "skipped")
    result.timed_out = sum(1 for v in outcomes.values() if v == "timeout")
    result.failed = sum(1 for v in outcomes.values() if v in ("failed", "error", "timeout"))
    result.imports = bool(events) and not result.collect_errors and any(
        e["event"] == "collected" for e in events)
    if result.error is None and not events:
        result.error = "pytest did not start: " + log_out.read_text(errors="replace")[-1500:]
    assert target.range is not None
    result.target, result.callees = measure_coverage(tests_dir, target.file, target.range, target.callees)
    result.wall = time.monotonic() - start
    return result


def _watch(
    cmd: list[str],
    cwd: Path,
    env: dict[str, str],
    events_path: Path,
    log_out: Path,
    stall_limit: float,
    collect_limit: float,
    overall_limit: float,
) -> str | None:
    """Run ``cmd``; kill it when the event log stalls. None if it ended by itself."""
    with open(log_out, "ab") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        began = last = time.monotonic()
        size = events_path.stat().st_size if events_path.exists() else 0
        try:
            return _wait(proc, events_path, size, began, last,
                         stall_limit, collect_limit, overall_limit)
        except BaseException:  # interrupted: do not leave the test run behind
            kill_group(proc)
            raise


def _wait(
    proc: subprocess.Popen[bytes],
    events_path: Path,
    size: int,
    began: float,
    last: float,
    stall_limit: float,
    collect_limit: float,
    overall_limit: float,
) -> str | None:
    """Poll ``proc`` and the event log; the kill reason, or None if it ended.

    The short ``stall_limit`` applies only while a test runs (its last event
    is its start or a report). Collection, the gaps between tests and the
    end of the run (pytest's summary, coverage.py saving its data, slow on
    a loaded machine) get ``collect_limit``: killing the run there would
    lose the coverage of every test that already passed.
    """
    in_test = False
    while proc.poll() is None:
        time.sleep(0.1)
        now = time.monotonic()
        new_size = events_path.stat().st_size if events_path.exists() else 0
        if new_size != size:
            size, last = new_size, now
            in_test = _last_event(events_path) in ("start", "report")
        limit = stall_limit if in_test else collect_limit
        reason = None
        if now - last > limit:
            reason = f"no progress for {limit:.0f}s"
        elif now - began > overall_limit:
            reason = "overall"
        if reason:
            kill_group(proc)
            proc.wait()
            return reason
    return None


def _static_arcs(file: Path) -> tuple[set[int], set[tuple[int, int]]]:
    """Statements and branch arcs of ``file`` as coverage.py's parser sees them."""
    from coverage.parser import PythonParser

    parser = PythonParser(filename=str(file))
    parser.parse_source()
    exits = parser.exit_counts()
    branch_arcs = {(a, b) for (a, b) in parser.arcs() if a > 0 and exits.get(a, 0) > 1}
    return set(parser.statements), branch_arcs


def _in_body(line: int, rng: LineRange) -> bool:
    # The def line itself runs at import time: it is not part of the body.
    return rng.start < line <= rng.end


def file_coverage(data_dir: Path, file: Path) -> dict[str, Any] | None:
    """coverage.py's JSON report entry of ``file`` (combining the parallel data
    files in ``data_dir``), or None when the file was never executed."""
    import coverage

    data_files = [str(p) for p in data_dir.glob(".coverage.*")]
    if not data_files:
        return None
    cov = coverage.Coverage(data_file=str(data_dir / ".coverage-combined"), branch=True)
    cov.combine(data_files, keep=True)
    report = data_dir / "coverage.json"
    try:
        cov.json_report(outfile=str(report), include=[str(file)])
    except coverage.exceptions.NoDataError:
        return None
    files = json.loads(report.read_text()).get("files", {})
    for name, entry in files.items():
        if Path(name).resolve() == file.resolve() or len(files) == 1:
            return dict(entry)
    return None


def range_coverage(entry: dict[str, Any] | None, file: Path, rng: LineRange) -> RangeCoverage:
    """Coverage of the lines and branch arcs inside ``rng``."""
    rc = RangeCoverage(rng.qualname, rng.start, rng.end)
    if entry is None:
        statements, arcs = _static_arcs(file)
        rc.lines_total = sum(1 for s in statements if _in_body(s, rng))
        rc.branches_total = sum(1 for a, _ in arcs if rng.start <= a <= rng.end)
        return rc
    executed = [ln for ln in entry["executed_lines"] if _in_body(ln, rng)]
    missing = [ln for ln in entry["missing_lines"] if _in_body(ln, rng)]
    rc.lines_hit = len(executed)
    rc.lines_total = len(executed) + len(missing)
    hit = [a for a in entry.get("executed_branches", []) if rng.start <= a[0] <= rng.end]
    miss = [a for a in entry.get("missing_branches", []) if rng.start <= a[0] <= rng.end]
    rc.branches_hit = len(hit)
    rc.branches_total = len(hit) + len(miss)
    return rc


def measure_coverage(
    data_dir: Path, file: Path, target: LineRange, callees: list[LineRange]
) -> tuple[RangeCoverage, list[RangeCoverage]]:
    entry = file_coverage(data_dir, file)
    return range_coverage(entry, file, target), [range_coverage(entry, file, c) for c in callees]
