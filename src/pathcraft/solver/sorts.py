"""Sorts of terms, and the values a model gives them.

Below both the terms and the operator table (which need each other's
names, so they share these instead of importing each other).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

INT = "int"
BOOL = "bool"
FLOAT = "float"  # IEEE-754 doubles (Z3's Float64, round-nearest-even): `solver/floats.py`
ARR_INT = "arr_int"  # list contents: arrays from int indices to ints / bools
ARR_BOOL = "arr_bool"
STR = "str"  # Python str values: Z3's String sort (sequences of code points)


def sort_of(t: object) -> str:
    """The sort of a term: constants by their Python type, nodes by their
    `sort` field."""
    if isinstance(t, bool):
        return BOOL
    if isinstance(t, int):
        return INT
    if isinstance(t, float):
        return FLOAT
    if isinstance(t, str):
        return STR
    sort = getattr(t, "sort")
    assert isinstance(sort, str)
    return sort


def element_sort(array: str) -> str:
    """The sort of an array's elements."""
    return BOOL if array == ARR_BOOL else INT


def array_sort(elem_sort: str) -> str:
    return ARR_BOOL if elem_sort == BOOL else ARR_INT


@dataclass(frozen=True)
class ArrayValue:
    """A model's value for an array: a default and the entries that differ."""

    default: int | bool
    entries: tuple[tuple[int, int | bool], ...] = ()

    def get(self, i: int) -> int | bool:
        for k, v in self.entries:
            if k == i:
                return v
        return self.default

    def set(self, i: int, v: int | bool) -> ArrayValue:
        return ArrayValue(self.default, tuple((k, x) for k, x in self.entries if k != i) + ((i, v),))


Value = Union[int, bool, float, str, ArrayValue]
