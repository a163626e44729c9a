"""Module constants computed by pure expressions are folded to literals by
our own evaluator (`frontend/folding.py`), never by running the module;
functions reading them get tests that replay against the real code."""

from __future__ import annotations

import ast
from pathlib import Path

from oracle import generated, replay_mismatches

from pathcraft.frontend.folding import fold_module_constants

SOURCE = '''
import string
from string import ascii_lowercase as LOWER

HEX = {hex(i)[2:]: i for i in range(16)}
CHART: dict[str, float] = {"unit": 1, "kilo": pow(10, 3), "milli": pow(10, -3)}
INVERSE = {k: 1 / v for k, v in CHART.items()}
LETTERS = list(" " + LOWER)
UPPER_COUNT = len(string.ascii_uppercase)
EVENS = tuple(x for x in range(10) if x % 2 == 0)


def hex_value(digit: str) -> int:
    if digit not in HEX:
        raise ValueError("not a hex digit")
    return HEX[digit]


def scale(unit: str, amount: int) -> float:
    if unit not in INVERSE:
        return -1.0
    return amount * INVERSE[unit]


def letter_index(c: str) -> int:
    if c in LETTERS:
        return LETTERS.index(c) + UPPER_COUNT
    return len(EVENS)
'''


def fold(source: str) -> dict[str, str]:
    body = ast.parse(source).body
    names = {n.targets[0].id for n in body if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name)}
    names |= {n.target.id for n in body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    return {name: ast.unparse(node) for name, node in fold_module_constants(body, names).items()}


def test_pure_builtins_on_literals_fold_to_literals() -> None:
    folded = fold(SOURCE)
    assert folded["HEX"].startswith("{'0': 0, '1': 1") and "'f': 15" in folded["HEX"]
    assert folded["CHART"] == "{'unit': 1, 'kilo': 1000, 'milli': 0.001}"
    assert folded["INVERSE"] == "{'unit': 1.0, 'kilo': 0.001, 'milli': 1000.0}"
    assert folded["LETTERS"].startswith("[' ', 'a', 'b'")
    assert folded["UPPER_COUNT"] == "26"
    assert folded["EVENS"] == "(0, 2, 4, 6, 8)"  # a generator expression given to tuple()


def test_what_needs_the_modules_code_or_is_too_large_stays_unknown() -> None:
    folded = fold("def f(x):\n    print(x)\n    return x\n\n\nA = f(2)\nB = list(range(10 ** 6))\nC = 2 ** 100000\n"
                  "D = [1, 2]\nD.append(3)\nE = len(D)\nF = open('x')\nG = g(1)\n\n\ndef g(x):\n    return x\n")
    assert folded == {}  # `f` does more than return; `g` is defined only after `G` is bound


TABLES = '''
HTML4 = "html4"
CSS3 = "css3"
SPECS = (HTML4, CSS3)
_HTML4 = {"aqua": "#00ffff", "black": "#000000"}
_CSS3 = {"aqua": "#00ffff", "red": "#ff0000", "tan": "#d2b48c"}


def _reversed(table: dict) -> dict:
    """Values to keys."""
    return {value: key for key, value in table.items()}


def _twice(table: dict) -> dict:
    return _reversed(_reversed(table))


_HEX_HTML4 = _reversed(_HTML4)
_SAME = _twice(_CSS3)


def rev(spec: str, h: str) -> str:
    if spec not in SPECS:
        raise ValueError(spec)
    if spec == HTML4:
        return _HEX_HTML4.get(h, "")
    return _SAME[h]
'''


def test_calls_of_the_modules_one_expression_functions_fold() -> None:
    folded = fold(TABLES + "\nMORE = {**_HTML4, 'navy': '#000080'}\n")
    assert folded["MORE"] == "{'aqua': '#00ffff', 'black': '#000000', 'navy': '#000080'}"  # `**` where it stands
    assert folded["SPECS"] == "('html4', 'css3')"
    assert folded["_HEX_HTML4"] == "{'#00ffff': 'aqua', '#000000': 'black'}"
    assert folded["_SAME"] == "{'aqua': '#00ffff', 'red': '#ff0000', 'tan': '#d2b48c'}"


def test_functions_reading_constants_folded_from_calls_replay(tmp_path: Path) -> None:
    module = tmp_path / "colors.py"
    module.write_text(TABLES)
    cases = generated(module, "rev", "loop-1")
    assert {case.kind for case in cases} == {"return", "raise"} and len(cases) >= 4
    assert replay_mismatches(module, "rev", cases) == []


def test_functions_reading_folded_constants_replay(tmp_path: Path) -> None:
    module = tmp_path / "tables.py"
    module.write_text(SOURCE)
    for name in ("hex_value", "scale", "letter_index"):
        cases = generated(module, name, "loop-1")
        assert cases, name
        assert replay_mismatches(module, name, cases) == [], name
