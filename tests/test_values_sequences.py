"""Sequence building and literals: `+`/`+=` on lists (`__add__` /
`__iadd__` in the prelude, `+=` extending in place), starred items in list
displays, `list(range(...))`, `reversed(range(...))` loops, `is True`, and
float/str/math defaults and module constants. The engine against the real
code: replay, and enumeration over small inputs (`tests/heap_enum.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, missed_heap_paths, replay_mismatches, unread

from pathcraft.frontend import translate
from pathcraft.generate import FunctionRun, GenerateOptions, generate

SEQUENCES = Path(__file__).resolve().parent / "fixtures" / "values" / "sequences.py"
FUNCTIONS = [
    "joined", "framed", "grow", "grow_by_one", "add_none", "with_ends", "spread_twice", "spread_none",
    "prefix_sums", "odds_below", "countdown", "sorted_range", "last_negative", "backwards_total",
    "flag_name", "count_set", "scaled", "label", "capped", "first_or_unset", "describe", "make_shape",
    "first_kind", "Letters.ends_after", "tally", "word_counts", "seen_before", "digits_text", "shout",
    "positives", "first_big", "lookup", "smallest", "clamp_to_infinity",
    "convert", "to_roman", "rank", "is_sorted_copy", "same_as_pair", "equal_to_none",
]
BOX = Bounds(ints=tuple(range(-2, 4)), max_list=2, max_str=1)
SMALL_BOX = {"Letters.ends_after": Bounds(max_dict=1, max_str=2, alphabet="a")}  # nested nodes multiply

@pytest.mark.parametrize("name", FUNCTIONS)
def test_replay(name: str) -> None:
    cases = generated(SEQUENCES, name, "loop-2")
    assert cases, "no test case generated"
    assert replay_mismatches(SEQUENCES, name, cases) == []


@pytest.mark.parametrize("name", FUNCTIONS)
def test_enumeration(name: str) -> None:
    cases = generated(SEQUENCES, name, "loop-2")
    missed, runs = missed_heap_paths(SEQUENCES, name, cases, k=2, bounds=SMALL_BOX.get(name, BOX))
    assert runs > 0
    assert missed == []


def test_plus_equals_extends_the_list_its_aliases_see() -> None:
    """`xs += extra` mutates xs: the alias taken before sees the new items."""
    cases = [c for c in generated(SEQUENCES, "grow") if c.kind == "return"]
    assert cases
    for case in cases:
        before = {name: len(cell["list"]) for name, cell in case.heap_in.items()}
        assert case.value == 2 * (before["xs"] + before["extra"])


def test_concatenation_with_none_asserts_the_type_only() -> None:
    """CPython's message names the operand types; it is not asserted."""
    for name in ("add_none", "spread_none"):
        raised = {(c.exc_type, c.exc_message) for c in generated(SEQUENCES, name) if c.kind == "raise"}
        assert raised == {("TypeError", None)}


def test_literal_defaults_and_constants_translate() -> None:
    result = translate(str(SEQUENCES), ["scaled", "label", "capped", "first_or_unset"])
    assert not result.errors
    defaults = dict(result.program.functions["label"].defaults)
    assert [d.value for d in (defaults["prefix"], defaults["sep"])] == ["item", "-"]  # type: ignore[union-attr]


def test_a_constant_rebound_at_module_level_is_no_constant(tmp_path: Path) -> None:
    path = tmp_path / "rebound.py"
    path.write_text("X = 1\nX = [X]\n\ndef f() -> int:\n    return X\n")
    assert "unknown name 'X'" in unread(path, ["f"])["f"]


def test_is_with_an_int_literal_stays_refused(tmp_path: Path) -> None:
    path = tmp_path / "ident.py"
    path.write_text("def f(x: int) -> bool:\n    return x is 1\n")
    assert "identity of ints" in str(translate(str(path), ["f"]).errors["f"])


