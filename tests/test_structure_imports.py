"""Imports within the project (frontend/imports.py): a package of three
modules (tests/fixtures/structure/pkg_imports) importing each other
relatively and absolutely, a base class in one and its subclass in another,
exceptions and a checking function from a third. The engine against the
real code: replay, and enumeration over small objects (`tests/heap_enum.py`);
then the merge's refusals, a cycle, and a generated file run by pytest."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, missed_heap_paths, replay_mismatches, unread

from pathcraft.app.cli import main
from pathcraft.frontend import translate
from pathcraft.frontend.packages import module_name, resolve, root_alias
from pathcraft.frontend.module import load_module
from pathcraft.generate import GenerateOptions, generate

PACKAGE = Path(__file__).resolve().parent / "fixtures" / "structure" / "pkg_imports"
SHELVES = PACKAGE / "shelves.py"
BINS = PACKAGE / "bins.py"
TARGETS = [
    (SHELVES, "ColdBin.spoil"), (SHELVES, "ColdBin.chill"), (SHELVES, "ColdBin.level"), (SHELVES, "restock"),
    (SHELVES, "move"), (SHELVES, "safe_take"), (SHELVES, "capped"), (SHELVES, "new_bin"),
    (BINS, "Bin.take"), (BINS, "Bin.put"), (BINS, "fill_level"),
]
BOX = Bounds(ints=tuple(range(-2, 4)), max_objects=2, max_str=2)


@pytest.mark.parametrize(("path", "name"), TARGETS, ids=[f"{p.stem}.{n}" for p, n in TARGETS])
@pytest.mark.parametrize("criterion", ["loop-2", "loop-3"])
def test_replay(path: Path, name: str, criterion: str) -> None:
    cases = generated(path, name, criterion)
    assert cases, "no test case generated"
    assert replay_mismatches(path, name, cases) == []


@pytest.mark.parametrize(("path", "name"), TARGETS, ids=[f"{p.stem}.{n}" for p, n in TARGETS])
def test_enumeration(path: Path, name: str) -> None:
    cases = generated(path, name, "loop-2")
    missed, runs = missed_heap_paths(path, name, cases, k=2, bounds=BOX)
    assert runs > 0
    assert missed == []


@pytest.mark.parametrize("name", ["top_up", "warm"])
def test_untyped_parameters_get_the_class_their_uses_fit(name: str) -> None:
    result = translate(str(SHELVES), [name])
    inferred = result.program.functions[name].inferred[0]
    assert inferred.startswith({"top_up": "b: Bin (the class with count, put, room; its subclasses ColdBin",
                                "warm": "c: ColdBin (the class with temperature)"}[name])
    for criterion in ("loop-2", "loop-3"):
        cases = generated(SHELVES, name, criterion)
        assert cases and replay_mismatches(SHELVES, name, cases) == []


def test_an_untyped_parameter_no_class_fits_is_refused_with_its_uses(tmp_path: Path) -> None:
    _write(tmp_path / "pkg", {"user.py": "class A:\n    x: int\n\n\nclass B:\n    x: int\n\n\n"
                                         "def f(a):\n    return a.y\n\n\ndef g(a):\n    return a.x\n"})
    result = translate(str(tmp_path / "pkg" / "user.py"))
    assert "no class of the module or of its imports has all of y" in result.errors["f"].message
    assert "several classes have all of x: A, B (annotate it)" in result.errors["g"].message


def test_an_untyped_parameter_of_a_method_takes_its_own_class_among_unrelated_fits(tmp_path: Path) -> None:
    """`A.same(self, other)` reading `other.x`, where B has x too: other is an A."""
    source = ("class A:\n    def __init__(self, x: int) -> None:\n        self.x = x\n\n"
              "    def same(self, other):\n        if other.x == self.x:\n            return 1\n        return 0\n\n\n"
              "class B:\n    x: int\n")
    _write(tmp_path / "ownclass", {"nodes.py": source})
    path = tmp_path / "ownclass" / "nodes.py"
    result = translate(str(path), ["A.same"])
    assert result.program.functions["A.same"].inferred[0].startswith("other: A (its own class, with x (B fit too)")
    cases = generated(path, "A.same")
    assert {c.value for c in cases} == {0, 1} and replay_mismatches(path, "A.same", cases) == []


def test_imported_code_is_silent_in_the_trace() -> None:
    """Another file's lines never reach a path: the real trace keeps the
    tested file's events only (replay checks it; here it is said plainly)."""
    for case in generated(SHELVES, "move"):
        assert {e[1] for e in case.path} <= {"move", "ColdBin.chill"}


