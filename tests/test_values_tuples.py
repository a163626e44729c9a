"""Tuples as values: literals, returns, unpacking of any tuple-valued
expression, `tuple[int, int]` / `tuple[int, ...]` parameters, `len`,
indexing, slices, starred displays, iteration, `in`, `==` and lexicographic `<`, `divmod`, and what
Python refuses (item assignment). The engine against the real code:
replay, and enumeration over the small int box (`tests/heap_enum.py`)."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, replay_mismatches, oracle_tests

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.testcase.emit_pytest import render
from pathcraft.testcase.verify import check_replay

TUPLES = Path(__file__).resolve().parent / "fixtures" / "values" / "tuples.py"
FUNCTIONS = [
    "min_max", "split_minutes", "sort_pair", "manhattan", "quadrant", "earlier", "total", "has_zero",
    "second", "ratio", "swap_order", "mutate", "fib_pair", "count_in", "unpack_any", "pairs_sum",
    "nested", "append_to", "grow_list", "flag_value", "split_off", "bucket", "pair_node",
    "closest", "enumerate_points", "first_pair_sum", "maybe_sum", "Robot.move", "bumped", "stepped", "framed",
]
BOX = Bounds(ints=tuple(range(-2, 3)), max_list=2)


# loop-3 too: pairs_sum walks a list of 2
test_replay, test_enumeration = oracle_tests(TUPLES, FUNCTIONS, BOX, ("loop-2", "loop-3"))


def test_tuples_are_written_as_tuple_literals() -> None:
    cases = generated(TUPLES, "sort_pair")
    assert all(isinstance(dict(c.inputs)["p"], tuple) and isinstance(c.value, tuple) for c in cases)
    assert all(c.name.endswith("_returns_tuple") for c in cases)
    assert render((1, -2)) == "(1, -2)" and render((3,)) == "(3,)"


def test_messages_asserted_are_certain() -> None:
    """Item assignment and a missing index have CPython's constant messages;
    a failed unpacking only its type (the text differs between versions)."""
    raised = {(c.exc_type, c.exc_message) for name in ("mutate", "second", "unpack_any", "append_to")
              for c in generated(TUPLES, name) if c.kind == "raise"}
    assert ("TypeError", "'tuple' object does not support item assignment") in raised
    assert ("IndexError", "tuple index out of range") in raised
    assert ("ValueError", None) in raised
    assert ("AttributeError", "'tuple' object has no attribute 'append'") in raised


def test_a_tuple_annotation_with_an_ellipsis_not_last_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "refused.py"
    path.write_text("def f(p: tuple[..., int]) -> int:\n    return 0\n")
    result = translate(str(path), ["f"])
    assert "unsupported parameter type 'tuple[..., int]'" in str(result.errors["f"])


def test_min_max_returns_the_sorted_pair() -> None:
    result = translate(str(TUPLES), ["min_max"])
    run = generate(result.program, "min_max", GenerateOptions.of())
    assert run.cases
    for case in run.cases:
        a, b = dict(case.inputs)["a"], dict(case.inputs)["b"]
        assert case.value == (min(a, b), max(a, b))


def test_verify_replays_tuples_through_json() -> None:
    """`--verify` hands the cases to a subprocess as JSON, where a tuple
    would come back a list: inputs, list items and results survive."""
    cases = [c for name in ("sort_pair", "first_pair_sum", "pair_node", "earlier") for c in generated(TUPLES, name)]
    checks = check_replay(str(TUPLES), cases)
    assert [c.detail for c in checks if not (c.outcome_ok and c.path_ok)] == []


def test_len_of_a_string_reached_through_a_tuple() -> None:
    """A string reached through a tuple has a length (a corpus run found a
    TypeError Python would not raise): both paths, each as Python runs it."""
    result = translate(str(TUPLES), ["label_length"])
    run = generate(result.program, "label_length", GenerateOptions.of())
    assert sorted(c.kind for c in run.cases) == ["return", "return"]
    assert replay_mismatches(TUPLES, "label_length", run.cases) == []
