"""The engine against the real code: replay and enumeration oracles."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import EXAMPLES, SHARED_EXAMPLES, generated, missed_paths, replay_mismatches

LCM = SHARED_EXAMPLES / "lcm.py"

OWN = [
    "classify", "digit_sum", "first_multiple", "power", "safe_ratio", "clamp",
    "floor_pair", "gate", "spread", "count_down", "checked_mean",
]
CONTROL = [
    "spin", "nested_finally", "catch_and_reraise", "ternary", "chained", "mutual_even",
    "bool_arith", "while_else", "range_forms", "unbound", "assert_flow", "shrinking_range",
    "power_check",
]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
TARGETS = [(EXAMPLES / "arith.py", name) for name in OWN] + [
    (FIXTURES / "control.py", name) for name in CONTROL
]
SHARED = [(LCM, name) for name in ("lcm", "gcd", "abs_value")]


def _id(target: tuple[Path, str]) -> str:
    return f"{target[0].stem}::{target[1]}"


@pytest.mark.parametrize("target", TARGETS, ids=_id)
@pytest.mark.parametrize("criterion", ["loop-1", "loop-2", "loop-3"])
def test_replay_own_examples(target: tuple[Path, str], criterion: str) -> None:
    path, name = target
    cases = generated(path, name, criterion)
    assert cases, "no test case generated"
    assert replay_mismatches(path, name, cases) == []


@pytest.mark.parametrize("target", SHARED, ids=_id)
@pytest.mark.parametrize("criterion", ["loop-1", "loop-2", "loop-3"])
def test_replay_lcm(target: tuple[Path, str], criterion: str) -> None:
    path, name = target
    cases = generated(path, name, criterion)
    assert cases
    assert replay_mismatches(path, name, cases) == []


@pytest.mark.parametrize("target", TARGETS, ids=_id)
def test_enumeration_own_examples(target: tuple[Path, str]) -> None:
    path, name = target
    cases = generated(path, name, "loop-2")
    assert missed_paths(path, name, cases, k=2) == []


@pytest.mark.parametrize("target", SHARED, ids=_id)
def test_enumeration_lcm(target: tuple[Path, str]) -> None:
    path, name = target
    cases = generated(path, name, "loop-2")
    assert missed_paths(path, name, cases, k=2) == []


@pytest.mark.parametrize("target", TARGETS[:4], ids=_id)
def test_enumeration_at_loop_3(target: tuple[Path, str]) -> None:
    path, name = target
    cases = generated(path, name, "loop-3")
    assert missed_paths(path, name, cases, k=3, low=-4, high=4) == []


def test_oracle_detects_a_missing_path() -> None:
    """The enumeration oracle must be able to fail: drop one test case and
    it has to report the path that case covered."""
    path = EXAMPLES / "arith.py"
    cases = generated(path, "classify", "loop-2")
    assert missed_paths(path, "classify", cases[1:], k=2) != []


def test_oracle_detects_a_wrong_claim() -> None:
    from dataclasses import replace

    path = EXAMPLES / "arith.py"
    cases = generated(path, "spread", "loop-2")
    wrong = [replace(cases[0], value=(cases[0].value or 0) + 1)]
    assert replay_mismatches(path, "spread", wrong) != []
    swapped = [replace(cases[0], path=cases[1].path)]
    assert replay_mismatches(path, "spread", swapped) != []