def test_resolution_of_absolute_and_relative_imports() -> None:
    assert resolve(SHELVES, "pkg_imports.bins", 0) == PACKAGE / "bins.py"
    assert resolve(BINS, "errors", 1) == PACKAGE / "errors.py"
    assert resolve(BINS, "math", 0) is None  # the standard library
    assert resolve(BINS, "nowhere", 1) is None
    assert resolve(BINS, "errors", 3) is None  # above the packages
    assert module_name(SHELVES) == "pkg_imports.shelves" and root_alias(SHELVES) is None


def test_what_a_merge_brings_and_where_it_comes_from() -> None:
    module = load_module(str(SHELVES))
    assert module.origins["Bin"] == str(BINS.resolve()) or module.origins["Bin"].endswith("bins.py")
    assert module.origins["check_positive"].endswith("errors.py")  # used by Bin.take, never imported here
    assert module.class_infos["ColdBin"].base == "Bin"
    assert module.exception_bases["Overfull"] == ("ValueError",)
    result = translate(str(SHELVES))
    assert not any(t.startswith(("Bin.", "clamp", "check_positive")) for t in result.targets)


def _write(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "__init__.py").write_text("")
    for name, text in files.items():
        (folder / name).write_text(text)


def test_a_name_meaning_something_else_here_is_not_merged(tmp_path: Path) -> None:
    """`Bin.take` calls `check` of its own module; a module that defines
    another `check` cannot take `Bin` into its namespace: `Bin` stays
    unknown, and only what uses it is refused."""
    _write(tmp_path / "pkg", {
        "base.py": "def check(n: int) -> int:\n    return n\n\n\nclass Box:\n    size: int\n\n"
                   "    def grow(self) -> int:\n        return check(self.size) + 1\n",
        "user.py": "from .base import Box\n\n\ndef check(n: int) -> int:\n    return -n\n\n\n"
                   "def big(b: Box) -> bool:\n    return b.grow() > 3\n\n\ndef neg(n: int) -> int:\n"
                   "    return check(n)\n\n\nclass Crate(Box):\n    def half(self) -> int:\n"
                   "        return self.size // 2\n",
    })
    result = translate(str(tmp_path / "pkg" / "user.py"))
    assert "neg" in result.program.functions
    assert result.errors["big"].message.endswith(
        "(imported from base.py, not read: 'check' of base.py is something else here)")
    assert "unsupported base class 'Box' (imported from base.py, not read: 'check' of base.py is something else " \
           "here)" in result.errors["Crate.half"].message


def test_a_class_the_module_does_not_import_is_used_but_never_named(tmp_path: Path) -> None:
    """`Square` (imported) has a base `Shape` of a third module, and
    `check` raises `Bad`, neither imported here: their code runs, and a
    path whose test would name one of them (as an attribute of the tested
    module, which has none) is dropped."""
    _write(tmp_path / "pkg", {
        "base.py": "class Shape:\n    sides: int\n\n    def n(self) -> int:\n        return self.sides\n\n\n"
                   "class Bad(Exception):\n    pass\n",
        "mid.py": "from .base import Bad, Shape\n\n\nclass Square(Shape):\n    side: int\n\n"
                  "    def area(self) -> int:\n        return self.side * self.side\n\n\n"
                  "def check(n: int) -> int:\n    if n < 0:\n        raise Bad('neg')\n    return n\n",
        "user.py": "from .mid import Square, check\n\n\ndef f(s: Square) -> int:\n    if s.n() > 4:\n"
                   "        return s.area()\n    return 0\n\n\ndef g(n: int) -> int:\n    return check(n) + 1\n",
    })
    user = tmp_path / "pkg" / "user.py"
    result = translate(str(user))
    assert result.program.hidden_classes == {"Shape", "Bad"}
    for name in ("f", "g"):
        cases = generated(user, name)
        assert replay_mismatches(user, name, cases) == []
    assert len(generated(user, "f")) == 2
    assert [c.kind for c in generated(user, "g")] == ["return"]  # raising Bad: dropped


