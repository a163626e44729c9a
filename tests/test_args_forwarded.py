"""`f(a, *args)` and `obj.m(a, *args)` where `args` is the caller's own
`*args` tuple and `a` fills the callee's positional parameters: the
tuple is the callee's `*args`. The engine against the real code: replay,
and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import oracle_tests

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "args_forwarded.py"

test_replay, test_enumeration = oracle_tests(FIXTURE, ["Bag.total", "Bag.shifted", "forward"], Bounds(
    ints=(0, 1), max_list=1, max_object_list=1, unannotated=(("Bag", "items", list[int]),)))


def test_a_spread_that_does_not_fit_is_refused() -> None:
    assert "misfit" in translate(str(FIXTURE), ["misfit"]).errors


def test_a_method_spread_that_does_not_fit_drops_its_path(tmp_path: Path) -> None:
    path = tmp_path / "spread.py"
    path.write_text("class A:\n    def m(self, k: int, *rest: int) -> int:\n        return k\n\n"
                    "    def n(self, *xs: int) -> int:\n        return self.m(*xs)\n")
    run = generate(translate(str(path), ["A.n"]).program, "A.n", GenerateOptions.of())
    assert run.cases == [] and any("*args spread into m()" in note for note in run.notes)
