"""An instance's read or assignment of a name its class binds to what a
call made (maybe a descriptor, whose `__get__`/`__set__` would run) drops
the path: a constructor that assigns such names is not followed as if
they were plain fields (boltons' FilePerms: 64 failing tests when it was)."""

from __future__ import annotations

from pathlib import Path

from oracle import generated, replay_mismatches

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "call_descriptors.py"


def test_a_descriptor_assignment_drops_the_path_and_claims_nothing_false() -> None:
    run = generate(translate(str(FIXTURE), ["perms"]).program, "perms", GenerateOptions.of())
    assert {c.value for c in run.cases} == {-1}  # the path through the constructor is dropped
    assert any("binds to what a call made" in note for note in run.notes)
    cases = generated(FIXTURE, "perms")
    assert cases and replay_mismatches(FIXTURE, "perms", cases) == []


def test_functions_that_meet_no_descriptor_keep_their_paths() -> None:
    cases = generated(FIXTURE, "plain")
    assert len(cases) == 2 and replay_mismatches(FIXTURE, "plain", cases) == []
