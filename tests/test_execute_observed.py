"""Observed tests (`--execute`) end to end: written for the functions the
engine refuses, passing under pytest, the same file from two runs, an
outcome that a fresh worker does not repeat dropped, and the analysed
module never imported by pathcraft's process. Values cross as typed
data: `wire` round-trips plain values and refuses the rest."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import enum
import fractions
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from pathcraft.app.cli import main
from pathcraft.execute import wire
from pathcraft.execute.observed import literal

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "execute" / "refused.py"


# the module's tests run on one pytest-xdist worker (`--dist loadfile`): this search of each function, made once
@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The fixture generated with --execute (in this process), and what it said."""
    folder = tmp_path_factory.mktemp("observed")
    module = folder / "refused.py"
    shutil.copy(FIXTURE, module)
    out = folder / "test_refused.py"
    # a budget no search reaches: the number of inputs bounds each, the same on a loaded machine
    capture = subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(module), "-o", str(out), "--execute",
                              "--execute-seconds", "30", "--execute-examples", "120"],
                             capture_output=True, text=True, timeout=600,
                             env={**os.environ, "USER": "someone"})  # the search's worker has no USER
    assert capture.returncode == 0, capture.stderr
    return out, capture.stderr


def test_each_refused_function_gets_observed_tests(generated: tuple[Path, str]) -> None:
    out, said = generated
    text = out.read_text(encoding="utf-8")
    names = re.findall(r"^def (test_\w+)\(", text, re.MULTILINE)
    assert {n.split("_observed")[0].rsplit("_", 1)[0] for n in names if "_observed" in n} >= {
        "test_parse_port", "test_halves", "test_lines", "test_Tally_add_json", "test_loose", "test_decoded"}
    assert re.search(r"obj = refused\.Tally\(start=\d+\)\n.*\n? +(assert )?obj\.add_json\(text=", text)  # a method
    assert "list(refused.decoded(text=" in text  # a generator: walked whole
    assert re.search(r"assert refused\.ordered\(-?\d+, '", text)  # positional-only: in the signature's order
    assert re.search(r"_observed_yields\(\) -> None:\n.*\n    assert list\(refused\.grouped_digits\(n=-?\d+\)\) == \[",
                     text)
    assert "result = refused.opaque(" in text and "== ('refused', 'Opaque')" in text  # only its type
    assert "with pytest.raises(ValueError):" in text
    assert "worker_pid: " in said and "a fresh run did otherwise" in said
    assert "test_worker_pid" not in text
    assert "test_user_name" not in text  # an environment variable: another in the fresh worker
    # a call that changes the module's state would change the tests pytest runs after its test
    assert "test_register_unit" not in text
    # a class that names its caller's module as its own: only its name is asserted
    assert "    assert type(result).__qualname__ == 'make_marker.<locals>.Marker'\n" in text


def test_values_beyond_plain_data_are_written_as_the_calls_that_build_them(generated: tuple[Path, str]) -> None:
    text = generated[0].read_text(encoding="utf-8")
    assert re.search(r"from fractions import Fraction\n    assert refused\.halves\(n=-?\d+\) == Fraction\(", text)
    assert re.search(r"from decimal import Decimal\n    assert refused\.raised\(amount=Decimal\('[^']*'\), "
                     r"level=refused\.Level\.(LOW|HIGH)\) == Decimal\(", text)
    assert re.search(r"assert refused\.level_of\(n=-?\d+\) == refused\.Level\.(LOW|HIGH)", text)
    # an object of the module's class, built from the call its docstring shows (random text never builds one)
    assert "refused.later(first=refused.Tag('v12'), second=refused.Tag('v12'))" in text
    assert re.search(r"refused\.described\(shape=refused\.Square\(side=-?\d+\)\)", text)  # abstract: a subclass
    assert "obj = refused.Tag(text='v12')\n    assert obj.number == 12" in text  # a property is read
    # a method of an abstract class, on an object of a subclass that inherits it
    assert re.search(r"obj = refused\.Square\(side=-?\d+\)\n    assert obj\.doubled\(\) == '-?\d+'", text)
    assert re.search(r"result = refused\.counted\(words=.*\n.*'Counter'\)\n    assert dict\(result\) == \{", text)
    assert "\n\n\ndef test_raised_1_observed_returns() -> None:" in text
    # an untyped parameter the code calls gets functions a test can name
    assert re.search(r"refused\.applied\(items=\[[^]]+\], key=(abs|len|str|bool|repr|sorted|tuple|neg|not_)\)", text)
    assert re.search(r"refused\.joined\(.+(, -?\d+)+\) == '", text)  # *args: each value by position
    # what a call changes: the object's attributes, an argument the test holds in a variable
    assert re.search(r"obj = refused\.Counter\(start=-?\d+\)\n    assert obj\.bump\(by=(-?\d+)\) is None\n"
                     r"(    assert obj\.count == -?\d+\n)?    assert obj\.history == \[\1\]\n", text)
    assert re.search(r"    items = \[(-?\d+, )+-?\d+\]\n    assert refused\.sorted_in_place\(items=items\) is None\n"
                     r"    assert items == \[", text)


