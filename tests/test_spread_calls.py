"""`obj.m(a, *rest)` and `C(a, *rest)`: the items of a list or tuple of
known length passed one argument each, bound as written arguments are
(too many or too few: TypeError, its message not asserted); a sequence of
symbolic length drops the path. The engine against the real code:
replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "spread_calls.py"
NAMES = ["Perms.from_int", "Graph.build", "Graph.pair", "weight"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(0, 1, 9, 600), max_list=2,
                                                                     max_objects=1))


def test_too_many_items_raise_type_error_without_a_claimed_message() -> None:
    raised = {(c.exc_type, c.exc_message) for c in generated(FIXTURE, "Perms.from_int") if c.kind == "raise"}
    assert raised == {("TypeError", None)}


def test_a_list_of_symbolic_length_drops_the_path(tmp_path: Path) -> None:
    source = tmp_path / "spread_symbolic.py"
    source.write_text("class G:\n    def add(self, u: int, v: int) -> int:\n        return u + v\n\n\n"
                      "def f(xs: list[int]) -> int:\n    return G().add(*xs)\n")
    run = generate(translate(str(source), ["f"]).program, "f", GenerateOptions.of())
    assert not run.cases and any("list or tuple of known length" in note for note in run.notes)
