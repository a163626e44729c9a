"""One search split below trace prefixes (strategies/split.py, workitem.py):
the frontier's paths and those below its prefixes are the whole search's
paths, none twice, in its order; and a package run with --split-depth
writes the same files on one worker and on two."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pathcraft.config import Settings
from pathcraft.app.workitem import merged_split, run_function, settings_dict

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parent.parent / "shared" / "examples"
# whole searches, so that both sides find every path; probes and edge tests need the whole search
SETTINGS = settings_dict(Settings(timeout=300, long_probes=0, edge_tests=0))


def paths_of(texts: list[str]) -> list[tuple[str, str]]:
    """Each test's name and its path and trace comments: what names the path
    (its inputs may differ: a split part asks Z3 in a fresh session)."""
    out = []
    for text in texts:
        name = re.search(r"def (test_\w+)\(", text)
        comments = "\n".join(line for line in text.splitlines() if line.lstrip().startswith("#"))
        assert name is not None
        out.append((name.group(1), comments))
    return out


def split(source: Path, qualname: str, depth: int, settings: dict[str, Any] = SETTINGS) -> dict[str, Any]:
    frontier = run_function(str(source), qualname, settings, frontier=depth)
    parts = [frontier] + [run_function(str(source), qualname, settings, prefix=p) for p in frontier["prefixes"]]
    merged = merged_split(qualname, parts)
    merged["parts"] = len(parts)
    return merged


@pytest.mark.parametrize(("source", "qualname", "depth"), [
    (HERE / "fixtures" / "pkg_faults" / "branchy.py", "branchy", 3),
    (HERE / "fixtures" / "linked.py", "SList.remove_first", 2),  # object inputs: heap forks too
    (HERE / "fixtures" / "linked.py", "Queue.dequeue", 1),  # raises on some paths
    (EXAMPLES / "rational.py", "simp", 3),
])
def test_the_parts_of_a_split_search_are_the_whole_search(source: Path, qualname: str, depth: int) -> None:
    if not source.exists():
        pytest.skip(f"{source} is not here")
    whole = run_function(str(source), qualname, SETTINGS)
    parts = split(source, qualname, depth)
    assert whole["tests"] and parts["parts"] > 1
    assert paths_of(parts["tests"]) == paths_of(whole["tests"])


def test_a_search_shallower_than_the_split_is_its_frontier_alone() -> None:
    source = HERE / "fixtures" / "pkg_faults" / "branchy.py"
    frontier = run_function(str(source), "quick", SETTINGS, frontier=5)
    assert frontier["prefixes"] == [] and len(frontier["tests"]) == 2


def test_a_package_run_split_writes_the_same_files_on_one_or_two_workers(tmp_path: Path) -> None:
    package = tmp_path / "pkg_faults"
    shutil.copytree(HERE / "fixtures" / "pkg_faults", package, ignore=shutil.ignore_patterns("__pycache__"))
    written = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        done = subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(package), "-o", str(out), "-q",
                               "--jobs", jobs, "--split-depth", "3", "--timeout", "300"],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        written[jobs] = {p.name: p.read_bytes() for p in sorted(out.glob("*.py"))}
    assert written["1"] == written["2"] and written["1"]
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "out2")],
                         capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert ran.returncode == 0 and " passed" in ran.stdout, ran.stdout
