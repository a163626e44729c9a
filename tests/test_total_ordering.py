"""`@functools.total_ordering`: the methods it adds, read as CPython
leaves the class. The engine against the real code (replay and
enumeration), and which classes the rewrite leaves as written."""

from __future__ import annotations

import ast
from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend.total_ordering import DERIVED, expand_total_ordering

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "total_ordering_classes.py"
NAMES = ["newest", "between", "heavier", "later"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(
    ints=(0, 1, 2), max_objects=3,
    unannotated=(("Version", "major", int), ("Version", "minor", int), ("Weight", "kg", int), ("Bound", "at", int))))


def test_each_comparison_of_the_weights_is_reached() -> None:
    assert {c.value for c in generated(FIXTURE, "heavier") if c.kind == "return"} == {"a", "b", "same"}


def last_class(source: str) -> ast.ClassDef:
    """The module's last class, after the rewrite."""
    tree = ast.parse(source)
    expand_total_ordering(tree)
    cls = tree.body[-1]
    assert isinstance(cls, ast.ClassDef)
    return cls


def test_the_added_methods_follow_the_root() -> None:
    cls = last_class("import functools\n@functools.total_ordering\nclass A:\n    def __le__(self, o: 'A') -> bool:\n"
                     "        return True\n    def __gt__(self, o: 'A') -> bool:\n        return False\n")
    assert not cls.decorator_list
    added = {f.name: ast.unparse(f.body[-1]) for f in cls.body
             if isinstance(f, ast.FunctionDef) and getattr(f, DERIVED, False)}
    assert added == {"__ge__": "return not result or self == o", "__lt__": "return result and self != o"}


def test_a_class_whose_base_compares_keeps_the_decorator() -> None:
    cls = last_class("from functools import total_ordering\nclass B:\n    def __ge__(self, o: 'B') -> bool:\n"
                     "        return True\n@total_ordering\nclass A(B):\n"
                     "    def __lt__(self, o: 'A') -> bool:\n        return True\n")
    assert len(cls.decorator_list) == 1 and len(cls.body) == 1
    cls = last_class("import abc\nfrom functools import total_ordering\n@total_ordering\nclass A(abc.ABC):\n"
                     "    def __lt__(self, o: 'A') -> bool:\n        return True\n")
    assert len(cls.decorator_list) == 1  # a base of another module may compare


def test_a_class_whose_bases_define_no_comparison_is_read_as_one_without_them() -> None:
    """packaging's `@total_ordering class LowerBound(_Bound)`: `_Bound`
    (down to object) has no comparison, so the root is the class's own."""
    cls = last_class("from functools import total_ordering\nclass C:\n    x = 1\nclass B(C): pass\n"
                     "@total_ordering\nclass A(B):\n    def __lt__(self, o: 'A') -> bool:\n        return True\n")
    assert not cls.decorator_list and {f.name for f in cls.body if isinstance(f, ast.FunctionDef)} == {
        "__lt__", "__gt__", "__le__", "__ge__"}
