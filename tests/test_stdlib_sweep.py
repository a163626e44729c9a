"""The standard library as a new user would try it (slow: run by `.ci/run`
under 3.11 with `pytest -m slow`, not by the default test command): tests
generated for every top-level module of the running Python, run with
pytest, must all pass and all collect."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import stdlib  # noqa: E402  (bench/stdlib.py)


@pytest.mark.slow
def test_every_generated_standard_library_test_passes(tmp_path: Path) -> None:
    counts = stdlib.sweep(tmp_path, timeout=5.0, jobs=2)  # two modules at a time: CI's two cores
    print("\nstandard library:", ", ".join(f"{k} {v}" for k, v in counts.items()))
    assert counts["tests"] > 0 and counts["functions with a telling test"] > 0
    assert counts["crashes"] == 0
    assert (counts["failed"], counts["errors"], counts["not collected"]) == (0, 0, 0), counts
