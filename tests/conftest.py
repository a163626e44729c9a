from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

# node ids marked slow beside those that carry the marker in their file (see slow.txt)
SLOW = frozenset(line.strip() for line in (HERE / "slow.txt").read_text(encoding="utf-8").splitlines()
                 if line.strip() and not line.startswith("#"))


@pytest.hookimpl(tryfirst=True)  # before `-m 'not slow'` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid in SLOW:
            item.add_marker(pytest.mark.slow)
