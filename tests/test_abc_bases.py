"""Classes derived from the standard library's abstract base classes
(`collections.abc`, `typing.Sequence[int]`, `Generic[T]`, `metaclass=ABCMeta`)
are read with the models' plain-Python bases (models/abc/classes.py): the
mixin methods run as Python's do, a mixin the model does not follow drops
the paths that reach it, an abstract class is never built, and `isinstance`
with an ABC is decided as CPython decides it. Checked against the real code:
replay of every generated test and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend import translate
from pathcraft.generate import FunctionRun, GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "abc_bases.py"
NAMES = ["Bag.add", "Bag.take", "Ring.position", "Table.lookup", "Table.has", "Table.ensure", "Square.area",
         "Cell.bump", "is_sequence", "is_mutable_set", "is_bag_set"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=tuple(range(-2, 3))))


def test_a_mixin_runs_over_the_class_own_methods() -> None:
    # MutableSet.remove: a KeyError when absent, else the class's own discard
    outcomes = {case.exc_type or "return" for case in generated(FIXTURE, "Bag.take")}
    assert outcomes == {"KeyError", "return"}
    # MutableMapping.setdefault: the stored value, or the default stored
    values = {case.value for case in generated(FIXTURE, "Table.ensure") if case.exc_type is None}
    assert 0 in values and len(values) > 1


def run(name: str, path: Path = FIXTURE) -> FunctionRun:
    result = translate(str(path), [name])
    assert not result.errors, result.errors
    return generate(result.program, name, GenerateOptions())


def test_a_mixin_the_model_does_not_follow_drops_its_paths() -> None:
    bag_same = run("Bag.same")
    assert bag_same.cases == []  # never a test expecting NotImplementedError
    assert any("Set.__eq__" in note for note in bag_same.notes)


def test_an_abstract_class_is_never_built() -> None:
    errors = translate(str(FIXTURE)).errors
    assert "abstract class 'Shape'" in errors["make_shape"].message
    for name in ("Shape.double", "Shape.area"):
        shape = run(name)
        assert shape.cases == [] and any("abstract class Shape" in note for note in shape.notes)
    assert generated(FIXTURE, "Square.area")  # its concrete subclass is


def test_isinstance_with_an_abc_is_python_s_answer() -> None:
    assert {case.value for case in generated(FIXTURE, "is_sequence")} == {True}
    assert {case.value for case in generated(FIXTURE, "is_mutable_set")} == {False}
    assert {case.value for case in generated(FIXTURE, "is_bag_set")} == {True}


def test_an_annotation_naming_an_abc_is_still_a_list(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("from collections.abc import Sequence\n\n\n"
                      "def first(xs: Sequence[int]) -> int:\n    return xs[0]\n", encoding="utf-8")
    cases = run("first", source).cases
    assert {case.exc_type for case in cases} == {None, "IndexError"}
    assert all("list" in case.heap_in["xs"] for case in cases)


def test_a_class_binding_the_abc_name_itself_is_not_merged(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("import collections.abc\n\n\nclass Sized:\n    pass\n\n\n"
                      "class C(collections.abc.Sized):\n    def __len__(self) -> int:\n        return 1\n\n"
                      "    def one(self) -> int:\n        return 1\n", encoding="utf-8")
    errors = translate(str(source)).errors
    assert "base class 'collections.abc.Sized'" in errors["C.one"].message
