"""List comprehensions and generator expressions (consumed by sum, any,
all, min, max, list, sorted) run as CPython runs them (a function of their own
with call/return events up to 3.11, inlined from 3.12), checked against
the real code under the running Python: replay of every generated test
(outcome and path) and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, missed_heap_paths, replay_mismatches

from pathcraft.frontend import translate

COMPREHENSIONS = Path(__file__).resolve().parent / "fixtures" / "values" / "comprehensions.py"
NAMES = ["positives", "scaled_total", "squares", "negative_positions", "row_counts", "pairwise_max",
         "above", "any_zero", "countdown", "table", "gen_total", "gen_has_positive", "gen_all_small",
         "gen_smallest_double", "gen_largest_gap", "gen_even_count", "gen_positive_positions", "gen_window"]
SMALL = Bounds(ints=tuple(range(-2, 3)), max_list=3, max_object_list=2)
TINY = Bounds(ints=(-1, 0, 1), max_list=2, max_object_list=2)
BOUNDS = {"row_counts": TINY, "pairwise_max": TINY, "scaled_total": TINY, "above": TINY, "gen_all_small": TINY,
          "gen_largest_gap": TINY}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("criterion", ["loop-1", "loop-2"])
def test_replay(name: str, criterion: str) -> None:
    cases = generated(COMPREHENSIONS, name, criterion)
    assert cases
    assert replay_mismatches(COMPREHENSIONS, name, cases) == []


@pytest.mark.parametrize("name", NAMES)
def test_enumeration(name: str) -> None:
    cases = generated(COMPREHENSIONS, name, "loop-2")
    missed, runs = missed_heap_paths(COMPREHENSIONS, name, cases, k=2, bounds=BOUNDS.get(name, SMALL))
    assert runs > 0
    assert missed == []


@pytest.mark.parametrize("source, what", [
    ("def f(xs: list[int]) -> list[int]:\n    return [(y := x) for x in xs]\n", "':='"),
    ("def f(xs: list[int]) -> list[int]:\n    return [\n        (lambda: x)()\n        for x in xs\n    ]\n",
     "lambda"),
])
def test_comprehensions_outside_the_model_are_refused_with_their_place(tmp_path: Path, source: str,
                                                                        what: str) -> None:
    path = tmp_path / "m.py"
    path.write_text(source)
    errors = translate(str(path), ["f"]).errors
    assert what in errors["f"].message and errors["f"].location is not None