def test_an_aliased_import_keeps_todays_refusal(tmp_path: Path) -> None:
    _write(tmp_path / "pkg", {
        "base.py": "def twice(n: int) -> int:\n    return 2 * n\n",
        "user.py": "from .base import twice as double\nfrom .base import twice\n\n\n"
                   "def f(n: int) -> int:\n    return double(n)\n\n\ndef g(n: int) -> int:\n    return twice(n)\n",
    })
    result = translate(str(tmp_path / "pkg" / "user.py"))
    assert "f" not in result.errors  # an alias: nothing was merged, the path reading it is dropped
    assert "unknown name 'double'" in unread(tmp_path / "pkg" / "user.py", ["f"])["f"]
    assert "g" in result.program.functions


def test_a_generator_of_another_module_fails_only_what_runs_it(tmp_path: Path) -> None:
    """Its resumptions would be events of the tested file's path: a direct
    call, like iterating an object whose `__iter__` is one, drops the path
    that reaches it, and the rest of the class is used."""
    _write(tmp_path / "pkg", {
        "base.py": "class Pair:\n    a: int\n    b: int\n\n    def __iter__(self):\n        yield self.a\n"
                   "        yield self.b\n\n\ndef upto(n: int):\n    i = 0\n    while i < n:\n        yield i\n"
                   "        i += 1\n",
        "user.py": "from .base import Pair, upto\n\n\ndef total(p: Pair) -> int:\n    s = 0\n    for x in p:\n"
                   "        s += x\n    return s\n\n\ndef count(n: int) -> int:\n    return len(list(upto(n)))\n\n\n"
                   "def first(p: Pair) -> int:\n    return p.a\n",
    })
    user = tmp_path / "pkg" / "user.py"
    result = translate(str(user))
    assert "generator of another module" in result.errors["upto"].message and "count" not in result.errors
    counted = generate(result.program, "count", GenerateOptions())
    assert counted.cases == [] and any("generator of another module" in note for note in counted.notes)
    assert generated(user, "total") == []
    assert len(generated(user, "first")) == 1


def test_an_import_cycle_ends(tmp_path: Path) -> None:
    _write(tmp_path / "pkg", {
        "a.py": "from .b import g\n\n\ndef f(n: int) -> int:\n    return g(n) if n > 0 else 0\n",
        "b.py": "from .a import f\n\n\ndef g(n: int) -> int:\n    return f(n - 1)\n",
    })
    result = translate(str(tmp_path / "pkg" / "a.py"))
    assert set(result.targets) == {"f"}  # translated or refused, but done


def test_a_root_package_without_an_identifier_name_is_loaded_under_an_alias(tmp_path: Path) -> None:
    root = tmp_path / "my-lib"
    _write(root, {"errors.py": "class Gone(Exception):\n    pass\n"})
    _write(root / "part", {"things.py": "from ..errors import Gone\n\n\n"
                                        "def take(n: int) -> int:\n    if n < 0:\n        raise Gone('no')\n"
                                        "    return n\n"})
    target = root / "part" / "things.py"
    assert root_alias(target) == ("my_lib", root)
    out = tmp_path / "test_things.py"
    assert main(["gen", f"{target}::take", "-o", str(out), "--edge-tests", "0"]) == 0  # a test per path
    assert "from my_lib.part import things" in out.read_text()
    assert str(tmp_path) not in out.read_text().split('"""', 2)[2]  # found on the import path, not by this machine's
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300,
                         env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    assert run.returncode == 0 and "2 passed" in run.stdout, run.stdout[-3000:]
    # a copy under the alias on the import path is the one tested (a mutation
    # tool's copy, say): here a copy whose `take` no longer raises
    copy = tmp_path / "copies" / "my_lib"
    shutil.copytree(root, copy)
    (copy / "part" / "things.py").write_text((copy / "part" / "things.py").read_text().replace("n < 0", "n < -5"))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300,
                         env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(copy.parent)))
    assert "1 failed, 1 passed" in run.stdout, run.stdout[-3000:]
    # ... also where the root itself is nowhere on the import path (bench/peers.py links the root under
    # the alias: the file once looked for the root first, and stopped there); with neither, a clear error
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(out, elsewhere / out.name)
    plain = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for path, expected in ((str(copy.parent), "1 failed, 1 passed"),
                           ("", "ImportError: the package root 'my-lib' is not on the import path")):
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", out.name],
                             capture_output=True, text=True, cwd=elsewhere, timeout=300,
                             env=dict(plain, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=path))
        assert expected in run.stdout, run.stdout[-3000:]


