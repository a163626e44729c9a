"""`with` over objects whose class has `__enter__` and `__exit__`
(frontend/stmt_with.py, engine/managers.py): the engine against the real
code (replay of every test, and every small input whose path no test
takes); CPython's TypeError for a value that is no manager; the paths
through an `__exit__` that may swallow the exception dropped and named."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "managers.py"
NAMES = ["guarded", "spend", "nested", "maybe", "half"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 2), max_list=1, max_objects=2))


def test_a_value_that_is_no_manager_is_cpythons_type_error() -> None:
    raised = {c.exc_message for c in generated(FIXTURE, "maybe") + generated(FIXTURE, "half")
              if c.exc_type == "TypeError"}
    assert raised == {"'NoneType' object does not support the context manager protocol",
                      "'HalfManager' object does not support the context manager protocol (missed __exit__ method)"}


def test_exit_runs_on_every_way_out() -> None:
    """The gate is released after a return from inside the block and
    after the block ends (its state after the call says so)."""
    for case in generated(FIXTURE, "guarded"):
        if case.kind == "return":
            assert case.heap_final["gate"]["fields"]["held"] is False


def test_an_exit_that_may_swallow_drops_its_paths() -> None:
    result = translate(str(FIXTURE), ["swallowed"])
    run = generate(result.program, "swallowed", GenerateOptions.of())
    assert run.cases == []
    assert any("Swallower.__exit__" in note for note in run.notes), run.notes
