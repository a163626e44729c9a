"""Callable parameters of two arguments (frontend/callables.py,
models/callables/): `Callable[[A, B], R]`, an unannotated parameter only
called with two arguments or mapped over two sources, and a field that
holds one. The engine against the real code: replay of every test, and
every small input (from a family of functions wider than the
candidates) whose path no test takes."""

from __future__ import annotations

from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, oracle_tests, replay_mismatches

from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "callables_two.py"
TYPED = ["runs", "fold", "combined", "Chooser.best"]
UNTYPED = ["split_when", "merged", "kept_values", "positives"]

test_replay, test_enumeration = oracle_tests(FIXTURE, TYPED, Bounds(ints=(-1, 0, 1, 2), max_list=2))


@pytest.mark.parametrize("name", UNTYPED)
def test_unannotated_parameters_called_with_two_replay(name: str) -> None:
    cases = generated(FIXTURE, name)
    assert cases and replay_mismatches(FIXTURE, name, cases) == []


def test_predicates_and_functions_get_their_own_candidates() -> None:
    def used(name: str) -> set[str]:
        return {desc.get("function") for case in generated(FIXTURE, name) for desc in case.heap_in.values()} - {None}

    assert used("runs") == used("split_when") == {"lambda x, y: x < y", "lambda x, y: x == y"}
    assert used("fold") == used("merged") == {"lambda x, y: x + y", "lambda x, y: y"}


def test_a_factory_makes_what_its_default_makes() -> None:
    """`factory=dict` called with no arguments: the test passes a function
    that makes the same; a call that leaves it out is refused (the model
    does not hold the builtin class)."""
    made = {desc.get("function") for case in generated(FIXTURE, "kept_values") for desc in case.heap_in.values()}
    assert "lambda: {}" in made
    assert all("make" in dict(c.inputs) for c in generated(FIXTURE, "positives"))
    result = translate(str(FIXTURE), ["positives", "positives_by_default"])
    assert "positives" not in result.errors
    assert "without 'make'" in str(result.errors["positives_by_default"])


def test_a_call_with_another_count_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mixed.py"
    path.write_text("def mixed(xs, f):\n    return f(xs) + f(xs, 1)\n\n\n"
                    "def three(xs, f):\n    return f(xs, 1, 2)\n\n\n"
                    "from typing import Callable\n\n\n"
                    "def wrong(x: int, f: Callable[[int, int], int]) -> int:\n    return f(x)\n")
    result = translate(str(path), ["mixed", "three", "wrong"])
    assert "'f' without a type annotation" in str(result.errors["mixed"])
    assert "'f' without a type annotation" in str(result.errors["three"])
    assert "with other than 2 arguments" in str(result.errors["wrong"])
