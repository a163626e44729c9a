"""Package runs (pathcraft/app/batch.py): a test file per module under a
mirrored tree, the same files with one job or two, a second run that
regenerates only what changed, and the generated suite passing."""

from __future__ import annotations

import json
import re
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "pkg_batch"


def gen(package: Path, out: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(package), "-o", str(out), "--timeout", "20",
                           "--report", str(out.parent / f"{out.name}.json"), *options],
                          capture_output=True, text=True, cwd=package.parent)


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*.py"))}


@pytest.fixture()
def package(tmp_path: Path) -> Path:
    copy = tmp_path / "pkg_batch"
    shutil.copytree(FIXTURE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "tests").mkdir()
    (copy / "tests" / "test_mine.py").write_text("def test_mine() -> None:\n    pass\n")  # the user's own tests
    return copy


def report(out: Path) -> dict[str, object]:
    return json.loads((out.parent / f"{out.name}.json").read_text())  # type: ignore[no-any-return]


def test_a_package_gets_a_mirrored_tree_that_passes(package: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    done = gen(package, out, "--exclude", "skipped_*", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert sorted(files(out)) == ["sub/test_sub__arith.py", "sub/test_sub__uses.py", "test_arith.py"]
    summary = report(out)
    per_module = {m["module"]: m for m in summary["per module"]}  # type: ignore[union-attr, index]
    assert set(per_module) == {"pkg_batch/__init__.py", "pkg_batch/arith.py", "pkg_batch/constants.py",
                               "pkg_batch/sub/__init__.py", "pkg_batch/sub/arith.py", "pkg_batch/sub/uses.py"}
    assert per_module["pkg_batch/constants.py"]["status"] == "no tests"
    assert per_module["pkg_batch/arith.py"]["functions"] == 2 and summary["failed modules"] == 0
    assert "6 modules" in done.stderr and "on 2 workers" in done.stderr
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out)],
                         capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(package.parent)})
    assert ran.returncode == 0 and "failed" not in ran.stdout, ran.stdout


