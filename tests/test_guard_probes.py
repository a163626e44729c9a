"""An int parameter the function checks with `isinstance` is also tried as
a float, so the check's other branch (a TypeError guard, most often) gets
a test of its own, as a caller ignoring the annotation would reach it.
Checked by replaying every test against the real code."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import generated, replay_mismatches

from pathcraft.frontend import translate

SOURCE = '''
def checked_half(n: int) -> int:
    if not isinstance(n, int):
        raise TypeError("n must be an int")
    if n < 0:
        raise ValueError("negative")
    return n // 2


def lenient_double(n: int) -> int:
    if not isinstance(n, int):
        n = int(n)
    return n * 2


def both(a: int, b: int) -> int:
    if not isinstance(a, int) or not isinstance(b, int):
        raise TypeError("ints only")
    return a + b


def numeric(x: int) -> int:
    if isinstance(x, (int, float)):
        return 1
    return 0
'''


@pytest.fixture
def module(tmp_path: Path) -> Path:
    path = tmp_path / "guards.py"
    path.write_text(SOURCE)
    return path


@pytest.mark.parametrize("name", ["checked_half", "lenient_double", "both", "numeric"])
def test_every_test_replays(module: Path, name: str) -> None:
    cases = generated(module, name, "loop-2")
    assert cases
    assert replay_mismatches(module, name, cases) == []


def test_the_guard_gets_a_float_and_its_type_error(module: Path) -> None:
    cases = generated(module, "checked_half", "loop-2")
    guarded = [c for c in cases if c.exc_type == "TypeError"]
    assert len(guarded) == 1 and isinstance(dict(guarded[0].inputs)["n"], float)
    assert guarded[0].exc_message == "n must be an int"


def test_each_checked_parameter_is_probed_alone_or_together(module: Path) -> None:
    cases = generated(module, "both", "loop-2")
    floats = {tuple(isinstance(v, float) for _, v in c.inputs) for c in cases if c.exc_type == "TypeError"}
    assert floats == {(True, False), (False, True), (True, True)}


def test_a_check_a_float_passes_gets_no_probe(module: Path) -> None:
    assert translate(str(module), ["numeric"]).program.functions["numeric"].probes == ()
    assert translate(str(module), ["both"]).program.functions["both"].probes == ("a", "b")
