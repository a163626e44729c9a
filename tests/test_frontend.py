"""Frontend tests: golden CLP programs for small sources, and the errors for
constructs outside the supported subset.

Golden files: `tests/golden/NAME.py` is translated and printed with
`ir.printer.program_text`; the text must equal `tests/golden/NAME.pl`.
Run with `PATHCRAFT_UPDATE_GOLDEN=1` to rewrite the `.pl` files, then
read the diff by eye before committing.
"""

from __future__ import annotations

import os
import re
import textwrap
from pathlib import Path

import pytest

from pathcraft.errors import PathcraftError, UnsupportedError
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.ir.nodes import Goto, Rule
from pathcraft.ir.printer import program_text

GOLDEN = Path(__file__).resolve().parent / "golden"
SOURCES = sorted(GOLDEN.glob("*.py"))
UPDATE = os.environ.get("PATHCRAFT_UPDATE_GOLDEN") == "1"


def clp_of(path: Path) -> str:
    result = translate(str(path))
    assert not result.errors, {k: str(v) for k, v in result.errors.items()}
    return program_text(result.program)


# ---------------------------------------------------------------- golden


def test_golden_sources_exist() -> None:
    assert {p.stem for p in SOURCES} >= {"branch", "loop", "handler", "ssa", "calls", "boolops"}


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_golden(source: Path) -> None:
    expected_file = source.with_suffix(".pl")
    text = clp_of(source)
    if UPDATE:
        expected_file.write_text(text, encoding="utf-8")
        pytest.skip(f"rewrote {expected_file.name}")
    assert expected_file.exists(), f"missing {expected_file.name}: run with PATHCRAFT_UPDATE_GOLDEN=1"
    assert text == expected_file.read_text(encoding="utf-8")


def test_golden_is_deterministic() -> None:
    """Two translations of the same source print the same text."""
    for source in SOURCES:
        assert clp_of(source) == clp_of(source)


def _guard_pairs(source: Path) -> list[tuple[Rule, Rule]]:
    result = translate(str(source))
    pairs = []
    for pred in result.program.predicates.values():
        if not pred.builtin and len(pred.rules) == 2:
            pairs.append((pred.rules[0], pred.rules[1]))
    return pairs


def test_two_rule_predicates_have_complementary_guards() -> None:
    """Mutually exclusive rules: the second guard is the negation of the first."""
    from pathcraft.frontend.blocks import negate

    for source in SOURCES:
        for first, second in _guard_pairs(source):
            assert first.guard is not None and second.guard == negate(first.guard)


def test_loop_is_recursion() -> None:
    """The loop body predicate ends with a tail call back to the header."""
    program = translate(str(GOLDEN / "loop.py")).program
    body = [p for p in program.predicates_of("count") if p.iterates]
    assert len(body) == 1
    last = body[0].rules[0].body[-1]
    assert isinstance(last, Goto)
    header = program.predicate(last.block)
    assert len(header.rules) == 2 and header.rules[0].guard is not None
    assert any(isinstance(r.body[-1], Goto) and r.body[-1].block == body[0].name for r in header.rules)


def test_loop_is_known_by_its_header(tmp_path: Path) -> None:
    """The loop a body iterates, and the one its entering jump restarts, is
    named by the loop's header block (not by a name no predicate has)."""
    source = "def f(n: int) -> int:\n    for i in range(n):\n        while n > i:\n            n -= 1\n    return n\n"
    program = translate(str(_write(tmp_path, source))).program
    bodies = [p for p in program.predicates_of("f") if p.iterates]
    assert len({p.iterates for p in bodies}) == 2
    gotos = [i for p in program.predicates_of("f") for r in p.rules for i in r.body if isinstance(i, Goto)]
    for body in bodies:
        header = program.predicate(str(body.iterates))
        assert any(isinstance(r.body[-1], Goto) and r.body[-1].block == body.name for r in header.rules)
        assert any(g.block == header.name and g.enters_loop == header.name for g in gotos)


# ------------------------------------------------------------ unsupported


def _write(tmp_path: Path, source: str, name: str = "mod.py") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def _error_of(tmp_path: Path, source: str, name: str = "f") -> PathcraftError:
    path = _write(tmp_path, source)
    result = translate(str(path), [name])
    assert name in result.errors, "expected an error"
    assert name not in result.program.functions
    return result.errors[name]


