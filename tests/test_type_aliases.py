"""Module-level type aliases spelled as assignments (`Matrix = list[list[int]]`,
`Maybe = list[int] | None`) type the parameters that name them, as a
`type X = ...` statement does; the tests replay against the real code."""

from __future__ import annotations

from pathlib import Path

from oracle import generated, replay_mismatches

from pathcraft.frontend import translate

SOURCE = '''
from __future__ import annotations

Matrix = list[list[int]]
Pair = tuple[int, int]
Maybe = list[int] | None


def trace(m: Matrix) -> int:
    total = 0
    for i in range(len(m)):
        if i < len(m[i]):
            total += m[i][i]
    return total


def swap(p: Pair) -> Pair:
    a, b = p
    return b, a


def size(xs: Maybe) -> int:
    if xs is None:
        return -1
    return len(xs)
'''


def test_aliases_type_parameters_and_tests_replay(tmp_path: Path) -> None:
    module = tmp_path / "aliases.py"
    module.write_text(SOURCE)
    program = translate(str(module), ["trace", "swap", "size"]).program
    assert str(program.functions["trace"].param_types[0]) == "list[list[int]]"
    for name in ("trace", "swap", "size"):
        cases = generated(module, name, "loop-2")
        assert cases, name
        assert replay_mismatches(module, name, cases) == [], name
