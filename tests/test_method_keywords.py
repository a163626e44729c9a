"""Keyword arguments in a method call dispatched at run time
(`acct.deposit(amount=n, fee=1)`) are bound to the callee's parameters by
name, as Python binds them: defaults fill the rest, keyword-only
parameters are reached by keyword only, and a name given twice or unknown
is a TypeError (its type alone: CPython's message names the qualname). A
builtin value's method with keywords drops the path. Checked against the
real code: replay of every generated test and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "method_keywords.py"
NAMES = ["pay", "pay_first", "capped", "wrong", "capped_by_position", "Finder.safe"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=tuple(range(-2, 3))))


def test_a_name_given_twice_is_a_type_error() -> None:
    outcomes = {(case.exc_type, case.exc_message) for case in generated(FIXTURE, "wrong")}
    assert ("TypeError", None) in outcomes


def test_keywords_reach_the_method_by_name() -> None:
    # deposit(n, fee=2): n at most 2 raises ValueError; above, the balance grows by n - 2
    cases = generated(FIXTURE, "pay_first")
    returned = [case for case in cases if case.exc_type is None]
    assert returned and any(case.exc_type == "ValueError" for case in cases)
    for case in returned:
        n = dict(case.inputs)["n"]
        balance = case.heap_in["acct"]["fields"]["balance"]
        assert n > 2 and case.value == balance + n - 2


def test_a_keyword_only_parameter_given_by_position_is_a_type_error() -> None:
    outcomes = {case.exc_type for case in generated(FIXTURE, "capped_by_position")}
    assert "TypeError" in outcomes and None not in outcomes
