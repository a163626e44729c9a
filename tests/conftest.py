from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from oracle import SHARED_RUNS  # noqa: E402  (tests/oracle.py, on the path just set)

# node ids marked slow beside those that carry the marker in their file (see slow.txt)
SLOW = frozenset(line.strip() for line in (HERE / "slow.txt").read_text(encoding="utf-8").splitlines()
                 if line.strip() and not line.startswith("#"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--shard", default=None, metavar="K/N",
                     help="run only the K-th of N parts of the tests (parts by a hash of each node id): "
                          "CI runs each test under 3.11 and under one of the newer Pythons")


# the files that take longest, handed to pytest-xdist's workers first (`--dist loadfile` sends files in
# the order collected): a long file started last would keep one worker busy after the other is done
LONGEST_FIRST = ("test_golden_output.py", "test_cli.py", "test_heap_oracles.py",
                 "test_compose.py", "test_values_dicts.py", "test_structure_decorators.py", "test_regex_membership.py")


@pytest.hookimpl(tryfirst=True)  # before `-m 'not slow'` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid in SLOW:
            item.add_marker(pytest.mark.slow)

    def rank(item: pytest.Item) -> int:
        name = item.nodeid.split("::")[0].rpartition("/")[2]
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: each file's tests keep their order
    shard = config.getoption("--shard")
    if shard:
        part, _, parts = shard.partition("/")
        ours = [_part_of(item.nodeid, int(parts)) == int(part) - 1 for item in items]
        config.hook.pytest_deselected(items=[item for item, mine in zip(items, ours) if not mine])
        items[:] = [item for item, mine in zip(items, ours) if mine]


def _part_of(nodeid: str, parts: int) -> int:
    """Which part a test belongs to, the same in every process and on every run."""
    return int(hashlib.sha256(nodeid.encode()).hexdigest(), 16) % parts


_RUNS_FOLDER = pytest.StashKey[str]()  # the folder this process made, to remove at the end


def pytest_configure(config: pytest.Config) -> None:
    """One folder per session for `oracle.generated`'s runs, made by the
    controlling process before the xdist workers start (they inherit it)."""
    if not hasattr(config, "workerinput") and SHARED_RUNS not in os.environ:
        folder = tempfile.mkdtemp(prefix="pathcraft-test-runs-")
        os.environ[SHARED_RUNS] = folder
        config.stash[_RUNS_FOLDER] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_RUNS_FOLDER, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
        os.environ.pop(SHARED_RUNS, None)

