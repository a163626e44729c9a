"""Format specs with a width (`f"{cp:04X}"`, `"{:>4}".format(s)`,
`format(v, ">3")`): the text is computed, padded as CPython pads it, and
CPython's errors for the value's type are raised. The engine against the
real code: replay of every generated test, and enumeration of small
inputs; the spec parser against `format` itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.ir.formatspecs import parse

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "format_specs.py"
NAMES = ["code_point", "hex_color", "columns", "centred", "signed", "padded_width", "fitted", "zero_padded", "bad_type"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-12, -1, 0, 1, 255), max_list=1,
                                                                     max_str=3, alphabet="a "))


def test_upper_case_hex_digits_are_padded_to_the_width() -> None:
    values = {dict(c.inputs)["cp"]: c.value for c in generated(FIXTURE, "code_point") if c.kind == "return"}
    assert values and all(v == ("wide" if len(f"U+{cp:04X}") > 6 else f"U+{cp:04X}") for cp, v in values.items())
    assert any(isinstance(v, str) and v.startswith("U+00") for v in values.values())


def test_the_errors_are_cpythons_for_the_values_type() -> None:
    raised = {(c.exc_type, c.exc_message) for c in generated(FIXTURE, "bad_type") if c.kind == "raise"}
    assert raised == {("ValueError", "Unknown format code 'd' for object of type 'str'")}
    raised = {(c.exc_type, c.exc_message) for c in generated(FIXTURE, "padded_width") if c.kind == "raise"}
    assert raised == {("TypeError", "unsupported format string passed to NoneType.__format__")}


@pytest.mark.parametrize("spec", ["5", ">5", "<5", "^6", "*^6", "05", "0<5", "*<05", "_=6", "x", "04X", "08b",
                                  "3o", "3d", "5s", ">3s", "0", "=4d", " >2", "<<5"])
@pytest.mark.parametrize("value", [0, 7, -7, 255, -255, True, False, "", "ab", "abcdef", None])
def test_the_parsed_spec_pads_as_format_does(spec: str, value: object) -> None:
    """The engine's padding on constants, against CPython's `format`
    (an exception of CPython's: the same type and message). An empty
    spec is never applied (`format`'s plain text: engine/strings.py)."""
    from pathcraft.models.str.formatspec import FormatError, format_value
    from pathcraft.ir.nodes import Text
    from pathcraft.solver import terms as T

    parsed = parse(spec)
    assert parsed is not None
    try:
        expected: object = format(value, spec)
    except (TypeError, ValueError) as exc:
        expected = (type(exc).__name__, str(exc))
    operand: object = Text(value) if isinstance(value, str) else value
    if parsed.kind in "xXob" and parsed.kind and not isinstance(value, str) and value is not None:
        operand = format(value, parsed.kind.lower())  # the digits, as models/int computes them
    elif parsed.kind in "xXob" and parsed.kind:
        return  # the digits' predicate answers a str or None before the spec is applied
    try:
        got = format_value(spec, operand)
    except FormatError as exc:
        assert expected == (exc.exc.type, exc.exc.message)
        return
    assert T.value_of(got, {}) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("spec", ["+5", ".2f", ",", "#x", "5.1", "e", "n", "c", "%", "41"])
def test_specs_outside_the_part_are_not_parsed(spec: str) -> None:
    assert parse(spec) is None
