"""Module tables of nested literals (`{"css3": {"aqua": "#00ffff"}}`,
`[[1, 2], [3, 4]]`) are read-only containers too (`frontend/frozen.py`)
when every use that reaches an inner container only reads it; the engine
against the real code, and the uses that could change an inner container
or hand it out keep the table unknown."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import generated, replay_mismatches, unread

from pathcraft.frontend import translate

TABLES = '''
NAMES = {"html4": {"aqua": "#00ffff", "black": "#000000"}, "css3": {"aqua": "#00ffff", "red": "#ff0000"}}
GRID = [[1, 2], [3, 4]]
PAIRS = {"a": [(1, 2), (3, 4)], "b": []}


def look(spec: str, name: str) -> str:
    if spec not in NAMES:
        raise ValueError(spec)
    return NAMES[spec][name]


def soft(spec: str, name: str) -> str:
    return NAMES.get(spec, {}).get(name, "?")


def cell(i: int, j: int) -> int:
    return GRID[i][j] + len(GRID[i])


def first(key: str) -> int:
    for a, b in PAIRS[key]:
        if a > 2:
            return b
    return -1


def row_sum(i: int) -> int:
    row = GRID[i]
    total = 0
    for x in row:
        total += x
    return total


def widest(low: int) -> int:
    best = 0
    for row in GRID:
        if len(row) > best and row[0] > low:
            best = len(row)
    return best


def _names_of(spec: str) -> dict[str, str]:
    if spec not in NAMES:
        raise ValueError(spec)
    return NAMES[spec]


def hex_of(spec: str, name: str) -> str:
    return _names_of(spec).get(name, "")
'''


@pytest.mark.parametrize("name", ["look", "soft", "cell", "first", "row_sum", "widest", "hex_of"])
def test_reads_of_nested_tables_get_tests_that_replay(tmp_path: Path, name: str) -> None:
    path = tmp_path / "tables.py"
    path.write_text(TABLES)
    cases = generated(path, name, "loop-2")  # the rows hold two items
    assert len(cases) >= 2
    assert replay_mismatches(path, name, cases) == []


@pytest.mark.parametrize("use", [
    "    row = GRID[0]\n    row.append(1)\n    return len(row)\n",  # an inner list bound to a name and changed
    "    GRID[0].append(1)\n    return 0\n",  # changed in place
    "    for row in GRID:\n        row.append(0)\n    return 0\n",  # a row the loop hands out, changed
    "    for row in GRID:\n        rows = [row]\n    return 0\n",  # a row put in another list
    "    row = GRID[0]\n    row = []\n    return len(row)\n",  # the name is bound twice
    "    return sorted(GRID)[0][0]\n",  # a new list holding the inner ones
    "    return len(GRID[0:1])\n",  # a slice holds them too
    "    return len(row_of(0))\n\n\ndef row_of(i: int) -> list[int]:\n    return GRID[i]\n\n\n"
    "def h(i: int) -> int:\n    r = row_of(i)\n    r.append(1)\n    return 0\n",  # a caller changes the row
])
def test_uses_that_could_change_an_inner_container_keep_the_table_unknown(tmp_path: Path, use: str) -> None:
    path = tmp_path / "grid.py"
    path.write_text(f"GRID = [[1, 2], [3, 4]]\n\n\ndef f() -> int:\n{use}\n\ndef g(i: int) -> int:\n"
                    "    return GRID[i][0]\n")
    why = unread(path, ["f", "g", "row_of"])
    reader = "row_of" if "row_of" in why else "f"  # f reads GRID itself, or through a helper it calls
    assert "unknown name 'GRID'" in why[reader] and "unknown name 'GRID'" in why["g"]


def test_a_flat_table_is_read_as_before_by_any_reader(tmp_path: Path) -> None:
    path = tmp_path / "flat.py"
    path.write_text("ROW = [3, 1, 2]\n\n\ndef f() -> int:\n    for x in sorted(ROW[0:2]):\n        return x\n"
                    "    return 0\n")
    assert not translate(str(path), ["f"]).errors


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    package = tmp_path / "colors"
    package.mkdir()
    (package / "__init__.py").write_text(files.pop("__init__.py", ""))
    for name, text in files.items():
        (package / name).write_text(text)
    return package


DATA = '''
JOINING = {0x600: 85, 0x601: 82}
SCRIPTS = {"greek": [(0x370, 0x3FF)], "han": [(0x4E00, 0x9FFF)]}
LIMIT = 10


def clamp(n: int) -> int:
    return min(n, LIMIT)
'''

USES = '''
from . import data
import colors.data as tables


def joining(cp: int) -> int:
    return data.JOINING.get(cp, -1)


def in_script(cp: int, script: str) -> bool:
    for low, high in tables.SCRIPTS[script]:
        if low <= cp <= high:
            return True
    return False


def capped(n: int) -> int:
    if n > data.LIMIT:
        return data.clamp(n)
    return n
'''


@pytest.mark.parametrize("name", ["joining", "in_script", "capped"])
def test_a_sibling_module_used_as_a_namespace_is_read_through(tmp_path: Path, name: str) -> None:
    """`from . import data` ... `data.JOINING`: read as `from .data import
    JOINING` (frontend/namespaces.py), its table merged read-only."""
    package = _package(tmp_path, {"data.py": DATA, "uses.py": USES})
    cases = generated(package / "uses.py", name, "loop-1")
    assert len(cases) >= 2
    assert replay_mismatches(package / "uses.py", name, cases) == []


@pytest.mark.parametrize("uses, why", [
    ("def f(cp: int) -> int:\n    data.JOINING[cp] = 1\n    return 0\n", "may change it"),  # stored into here
    ("def f(cp: int) -> int:\n    JOINING = {}\n    return data.JOINING.get(cp, 0)\n", ""),  # the name is taken
    ("def f(cp: int) -> int:\n    m = data\n    return m.LIMIT\n", ""),  # the module itself passed on
])
def test_a_namespace_whose_use_would_change_meaning_stays_unknown(tmp_path: Path, uses: str, why: str) -> None:
    package = _package(tmp_path, {"data.py": DATA, "uses.py": f"from . import data\n\n\n{uses}"})
    error = unread(package / "uses.py", ["f"])["f"]
    assert "unknown name" in error and why in error


def test_a_name_the_package_binds_is_not_taken_for_the_module(tmp_path: Path) -> None:
    """`from . import data` gives the package's own `data` when its
    `__init__.py` binds one: not the module file."""
    package = _package(tmp_path, {"__init__.py": "data = None\n", "data.py": DATA,
                                  "uses.py": "from . import data\n\n\ndef f() -> int:\n    return data.LIMIT\n"})
    assert "unknown name 'data'" in unread(package / "uses.py", ["f"])["f"]


def test_a_table_read_by_a_function_a_c_accelerator_may_replace_is_refused(tmp_path: Path) -> None:
    """`stat.filemode` reads `_filemode_table`, but `from _stat import *`
    replaces it with a C version of its own table (PEP 399 equivalence
    holds for what a function computes from its arguments): '?' where the
    table gives '-'. Its other functions, reading no table, are analysed."""
    source = ("TABLE = ((4, 'r'), (2, 'w'))\n\n\ndef mode(m: int) -> str:\n    for bit, c in TABLE:\n"
              "        if m & bit:\n            return c\n    return '-'\n\n\ndef is_read(m: int) -> bool:\n"
              "    return m & 4 == 4\n")
    path = tmp_path / "modes.py"
    path.write_text(source + "\n\ntry:\n    from _modes import *\nexcept ImportError:\n    pass\n")
    errors = translate(str(path), ["mode", "is_read"]).errors
    assert "may replace at import" in str(errors["mode"]) and "is_read" not in errors
    plain = tmp_path / "plain.py"
    plain.write_text(source)
    assert not translate(str(plain), ["mode", "is_read"]).errors


SUFFIXES = '''
RANK = 3
SUFFIX = (RANK, 0, (1, "a"))
PAIRS = ((1, 2), (3, 4))


def key(stable: bool) -> tuple[int, int, tuple[int, str]]:
    if stable:
        return SUFFIX
    return (0, 0, (0, ""))


def stored(n: int) -> int:
    box = [SUFFIX, PAIRS]
    if n > 0:
        return len(box[1]) + n
    return box[0][0]


def passed(n: int) -> int:
    return _first(PAIRS, n)


def _first(pairs: tuple[tuple[int, int], ...], n: int) -> int:
    for a, b in pairs:
        if a >= n:
            return b
    return -1
'''


@pytest.mark.parametrize("name", ["key", "stored", "passed"])
def test_a_tuple_of_literals_is_read_whatever_the_code_does_with_it(tmp_path: Path, name: str) -> None:
    """Returned, stored in a list, passed on: nothing in it can change, so
    a fresh copy at each read is as good (frontend/frozen._immutable_use)."""
    path = tmp_path / "suffixes.py"
    path.write_text(SUFFIXES)
    cases = generated(path, name, "loop-2")
    assert len(cases) >= 2
    assert replay_mismatches(path, name, cases) == []


@pytest.mark.parametrize("use", ["    return x is SUFFIX\n",
                                 "    box = [SUFFIX, [1]]\n    return box is None\n"])
def test_a_tuple_whose_identity_is_asked_or_that_holds_a_list_stays_unknown(tmp_path: Path, use: str) -> None:
    path = tmp_path / "ident.py"
    table = "SUFFIX = (1, [2])" if "[1]" in use else "SUFFIX = (1, 2)"
    path.write_text(f"{table}\n\n\ndef f(x: int) -> bool:\n{use}")
    assert "unknown name 'SUFFIX'" in unread(path, ["f"])["f"]