def test_the_observed_tests_pass(generated: tuple[Path, str]) -> None:
    out, _ = generated
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", str(out)],
                         capture_output=True, text=True, cwd=out.parent, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:]


@pytest.mark.parametrize("name", ["raised", "Tally.add_json", "later"])
def test_a_second_run_writes_the_same_file(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Values the search draws (a Decimal and an enum member, a method's object, objects built from a docstring's
    call) come out the same from two runs: the search is seeded, and its budget is the number of inputs."""
    monkeypatch.setenv("USER", "someone")
    module = tmp_path / "refused.py"
    shutil.copy(FIXTURE, module)
    files = []
    for run in ("first", "again"):
        out = tmp_path / f"test_{run}.py"
        assert main(["gen", f"{module}::{name}", "-o", str(out), "--execute", "--execute-seconds", "30",
                     "--execute-examples", "120"]) == 0
        files.append(out.read_text(encoding="utf-8"))
    assert "_observed" in files[0]
    assert files[0] == files[1]
    assert "refused" not in sys.modules  # the module ran in workers only


def test_without_execute_nothing_runs(tmp_path: Path) -> None:
    module = tmp_path / "refused.py"
    shutil.copy(FIXTURE, module)
    out = tmp_path / "test_refused.py"
    main(["gen", str(module), "-o", str(out)])
    assert not out.exists() or "_observed" not in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("value", [None, True, 0, -2 ** 70, 1.5, -0.0, "é\n", b"\x00\xff", [1, (2, "x")],
                                   {"a": {1, 2}}, frozenset({b"x"}), (), {(1, 2): [None]}])
def test_plain_values_cross_as_they_are(value: Any) -> None:
    back = wire.decode(wire.encode(value))
    assert back == value and type(back) is type(value) and repr(back) == repr(value)


@pytest.mark.parametrize("value", [float("nan"), float("inf"), object(), [object()], type("I", (int,), {})(3),
                                   decimal.Decimal("1.5")])
def test_other_values_do_not_cross(value: Any) -> None:
    with pytest.raises(wire.NotPlain):
        wire.encode(value)


class Colour(enum.Enum):
    RED = 1


class Pair(NamedTuple):
    left: int
    right: str


@dataclasses.dataclass
class Box:
    items: list[int]
    label: str = "x"


ZONE = datetime.timezone(datetime.timedelta(hours=-3))


@pytest.mark.parametrize("value", [
    decimal.Decimal("1.50"), decimal.Decimal("-0"), fractions.Fraction(-3, 4), datetime.date(2024, 2, 29),
    datetime.datetime(2020, 1, 2, 3, 4, 5, 6, tzinfo=ZONE), datetime.time(1, 2), datetime.timedelta(days=-1, seconds=3),
    complex(1, -2), range(1, 9, 3), bytearray(b"\x00a"), float("inf"), Colour.RED, Pair(1, "a"),
    Box([1, 2]), [Pair(2, "b"), {"k": decimal.Decimal("2")}],
])
def test_values_of_known_kinds_are_written_as_calls_that_build_them_again(value: Any) -> None:
    """The oracle is Python: the text a test would hold, run, gives an equal value of the same type."""
    from pathcraft.execute import recipes
    from pathcraft.execute.observed import Names

    names = Names("this", __name__)
    text = literal(wire.decode(recipes.encode(value)), names)
    scope: dict[str, Any] = {"this": sys.modules[__name__]}
    exec("\n".join(sorted(names.imports)), scope)  # noqa: S102  (the imports a test would hold)
    again = eval(text, scope)  # noqa: S307
    assert type(again) is type(value) and again == value and repr(again) == repr(value), text


class Opaque:
    """Objects equal only to themselves."""


@pytest.mark.parametrize("value", [decimal.Decimal("NaN"), float("nan"), Opaque(), Box([1], label=Opaque())])
def test_a_result_no_call_rebuilds_equal_is_no_value(value: Any) -> None:
    from pathcraft.execute import recipes

    with pytest.raises(wire.NotPlain):
        recipes.encode(value)


def test_an_argument_unequal_to_itself_is_written_all_the_same() -> None:
    from pathcraft.execute import recipes

    assert wire.decode(recipes.encode(decimal.Decimal("NaN"), argument=True)) == wire.Made(
        ("decimal", "Decimal"), ("NaN",))


@pytest.mark.parametrize("data", [
    ["call", ["os; import sys", "Decimal"], [], []], ["call", ["decimal", "Decimal()"], [], []],
    ["call", ["decimal", "Decimal"], [], [["x=1, y", ["int", "1"]]]], ["member", ["enum", "Enum"], "A.B"],
    ["call", ["decimal", "Decimal"], [["int", 1]], []], ["member", ["m", "C"], "class"],
])
def test_a_call_naming_anything_but_identifiers_is_refused(data: Any) -> None:
    """The names in a recipe are written into a test: text from the worker that is no name never gets there."""
    with pytest.raises(ValueError):
        wire.decode(data)


def test_a_class_is_named_by_an_import_unless_the_name_is_taken() -> None:
    from pathcraft.execute.observed import Names

    names = Names("version", "pkg.version")
    assert literal(wire.Made(("pkg.version", "Version"), ("1",)), names) == "version.Version('1')"
    assert literal(wire.Made(("pkg.other", "Spec"), (), (("s", "x"),)), names) == "Spec(s='x')"
    assert literal(wire.Made(("pkg.third", "Spec"), ()), names) == "importlib.import_module('pkg.third').Spec()"
    assert literal(wire.Member(("pkg.other", "obj"), "A"), names) == "importlib.import_module('pkg.other').obj.A"
    assert literal(wire.Made(("builtins", "range"), (0, 2, 1)), names) == "range(0, 2, 1)"
    assert names.imports == {"from pkg.other import Spec", "import importlib"}


@pytest.mark.parametrize("data", [["int", 3], ["eval", "1"], ["list", "x"], ["dict", [[["int", "1"]]]], 7])
def test_a_malformed_value_is_refused(data: Any) -> None:
    with pytest.raises(ValueError):
        wire.decode(data)


def test_a_set_is_written_the_same_on_every_machine() -> None:
    assert literal({"b", "a", "c"}) == "{'a', 'b', 'c'}" and literal(frozenset()) == "frozenset()"
    assert literal((1,)) == "(1,)" and literal(set()) == "set()"


@pytest.mark.parametrize("value, unordered", [
    ({1, 2}, False), ({(1, 2.0)}, False), ([{1}], False), ({"a": "x"}, False), ("x", False),
    ({"x"}, True), ([{None}], True), ({"k": frozenset({b"x"})}, True), ({(None, 1)}, True),
])
def test_no_argument_is_a_set_whose_order_changes_with_the_hash_seed(value: Any, unordered: bool) -> None:
    from pathcraft.execute.search import _seed_ordered

    assert _seed_ordered({"args": {"p": wire.encode(value)}}) is unordered


def test_verify_counts_the_observed_tests_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = tmp_path / "refused.py"
    shutil.copy(FIXTURE, module)
    main(["gen", f"{module}::lines", "-o", str(tmp_path / "test_lines.py"), "--execute", "--execute-seconds", "30",
          "--execute-examples", "120",
          "--verify"])
    said = capsys.readouterr().err
    assert re.search(r"verify: (\d+)/\1 tests pass; 0/0 took their claimed path \(\1 observed tests claim none\)",
                     said), said


def test_positional_only_arguments_are_written_in_the_signatures_order() -> None:
    from pathcraft.execute.observed import Observation, test_text

    seen = Observation(args=(("default", None), ("key", b"")), outcome="return", value="v", exact=True)
    text = test_text("mod", "mod", "Box.pop", 1, seen, positional=("key", "default"), init_positional=())
    assert "mod.Box.pop(b'', None) == 'v'" in text


def test_a_package_run_observes_a_function_the_search_left_without_a_test(tmp_path: Path) -> None:
    # `caller` is analysed (its callee is refused, every path reaches the call and is dropped): with
    # --execute a package run observes it, as a one-module run does
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "calls.py").write_text(
        "def helper(x: int) -> int:\n    return x @ 2\n\n\n"
        "def caller(n: int) -> int:\n    return helper(n) if n > 10 ** 9 else n + 1\n"
        "\n\ndef plus(n: int) -> int:\n    return helper(n)\n")
    out = tmp_path / "tests"
    capture = subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(package), "-o", str(out), "--jobs", "1",
                              "--execute", "--execute-seconds", "30", "--execute-examples", "40"],
                             capture_output=True, text=True, timeout=600, env={**os.environ, "USER": "someone"})
    assert capture.returncode == 0, capture.stderr
    text = (out / "test_calls.py").read_text(encoding="utf-8")
    assert re.search(r"^def test_plus_1_observed_", text, re.MULTILINE), text  # no path reached an end: observed
    assert re.search(r"^def test_caller_1_returns_", text, re.MULTILINE)  # a path test, not observed again
    assert not re.search(r"^def test_caller_\d+_observed", text, re.MULTILINE)
