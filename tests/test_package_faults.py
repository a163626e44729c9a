"""Faults in package runs (pathcraft/app/batch.py, pool.py, cluster.py): a
worker killed mid-item (the item runs again and the files are those of an
undisturbed run), a function that outlives its item budget (reported, the
run goes on), Ctrl-C (the tests that came back are in the files, which are
valid Python), and the same on a Dask LocalCluster."""

from __future__ import annotations

import ast
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from pathcraft.app.batch import run_package
from pathcraft.config import Settings
from pathcraft.app.pool import WorkerPool
from pathcraft.app.workitem import settings_dict

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "pkg_faults"
SETTINGS = settings_dict(Settings(timeout=120))  # the searches end on their own, well inside the budget


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*.py"))}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("faults") / "pkg_faults"
    shutil.copytree(FIXTURE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


@pytest.fixture(scope="module")
def undisturbed(package: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The files of a run with one worker and no fault."""
    out = tmp_path_factory.mktemp("undisturbed") / "out"
    done = run_package(package, out, SETTINGS, WorkerPool(1), incremental=False)
    assert not done.interrupted and all(o.status != "failed" for o in done.outcomes)
    return files(out)


def test_a_package_file_is_the_file_one_module_run_writes(package: Path, undisturbed: dict[str, bytes],
                                                          tmp_path: Path) -> None:
    single = tmp_path / "single.py"
    done = subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(package / "branchy.py"), "-o", str(single),
                           "--timeout", "120"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert single.read_bytes() == undisturbed["test_branchy.py"]


class KillOnce:
    """Kills the worker that takes `branchy` 0.3 s after it took it (the
    item is then in flight), once."""

    def __init__(self) -> None:
        self.killed: list[int] = []

    def __call__(self, item: dict[str, Any], pid: int) -> None:
        if item.get("qualname") == "branchy" and not self.killed:
            self.killed.append(pid)
            threading.Timer(0.3, os.kill, (pid, signal.SIGKILL)).start()  # branchy takes about 1 s


def test_a_worker_killed_mid_item_is_replaced_and_the_item_retried(package: Path, undisturbed: dict[str, bytes],
                                                                  tmp_path: Path) -> None:
    killer = KillOnce()
    out = tmp_path / "out"
    done = run_package(package, out, SETTINGS, WorkerPool(2, on_start=killer), incremental=False)
    assert killer.killed and done.retried == 1
    assert all(o.status != "failed" for o in done.outcomes)
    assert files(out) == undisturbed


ENDLESS = """def quick(a: int) -> int:
    if a > 3:
        return 1
    return 0


def endless(xs: list[int]) -> int:
    total = 0
    for x in xs:
        if x > total:
            total += x
        elif x < -total:
            total -= x
        else:
            total += 1
    return total
"""


def test_a_function_past_its_item_budget_is_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    package = tmp_path / "slowpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "endless.py").write_text(ENDLESS)  # 3**12 paths at loop-12: hours, whatever the load
    shutil.copy(FIXTURE / "other.py", package / "other.py")
    settings = settings_dict(Settings(timeout=3600, criterion="loop-12", max_paths=10**7))
    out = tmp_path / "out"
    # an item budget the other module's functions keep on a loaded machine (3 s did not, beside a CI run)
    done = run_package(package, out, settings, WorkerPool(1, item_timeout=20), incremental=False)
    by_module = {o.module: o for o in done.outcomes}
    endless = by_module["slowpkg/endless.py"]
    assert endless.status == "failed" and list(endless.failed) == ["endless"]
    assert "did not finish within 20 s" in endless.failed["endless"]
    assert by_module["slowpkg/other.py"].status == "written"  # the run went on
    kept = (out / "test_endless.py").read_text()
    assert "def test_quick_1" in kept and "def test_endless_" not in kept
    ast.parse(kept)


def test_ctrl_c_keeps_the_tests_that_came_back_in_valid_files(package: Path, tmp_path: Path) -> None:
    copy = tmp_path / "pkg_faults"
    shutil.copytree(package, copy)
    (copy / "endless.py").write_text(ENDLESS)  # after branchy.py: hours at loop-12, so Ctrl-C surely finds it at work
    out = tmp_path / "out"
    # started as from a terminal: a shell that runs the suite in the background hands its children
    # Ctrl-C ignored, and a Python started so never turns it into KeyboardInterrupt
    previous = signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        run = subprocess.Popen([sys.executable, "-m", "pathcraft", "gen", str(copy), "-o", str(out), "--jobs", "1",
                                "--timeout", "120", "--criterion", "loop-12", "--max-paths", str(10**7), "-q",
                                "--no-incremental"], stderr=subprocess.PIPE, text=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    written = out / "test_endless.py"
    deadline = time.monotonic() + 120
    while not (written.exists() and "def test_quick_" in written.read_text()):  # quick is in, endless running
        assert run.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    run.send_signal(signal.SIGINT)
    try:
        _, stderr = run.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        run.kill()
        pytest.fail(f"still running 60 s after Ctrl-C; it said:\n{run.communicate()[1]}")
    assert run.returncode == 130, stderr
    assert "interrupted; kept" in stderr and "Traceback" not in stderr
    kept = written.read_text()
    ast.parse(kept)
    assert "def test_quick_2" in kept


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.2, 0.6, 1.0, 1.5, 2.5, 4.0])
def test_ctrl_c_at_any_moment_of_a_package_run_is_no_traceback(package: Path, tmp_path: Path, delay: float) -> None:
    """While it starts its workers, plans the modules or waits for items:
    a message or nothing, exit 130 (0 when it had finished), never a
    traceback (a double one once came from the wait for items)."""
    previous = signal.signal(signal.SIGINT, signal.SIG_DFL)  # as from a terminal (see the test above)
    try:
        run = subprocess.Popen([sys.executable, "-m", "pathcraft", "gen", str(package), "-o", str(tmp_path / "out"),
                                "--jobs", "2", "--timeout", "120", "-q", "--no-incremental"],
                               stderr=subprocess.PIPE, text=True)
    finally:
        signal.signal(signal.SIGINT, previous)
    time.sleep(delay)
    run.send_signal(signal.SIGINT)
    try:
        _, stderr = run.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        run.kill()
        pytest.fail(f"still running 60 s after Ctrl-C; it said:\n{run.communicate()[1]}")
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert run.returncode in (0, 130), stderr
    for written in (tmp_path / "out").rglob("*.py"):
        ast.parse(written.read_text(encoding="utf-8"))  # what was kept is valid Python


@pytest.fixture(scope="module")
def dask_pool() -> Any:
    pytest.importorskip("distributed")
    from pathcraft.app.cluster import DaskPool

    return DaskPool("local", 2)


def test_a_dask_cluster_writes_the_same_files_and_survives_a_lost_worker(package: Path,
                                                                        undisturbed: dict[str, bytes],
                                                                        dask_pool: Any, tmp_path: Path) -> None:
    pids = list(dask_pool.worker_pids().values())
    assert len(pids) == 2
    out = tmp_path / "out"
    # a worker killed once the run is under way: its items run again on the other one
    killer = threading.Timer(1.0, os.kill, (pids[0], signal.SIGKILL))
    killer.start()
    done = run_package(package, out, SETTINGS, dask_pool, incremental=False)
    killer.join()
    assert all(o.status != "failed" for o in done.outcomes), [o.message for o in done.outcomes]
    assert files(out) == undisturbed