def test_two_jobs_write_the_files_one_job_writes(package: Path, tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    assert gen(package, one, "--jobs", "1", "-q").returncode == 0
    assert gen(package, two, "--jobs", "2", "-q").returncode == 0
    assert files(one) == files(two) and files(one)


def test_a_second_run_regenerates_only_what_changed(package: Path, tmp_path: Path) -> None:
    out = tmp_path / "generated"
    assert gen(package, out, "-q").returncode == 0
    before = files(out)
    again = gen(package, out, "-q")
    assert again.returncode == 0 and report(out)["unchanged modules"] == 7 and files(out) == before
    arith = package / "arith.py"
    arith.write_text(arith.read_text().replace("return -1\n", "return -2\n"))
    edited = gen(package, out, "-q")
    statuses = {m["module"]: m["status"] for m in report(out)["per module"]}  # type: ignore[union-attr, index]
    assert statuses["pkg_batch/arith.py"] == "written" and statuses["pkg_batch/sub/uses.py"] == "written"
    assert statuses["pkg_batch/sub/arith.py"] == "unchanged"  # imports nothing that changed
    assert edited.returncode == 0 and files(out)["test_arith.py"] != before["test_arith.py"]
    (out / "sub" / "test_sub__arith.py").unlink()  # a test file gone: its module runs again
    gen(package, out, "-q")
    assert "sub/test_sub__arith.py" in files(out)
    assert gen(package, out, "-q", "--no-incremental").returncode == 0
    assert report(out)["unchanged modules"] == 0


def test_the_workers_read_unchanged_functions_back_from_the_store(package: Path, tmp_path: Path) -> None:
    """With --compose and a store, an edited module runs again on the
    workers but only its edited function is searched: the others' tests
    are read back (testcase/stored.py), and the files are those a plain
    run writes."""
    store = tmp_path / "store"
    composed, plain = tmp_path / "composed", tmp_path / "plain"
    options = ("-q", "--jobs", "2", "--compose", "on-demand", "--summaries", str(store))
    assert gen(package, composed, *options).returncode == 0
    kept = {json.loads(f.read_text())["key"]["function"] for f in store.glob("*.json")
            if json.loads(f.read_text())["key"].get("kind") == "tests"}
    assert {"sign", "clamp"} <= kept
    arith = package / "arith.py"
    arith.write_text(arith.read_text().replace("return high\n", "return high + 0\n"))
    started = {f.name for f in store.glob("*.json")}
    assert gen(package, composed, *options).returncode == 0
    new = [json.loads((store / name).read_text())["key"] for name in {f.name for f in store.glob("*.json")} - started]
    assert {key["function"] for key in new if key.get("kind") == "tests"} == {"clamp"}  # sign was read back
    assert gen(package, plain, "-q", "--jobs", "2").returncode == 0
    assert files(composed) == files(plain)


def test_a_module_whose_functions_are_all_refused_is_no_failure(package: Path, tmp_path: Path) -> None:
    (package / "untyped.py").write_text("def f(x):\n    return x.y\n")
    out = tmp_path / "generated"
    assert gen(package, out, "-q").returncode == 0
    untyped = {m["module"]: m for m in report(out)["per module"]}["pkg_batch/untyped.py"]  # type: ignore[union-attr, index]
    assert untyped["status"] == "no tests" and "f" in untyped["skipped"]
    gen(package, out, "-q")
    assert report(out)["unchanged modules"] == 8  # not run again either


def test_the_report_gives_each_function_its_tests_and_dropped_paths(package: Path, tmp_path: Path) -> None:
    """What a one-module run prints of a function ("some paths dropped:
    ...") is in the package run's JSON report too."""
    (package / "partial.py").write_text("def f(x: int, s: str) -> str:\n    if x > 0:\n        return s\n"
                                        "    return '{:+4}'.format(s)\n")
    (package / "spin.py").write_text("def f(x: int) -> int:\n    while True:\n        pass\n")
    out = tmp_path / "generated"
    done = gen(package, out, "-q")
    assert done.returncode == 0
    summary = report(out)
    per_module = {m["module"]: m for m in summary["per module"]}  # type: ignore[union-attr, index]
    assert per_module["pkg_batch/partial.py"]["per_function"] == {"f": {"tests": 1,
                                                                        "dropped": ["unsupported str.format()"]}}
    # a function with no test says why, and the run counts such functions and their reasons
    cut = ("the one path followed was cut by a bound of the search (the loop bound of --criterion, --max-call-depth "
           "or a cost budget) before it ended")
    assert per_module["pkg_batch/spin.py"]["per_function"] == {"f": {"tests": 0, "dropped": [cut]}}
    without = sum(1 for m in summary["per module"] for r in m["per_function"].values()  # type: ignore[union-attr]
                  if not r["tests"])
    assert summary["functions without a test"] == without >= 1
    reasons = {r["reason"]: r["functions"] for r in summary["top reasons"]}  # type: ignore[union-attr]
    assert reasons[cut] == 1
    skipped = [why for m in summary["per module"] for why in m["skipped"].values()]  # type: ignore[union-attr]
    assert sum(reasons.values()) <= len(skipped) + without
    said = " ".join(done.stderr.split())
    assert f"; {without} without a test)" in said and "pathcraft: most common reasons for no test: " in said
    assert re.search(r"spin\.py +no tests +1 +0 +0 +1 ", done.stderr)  # the table's "no test" column


def test_a_broken_module_fails_alone(package: Path, tmp_path: Path) -> None:
    (package / "broken.py").write_text("def f(:\n")
    out = tmp_path / "generated"
    done = gen(package, out, "-q")
    assert done.returncode == 1
    per_module = {m["module"]: m for m in report(out)["per module"]}  # type: ignore[union-attr, index]
    assert per_module["pkg_batch/broken.py"]["status"] == "failed"
    assert "syntax error" in per_module["pkg_batch/broken.py"]["message"]
    assert "test_arith.py" in files(out)


@pytest.mark.parametrize("where", ["missing", "a file"])
def test_the_output_must_be_a_folder(package: Path, tmp_path: Path, where: str) -> None:
    command = [sys.executable, "-m", "pathcraft", "gen", str(package)]
    if where == "a file":
        (tmp_path / "x.py").write_text("")
        command += ["-o", str(tmp_path / "x.py")]
    done = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("pathcraft: ") and "Traceback" not in done.stderr


def test_package_options_on_one_module_are_refused_in_one_line(package: Path, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(package / "arith.py"), "--jobs", "2",
                           "--split-depth", "3"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("pathcraft: --jobs, --split-depth: for a package target"), done.stderr