# (id, source, line, col, words in the message). Columns are 1-based and
# were counted by hand on the source text.
UNSUPPORTED = [
    ("lambda", "def f(x: int) -> int:\n    g = lambda y: y\n    return x\n", 2, 9, "lambda"),
    ("dict", "def f(x: int) -> int:\n    d = {**{1: x}}\n    return x\n", 2, 12, "'**' in a dict literal"),
    ("complex", "def f(x: int) -> int:\n    return x + 1.5j\n", 2, 16, "complex"),
    ("setcomp", "def f(x: int) -> int:\n    y = {(j := i) for i in range(x)}\n    return x\n", 2, 9,
     "set comprehension with 'async', ':='"),
    ("yield_value", "def f(x: int) -> int:\n    y = yield x\n    return y\n", 2, 9, "yield"),
    # a call of it translates and drops its paths (tests/test_structure_stdlib.py); read as a value, refused
    ("math_log2", "import math\ndef f(x: float) -> float:\n    return math.log2\n", 3, 12, "math.log2"),
    ("matmul", "def f(x: int) -> int:\n    return x @ 2\n", 2, 12, "'@'"),
    ("with", "def f(x: int) -> int:\n    with x, x:\n        pass\n    return x\n", 2, 5, "with statement of several"),
    ("nested_def", "def f(x: int) -> int:\n    def g() -> int:\n        return 1\n    h = g\n    return x\n", 4, 9,
     "nested function 'g' used as a value"),
    ("global", "def f(x: int) -> int:\n    global y\n    return x\n", 2, 5, "global"),
    # a union: one input per member the subset builds, the others left out; none: refused
    ("union_param", "def f(x: int, s: bytes | bytearray) -> int:\n    return x\n", 1, 18, "'bytes"),
    ("raise_from", "def f(x: int) -> int:\n    raise ValueError('a') from KeyError('b')\n", 2, 32,
     "raise ... from"),
    # the decorator expression `functools.singledispatch` starts after the '@'
    ("decorator", "import functools\n@functools.singledispatch\ndef f(x: int) -> int:\n    return x\n", 2, 2,
     "decorator '@functools.singledispatch'"),
]
UNSUPPORTED_PARAMS = [pytest.param(*c[1:], id=c[0]) for c in UNSUPPORTED] + [
    pytest.param("def f(x: int) -> int:\n    a, *b = (1, x)\n    return x\n", 2, 8, "starred",
                 id="starred_target"),
    pytest.param("def f(x: int) -> int:\n    if x is 3:\n        return 1\n    return x\n", 2, 8, "'is'",
                 id="is_int"),
    # a constant str step used to crash the lowerer (comparing it with 0)
    pytest.param("def f(n: int) -> int:\n    for i in range(0, n, 'a'):\n        n += i\n    return n\n", 2, 26,
                 "range() step", id="range_str_step"),
]


@pytest.mark.parametrize(("source", "line", "col", "words"), UNSUPPORTED_PARAMS)
def test_unsupported_construct(tmp_path: Path, source: str, line: int, col: int, words: str) -> None:
    error = _error_of(tmp_path, source)
    assert isinstance(error, UnsupportedError)
    path = str(tmp_path / "mod.py")
    assert str(error).startswith(f"{path}:{line}:{col}: unsupported "), str(error)
    assert words in error.message
    assert "\n" not in str(error)


def test_a_yield_statement_makes_a_generator_function(tmp_path: Path) -> None:
    path = _write(tmp_path, "def f(x: int) -> int:\n    yield x\n")
    program = translate(str(path), ["f"]).program
    assert program.functions["f"].generator
    assert program.predicate(program.functions["f"].entry).generator


def test_unreachable_yield_still_makes_a_generator(tmp_path: Path) -> None:
    """CPython decides at compile time: `f(x)` makes a generator that yields nothing."""
    path = _write(tmp_path, "def f(x: int) -> int:\n    return x\n    yield 1\n")
    program = translate(str(path), ["f"]).program
    cases = generate(program, "f", GenerateOptions()).cases
    assert [(c.kind, c.heap_final[c.value["$ref"]]) for c in cases] == [("return", {"list": []})]


def test_untyped_parameter_message_format(tmp_path: Path) -> None:
    error = _error_of(tmp_path, "def f(x) -> int:\n    return x.size\n")
    assert str(error).startswith(f"{tmp_path / 'mod.py'}:1:7: unsupported ")


