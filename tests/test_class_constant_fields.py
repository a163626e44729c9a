"""Attributes typed by the class constant `__init__` copies into them
(frontend/fields.py): the engine against the real code (replay, and
enumeration of small inputs, the attributes as the code types them)."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "class_constant_fields.py"
NAMES = ["Chunker.split_needed", "HalfChunker.halves"]
TYPED = (("Chunker", "_load", int), ("Chunker", "_strict", bool), ("HalfChunker", "_load", int),
         ("HalfChunker", "_strict", bool))

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1, 2, 5), unannotated=TYPED))


def test_the_attributes_are_typed_by_the_constants() -> None:
    fields = dict(translate(str(FIXTURE), NAMES).program.classes["Chunker"].fields)
    assert (str(fields["_load"]), str(fields["_strict"])) == ("int", "bool")
