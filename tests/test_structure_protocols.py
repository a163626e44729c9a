"""Protocols of values and classes: `is` between ints (CPython's small-int
cache) and bools, `==`/`!=` by Python's dispatch (a dataclass's generated
`__eq__`, a class's own, identity otherwise), `typing.NamedTuple` classes,
attributes set to lists of lists, and parameters annotated `int | None`
(and other scalars or None), module-level type aliases and type variables. The engine against the real code:
replay, and enumeration over small inputs and objects (`tests/heap_enum.py`)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import RealCode, generated, missed_heap_paths, missed_paths, replay_mismatches

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.testcase.emit_pytest import PytestWriter
from pathcraft.testcase.records import NamedValue

HERE = Path(__file__).resolve().parent / "fixtures" / "structure"
IDENTITY = HERE / "proto_identity.py"
EQUALITY = HERE / "proto_equality.py"
RECORDS = HERE / "proto_records.py"
ROWS = HERE / "proto_rows.py"
OPTIONAL = HERE / "proto_optional.py"
ALIASES = HERE / "proto_aliases.py"

CASES = [
    (IDENTITY, "same_count"), (IDENTITY, "large_twins"), (IDENTITY, "Slot.holds"), (IDENTITY, "Slot.agrees"),
    (IDENTITY, "flags_match"),
    (EQUALITY, "same_point"), (EQUALITY, "moved"), (EQUALITY, "point_or_nothing"), (EQUALITY, "tagged_vs_point"),
    (EQUALITY, "same_chain"), (EQUALITY, "first_differs"), (EQUALITY, "same_money"), (EQUALITY, "money_or_count"),
    (EQUALITY, "reading_of"), (EQUALITY, "same_reading"), (EQUALITY, "same_item"), (EQUALITY, "item_or_next"),
    (RECORDS, "make_span"), (RECORDS, "span_width"), (RECORDS, "score_of"), (RECORDS, "best"),
    (RECORDS, "is_span"), (RECORDS, "frozen_span"), (RECORDS, "band_points"),
    (ROWS, "Lanes.put"), (ROWS, "Lanes.busiest"), (ROWS, "Shelves.stock"), (ROWS, "Shelves.count"),
    (OPTIONAL, "limit_or_default"), (OPTIONAL, "window"), (OPTIONAL, "label"), (OPTIONAL, "doubled"),
    (OPTIONAL, "Tag.bumped"), (OPTIONAL, "Tag.relabel"),
    (ALIASES, "at"), (ALIASES, "manhattan"), (ALIASES, "best_of"), (ALIASES, "first_or"), (ALIASES, "last_value"),
]
INTS_ONLY = {"same_count", "large_twins", "flags_match", "make_span", "span_width", "score_of", "best",
             "is_span", "frozen_span", "band_points", "reading_of", "same_reading"}
BOX = Bounds(ints=tuple(range(-3, 4)), max_objects=2, max_list=2, max_object_list=2,
             unannotated=(("Lanes", "lanes", list[list[int]]), ("Shelves", "shelves", list[list[bool]]),
                          ("Tag", "label", int)))


@pytest.mark.parametrize(("path", "name"), CASES)
@pytest.mark.parametrize("criterion", ["loop-2", "loop-3"])
def test_replay(path: Path, name: str, criterion: str) -> None:
    cases = generated(path, name, criterion)
    assert cases, "no test case generated"
    assert replay_mismatches(path, name, cases) == []


@pytest.mark.parametrize(("path", "name"), CASES)
def test_enumeration(path: Path, name: str) -> None:
    cases = generated(path, name, "loop-2")
    if name in INTS_ONLY:
        assert missed_paths(path, name, cases, k=2) == []
    else:
        missed, runs = missed_heap_paths(path, name, cases, k=2, bounds=BOX)
        assert runs > 0
        real = RealCode(path, name)  # two distinct cycles compared: CPython's RecursionError, dropped
        assert [m for m in missed if real.run_case(m["inputs"], m["heap"])[0].exc_type != "RecursionError"] == []


def _run(path: Path, name: str) -> tuple[str, dict[str, int], list[object]]:
    result = translate(str(path), [name])
    assert name in result.program.functions, result.errors
    run = generate(result.program, name, GenerateOptions.of())
    return " ".join(run.notes), dict(run.stats), list(run.cases)


def test_equal_large_ints_are_dropped_and_counted() -> None:
    notes, stats, cases = _run(IDENTITY, "large_twins")
    assert stats["unsupported_paths"] > 0 and "outside [-5, 256]" in notes
    assert cases  # the paths where the ints differ, or are small, stay


def test_a_cycle_compared_with_a_copy_is_dropped_not_looped() -> None:
    notes, stats, cases = _run(EQUALITY, "same_chain")
    assert stats["unsupported_paths"] > 0 and "RecursionError" in notes
    assert cases


def test_namedtuple_results_are_constructed_and_type_checked() -> None:
    result = translate(str(RECORDS), ["score_of"])
    run = generate(result.program, "score_of", GenerateOptions.of())
    assert run.cases and all(isinstance(c.value, NamedValue) for c in run.cases)
    out = io.StringIO()
    writer = PytestWriter(out, result.program.module, result.program.path, ["score_of"], "loop-2")
    for case in run.cases:
        writer.add(case)
    writer.close()
    assert "assert type(result) is proto_records.Score" in out.getvalue()
    assert "== proto_records.Score(points=" in out.getvalue()


def test_namedtuple_calls_python_refuses_are_refused() -> None:
    result = translate(str(RECORDS), ["too_many", "unknown_field"])
    assert "too many arguments to Span()" in result.errors["too_many"].message
    assert "bad keyword argument 'width'" in result.errors["unknown_field"].message
