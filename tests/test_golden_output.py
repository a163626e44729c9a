"""The pytest and JSON output for every example and fixture equals the
stored golden output (see `tests/golden_output.py`; regenerate only on
purpose)."""

from __future__ import annotations

import difflib

import pytest
from golden_output import STORE, Golden, goldens, render


@pytest.mark.parametrize("golden", goldens(), ids=lambda g: g.name)
def test_output_matches_golden(golden: Golden) -> None:
    if not golden.available:
        pytest.skip(f"{golden.module} missing")
    stored = (STORE / golden.name).read_text(encoding="utf-8")
    fresh = render(golden)
    if fresh != stored:
        diff = "".join(difflib.unified_diff(stored.splitlines(True), fresh.splitlines(True),
                                            "stored", "fresh", n=2))
        pytest.fail(f"{golden.name} changed:\n{diff[:6000]}")