def test_a_generated_file_for_a_package_module_passes(tmp_path: Path) -> None:
    out = tmp_path / "test_shelves.py"
    assert main(["gen", str(SHELVES), "-o", str(out)]) == 0
    text = out.read_text()
    count = text.count("\ndef test_")
    assert count > 20 and "from pkg_imports import shelves" in text
    env = dict(os.environ, PYTHONPATH=str(PACKAGE.parent), PYTHONDONTWRITEBYTECODE="1")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out)],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert run.returncode == 0 and f"{count} passed" in run.stdout, run.stdout[-3000:]


_SIBLINGS = {
    "cells.py": (
        "class Empty(Exception):\n"
        "    pass\n\n\n"
        "class Cell:\n"
        "    def __init__(self, owner, value: int):\n"
        "        self._owner = owner\n"
        "        self._value = value\n\n"
        "    def value(self):\n"
        "        return self._value\n\n"
        "    def __eq__(self, other):\n"
        "        return type(other) is type(self) and other._value == self._value\n\n"
        "    def __ne__(self, other):\n"
        "        return not (self == other)\n\n\n"
        "class Row:\n"
        "    def __init__(self):\n"
        "        self._first = None\n"
        "        self._count = 0\n\n"
        "    def __len__(self):\n"
        "        return self._count\n\n"
        "    def first(self):\n"
        "        if self._first is None:\n"
        "            raise Empty('no cell')\n"
        "        return self._first\n\n"
        "    def push(self, value: int):\n"
        "        self._first = Cell(self, value)\n"
        "        self._count += 1\n"
    ),
    "use.py": (
        "def leading(row):\n"
        "    if len(row) == 0:\n"
        "        return -1\n"
        "    head = row.first()\n"
        "    if head != row.first():\n"
        "        return -2\n"
        "    return head.value() + 1\n"
    ),
}


def test_an_untyped_parameter_may_be_a_class_of_a_sibling_module(tmp_path: Path) -> None:
    """`use.py` never imports `Row` (Python needs no import to call methods
    on an argument): the class is found in a module of the same folder, the
    tests name it through that module, and `!=` through a `__ne__` that is
    `not (self == other)` is Python's default negation (frontend/siblings.py)."""
    _write(tmp_path / "sib", _SIBLINGS)
    use = tmp_path / "sib" / "use.py"
    result = translate(str(use), ["leading"])
    assert result.program.functions["leading"].inferred[0].startswith("row: Row")
    assert result.program.class_homes == {"Row": "sib.cells", "Cell": "sib.cells", "Empty": "sib.cells"}
    cases = generated(use, "leading")
    assert any(c.kind == "return" and c.value not in (-1, -2) for c in cases)  # the path through value()
    assert replay_mismatches(use, "leading", cases) == []
    out = tmp_path / "test_use.py"
    assert main(["gen", str(use), "-o", str(out)]) == 0
    text = out.read_text()
    assert "from sib import cells, use  # noqa: F401 (argument classes)" in text  # one statement a package
    assert "object.__new__(cells.Row)" in text
    assert "pytest.raises(cells.Empty, match='^no cell$')" in text
    count = text.count("\ndef test_")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300,
                         env=dict(os.environ, PYTHONPATH=str(tmp_path), PYTHONDONTWRITEBYTECODE="1"))
    assert run.returncode == 0 and f"{count} passed" in run.stdout, run.stdout[-3000:]
    lint = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "F,E501",
                           "--line-length", "100", str(out)], capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout


def test_no_sibling_class_when_two_modules_have_one_that_fits(tmp_path: Path) -> None:
    _write(tmp_path / "sib", {**_SIBLINGS, "other.py": _SIBLINGS["cells.py"]})
    result = translate(str(tmp_path / "sib" / "use.py"), ["leading"])
    assert "leading" in result.errors and not result.program.class_homes


