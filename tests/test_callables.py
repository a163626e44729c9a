"""Callable parameters (frontend/callables.py, models/callables/): the
input is one of the candidate functions, each a path root; its calls
dispatch to the candidate's model. The engine against the real code:
replay of every test, and every small input (functions from a family
wider than the candidates: constants too) whose path no test takes."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, oracle_tests, replay_mismatches

from pathcraft.app.cli import main
from pathcraft.frontend import translate
from pathcraft.frontend.modelclasses import CLASS_FILES
from pathcraft.ir import callables as model

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "callables.py"
TYPED = ["count_if", "first_match", "keyed_max", "kept", "mapped_total", "any_of", "chosen", "handed_back",
         "sorted_by", "Sieve.apply", "callables_among"]
UNTYPED = ["split_at", "apply_or_keep", "largest", "unchecked", "applied", "located"]

test_replay, test_enumeration = oracle_tests(FIXTURE, TYPED, Bounds(ints=(-1, 0, 1, 2), max_list=2))


@pytest.mark.parametrize("name", UNTYPED)
def test_unannotated_parameters_only_called_replay(name: str) -> None:
    cases = generated(FIXTURE, name)
    assert cases and replay_mismatches(FIXTURE, name, cases) == []


def test_each_candidate_is_a_path_root() -> None:
    """Both predicates are passed, and a function that is not only tested
    for truth gets the identity too."""
    used = {desc.get("function") for case in generated(FIXTURE, "count_if") for desc in case.heap_in.values()} - {None}
    assert used == {"lambda x: bool(x)", "lambda x: not x"}
    used = {desc.get("function") for case in generated(FIXTURE, "mapped_total")
            for desc in case.heap_in.values()} - {None}
    assert used == {"lambda x: x", "lambda x: not x"}


def test_the_types_are_announced_and_uses_beyond_calls_refused(tmp_path: Path) -> None:
    path = tmp_path / "uses.py"
    path.write_text("def two(xs, f):\n    return f(xs, 1, 2)\n\n\n"
                    "def rebound(xs: list[int], f):\n    f = abs\n    return f(xs[0])\n\n\n"
                    "def stored(x: int, f):\n    g = f\n    return g(x)\n")
    result = translate(str(path), ["two", "rebound", "stored"])
    assert "'f' without a type annotation" in str(result.errors["two"])
    assert "two" not in result.program.functions
    assert "rebound" in result.errors and "stored" in result.errors


def test_the_model_tables_agree_with_the_model_classes() -> None:
    """`SOURCES` and `real` say what each class of `classes.py` does."""
    (file,) = [f for f in CLASS_FILES if f.parent.name == "callables"]
    tree = ast.parse(file.read_text(encoding="utf-8"))
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    assert set(model.MODEL_NAMES) == set(classes)
    assert set(model.SOURCES) == {n for n in classes if n not in model.ROOTS or model.ROOTS[n] == 0}
    for cls, source in model.SOURCES.items():
        assert ast.get_docstring(classes[cls]) == f"`{source}`"
        written = eval(source)  # noqa: S307  (the model's own table)
        arity = model.ROOTS.get(cls) if cls in model.ROOTS else \
            next(model.ROOTS[b.id] for b in classes[cls].bases if isinstance(b, ast.Name))
        values = (0, 1, -2, "", "a", [], [0], None)
        pairs = ((0, 1), (1, -2), (2, 2), ("a", ""), ([0], []))
        for args in ([()] if arity == 0 else zip(values) if arity == 1 else pairs):
            assert model.real(cls)(*args) == written(*args)
    for root, names in model.CANDIDATES.items():
        assert root in model.ROOTS and all(n in model.SOURCES for n in names)


def test_the_written_file_passes_under_pytest(tmp_path: Path) -> None:
    source = tmp_path / "callers.py"
    source.write_text(FIXTURE.read_text(encoding="utf-8"))
    out = tmp_path / "test_callers.py"
    assert main(["gen", str(source), "-o", str(out)]) == 0
    text = out.read_text()
    assert "pred = lambda x: not x" in text and "PathcraftTruth" not in text.split("# trace")[0]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert run.returncode == 0, run.stdout[-2000:]


def test_none_called_is_a_type_error_after_the_argument() -> None:
    raised = {(c.exc_type, c.exc_message) for c in generated(FIXTURE, "unchecked") if c.kind == "raise"}
    assert raised == {("TypeError", "'NoneType' object is not callable"), ("IndexError", "list index out of range")}


def test_a_builtin_function_default_is_not_held() -> None:
    """`pred=bool`: the tests pass their own functions; a call of analysed
    code that leaves it out is refused (the model does not hold `bool`)."""
    result = translate(str(FIXTURE), ["located", "locating_all"])
    assert "located" not in result.errors
    assert "without 'pred'" in str(result.errors["locating_all"])
    assert all("pred" in dict(c.inputs) for c in generated(FIXTURE, "located"))
