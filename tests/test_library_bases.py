"""A class derived from a standard-library class no model stands for
(`IOBase`, `tzinfo`, `HTMLParser`) is analysed over an opaque model of
that class: its own methods get tests that build instances with the
base's `__new__`, and a path reaching anything the base provides (a
method, `==` it overrides, `len` it lacks is still Python's TypeError)
is dropped or claimed exactly as CPython behaves."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import replay_mismatches

from pathcraft.errors import UnsupportedError
from pathcraft.frontend import library_bases, translate
from pathcraft.generate import FunctionRun, GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "library_bases.py"


def _run(qualname: str) -> FunctionRun:
    run = generate(translate(str(FIXTURE), [qualname]).program, qualname, GenerateOptions.of())
    assert replay_mismatches(FIXTURE, qualname, run.cases) == []
    return run


@pytest.mark.parametrize("qualname, values", [("Spooled.readable", {True}), ("Spooled.over", {True, False}),
                                              ("Zone.east", {True, False}), ("Parser.count", {0, 1})])
def test_own_methods_get_tests_that_replay(qualname: str, values: set[object]) -> None:
    assert {c.value for c in _run(qualname).cases} >= values


def test_a_path_calling_what_the_base_provides_is_dropped_and_named() -> None:
    run = _run("Spooled.flushed")
    assert [c.value for c in run.cases] == [0]
    assert any("io.IOBase.flush" in note for note in run.notes)
    assert not _run("Zone.offset_name").cases


def test_a_protocol_the_base_has_drops_the_path_whatever_its_arity() -> None:
    run = _run("Ordered.has")  # `key in self`: OrderedDict's `__contains__(self, key)`, not a TypeError
    assert [c.value for c in run.cases] == [False]
    assert any("collections.OrderedDict.__contains__" in note for note in run.notes)


def test_what_the_base_lacks_is_python_s_behaviour() -> None:
    cases = _run("Spooled.size").cases  # IOBase has no __len__: CPython's TypeError, which the replay checks
    assert [(c.kind, c.exc_type) for c in cases] == [("raise", "TypeError")]
    assert {c.value for c in _run("Spooled.same").cases} >= {False}  # IOBase keeps object's `==`: identity


def test_the_base_s_own_construction_is_not_followed() -> None:
    run = _run("made")  # tzinfo's __init__ is not followed: Zone's own runs, the base's never does
    assert {c.value for c in run.cases} == {True, False}


def test_a_base_whose_new_needs_arguments_keeps_the_refusal() -> None:
    translated = translate(str(FIXTURE), ["Bound.twice"])
    with pytest.raises(UnsupportedError, match="base class 'functools.partial'"):
        raise translated.errors["Bound.twice"]
    real, why = library_bases.library_class("functools", "partial", FIXTURE)
    assert real is None and "__new__ needs arguments" in why


def test_bases_that_are_not_read_this_way() -> None:
    assert library_bases.library_class("unittest", "TestCase", FIXTURE)[0] is None
    assert library_bases.library_class("json", "JSONDecodeError", FIXTURE)[0] is None  # an exception
    assert library_bases.library_class("enum", "Enum", FIXTURE)[0] is None  # a metaclass of its own
    assert library_bases.library_class("typing", "Protocol", FIXTURE)[0] is None
    assert library_bases.library_class("collections.abc", "Hashable", FIXTURE)[0] is None  # abstract
