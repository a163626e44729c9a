"""Wrong claims found on typed libraries (`../shared/corpus/libs/`), each
fixed at its cause: a pattern from the library, written small here, whose
generated file must pass as pytest runs it; then the library modules
themselves, where the corpus is beside the clone.

The oracle is the real code: every generated file is run by pytest, and
`--verify` may only say a test took its path when pytest ran it and it
passed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pathcraft.app.cli import main
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.testcase.verify import coverage_percent, verify
from pathcraft.testcase.writers import pytest_writer

LIBS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "libs"


def run_pytest(test_file: Path, root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
                          capture_output=True, text=True, cwd=test_file.parent, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(root)})


def generate_and_run(target: Path, root: Path, out: Path) -> str:
    """`pathcraft gen TARGET -o OUT`, then pytest on OUT: its text."""
    assert main(["gen", str(target), "-o", str(out), "--timeout", "10"]) in (0, 1)
    assert out.exists()
    run = run_pytest(out, root)
    assert run.returncode == 0, run.stdout[-3000:]
    return out.read_text()


PACKAGE_INIT = '''
class LicenseError(ValueError):
    pass


def check(tokens: list[str]) -> int:
    if not tokens:
        raise LicenseError("empty")
    return len(tokens)
'''


@pytest.mark.parametrize("inner", [(), ("licenses",)])
def test_a_package_init_module_is_imported_as_its_package(tmp_path: Path, inner: tuple[str, ...]) -> None:
    """`pkg/__init__.py` is the module `pkg`: `from pkg import __init__`
    names the module's method-wrapper, and every test of it failed."""
    folder = tmp_path.joinpath("pkg", *inner)
    folder.mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("" if inner else PACKAGE_INIT)
    (folder / "__init__.py").write_text(PACKAGE_INIT)
    text = generate_and_run(folder / "__init__.py", tmp_path, tmp_path / "test_init.py")
    dotted = ".".join(("pkg", *inner))
    assert "import __init__" not in text
    assert ("from pkg import licenses" if inner else "import pkg") in text
    assert f"{dotted.rpartition('.')[2]}.LicenseError" in text


PRIVATE = '''
class Wrapper:
    def __init__(self, fn, lock=None) -> None:
        self.__fn = fn
        self.__lock = lock if lock is not None else self.__none
        self.__hits = 0

    def __none(self, x):
        return x

    def call(self):
        return self.__fn(self.__hits)

    def locked(self):
        return self.__lock(self.__hits)

    def hits(self) -> int:
        return self.__hits + 1

    def private(self, x: int) -> int:
        return self.__none(x)
'''


@pytest.mark.parametrize("name", ["Wrapper.call", "Wrapper.locked", "Wrapper.hits", "Wrapper.private"])
def test_private_names_are_mangled_where_they_are_called(tmp_path: Path, name: str) -> None:
    """`self.__fn(...)` reads `_Wrapper__fn`, a value the class stores: the
    path is dropped, never an AttributeError about `__fn` (Python's message
    names `_Wrapper__fn`); a private method is still called by its name."""
    source = tmp_path / "wrappers.py"
    source.write_text(PRIVATE)
    result = translate(str(source), [name])
    assert not result.errors, result.errors
    cases = generate(result.program, name, GenerateOptions()).cases
    assert all(c.exc_type != "AttributeError" for c in cases), [c.exc_message for c in cases]
    if name in ("Wrapper.hits", "Wrapper.private"):
        assert cases and all(c.kind == "return" for c in cases)
    text = generate_and_run(source, tmp_path, tmp_path / "test_wrappers.py")
    assert "'__fn'" not in text and "'__lock'" not in text


ALTERED = '''
class Stats:
    def __init__(self, data: list[int]) -> None:
        self.data = data

    def _calc_top(self) -> int:
        return max(self.data)

    def size(self) -> int:
        return len(self.data)


def _helper(name: str) -> int:
    return len(name)


for _name in ["top"]:
    delattr(Stats, "_calc_" + _name)


def plain(n: int) -> int:
    return n + 1


if __name__ == "__main__":
    Stats.extra = 1
'''


