"""A wrong claim of the standard-library sweep (`_pydecimal._log10_lb`):
indexing a list with a computed string was claimed "list indices must be
integers or slices, not int", as the engine named a symbolic string's
type "int". The engine against the real code: replay, and enumeration."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "type_names.py"

test_replay, test_enumeration = oracle_tests(FIXTURE, ["by_digit", "by_key", "is_text", "is_scalar"],
                                             Bounds(ints=(-1, 0, 1), max_list=1, max_str=1, alphabet="a"))


def test_a_string_index_is_named_str() -> None:
    for name in ("by_digit", "by_key"):
        messages = {c.exc_message for c in generated(FIXTURE, name) if c.kind == "raise"}
        assert messages == {"list indices must be integers or slices, not str"}
