"""The pytest and JSON output for every example and fixture equals the
stored golden output (see `tests/golden_output.py`; regenerate only on
purpose)."""

from __future__ import annotations

import difflib
import subprocess
import sys
from pathlib import Path

import pytest

from golden_output import RECORDED_UNDER, STORE, Golden, goldens, render


@pytest.mark.parametrize("golden", goldens(), ids=lambda g: g.name)
def test_output_matches_golden(golden: Golden) -> None:
    if not golden.available:
        pytest.skip(f"{golden.module} missing")
    if sys.version_info[:2] != RECORDED_UNDER:
        pytest.skip("goldens are recorded under Python " + ".".join(map(str, RECORDED_UNDER)))
    stored = (STORE / golden.name).read_text(encoding="utf-8")
    fresh = render(golden)
    if fresh != stored:
        diff = "".join(difflib.unified_diff(stored.splitlines(True), fresh.splitlines(True),
                                            "stored", "fresh", n=2))
        pytest.fail(f"{golden.name} changed:\n{diff[:6000]}")


@pytest.mark.parametrize("module", ["examples/arith.py", "tests/fixtures/linked.py", "tests/fixtures/papers/vector.py"])
def test_search_strategy_does_not_change_the_output(module: str) -> None:
    """Tests are ordered and named by their trace, not by when the search
    found them: breadth-first writes the file depth-first writes."""
    dfs = Golden("dfs", module, ("--search", "dfs"))
    if not dfs.available:
        pytest.skip(f"{module} missing")
    assert render(Golden("bfs", module, ("--search", "bfs"))) == render(dfs)


def test_generated_files_are_lint_clean(tmp_path: Path) -> None:
    """Every golden pytest file passes `ruff check` (pyflakes and
    pycodestyle rules, lines of at most 100 characters): no unused import,
    no redefinition, no name the module defines shadowed or collected."""
    for stored in sorted(STORE.glob("*.pytest.txt")):
        name = "test_" + stored.name.removesuffix(".pytest.txt").replace(".", "_") + ".py"
        (tmp_path / name).write_text(stored.read_text(encoding="utf-8"), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--isolated", "--select", "E,F,W", "--line-length", "100",
         "--output-format", "concise", str(tmp_path)],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
