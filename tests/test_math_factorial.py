"""`math.factorial` on ints is the prelude's loop (models/math/prelude.py):
the tests replay against the real code, negative arguments raise CPython's
ValueError, a float its TypeError (type only)."""

from __future__ import annotations

from pathlib import Path

from oracle import generated, replay_mismatches

SOURCE = '''
import math
from math import factorial


def choose(n: int, k: int) -> int:
    if k < 0 or k > n:
        return 0
    return math.factorial(n) // (factorial(k) * factorial(n - k))


def of_any(x: int) -> int:
    return factorial(x)


def of_float(x: float) -> int:
    return math.factorial(x)
'''


def test_factorial_replays_with_its_errors(tmp_path: Path) -> None:
    module = tmp_path / "fact.py"
    module.write_text(SOURCE)
    for name in ("choose", "of_any", "of_float"):
        cases = generated(module, name, "loop-2")
        assert cases and replay_mismatches(module, name, cases) == [], name
    errors = {(c.exc_type, c.exc_message) for c in generated(module, "of_any", "loop-2") if c.kind == "raise"}
    assert errors == {("ValueError", "factorial() not defined for negative values")}
    assert {c.exc_type for c in generated(module, "of_float", "loop-2")} == {"TypeError"}
