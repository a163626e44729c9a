"""A dataclass field's `field(default_factory=list)` (`dict`, `set`): a new
empty container each time the generated `__init__` is called without it;
`field(default=c)` is the constant. The engine against the real code:
replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "dataclass_factories.py"
NAMES = ["fill", "tagged"]  # the factories run in these (Bag.add is a plain method)

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(0, 1), max_list=3, max_str=1,
                                                                     max_objects=1))


def test_each_bag_has_a_list_of_its_own() -> None:
    """The second bag's list stays empty while the first fills."""
    values = {c.value for c in generated(FIXTURE, "fill")}
    assert 21 in values and 22 in values  # two items in a, one or two distinct; b: none


def test_another_factory_or_option_keeps_the_class_refused(tmp_path: Path) -> None:
    source = tmp_path / "lazy.py"
    source.write_text("from dataclasses import dataclass, field\n\n\n@dataclass\nclass C:\n"
                      "    xs: list[int] = field(default_factory=lambda: [1])\n\n    def n(self) -> int:\n"
                      "        return len(self.xs)\n\n\n@dataclass\nclass D:\n"
                      "    xs: list[int] = field(default_factory=list, compare=False)\n\n"
                      "    def n(self) -> int:\n        return len(self.xs)\n")
    result = translate(str(source), ["C.n", "D.n"])
    assert set(result.errors) == {"C.n", "D.n"}
    assert all("dataclass default other than a constant" in e.message for e in result.errors.values())
