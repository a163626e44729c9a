"""Classes with several bases (`class SortedSet(MutableSet, Sequence)`,
`class Table(Mapping[K, V], Generic[K, V])`, `class Tree(Node,
Generic[T])`) are read in the single-inheritance form the engine follows
(frontend/mro.py): the C3 order of the model bases as one merged model
class, or the user base alone when the others add nothing to its order.
Checked against CPython's own MROs and abstract methods, and by replay of
the generated tests against the real code; what has no such form is
refused with the reason."""

from __future__ import annotations

import abc
import ast
import collections.abc
import itertools
import typing
from pathlib import Path

import pytest
from oracle import replay_mismatches

from pathcraft.frontend import mro, translate
from pathcraft.frontend.modelclasses import model_import
from pathcraft.generate import GenerateOptions, generate

MODELLED = ("Sized", "Container", "Iterable", "Iterator", "Reversible", "Collection", "Sequence", "MutableSequence",
            "Set", "MutableSet", "Mapping", "MutableMapping", "ABC", "Generic")

SOURCE = '''\
from abc import ABC
from collections.abc import Mapping, MutableSet, Sequence, Sized
from typing import Generic, TypeVar

T = TypeVar("T")


class Ordered(MutableSet, Sequence):
    def __init__(self) -> None:
        self.items: list[int] = []

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> int:
        return self.items[index]

    def add(self, value: int) -> None:
        if value not in self.items:
            self.items.append(value)

    def discard(self, value: int) -> None:
        if value in self.items:
            self.items.remove(value)

    def where(self, value: int) -> int:
        return self.index(value)

    def take(self, value: int) -> int:
        if len(self) > 2:
            return self.pop()
        return self[value]

    def kinds(self) -> int:
        me = [self][0]  # no parameter: asked of the engine
        return isinstance(self, Sequence) + isinstance(me, MutableSet) + isinstance(me, Sized) \
            + 10 * isinstance(me, Mapping)


class Table(Mapping[str, int], Generic[T]):
    def __init__(self) -> None:
        self.d: dict[str, int] = {}

    def __getitem__(self, key: str) -> int:
        return self.d[key]

    def __len__(self) -> int:
        return len(self.d)

    def __iter__(self):
        return iter(self.d)

    def look(self, key: str) -> int:
        return self.get(key, -1)


class Node:
    def __init__(self) -> None:
        self.v: int = 0

    def bump(self, by: int) -> int:
        if by < 0:
            raise ValueError("negative")
        self.v += by
        return self.v


class Tree(Node, Generic[T]):
    def twice(self, by: int) -> int:
        return self.bump(by) + self.bump(by)


class Sub(Ordered, Generic[T]):
    def first(self) -> int:
        return self[0]


class Sizes(Node, Sized):
    def size(self) -> int:
        return 1


class Marked(Node, ABC):
    def size(self) -> int:
        return 1


class Leaf:
    def two(self) -> int:
        return 2


class Pair(Node, Leaf):
    def one(self) -> int:
        return 1
'''

REPLAYED = ["Ordered.add", "Ordered.discard", "Ordered.where", "Ordered.take", "Ordered.kinds", "Table.look",
            "Tree.twice", "Sub.first"]


T = typing.TypeVar("T")


def _real(name: str) -> typing.Any:
    """The class a base of that name is in CPython (`Generic[T]`: a base is subscripted)."""
    if name == "Generic":
        return typing.Generic[T]  # type: ignore[index]
    return abc.ABC if name == "ABC" else getattr(collections.abc, name)


def test_the_c3_order_and_abstract_methods_are_cpython_s() -> None:
    checked = refused = 0
    for size in (2, 3):
        for bases in itertools.permutations(MODELLED, size):
            try:
                real = typing.types.new_class("X", tuple(_real(b) for b in bases))  # type: ignore[attr-defined]
            except TypeError:  # no consistent order: refused too
                with pytest.raises(mro.MroError):
                    mro.merged_base(bases)
                refused += 1
                continue
            name, order = mro.merged_base(bases)
            assert order == [c.__name__ for c in real.__mro__[1:-1]], bases
            merged = mro.merged_class(name)
            if merged is not None:  # synthesized: its abstract methods are the real class's
                assert {f.name for f in merged.body if isinstance(f, ast.FunctionDef) and f.decorator_list} \
                    == set(real.__abstractmethods__), bases
            checked += 1
    assert checked > 1000 and refused > 500


