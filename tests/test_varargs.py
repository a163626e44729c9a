"""`*args` parameters (frontend/varargs.py): a tuple of the arguments left
over, built as inputs of up to the list bound's items, packed at calls of
analysed code, spread in the generated call. The engine against the real
code: replay of every test and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.generate import GenerateOptions, generate
from pathcraft.frontend import translate
from pathcraft.testcase.emit_pytest import call_text

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "varargs.py"
FUNCTIONS = ["total", "first_or", "longest", "scaled", "packs", "Bag.add_all", "Bag.add_two"]
BOX = Bounds(ints=tuple(range(-1, 2)), max_list=2, max_object_list=2,
             unannotated=(("Bag", "items", list[int]),))

test_replay, test_enumeration = oracle_tests(FIXTURE, FUNCTIONS, BOX, ("loop-2",))


def test_items_are_spread_in_the_call_and_keywords_follow() -> None:
    calls = {call_text(c, "m") for c in generated(FIXTURE, "scaled")}
    assert "m.scaled(factor=2, offset=3)" in {c.replace("-", "") for c in calls} or \
        any(c.startswith("m.scaled(factor=") and "offset=" in c for c in calls)  # no items: keywords
    assert any(c.startswith("m.scaled(") and not c.startswith("m.scaled(factor=") and "offset=" in c
               for c in calls)  # items: positional first, then the keyword-only one


def test_untyped_items_are_typed_from_their_use_and_announced() -> None:
    result = translate(str(FIXTURE), ["count_above"])
    info = result.program.functions["count_above"]
    assert str(dict(zip(info.params, info.param_types))["items"]) == "tuple[int, ...]"
    assert any(note.startswith("*items") for note in info.inferred)


def test_count_above_replays() -> None:
    result = translate(str(FIXTURE), ["count_above"])
    run = generate(result.program, "count_above", GenerateOptions.of())
    assert {c.value for c in run.cases} >= {0, 1, 2}
