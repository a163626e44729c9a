"""`for a, b in zip(range(n), xs)` walks the silent generator `zip` is,
the range walked as `iter(range(...))`; `reversed(range(a, b))` as a value
or a comprehension's source is `range(b - 1, a - 1, -1)`, its bounds
checked as range checks them. The engine against the real code: replay,
and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "range_values.py"
NAMES = ["derivative", "paired", "rank", "countdown", "single"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1, 3), max_list=3))


def test_a_reversed_range_counts_down() -> None:
    cases = [c for c in generated(FIXTURE, "countdown") if c.kind == "return"]
    lists = {(dict(c.inputs)["a"], dict(c.inputs)["b"]): c.heap_final[c.value["$ref"]]["list"] for c in cases}
    assert lists and all(v == [i * 2 for i in reversed(range(a, b))] for (a, b), v in lists.items())
    assert any(len(v) > 1 for v in lists.values())