def test_a_method_deleted_by_module_level_code_is_refused(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Module-level code deletes a method after the class body ran: the class
    the tests import lacks it, so it gets no test (it says why) while the
    class's other methods do (their tests pass); a `__main__` block does
    not count."""
    source = tmp_path / "altered.py"
    source.write_text(ALTERED)
    text = generate_and_run(source, tmp_path, tmp_path / "test_altered.py")
    assert "_calc_top" not in text and "def test_plain" in text and "def test_Stats_size" in text
    assert "unsupported method 'Stats._calc_top': module-level code may delete or replace it" \
        in capsys.readouterr().err


SUPER = '''
class Point:
    def __init__(self, name: str) -> None:
        self.name = name

    def to_dict(self):
        global COUNT  # a declaration outside the model: the method is refused
        COUNT = 1
        return {"name": self.name}


class Contextual(Point):
    def to_dict(self):
        ret = super().to_dict()
        return ret


def dump(p: Point):
    return p.to_dict()


def plain(n: int) -> int:
    return n * 2
'''


def test_a_super_call_of_a_method_that_cannot_be_analysed_drops_the_paths_that_make_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`super().to_dict()` enters the base's method by name, `p.to_dict()` by
    dispatch: when that method is refused, each path that reaches it is
    dropped and says why, and the run goes on. A whole-module run once
    stopped with an internal error (a missing predicate)."""
    source = tmp_path / "points.py"
    source.write_text(SUPER)
    text = generate_and_run(source, tmp_path, tmp_path / "test_points.py")
    err = capsys.readouterr().err
    assert "internal error" not in err
    assert "Contextual.to_dict: some paths dropped: unsupported call of Point.to_dict(), which cannot be " \
        "analysed: unsupported global statement" in err
    assert "dump: some paths dropped: unsupported call of Point.to_dict(), which cannot be analysed" in err
    assert "def test_plain" in text


ITERATED = '''
class Counter:
    def __init__(self, data, default=0.0):
        self.data = data
        self.default = default

    def top(self):
        return max(self.data)

    def total(self):
        return sum(self.data)


def check(factor: float) -> float:
    factor = float(factor)
    if factor < 1.0:
        raise ValueError("expected factor >= 1.0, not %r" % factor)
    return factor
'''


def test_iterating_builtins_and_string_formatting_say_what_python_says(tmp_path: Path) -> None:
    """`max(3)` and `sum(3)` iterate: Python's message is not len()'s, so the
    TypeError is asserted by its type; `'%r' % 0.0` formats a string, it
    never raises float modulo's ZeroDivisionError."""
    source = tmp_path / "iterated.py"
    source.write_text(ITERATED)
    text = generate_and_run(source, tmp_path, tmp_path / "test_iterated.py")
    assert "has no len()" not in text and "ZeroDivisionError" not in text
    assert "pytest.raises(TypeError)" in text


SHADOWED = '''
class Sizer:
    def __init__(self, limit: int, size=None) -> None:
        if size is not None:
            self.size = size
        self.limit = limit

    @staticmethod
    def size(value: int) -> int:
        return 1

    def fits(self, value: int) -> bool:
        return self.size(value) <= self.limit
'''


def test_an_instance_attribute_hides_the_method_of_its_name(tmp_path: Path) -> None:
    """cachetools' `Cache`: `self.getsizeof = getsizeof` in `__init__`, a
    static method `getsizeof` in the class. An instance holding the
    attribute calls it, not the method: a test that sets it to an int and
    expects the method's result fails. Such a call drops the path."""
    source = tmp_path / "shadowed.py"
    source.write_text(SHADOWED)
    text = generate_and_run(source, tmp_path, tmp_path / "test_shadowed.py")
    assert "def test_Sizer_fits" not in text


RAISED_PARAMETER = '''
def one(iterable, too_short=None):
    iterator = iter(iterable)
    for first in iterator:
        return first
    if too_short is not None:
        raise too_short
    raise ValueError("too few items in iterable (expected 1)")
'''


def test_raising_a_parameter_that_is_no_exception_is_a_type_error(tmp_path: Path) -> None:
    """more_itertools' `one`: `raise too_short`, where the parameter (an int
    here) is no exception, was an internal error; Python raises TypeError."""
    source = tmp_path / "raised.py"
    source.write_text(RAISED_PARAMETER)
    text = generate_and_run(source, tmp_path, tmp_path / "test_raised.py")
    assert "exceptions must derive from BaseException" in text


def test_verify_does_not_count_a_test_that_fails_under_pytest_as_on_its_path(tmp_path: Path) -> None:
    """A test whose file does not import never enters its function: the
    replay may take the claimed path, but `--verify` says the path is not
    shown taken, and coverage reports 0 of 1 lines as 0%."""
    source = tmp_path / "plainmod.py"
    source.write_text("def plain(n: int) -> int:\n    return n + 1\n")
    result = translate(str(source), ["plain"])
    cases = generate(result.program, "plain", GenerateOptions()).cases
    assert cases
    test_file = tmp_path / "test_plainmod.py"
    with test_file.open("w", encoding="utf-8") as fh:
        writer = pytest_writer(fh, result.program, str(source), ["plain"], "")
        for case in cases:
            writer.add(case)
        writer.close()
    good = verify(str(source), str(test_file), cases)
    assert good.ok and good.paths_ok == len(cases)
    test_file.write_text(test_file.read_text().replace("import plainmod", "import plainmod_missing as plainmod"))
    bad = verify(str(source), str(test_file), cases)
    assert not bad.ok and bad.paths_ok == 0 and bad.passed == 0
    assert coverage_percent(bad.coverage.get("plain", {"num_statements": 1})) == 0.0
    assert coverage_percent({"num_statements": 1, "covered_lines": 0, "num_branches": 0}) == 0.0
    assert coverage_percent({"num_statements": 0, "num_branches": 0}) is None


REAL_MODULES = [
    ("packaging", "packaging/licenses/__init__.py"),
    ("cachetools", "cachetools/_decorator.py"),
    ("cachetools", "cachetools/_cachedmethod.py"),
    ("boltons", "boltons/statsutils.py"),
    ("boltons", "boltons/cacheutils.py"),
    ("boltons", "boltons/iterutils.py"),
    ("cachetools", "cachetools/__init__.py"),
    ("more_itertools", "more_itertools/more.py"),
]


@pytest.mark.slow
@pytest.mark.parametrize("library,module", REAL_MODULES, ids=[m for _, m in REAL_MODULES])
def test_the_library_modules_that_had_failing_tests_pass(tmp_path: Path, library: str, module: str) -> None:
    """Each module whose generated tests failed in the library sweep: all of
    them pass now (run by CI with the slow sweeps)."""
    root = LIBS / library
    if not root.is_dir():
        pytest.skip(f"the corpus is not beside the clone ({root})")
    out = tmp_path / f"test_{Path(module).parent.name}_{Path(module).stem.strip('_')}.py"
    assert main(["gen", str(root / module), "-o", str(out), "--timeout", "2"]) in (0, 1, 2)
    if out.exists():
        run = run_pytest(out, root)
        assert run.returncode in (0, 5), run.stdout[-3000:]


BOUND_METHOD = '''
class Channel:
    def __init__(self) -> None:
        self.sent = 0

    def each_line(self, cmd: str, callback: list[int]) -> None:
        self.sent += len(cmd)

    def names(self, *args: str) -> list[int]:
        cmd = "NLST"
        for arg in args:
            cmd = cmd + " " + arg
        files: list[int] = []
        self.each_line(cmd, files.append)
        return files
'''


def test_a_builtin_values_method_read_as_a_value_is_no_attribute_error(tmp_path: Path) -> None:
    """`files.append` handed on (ftplib's `FTP.nlst`): the model does not
    follow bound methods, so its paths are dropped; a test once claimed
    "'list' object has no attribute 'append'"."""
    source = tmp_path / "channel.py"
    source.write_text(BOUND_METHOD)
    text = generate_and_run(source, tmp_path, tmp_path / "test_channel.py")
    assert "channel.names(" not in text and "has no attribute 'append'" not in text


DEFAULT_FACTORY = '''
from collections import defaultdict


def map_reduce(iterable, keyfunc):
    ret = defaultdict(list)
    for item in iterable:
        ret[keyfunc(item)].append(item)
    ret.default_factory = None
    return ret


def tagged(xs: list[int]) -> int:
    xs.tag = 1
    return len(xs)
'''


def test_setting_an_attribute_a_builtin_value_has_is_no_attribute_error(tmp_path: Path) -> None:
    """more_itertools' `map_reduce`: `ret.default_factory = None` on a
    defaultdict was claimed an AttributeError (114 failing tests): the
    attribute exists, so the path is dropped; an attribute no list has is
    still Python's AttributeError."""
    source = tmp_path / "factory.py"
    source.write_text(DEFAULT_FACTORY)
    text = generate_and_run(source, tmp_path, tmp_path / "test_factory.py")
    assert "def test_map_reduce" not in text
    assert "'list' object has no attribute 'tag'" in text
