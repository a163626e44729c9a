"""The standard library as a new user would try it (slow: run by `.ci/run`
under 3.11 with `pytest -m slow`, not by the default test command): tests
generated for every top-level module of the running Python, run with
pytest, must all pass and all collect, and every generated file must
pass ruff's E, F, W and I rules at 100 columns (`bench/lint.py`), as a
project that keeps them would check them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import lint  # noqa: E402  (bench/lint.py)
import stdlib  # noqa: E402  (bench/stdlib.py)


@pytest.mark.slow
def test_every_generated_standard_library_test_passes(tmp_path: Path) -> None:
    counts = stdlib.sweep(tmp_path, timeout=5.0, jobs=2)  # two modules at a time: CI's two cores
    print("\nstandard library:", ", ".join(f"{k} {v}" for k, v in counts.items()))
    assert counts["tests"] > 0 and counts["functions with a telling test"] > 0
    assert counts["crashes"] == 0
    assert (counts["failed"], counts["errors"], counts["not collected"]) == (0, 0, 0), counts
    files, by_rule, by_file = lint.lint(tmp_path, tmp_path)
    print(f"lint: {files} files, findings {dict(by_rule) or 'none'}")
    assert files > 0 and not by_file, sorted(by_file.items())[:10]
