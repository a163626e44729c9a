"""`@dataclasses.dataclass`, `@dataclass()` and options that keep what the
model follows (`slots=True` when the methods set only fields, `repr=`,
`eq=True`, `order=False`, `frozen=True`: assigning raises, `kw_only=True`:
the generated `__init__` takes keywords); other options refuse the class.
The engine against the real code: replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, oracle_tests, replay_mismatches

from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "dataclass_options.py"

test_replay, test_enumeration = oracle_tests(FIXTURE, ["Point.norm1", "Box.grow", "same", "made"],
                                             Bounds(ints=(-1, 0, 1)))


def test_options_the_model_does_not_follow_refuse_the_class(tmp_path: Path) -> None:
    for option in ("order=True", "init=False", "unsafe_hash=True"):
        path = tmp_path / "options.py"
        path.write_text(f"from dataclasses import dataclass\n\n\n@dataclass({option})\nclass C:\n    x: int\n\n"
                        "    def get(self) -> int:\n        return self.x\n")
        assert "C.get" in translate(str(path), ["C.get"]).errors, option
    path = tmp_path / "slots.py"
    path.write_text("from dataclasses import dataclass\n\n\n@dataclass(slots=True)\nclass C:\n    x: int\n\n"
                    "    def tag(self) -> int:\n        self.other = 1\n        return self.x\n")
    assert "slots=True" in str(translate(str(path), ["C.tag"]).errors["C.tag"])


FROZEN = '''
from dataclasses import dataclass


@dataclass(frozen=True)
class Point:
    x: int
    y: int

    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)

    def moved(self) -> int:
        self.x = 3
        return self.x


@dataclass(frozen=True, kw_only=True, slots=True)
class Box:
    w: int
    h: int = 1

    def area(self) -> int:
        if self.w > self.h:
            return self.w * self.h
        return 0


def shift(p: Point, d: int) -> Point:
    if d > 0:
        return Point(p.x + d, p.y)
    return p


def move(p: Point, x: int) -> int:
    if x > 0:
        p.x = x
    return p.x


def made(w: int) -> int:
    return Box(w=w).area()


def safe_move(p: Point, x: int) -> int:
    try:
        p.x = x
    except AttributeError:
        return -1
    return 0
'''


@pytest.mark.parametrize("name", ["Point.norm1", "Point.moved", "Box.area", "shift", "move", "made", "safe_move"])
def test_frozen_and_keyword_only_dataclasses_replay(tmp_path: Path, name: str) -> None:
    """A frozen dataclass's inputs are built as its `__init__` builds them
    (`object.__setattr__`); assigning a field raises FrozenInstanceError
    (the test imports `dataclasses` to name it)."""
    path = tmp_path / "frozen.py"
    path.write_text(FROZEN)
    cases = generated(path, name)
    assert cases and replay_mismatches(path, name, cases) == []
    if name in ("Point.moved", "move"):
        assert "FrozenInstanceError" in {case.exc_type for case in cases}


def test_a_positional_argument_to_a_keyword_only_dataclass_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "kw.py"
    path.write_text("from dataclasses import dataclass\n\n\n@dataclass(kw_only=True)\nclass C:\n    x: int\n\n\n"
                    "def make(x: int) -> int:\n    return C(x).x\n")
    assert "too many arguments" in str(translate(str(path), ["make"]).errors["make"])
