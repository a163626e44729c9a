"""A field annotated with a type the model has no values of is opaque, not
a refusal of its class: the methods that never read it get tests (replayed
and enumerated against the real code), a path that reads it from an input
object is dropped and named, and one that reads it from an object the code
built itself reads what the code stored there."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "opaque_fields.py"
NAMES = ["Account.deposit", "Account.overdrawn", "Account.has_owner", "fresh"]
BOUNDS = Bounds(ints=(-1, 0, 1, 11), max_list=1, opaque=(("Account", "owner"),))

test_replay, _ = oracle_tests(FIXTURE, NAMES, BOUNDS)
# `has_owner` is left out of enumeration: an input without `owner` makes the
# real code raise AttributeError, a path the engine rightly drops (a real
# Account has one), which enumeration would count as missed
_, test_enumeration = oracle_tests(FIXTURE, [n for n in NAMES if n != "Account.has_owner"], BOUNDS)


def test_the_class_is_analysed() -> None:
    result = translate(str(FIXTURE), NAMES)
    assert not result.errors, result.errors
    assert set(NAMES) <= set(result.program.functions)


def test_reading_the_field_of_an_input_drops_the_path() -> None:
    result = translate(str(FIXTURE), ["Account.has_owner"])
    run = generate(result.program, "Account.has_owner", GenerateOptions.of())
    outcomes = {case.value for case in run.cases if case.kind == "return"}
    assert outcomes == {True}  # balance > 10; the other path reads `owner` of a test-built object
    assert any("'owner'" in note for note in run.notes), run.notes


def test_the_field_an_object_was_given_is_read() -> None:
    cases = generated(FIXTURE, "fresh")
    assert cases and all(c.kind == "return" and c.value == dict(c.inputs)["balance"] + 1 for c in cases)
