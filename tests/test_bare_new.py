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
