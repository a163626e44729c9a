"""`RE.match(s)`, `re.fullmatch(p, s)` and kin (models/re): a choice
between a match and None, by whether `s` is in the pattern's language
(solver/regex.py); a pattern outside the subset drops its paths with the
reason. The engine against the real code: replay, and enumeration of
small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "regex_match.py"
NAMES = ["valid_name", "hex_value", "kind", "with_newline", "not_a_string", "raised_match", "shell_quoted", "is_hex"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1), max_str=3, alphabet="a#1-"))


def test_every_outcome_is_reached() -> None:
    assert {c.value for c in generated(FIXTURE, "valid_name")} == {True, False}
    assert {c.value for c in generated(FIXTURE, "kind")} == {0, 1, 2}
    assert {c.value for c in generated(FIXTURE, "with_newline")} == {True, False}
    assert {c.exc_type for c in generated(FIXTURE, "not_a_string")} == {"TypeError"}
    assert {c.value for c in generated(FIXTURE, "is_hex")} == {0, 1}
    quoted = {dict(c.inputs)["arg"]: c.value for c in generated(FIXTURE, "shell_quoted")}
    assert quoted.get("") == "''" and any(v == k != "" for k, v in quoted.items()) \
        and any(v.startswith("'") and k for k, v in quoted.items()), quoted


def test_a_bound_match_method_read_as_a_value_is_refused_by_name() -> None:
    """`_find = re.compile(P).search` is called as `_find(s)`; read as a
    value, the function is refused and the reason names it."""
    result = translate(str(FIXTURE), ["bound_method_as_value", "shell_quoted"])
    assert "shell_quoted" not in result.errors
    assert "search method '_find_unsafe' used other than by calling it" in str(result.errors["bound_method_as_value"])


def test_a_backreference_drops_its_paths_with_the_reason() -> None:
    result = translate(str(FIXTURE), ["doubled"])
    run = generate(result.program, "doubled", GenerateOptions.of())
    assert [c.value for c in run.cases] == [0]
    assert any("groupref" in note for note in run.notes)


def test_reading_a_match_or_an_exception_object_drops_the_path() -> None:
    """Once claimed an AttributeError ("'int' object has no attribute
    'group'"): the engine named such an object's type 'int'."""
    for name, kept in (("first_group", ""), ("error_args", 0)):
        result = translate(str(FIXTURE), [name])
        run = generate(result.program, name, GenerateOptions.of())
        assert [c.value for c in run.cases] == [kept]
        assert any("object (what its type does is not modelled)" in note for note in run.notes)
