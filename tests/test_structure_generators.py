"""Generator functions and classes whose `__iter__` yields, run as CPython
runs them: the generator's frame suspended at each `yield` and resumed by
the loop that walks it (a call event per resumption, a return event per
item), closed where a loop stops early. Checked against the real code:
replay of every generated test (outcome and events) and enumeration of
small inputs. A generator function's own tests take what it yields."""

from __future__ import annotations

import sys
from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.errors import UnsupportedError
from pathcraft.frontend import translate
from pathcraft.testcase.emit_pytest import call_text

GENERATORS = Path(__file__).resolve().parent / "fixtures" / "structure" / "generators.py"
NAMES = ["Chain.total", "Chain.count", "Chain.has_negative", "Chain.first_over", "Chain.prefix_sum_until_zero",
         "Chain.doubled", "Chain.values", "Chain.weighted", "Chain.checked_total", "sum_countdown",
         "first_even_over", "halves_list", "halves_count", "squares_of_evens", "reversed_values", "ends_total",
         "countdown", "evens_below", "halves", "walk_back", "both_ends", "value_at_depth", "odd_total",
         "pairs_from_one"]
BREAK_LINE = next(n for n, text in enumerate(GENERATORS.read_text().splitlines(), 1) if text.strip() == "break")
SMALL = Bounds(ints=tuple(range(-2, 4)), max_list=3, max_objects=3)


test_replay, test_enumeration = oracle_tests(GENERATORS, NAMES, SMALL)


def test_a_loop_that_stops_early_closes_its_generator_as_cpython_does() -> None:
    """`break` inside a loop over a suspended generator: up to 3.12 closing
    it runs its frame (a call and a return event right after the break)."""
    cases = generated(GENERATORS, "Chain.prefix_sum_until_zero", "loop-2")
    brk = ("line", "Chain.prefix_sum_until_zero", BREAK_LINE)
    stopped = [c for c in cases if brk in c.path]
    assert stopped
    for case in stopped:
        at = case.path.index(brk)
        closing = case.path[at + 1: at + 3]
        expected = (("call", "Chain.__iter__"), ("return", "Chain.__iter__")) if sys.version_info < (3, 13) else ()
        assert closing[: len(expected)] == expected


def test_a_generator_functions_test_takes_every_item() -> None:
    cases = generated(GENERATORS, "countdown", "loop-2")
    yielded = {tuple(c.heap_final[c.value["$ref"]]["list"]) for c in cases if c.kind == "return"}
    assert yielded == {(), (1,), (2, 1)}  # loop-2: the generator's loop runs at most twice
    assert all(call_text(c, "generators").startswith("list(generators.countdown(") for c in cases)


def test_a_yield_used_as_a_value_is_refused_with_its_place(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("def echo(n: int):\n    got = yield n\n    return got\n")
    result = translate(str(source), ["echo"])
    error = result.errors["echo"]
    assert isinstance(error, UnsupportedError)
    assert "yield used as a value" in error.message
    assert error.location is not None and error.location.line == 2


def test_a_nested_generator_that_uses_the_enclosing_variables_is_refused(tmp_path: Path) -> None:
    """It runs when iterated, later than its call: what it captured may have moved on."""
    source = tmp_path / "m.py"
    source.write_text("def f(n: int) -> int:\n    def g():\n        yield n\n    it = g()\n    n = 2\n"
                      "    return sum(1 for _ in it)\n")
    error = translate(str(source), ["f"]).errors["f"]
    assert "nested generator function 'g'" in error.message
