"""A field holding an object of one of several classes (`item: Leaf |
Pair | None`, an alias of such a union, or two classes stored by two
methods): an input's field is a fresh object of each in turn
(frontend/unions.class_union, heap/lazy.py). The engine against the real
code: replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "field_unions.py"

test_replay, test_enumeration = oracle_tests(FIXTURE, ["Box.total", "Slot.size", "Mixed.kind"], Bounds(
    ints=(0, 1), unannotated=(("Box", "item", "Leaf | Pair | None"), ("Mixed", "last", "Leaf | Pair"))))


def test_each_field_reads_as_the_union_it_holds() -> None:
    classes = translate(str(FIXTURE)).program.classes
    shown = {name: str(dict(classes[name].fields)[field]) for name, field in
             [("Box", "item"), ("Slot", "held"), ("Mixed", "last")]}
    assert shown == {"Box": "Leaf | Pair | None", "Slot": "Leaf | Pair", "Mixed": "Leaf | Pair"}
