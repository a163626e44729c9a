"""`isinstance(x, Mapping)` and kin on a value the annotation does not fix
(engine/evaluate.py `_is_abc`): the engine against the real code
(replay, and enumeration of small inputs)."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "abc_isinstance.py"
NAMES = ["describe", "of_box", "Box.__eq__", "of_dict", "of_tuple", "of_walker"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(0, 1), max_list=1, max_dict=1, max_str=1,
                                                                     alphabet="a"))


def test_each_kind_of_value_gets_its_answer() -> None:
    assert {c.value for c in generated(FIXTURE, "of_dict")} == {"mapping"}
    assert {c.value for c in generated(FIXTURE, "of_tuple")} == {"sequence"}
    assert {c.value for c in generated(FIXTURE, "of_walker")} == {"iterable"}


ABC_KINDS = '''
from abc import ABC, abstractmethod
from collections.abc import Sequence


class Row(Sequence):
    def __init__(self, n: int) -> None:
        self.n = n

    def __getitem__(self, i: int) -> int:
        if 0 <= i < self.n:
            return i
        raise IndexError(i)

    def __len__(self) -> int:
        return self.n

    def kind(self) -> int:
        if isinstance(self, ABC):
            return 1
        return 2


class Shape(ABC):
    @abstractmethod
    def area(self) -> int: ...


class Square(Shape):
    def __init__(self, n: int) -> None:
        self.n = n

    def area(self) -> int:
        return self.n


def row_kind(row: Row) -> int:
    if isinstance(row, ABC):
        return 1
    return 2


def square_kind(square: Square) -> int:
    if isinstance(square, ABC):
        return 1
    return 2
'''


def test_a_collections_abc_class_is_no_abc_abc_but_a_class_naming_it_is(tmp_path: Path) -> None:
    """CPython's `Sequence` has ABCMeta as its metaclass but does not derive
    from `abc.ABC` (the model's does, for its abstract methods): a test
    claimed `isinstance(row, ABC)` was true."""
    from oracle import replay_mismatches
    from pathcraft.frontend import translate
    from pathcraft.generate import GenerateOptions, generate

    source = tmp_path / "kinds.py"
    source.write_text(ABC_KINDS)
    expected = {"Row.kind": {2}, "row_kind": {2}, "square_kind": {1}}
    for name, values in expected.items():
        cases = generate(translate(str(source), [name]).program, name, GenerateOptions()).cases
        assert {c.value for c in cases} == values, name
        assert replay_mismatches(source, name, cases) == []