def test_untyped_parameter_location(tmp_path: Path) -> None:
    error = _error_of(tmp_path, "def f(x) -> int:\n    return x.size\n")
    assert isinstance(error, UnsupportedError)
    assert str(error).startswith(f"{tmp_path / 'mod.py'}:1:7: ")
    assert "'x'" in error.message and "annotation" in error.message


def test_star_args_whose_items_use_does_not_tell_is_refused(tmp_path: Path) -> None:
    error = _error_of(tmp_path, "def f(*args):\n    for a in args:\n        a.go()\n    return 1\n")
    assert isinstance(error, UnsupportedError)
    assert re.match(rf"{re.escape(str(tmp_path / 'mod.py'))}:1:\d+: unsupported \*args without a type annotation",
                    str(error))


def test_star_kwargs_in_a_call_column(tmp_path: Path) -> None:
    """`**kwargs` parameters are modelled; spreading a dict at a call is not."""
    error = _error_of(tmp_path, "def g(**kw: int) -> int:\n    return 1\n\n\ndef f(d: dict[str, int]) -> int:\n"
                                "    return g(**d)\n", "f")
    assert error.location is not None and (error.location.line, error.location.col) == (6, 12)


# --------------------------------------------------------- other errors


def test_syntax_error(tmp_path: Path) -> None:
    """`    y = )`: the ')' is at 0-based offset 8, so column 9."""
    path = _write(tmp_path, "def f(x: int) -> int:\n    y = )\n")
    with pytest.raises(PathcraftError) as info:
        translate(str(path))
    assert str(info.value) == f"{path}:2:9: syntax error: unmatched ')'"


def test_unknown_name(tmp_path: Path) -> None:
    error = _error_of(tmp_path, "def f(x: int) -> int:\n    return x + zz\n")
    assert str(error) == f"{tmp_path / 'mod.py'}:2:16: unknown name 'zz'"


def test_unknown_function(tmp_path: Path) -> None:
    error = _error_of(tmp_path, "def f(x: int) -> int:\n    return g(x)\n")
    assert str(error) == f"{tmp_path / 'mod.py'}:2:12: unknown name 'g'"


def test_missing_function_and_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "def f(x: int) -> int:\n    return x\n")
    result = translate(str(path), ["nope"])
    assert "nope" in result.errors and "no function named 'nope'" in str(result.errors["nope"])
    with pytest.raises(PathcraftError, match="no such file"):
        translate(str(tmp_path / "missing.py"))


MODULE = """\
def good(x: int) -> int:
    return x + 1


def bad(x: int) -> int:
    return x @ 2


def caller(x: int) -> int:
    if x < 0:
        return 0
    return bad(x) + 1


def other(x: int) -> int:
    return good(x)
"""


def test_module_with_one_unsupported_function_translates_the_others(tmp_path: Path) -> None:
    path = _write(tmp_path, MODULE)
    result = translate(str(path))
    assert result.targets == ["good", "bad", "caller", "other"]
    assert set(result.errors) == {"bad"}
    assert set(result.program.functions) == {"good", "caller", "other"}
    assert str(result.errors["bad"]) == f"{path}:6:12: unsupported operator '@'"


def test_a_call_of_an_unsupported_function_drops_the_paths_that_reach_it(tmp_path: Path) -> None:
    path = _write(tmp_path, MODULE)
    run = generate(translate(str(path), ["caller"]).program, "caller", GenerateOptions())
    assert [case.value for case in run.cases] == [0]  # the path before the call keeps its test
    assert any("call of bad(), which cannot be analysed" in note and "'@'" in note for note in run.notes)


PARTIAL = """\
import z3


class Odd(z3.Solver):
    def go(self) -> int:
        return 1


def make() -> int:
    return Odd().go()


def caller(x: int) -> int:
    if x > 0:
        return make()
    return 0
"""


def test_a_function_refused_after_its_body_was_lowered_never_runs(tmp_path: Path) -> None:
    # `make` builds a refused class: its lowering failed after its predicates were made; a call of it
    # once ran them and claimed an AttributeError (the standard library's pdb.runctx -> run -> Pdb().run)
    path = _write(tmp_path, PARTIAL)
    result = translate(str(path), ["caller"])
    assert "make" in result.errors and "caller" not in result.errors
    run = generate(result.program, "caller", GenerateOptions())
    assert [case.value for case in run.cases] == [0]
    assert any("call of make(), which cannot be analysed" in note for note in run.notes)