def test_an_input_whose_class_cannot_be_built_is_dropped_not_a_crash(tmp_path: Path) -> None:
    """A parameter of a class whose fields are refused (a dataclass's field
    is a parameter of its `__init__`: it cannot be left out): no input, no
    test, the reason counted (the corpus's trie.py crashed the CLI). A
    plain class's field of that type is opaque instead (tests/test_opaque_fields.py)."""
    run = _run_of(tmp_path / "unbuildable.py", "size",
                  "from dataclasses import dataclass\n\n\n@dataclass\nclass Box:\n    items: dict[float, int]\n\n\n"
                  "def size(box: Box) -> int:\n    return 1\n")
    assert run.cases == [] and run.stats["unsupported_paths"] == 1


def test_a_module_container_that_a_function_changes_stays_unknown(tmp_path: Path) -> None:
    """Only containers every function merely reads are copied at each read."""
    path = tmp_path / "shared.py"
    path.write_text("SEEN = [1, 2]\nTABLE = {1: 2}\n\n\ndef remember(x: int) -> int:\n    SEEN.append(x)\n"
                    "    return len(SEEN)\n\n\ndef look(x: int) -> int:\n    return TABLE.get(x, 0) + len(SEEN)\n")
    why = unread(path, ["remember", "look"])
    assert "unknown name 'SEEN'" in why["remember"] and "unknown name 'SEEN'" in why["look"]


def test_a_module_container_that_import_time_code_changes_stays_unknown(tmp_path: Path) -> None:
    """`_pyio.valid_seek_flags`: a set literal that module-level code adds
    to under a condition is no literal (a seek with whence 3 was claimed
    to raise "invalid whence value", where Linux has SEEK_HOLE = 3); a
    container module-level code only reads still is."""
    path = tmp_path / "flags.py"
    path.write_text("import os\n\nFLAGS = {0, 1, 2}\nif hasattr(os, 'SEEK_HOLE'):\n    FLAGS.add(os.SEEK_HOLE)\n"
                    "TABLE = [1, 2]\nCOUNT = len(TABLE)\n\n\n"
                    "def check(whence: int) -> bool:\n    return whence in FLAGS\n\n\n"
                    "def look(i: int) -> bool:\n    return i in TABLE\n")
    why = unread(path, ["check", "look"])
    assert "unknown name 'FLAGS'" in why["check"] and why["look"] == ""


def test_a_module_container_returned_to_callers_outside_the_module_only(tmp_path: Path) -> None:
    """PEP 562's `def __dir__(): return __all__`: nothing in the module calls
    `__dir__`, so the list is handed only to code outside it, after the
    call; a function the module calls that returns the list keeps it
    unknown when a caller inside changes it (and could read it again); one
    whose callers only read it does not (frontend/frozen.py)."""
    path = tmp_path / "exported.py"
    path.write_text("__all__ = ['a', 'b']\nTABLE = [1, 2]\n\n\ndef __dir__() -> list[str]:\n    return __all__\n\n\n"
                    "def table() -> list[int]:\n    return TABLE\n\n\ndef user() -> int:\n    t = table()\n"
                    "    t.append(3)\n    return len(t)\n")
    read = tmp_path / "read.py"
    read.write_text("TABLE = [1, 2]\n\n\ndef table() -> list[int]:\n    return TABLE\n\n\ndef user(i: int) -> int:\n"
                    "    return len(table()) + table()[i]\n")
    assert not translate(str(read), ["table", "user"]).errors
    assert "unknown name 'TABLE'" in unread(path, ["table"])["table"]
    cases = generated(path, "__dir__")
    assert [case.kind for case in cases] == ["return"]
    assert replay_mismatches(path, "__dir__", cases) == []


def test_a_dict_view_left_in_the_final_state_drops_the_path(tmp_path: Path) -> None:
    """A view kept in a field cannot be written in a test: the path is
    dropped and counted (the corpus's boruvka MST crashed the CLI)."""
    run = _run_of(tmp_path / "views.py", "G.snapshot",
                  "class G:\n    def __init__(self) -> None:\n        self.d: dict[int, int] = {}\n\n"
                  "    def snapshot(self) -> int:\n        self.view = self.d.keys()\n        return 1\n")
    assert run.cases == [] and run.stats["unsupported_paths"] >= 1


def _run_of(path: Path, qualname: str, source: str) -> FunctionRun:
    """Translate `source` (it must translate) and generate for `qualname`."""
    path.write_text(source)
    result = translate(str(path), [qualname])
    assert not result.errors, result.errors
    return generate(result.program, qualname, GenerateOptions.of())