def test_the_merged_class_takes_each_method_from_the_first_class_defining_it() -> None:
    found = model_import(mro.MODULE)
    assert found is not None and found[0] == mro.MODEL_FILE
    name, order = mro.merged_base(["MutableSet", "Sequence"])
    assert name == "MutableSet_Sequence"
    assert order == ["MutableSet", "Set", "Sequence", "Reversible", "Collection", "Sized", "Iterable", "Container"]
    merged = mro.merged_class(name)
    assert merged is not None
    methods = {f.name: f for f in merged.body if isinstance(f, ast.FunctionDef)}
    assert not methods["__contains__"].decorator_list  # Sequence's mixin, not Collection's abstract method
    assert "Sequence.__iter__" in ast.unparse(methods["__iter__"])
    assert "MutableSet.pop" in ast.unparse(methods["pop"])
    # bases whose order one of them has already: that one (Generic adds nothing)
    assert mro.merged_base(["Mapping", "Generic"])[0] == "Mapping"
    assert mro.merged_base(["Sequence", "Sized", "ABC"])[0] == "Sequence"


@pytest.fixture
def module(tmp_path: Path) -> Path:
    path = tmp_path / "mro_bases.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", REPLAYED)
def test_generated_tests_replay_against_the_real_code(module: Path, name: str) -> None:
    result = translate(str(module), [name])
    assert not result.errors, result.errors
    cases = generate(result.program, name, GenerateOptions()).cases
    assert cases
    assert replay_mismatches(module, name, cases) == []
    assert not any("MutableSet_Sequence" in repr(case.heap_in) for case in cases)  # a hidden model class


def test_isinstance_counts_every_class_of_the_order(module: Path) -> None:
    result = translate(str(module), ["Ordered.kinds"])
    cases = generate(result.program, "Ordered.kinds", GenerateOptions()).cases
    assert {case.value for case in cases} == {3}  # a Sequence, a MutableSet and Sized, no Mapping


def test_bases_without_a_single_inheritance_form_are_refused(module: Path) -> None:
    errors = translate(str(module)).errors
    assert "model bases 'Sized' beside the user base class 'Node'" in errors["Sizes.size"].message
    assert "model bases 'ABC' beside the user base class 'Node'" in errors["Marked.size"].message
    assert "several user base classes ('Node', 'Leaf')" in errors["Pair.one"].message


def test_an_inconsistent_order_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("from collections.abc import Mapping, Sized\n\n\n"
                      "class Odd(Sized, Mapping):\n    def one(self) -> int:\n        return 1\n", encoding="utf-8")
    with pytest.raises(TypeError):  # CPython refuses the class too
        type("Odd", (collections.abc.Sized, collections.abc.Mapping), {})
    message = translate(str(source)).errors["Odd.one"].message
    assert message == ("unsupported bases 'Sized', 'Mapping': no consistent method resolution order "
                       "(C3 linearization fails: Python raises TypeError)")


def test_a_merged_class_imported_from_another_module(tmp_path: Path) -> None:
    package = tmp_path / "mropkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "ordered.py").write_text(SOURCE, encoding="utf-8")
    user = package / "user.py"
    user.write_text("from .ordered import Ordered\n\n\nclass Counted(Ordered):\n"
                    "    def where(self, value: int) -> int:\n        return self.index(value)\n", encoding="utf-8")
    result = translate(str(user), ["Counted.where"])
    assert not result.errors, result.errors
    cases = generate(result.program, "Counted.where", GenerateOptions()).cases
    assert {case.exc_type for case in cases} == {None, "ValueError"}
    assert replay_mismatches(user, "Counted.where", cases) == []
