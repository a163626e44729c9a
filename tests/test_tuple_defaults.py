"""Tuple defaults of constants (made at each call that leaves them out,
frontend/callargs.py and engine/methods.py) and unannotated parameters
typed as their default (`inclusive=(True, True)`: `tuple[bool, bool]`):
the engine against the real code, by replay and enumeration."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "tuple_defaults.py"
FUNCTIONS = ["within", "uses", "R.check", "R.run"]
BOX = Bounds(ints=tuple(range(-1, 5)), unannotated=(("R", "lo", int),))

test_replay = oracle_tests(FIXTURE, FUNCTIONS, BOX, ("loop-2",))[0]


def test_an_unannotated_parameter_takes_its_defaults_type() -> None:
    info = translate(str(FIXTURE)).program.functions["within"]
    assert str(dict(zip(info.params, info.param_types))["inclusive"]) == "tuple[bool, bool]"
    assert "inclusive: tuple[bool, bool] (as its default)" in info.inferred


def test_calls_that_leave_the_tuple_out_use_it() -> None:
    assert {c.value for c in generated(FIXTURE, "uses")} == {True, False}
