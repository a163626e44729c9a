"""`cls.__new__(cls)`, `object.__new__(C)`: an instance whose `__init__`
never ran (frontend/callargs.bare_new). The engine against the real code
(replay), and the classes whose `__new__` is not object's (their own, an
abstract class's) drop the paths that make one."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import generated, replay_mismatches

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "bare_new.py"


@pytest.mark.parametrize("name", ["newer", "unset", "Version.from_parts", "Version.bump"])
def test_an_instance_made_without_init_replays(name: str) -> None:
    cases = generated(FIXTURE, name, "loop-1")
    assert cases
    assert replay_mismatches(FIXTURE, name, cases) == []


def test_its_attributes_are_unset_until_assigned() -> None:
    cases = generated(FIXTURE, "unset", "loop-1")
    assert any(c.kind == "raise" and c.exc_type == "AttributeError" for c in cases)


@pytest.mark.parametrize("name, why", [("shape", "Shape is abstract"), ("own", "Own defines __new__")])
def test_a_class_whose_new_is_not_objects_drops_the_path(name: str, why: str) -> None:
    program = translate(str(FIXTURE), [name]).program
    run = generate(program, name, GenerateOptions.of())
    assert any(why in note for note in run.notes)
    assert [c.value for c in run.cases if c.kind == "return"] == [0]


def test_a_class_that_defines_new_is_not_built_as_if_it_did_not() -> None:
    """`Plain(key)` runs `Plain.__new__`, which may make a `Keyed` (whose
    `__init__` then runs): the path through the call is dropped, never
    built with `Plain.__init__` (sortedcontainers' `SortedList(key=k)`)."""
    program = translate(str(FIXTURE), ["made"]).program
    run = generate(program, "made", GenerateOptions.of())
    assert any("whose class Plain defines __new__" in note for note in run.notes)
    assert cases_replay("made")


def cases_replay(name: str) -> bool:
    cases = generated(FIXTURE, name, "loop-1")
    return bool(cases) and replay_mismatches(FIXTURE, name, cases) == []
