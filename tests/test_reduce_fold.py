"""`functools.reduce` as the C loop (a silent fold; CPython's two
TypeErrors), and module-level `if`s on the interpreter's version folded to
the branch it takes. The engine against the real code: replay, and
enumeration of small inputs."""

from __future__ import annotations

import ast
from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend.versions import fold_version_branches

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "reduce_fold.py"
NAMES = ["flat", "product", "total", "biggest", "fold", "not_iterable", "doubled_count"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 2), max_list=2))


def test_cpythons_messages_are_claimed() -> None:
    empty = {c.exc_message for c in generated(FIXTURE, "product") if c.kind == "raise"}
    assert empty == {"reduce() of empty iterable with no initial value"}
    wrong = {c.exc_message for c in generated(FIXTURE, "not_iterable") if c.kind == "raise"}
    assert wrong == {"reduce() arg 2 must support iteration"}


def test_only_the_interpreters_version_decides_a_branch() -> None:
    source = ("import sys\nimport os\nif sys.version_info >= (3, 0):\n    a = 1\nelse:\n    a = 2\n"
              "if sys.platform == 'linux':\n    b = 1\nif os.name == 'nt' or sys.version_info < (3,):\n    c = 1\n"
              "if not sys.hexversion < 0x03000000:\n    d = 1\n")
    tree = ast.parse(source)
    fold_version_branches(tree)
    assert [ast.unparse(s) for s in tree.body[2:]] == [
        "a = 1", "if sys.platform == 'linux':\n    b = 1", "if os.name == 'nt' or sys.version_info < (3,):\n    c = 1",
        "d = 1"]
