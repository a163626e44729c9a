"""Module constants bound by unpacking (`PREV, NEXT = range(2)`,
`LOW, HIGH = 0, 9`): the engine against the real code (replay and
enumeration), and the statements the pass rewrites and leaves."""

from __future__ import annotations

import ast
from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

from pathcraft.frontend.module import load_module
from pathcraft.frontend.unpacked import split_unpacked_constants

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "unpacked_constants.py"
NAMES = ["slot", "clamp", "label"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-2, -1, 0, 9, 10), max_list=3))


def test_only_known_items_are_split() -> None:
    source = ("a, b = range(2)\nc, d = 1, (2, 3)\ne, f = f, e\ng, h = compute()\ni, *j = 1, 2, 3\n"
              "k, l = range(3)\nm = n = 1\no, o = 1, 2\np, q = range(0, 4, 2)\n")
    tree = ast.parse(source)
    split_unpacked_constants(tree)
    assert [ast.unparse(s) for s in tree.body] == [
        "a = 0", "b = 1", "c = 1", "d = (2, 3)", "e, f = (f, e)", "g, h = compute()", "i, *j = (1, 2, 3)",
        "k, l = range(3)", "m = n = 1", "o, o = (1, 2)", "p = 0", "q = 2"]


def test_a_name_bound_again_is_no_constant() -> None:
    module = load_module(str(FIXTURE))
    assert module.constants["NEXT"] == 1 and module.constants["HIGH"] == 9 and "LAST" in module.constants
    assert "A" in module.constants and "B" not in module.constants
