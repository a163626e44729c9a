"""Members that module-level code deletes or replaces (`delattr(C, '_calc_'
+ name)`, `C.x = ...`) are the unknown part of their class, not a reason
to refuse it: those methods are not tested and the paths that reach them
are dropped; a deletion by a name with no constant start still refuses
the class (frontend/alterations.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import replay_mismatches

from pathcraft.errors import UnsupportedError
from pathcraft.frontend import translate
from pathcraft.generate import FunctionRun, GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "altered_members.py"


def _run(qualname: str) -> FunctionRun:
    """The run of `qualname` (the translation also reports the methods the
    module deletes, which the oracle's helper would take for a failure)."""
    return generate(translate(str(FIXTURE), [qualname]).program, qualname, GenerateOptions.of())


def test_members_the_module_leaves_alone_keep_their_paths() -> None:
    cases = _run("Stats.largest").cases
    assert {c.value for c in cases} >= {-1}
    assert replay_mismatches(FIXTURE, "Stats.largest", cases) == []


def test_a_method_deleted_by_prefix_is_not_tested() -> None:
    translated = translate(str(FIXTURE), ["Stats._calc_total"])
    assert "Stats._calc_total" in translated.errors
    assert "module-level code may delete or replace it" in str(translated.errors["Stats._calc_total"])


def test_a_path_reaching_a_deleted_method_is_dropped_and_the_others_kept() -> None:
    run = _run("Stats.total_or_zero")
    assert [c.value for c in run.cases] == [0]
    assert any("_calc_total" in note for note in run.notes)
    assert replay_mismatches(FIXTURE, "Stats.total_or_zero", run.cases) == []


def test_a_replaced_class_attribute_is_not_read_from_the_body() -> None:
    run = _run("count_of")
    assert run.cases == []  # `alias` is 4 after import, not the body's 3: the path is dropped, not claimed
    assert any("alias" in note for note in run.notes)


def test_a_deletion_by_any_name_refuses_the_class() -> None:
    translated = translate(str(FIXTURE), ["Anything.size"])
    with pytest.raises(UnsupportedError, match="whose attributes module-level code changes"):
        raise translated.errors["Anything.size"]


def test_a_class_decorator_that_sets_attributes_and_returns_the_class_is_followed() -> None:
    cases = _run("Pair.wider").cases
    assert {c.value for c in cases} == {True, False}
    assert replay_mismatches(FIXTURE, "Pair.wider", cases) == []


def test_a_class_decorator_that_runs_code_is_refused() -> None:
    translated = translate(str(FIXTURE), ["Kept.one"])
    with pytest.raises(UnsupportedError, match="class decorator 'registered'"):
        raise translated.errors["Kept.one"]
