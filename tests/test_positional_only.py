"""Positional-only parameters (frontend/module.py `positional_parameters`):
read as positional ones, passed by position in the generated call, a
keyword for one refused at a call of analysed code. The engine against the
real code: replay and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend import translate
from pathcraft.testcase.emit_pytest import call_text

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "positional_only.py"
FUNCTIONS = ["norm", "scale", "norm_len", "Box.send", "uses"]
BOX = Bounds(ints=tuple(range(-1, 2)), max_str=1, alphabet="a", unannotated=(("Box", "v", int),))

test_replay, test_enumeration = oracle_tests(FIXTURE, FUNCTIONS, BOX, ("loop-2",))


def test_positional_only_parameters_are_passed_by_position() -> None:
    calls = {call_text(c, "m") for c in generated(FIXTURE, "scale")}
    assert calls and all(c.startswith("m.scale(") and not c.startswith("m.scale(x=") for c in calls)


def test_a_keyword_for_a_positional_only_parameter_is_refused() -> None:
    errors = translate(str(FIXTURE), ["misuses"]).errors
    assert "bad keyword argument 'x'" in str(errors["misuses"])
