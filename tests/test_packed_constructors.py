"""A constructor call whose `__init__` takes `*a, **kw` hands both over
packed: building one with no arguments once claimed a TypeError (the
packed keywords were counted as one positional argument too many)."""

from __future__ import annotations

from pathlib import Path

from oracle import generated, replay_mismatches

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "packed_constructors.py"


def test_a_constructor_with_no_arguments_returns() -> None:
    cases = generated(FIXTURE, "built_bare")
    assert [(c.kind, c.value) for c in cases] == [("return", 0)]
    assert replay_mismatches(FIXTURE, "built_bare", cases) == []


def test_positional_and_keyword_arguments_reach_the_packed_parameters() -> None:
    cases = generated(FIXTURE, "built_with")
    assert sorted(c.value for c in cases) == [-3, 3]
    assert replay_mismatches(FIXTURE, "built_with", cases) == []