def test_a_namedtuple_of_a_sibling_module_is_built_where_the_module_imports_it(tmp_path: Path) -> None:
    """`from ._types import RGB` merges the NamedTuple: `RGB(...)` is a
    tuple tagged with its class, compared in the tests as `conv.RGB(...)`.
    A merged function that builds another module's NamedTuple the tested
    module does not import is merged too (packaging's `Version` and its
    `_Version`): a test that would compare such a value is dropped and
    counted (it could not name the class), the others are kept."""
    _write(tmp_path / "pk", {
        "_types.py": "import typing\n\n\nclass RGB(typing.NamedTuple):\n    red: int\n    green: int\n"
                     "    blue: int\n\n\ndef grey(v: int) -> RGB:\n    return RGB(v, v, v)\n",
        "conv.py": "from ._types import RGB, grey\n\n\ndef split(value: int) -> RGB:\n    if value < 0:\n"
                   "        raise ValueError('negative')\n"
                   "    return RGB(value >> 16, value >> 8 & 0xFF, value & 0xFF)\n",
        "paint.py": "from ._types import grey\n\n\ndef dark(v: int) -> bool:\n    return grey(v).red < 10\n\n\n"
                    "def greyer(v: int):\n    if v < 0:\n        raise ValueError('negative')\n"
                    "    return grey(v)\n",
    })
    result = translate(str(tmp_path / "pk" / "paint.py"))
    assert not result.errors
    painted = tmp_path / "test_paint.py"
    gen = subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(tmp_path / "pk" / "paint.py"), "-o",
                          str(painted)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert gen.returncode == 0, gen.stderr[-2000:]
    assert "a test naming class RGB of another module, which the tested module does not import" in gen.stderr
    written = painted.read_text()
    assert "test_dark_" in written and "test_greyer_1_raises_value_error" in written and "RGB" not in written
    out = tmp_path / "test_conv.py"
    assert main(["gen", str(tmp_path / "pk" / "conv.py"), "-o", str(out)]) == 0
    text = out.read_text()
    assert "result == conv.RGB(red=0, green=0, blue=1)" in text
    env = dict(os.environ, PYTHONPATH=str(tmp_path), PYTHONDONTWRITEBYTECODE="1")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out), str(painted)],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    count = text.count("\ndef test_") + written.count("\ndef test_")
    assert count >= 3 and run.returncode == 0 and f"{count} passed" in run.stdout, run.stdout[-3000:]


def test_a_union_alias_of_a_sibling_module_keeps_the_members_a_test_can_build(tmp_path: Path) -> None:
    """`IntTuple = Union[RGB, Grey, tuple[int, int, int]]` in `_types`,
    imported with `RGB` only: the alias is merged without `Grey` (no test
    could name it), and a parameter typed with it takes the tuples (a
    NamedTuple parameter is not built): the note names what is left out,
    and the tests pass."""
    _write(tmp_path / "pk", {
        "_types.py": "import typing\n\n\nclass RGB(typing.NamedTuple):\n    red: int\n    green: int\n"
                     "    blue: int\n\n\nclass Grey(typing.NamedTuple):\n    red: int\n    green: int\n"
                     "    blue: int\n\n\nIntTuple = typing.Union[RGB, Grey, typing.Tuple[int, int, int]]\n",
        "conv.py": "from ._types import RGB, IntTuple\n\n\ndef brightest(rgb: IntTuple) -> int:\n"
                   "    red, green, blue = rgb\n    if red > green:\n        return red\n    return max(green, blue)\n",
    })
    result = translate(str(tmp_path / "pk" / "conv.py"))
    assert not result.errors
    assert result.program.functions["brightest"].inferred == (
        "rgb: tuple[int, int, int] (RGB left out: not built as inputs)",)
    out = tmp_path / "test_conv.py"
    assert main(["gen", str(tmp_path / "pk" / "conv.py"), "-o", str(out)]) == 0
    text = out.read_text()
    env = dict(os.environ, PYTHONPATH=str(tmp_path), PYTHONDONTWRITEBYTECODE="1")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out)],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    count = text.count("\ndef test_")
    assert count >= 3 and run.returncode == 0 and f"{count} passed" in run.stdout, run.stdout[-3000:]
