"""`str.format` on a template the module spells out is the f-string with
the same fields; `!r` and `!s` fields are computed; module constants made
by `frozenset(...)` or an f-string are read. The engine against the real
code: replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "str_format.py"
NAMES = ["spec_name", "position", "label", "shown", "kind", "digits"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1, 2), max_list=2, max_str=2,
                                                                     alphabet="aRc"))


def test_the_template_built_at_import_is_read() -> None:
    """`ERROR_TEMPLATE` is an f-string over a tuple of constants; its text
    with the input in it is not asserted (the message is not a constant)."""
    raised = {(c.exc_type, c.exc_message) for c in generated(FIXTURE, "spec_name") if c.kind == "raise"}
    assert raised == {("ValueError", None)}


def test_fields_by_position_name_and_repr_are_computed() -> None:
    values = {c.value for c in generated(FIXTURE, "label")}
    assert all(isinstance(v, str) for v in values)
    assert any(v.endswith(": 1 item (1, 'one')") for v in values)


def test_a_format_spec_drops_its_paths_only() -> None:
    result = translate(str(FIXTURE), ["padded"])
    run = generate(result.program, "padded", GenerateOptions.of())
    assert run.cases and all(c.value == dict(c.inputs)["name"] for c in run.cases)
    assert any("str.format()" in note for note in run.notes)
