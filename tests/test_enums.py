"""Enum classes (frontend/enums.py, models/enum): a member is a value of
its own, a parameter or field typed with the class takes each member, and
the tests name members through their class and check results by identity."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from oracle import replay_mismatches
from pathcraft.engine.criteria import parse_criterion
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

COLORS = '''
import enum
from dataclasses import dataclass
from enum import Enum, IntEnum, auto


class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = auto()
    CRIMSON = 1

    def warm(self) -> bool:
        if self is Color.RED:
            return True
        return False

    @property
    def label(self) -> str:
        return self.name.lower()


class Level(IntEnum):
    LOW = 1
    HIGH = 5


class Mode(str, enum.Enum):
    FAST = "fast"
    SLOW = "slow"


@dataclass
class Bound:
    version: int
    kind: Color


def shade(c: Color) -> int:
    if c is Color.RED:
        return 1
    if c == Color.CRIMSON:
        return 3
    if c == 2:
        return 4
    return 2


def weigh(level: Level, n: int) -> int:
    if level > n:
        return level + n
    if level == 5:
        return 0
    return -1


def speed(m: Mode) -> str:
    if m == "fast":
        return "quick"
    return m.value


def pick(flag: bool) -> Color:
    if flag:
        return Color.GREEN
    return Color.BLUE


def describe(c: Color) -> str:
    if c.warm():
        return c.label
    return c.name


def successor(b: Bound) -> int:
    if b.kind is Color.RED and b.version > 0:
        return b.version + 1
    return b.version


def parse(n: int, s: str) -> int:
    if n > 0:
        c = Color(n)
        return 1 if c is Color.RED else 2
    level = Level(-n)
    if Mode(s) is Mode.FAST:
        return level * 2
    return level


def reds(colors: list[Color]) -> int:
    n = 0
    for c in colors:
        if c is Color.RED:
            n += 1
    return n
'''

NAMES = ["shade", "weigh", "speed", "pick", "describe", "successor", "reds", "parse", "Color.warm", "Color.label"]


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("enums") / "colors.py"
    path.write_text(COLORS)
    return path


@pytest.mark.parametrize("name", NAMES)
def test_every_test_replays_on_the_real_enum(source: Path, name: str) -> None:
    cases = generate(translate(str(source), [name]).program, name, GenerateOptions()).cases
    assert cases
    assert replay_mismatches(source, name, cases) == []


def test_each_member_is_an_input_and_aliases_are_their_member(source: Path) -> None:
    cases = generate(translate(str(source), ["shade"]).program, "shade", GenerateOptions()).cases
    given = {dict(c.inputs)["c"]["member"] for c in cases}
    assert given == {"RED", "GREEN", "BLUE"}  # CRIMSON is RED
    assert {c.value for c in cases} == {1, 2}  # RED is CRIMSON (never 3); a plain member is no int (never 4)


def test_int_and_str_mixins_are_their_values(source: Path) -> None:
    weigh = generate(translate(str(source), ["weigh"]).program, "weigh", GenerateOptions()).cases
    assert {c.value for c in weigh} >= {-1, 0} and any(c.value > 5 for c in weigh)
    speed = generate(translate(str(source), ["speed"]).program, "speed", GenerateOptions()).cases
    assert {c.value for c in speed} == {"quick", "slow"}


def test_the_file_names_members_through_their_class_checks_identity_and_passes(source: Path,
                                                                              tmp_path: Path) -> None:
    out = tmp_path / "test_colors.py"
    made = subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(source), "-o", str(out)],
                          capture_output=True, text=True, check=False)
    assert made.returncode == 0, made.stderr
    text = out.read_text()
    assert "colors.shade(c=colors.Color.GREEN)" in text
    assert "assert result is colors.Color.BLUE" in text
    assert ".kind = colors.Color.RED" in text
    assert "\x00" not in text
    env = {**os.environ, "PYTHONPATH": str(source.parent)}
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:xdist",
                          "-p", "no:cacheprovider", str(out)], capture_output=True, text=True, env=env,
                         cwd=tmp_path, check=False)
    assert ran.returncode == 0, ran.stdout[-2000:]


def test_calling_the_class_looks_a_value_up(source: Path) -> None:
    """`Color(n)` finds the member of value n (CPython's lookup: RED, and
    BLUE as auto() made it 3), else raises ValueError (its message, the
    value's repr, is not asserted)."""
    cases = generate(translate(str(source), ["parse"]).program, "parse", GenerateOptions()).cases
    outcomes = {(c.kind, repr(c.value), c.exc_type) for c in cases}
    assert {("return", "1", None), ("return", "2", None), ("raise", "None", "ValueError")} <= outcomes
    assert ("return", "10", None) in outcomes  # Level.HIGH doubled
    assert ("return", repr({"$enum": "Level", "member": "HIGH"}), None) in outcomes  # the member itself
    assert all(c.exc_message is None for c in cases if c.kind == "raise")


@pytest.mark.parametrize(("body", "message"), [
    ("    RED = 1\n\n    @classmethod\n    def _missing_(cls, value):\n        return cls.RED\n",
     "enum class Color with its own _missing_"),
    ("    RED = [1]\n", "whose value is not an int, float, str, bool or None constant"),
    ("    RED = 'r'\n    BLUE = auto()\n", "auto() after a member of Color whose value is no int"),
])
def test_an_enum_the_model_cannot_read_refuses_its_users(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "odd.py"
    path.write_text(f"from enum import Enum, auto\n\n\nclass Color(Enum):\n{body}\n\n"
                    "def f(c: Color) -> int:\n    if c is Color.RED:\n        return 1\n    return 0\n")
    errors = translate(str(path), ["f"]).errors
    assert message in str(errors["f"])


MISUSE = '''
from enum import Enum


class Color(Enum):
    RED = 1
    GREEN = 2


def index(c: Color) -> int:
    return c[0]


def size(c: Color) -> int:
    return len(c)


def rename(c: Color) -> None:
    c.name = "x"


def member_of(c: Color) -> bool:
    return c in [Color.RED]
'''


@pytest.mark.parametrize("name", ["index", "size", "rename", "member_of"])
def test_what_a_member_is_not_raises_as_cpython_says(tmp_path: Path, name: str) -> None:
    """A member is no int: its errors name its class (a test claimed
    "'int' object is not subscriptable")."""
    source = tmp_path / "misuse.py"
    source.write_text(MISUSE)
    cases = generate(translate(str(source), [name]).program, name, GenerateOptions()).cases
    assert cases
    assert replay_mismatches(source, name, cases) == []
    assert all("int" not in (c.exc_message or "") for c in cases)


WALKS = '''
from enum import Enum


class Color(Enum):
    RED = 1
    GREEN = 2
    CRIMSON = 1
    BLUE = 3


def count() -> int:
    return len(Color)


def total() -> int:
    n = 0
    for c in Color:
        n += c.value
    return n


def names() -> list[str]:
    return [c.name for c in Color]


def backwards() -> list[Color]:
    return list(reversed(Color))


def shadowed(Color: list[int]) -> int:
    return len(Color)
'''


@pytest.mark.parametrize(("name", "value"), [("count", 3), ("total", 6), ("names", None), ("backwards", None),
                                             ("shadowed", None)])
def test_walking_the_class_walks_its_members_without_aliases(tmp_path: Path, name: str, value: int | None) -> None:
    source = tmp_path / "walks.py"
    source.write_text(WALKS)
    options = GenerateOptions.of(criterion=parse_criterion("loop-3"))
    cases = generate(translate(str(source), [name]).program, name, options).cases
    assert cases
    assert replay_mismatches(source, name, cases) == []
    if value is not None:
        assert {c.value for c in cases} == {value}


TEXTS = '''
from enum import Enum, IntEnum


class Color(Enum):
    RED = 1
    GREEN = "g"


class Level(IntEnum):
    LOW = 1


class Size(int, Enum):
    SMALL = 1


def label(c: Color) -> str:
    return f"color {c} {c!r}"


def level(v: Level) -> str:
    return f"{v}"


def size(s: Size) -> str:
    return str(s)
'''


def test_a_plain_members_text_is_written_and_a_mixins_is_not(tmp_path: Path) -> None:
    """`f"{c}"` is `Color.RED`, `f"{c!r}"` `<Color.RED: 1>` (3.11 on); the
    text of an IntEnum's or a `(int, Enum)`'s member differs between
    versions and between the two: not claimed."""
    source = tmp_path / "texts.py"
    source.write_text(TEXTS)
    program = translate(str(source), ["label", "level", "size"]).program
    label = generate(program, "label", GenerateOptions()).cases
    assert {c.value for c in label} == {"color Color.RED <Color.RED: 1>", "color Color.GREEN <Color.GREEN: 'g'>"}
    assert replay_mismatches(source, "label", label) == []
    for name in ("level", "size"):
        assert generate(program, name, GenerateOptions()).cases == []
