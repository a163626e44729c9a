"""`C._make(iterable)` of a NamedTuple class (frontend/namedtuple_make.py):
built from any iterable, TypeError when the count is wrong; the engine
against the real code, and the brute-force oracle on small lists."""

from __future__ import annotations

from pathlib import Path

from oracle import generated, missed_paths, replay_mismatches

SOURCE = '''
from typing import NamedTuple


class RGB(NamedTuple):
    red: int
    green: int
    blue: int


def _clip(v: int) -> int:
    return 0 if v < 0 else 255 if v > 255 else v


def clipped(t: tuple[int, int, int]) -> RGB:
    return RGB._make(_clip(v) for v in t)


def from_list(xs: list[int]) -> int:
    rgb = RGB._make(xs)
    if rgb.red > rgb.blue:
        return rgb.green
    return -rgb.green
'''


def test_make_builds_from_an_iterable_or_raises_type_error(tmp_path: Path) -> None:
    path = tmp_path / "colors.py"
    path.write_text(SOURCE)
    for name in ("clipped", "from_list"):
        cases = generated(path, name, "loop-3")  # a triple is walked three times
        assert cases and replay_mismatches(path, name, cases) == [], name
    cases = generated(path, "from_list")
    assert {case.kind for case in cases} == {"return", "raise"}
    assert {case.exc_type for case in cases if case.kind == "raise"} == {"TypeError"}
    assert missed_paths(path, "from_list", cases) == []
