"""`@dataclasses.dataclass`, `@dataclass()` and options that keep what the
model follows (`slots=True` when the methods set only fields, `repr=`,
`eq=True`, `order=False`); other options refuse the class. The engine
against the real code: replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "dataclass_options.py"

test_replay, test_enumeration = oracle_tests(FIXTURE, ["Point.norm1", "Box.grow", "same", "made"],
                                             Bounds(ints=(-1, 0, 1)))


def test_options_the_model_does_not_follow_refuse_the_class(tmp_path: Path) -> None:
    for option in ("frozen=True", "order=True", "kw_only=True", "init=False"):
        path = tmp_path / "options.py"
        path.write_text(f"from dataclasses import dataclass\n\n\n@dataclass({option})\nclass C:\n    x: int\n\n"
                        "    def get(self) -> int:\n        return self.x\n")
        assert "C.get" in translate(str(path), ["C.get"]).errors, option
    path = tmp_path / "slots.py"
    path.write_text("from dataclasses import dataclass\n\n\n@dataclass(slots=True)\nclass C:\n    x: int\n\n"
                    "    def tag(self) -> int:\n        self.other = 1\n        return self.x\n")
    assert "slots=True" in str(translate(str(path), ["C.tag"]).errors["C.tag"])
