"""Decorators (frontend/decorators.py, engine/cache.py): @staticmethod and
@classmethod called on the class and through instances, @property read on
self and on other objects, assigned through its setter (without one:
AttributeError), functools' caches (whose hits show in a path: a hit runs none of the function's
lines), @abstractmethod (an ABC's: tests/test_abc_bases.py). The engine against the real
code: replay, and enumeration over small objects (`tests/heap_enum.py`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, oracle_tests, replay_mismatches

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.testcase.emit_pytest import call_text

DECORATORS = Path(__file__).resolve().parent / "fixtures" / "structure" / "decorators.py"
FUNCTIONS = [
    "Temperature.to_fahrenheit", "Temperature.clamp", "Temperature.freezing", "Temperature.from_fahrenheit",
    "Temperature.fahrenheit", "Temperature.is_freezing", "Temperature.describe", "Temperature.warmer",
    "Temperature.thaw", "Grid.valid", "Grid.square", "Grid.area", "Grid.is_square", "Grid.larger",
    "square_area", "freezing_in_fahrenheit", "clamp_all", "fib", "stairs", "weight", "twice_weight",
    "square_of", "squares_twice", "Shape.area", "Shape.doubled", "Square.unit", "Account.fee",
    "Account.withdraw", "Premium.fee", "Fixed.charge", "Chain.total", "Chain.total_of",
    "exclaim", "exclaim_both", "Thermostat.target", "Thermostat.raise_by", "thermostat_at", "cubes",
    "Die.faces", "Die.fits",
]
BOX = Bounds(ints=tuple(range(-3, 4)), max_objects=2, max_str=2)


test_replay, test_enumeration = oracle_tests(DECORATORS, FUNCTIONS, BOX, ("loop-2", "loop-3"))


def test_a_cache_hit_runs_no_line_of_the_function() -> None:
    """`weight(a) + weight(b)` with a == b: the second call is a hit, so
    the path has one frame of `weight`, not two."""
    cases = generated(DECORATORS, "twice_weight")
    calls = {sum(1 for e in c.path if e == ("call", "weight")) for c in cases}
    assert calls == {1, 2}
    hits = [c for c in cases if dict(c.inputs)["a"] == dict(c.inputs)["b"]]
    assert hits and all(sum(1 for e in c.path if e == ("call", "weight")) == 1 for c in hits)


def test_a_bounded_cache_evicts_the_least_recently_used() -> None:
    """maxsize=1: `square_of(a) + square_of(b) + square_of(a)` with a != b
    runs three times, with a == b once."""
    cases = generated(DECORATORS, "squares_twice")
    runs = {dict(c.inputs)["a"] == dict(c.inputs)["b"]: sum(1 for e in c.path if e == ("call", "square_of"))
            for c in cases}
    assert runs == {True: 1, False: 3}
    # maxsize=2, a b a c a with three distinct values: the hit on a makes b
    # the least recently used, so c evicts b and the last a hits (3 runs)
    distinct = [c for c in generated(DECORATORS, "cubes") if len(set(dict(c.inputs).values())) == 3]
    assert [sum(1 for e in c.path if e == ("call", "cube")) for c in distinct] == [3]


def test_calls_are_written_on_the_class_and_properties_read() -> None:
    result = translate(str(DECORATORS), ["Temperature.clamp", "Temperature.fahrenheit", "Grid.square"])
    options = GenerateOptions.of()
    clamp = generate(result.program, "Temperature.clamp", options).cases[0]
    assert call_text(clamp, "m").startswith("m.Temperature.clamp(value=")
    square = generate(result.program, "Grid.square", options).cases[0]
    assert call_text(square, "m").startswith("m.Grid.square(size=")
    read = generate(result.program, "Temperature.fahrenheit", options).cases[0]
    assert call_text(read, "m").endswith(".fahrenheit")


def test_assigning_a_property_without_setter_raises_attribute_error_only() -> None:
    raised = [c for c in generated(DECORATORS, "Temperature.thaw") if c.kind == "raise"]
    assert [(c.exc_type, c.exc_message) for c in raised] == [("AttributeError", None)]


def test_the_written_file_empties_the_caches(tmp_path: Path) -> None:
    from pathcraft.app.cli import main

    out = tmp_path / "test_out.py"
    assert main(["gen", f"{DECORATORS}::twice_weight", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "@pytest.fixture(autouse=True)" in text and "decorators.weight.cache_clear()" in text


REFUSED = {
    "@functools.wraps(g)\ndef f(n: int) -> int:\n    return n\n": "decorator '@functools.wraps(g)'",
    "class C:\n    @property\n    def p(self) -> int:\n        return 1\n\n    @p.deleter\n"
    "    def p(self) -> None:\n        pass\n\n    def f(self) -> int:\n        return self.p\n":
        "property deleter '@p.deleter'",
    "class C:\n    @property\n    def p(self) -> int:\n        return 1\n\n    @p.setter\n"
    "    def q(self, v: int) -> None:\n        pass\n\n    def f(self) -> int:\n        return self.p\n":
        "property setter '@p.setter'",
    "class C:\n    @classmethod\n    def f(cls) -> int:\n        cls()\n        return 1\n\n"
    "class D(C):\n    pass\n": "classmethod of a class with subclasses",
    "from functools import cache\n\nclass C:\n    @cache\n    def f(self) -> int:\n        return 1\n":
        "on a method",
    "from functools import lru_cache\n\n@lru_cache(typed=True)\ndef f(n: int) -> int:\n    return n\n":
        "typed= or several arguments",
    # a metaclass other than ABCMeta (tests/test_abc_bases.py has ABCs)
    "class Meta(type):\n    pass\n\nclass C(metaclass=Meta):\n    def f(self) -> int:\n        return 1\n":
        "class keywords (metaclass=...)",
    # a base class of two bases cannot be analysed, whichever class is read first
    "class A:\n    pass\n\nclass B:\n    pass\n\nclass C(A, B):\n    pass\n\nclass D(C):\n"
    "    @property\n    def f(self) -> int:\n        return 1\n": "base class 'C', which cannot be analysed",
    "from functools import cache\n\n@cache\ndef g(n: int, m: int = 0) -> int:\n    return n\n\n"
    "def f(n: int) -> int:\n    return g(n)\n": "keywords or defaults",
    "class C:\n    @property\n    def g(self) -> int:\n        return 0\n\n"
    "def f(c: C) -> int:\n    return C.g(c)\n": "call of property C.g through its class",
}


@pytest.mark.parametrize("source", list(REFUSED))
def test_what_is_not_modelled_is_refused_with_its_place(tmp_path: Path, source: str) -> None:
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    target = "D.f" if "class D(C):\n    @property" in source else "C.f" if "    def f(" in source else "f"
    errors = translate(str(path), [target]).errors
    error = next(iter(errors.values()))
    assert REFUSED[source] in error.message
    assert error.location is not None


def test_string_keys_hit_on_equal_strings() -> None:
    cases = generated(DECORATORS, "exclaim_both")
    runs = {(dict(c.inputs)["a"] == dict(c.inputs)["b"], c.kind): sum(1 for e in c.path if e == ("call", "exclaim"))
            for c in cases}
    assert runs[(True, "return")] == 1 and runs[(False, "return")] == 2


def test_override_re_exported_by_a_module_of_the_package(tmp_path: Path) -> None:
    """bidict's `from ._typing import override`, where `_typing` imports it
    from `typing` or `typing_extensions` under a version test: still
    PEP 698's no-op; a name the package defines itself is not."""
    if sys.version_info < (3, 12):
        pytest.importorskip("typing_extensions")
    package = tmp_path / "maps"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "_typing.py").write_text(
        "import sys\n\nif sys.version_info >= (3, 12):\n    from typing import override as override\n"
        "else:\n    from typing_extensions import override as override\n\n\ndef mine(f):\n    return f\n")
    (package / "base.py").write_text(
        "from ._typing import override, mine\n\n\nclass Base:\n    def size(self) -> int:\n        return 0\n\n\n"
        "class Box(Base):\n    def __init__(self, n: int) -> None:\n        self.n = n\n\n"
        "    @override\n    def size(self) -> int:\n        if self.n > 2:\n            return self.n\n"
        "        return 2\n\n"
        "    @mine\n    def other(self) -> int:\n        return 1\n")
    errors = translate(str(package / "base.py"), ["Box.size", "Box.other"]).errors
    assert "Box.size" not in errors and "decorator '@mine'" in str(errors["Box.other"])
    cases = generated(package / "base.py", "Box.size")
    assert len(cases) == 2 and replay_mismatches(package / "base.py", "Box.size", cases) == []
