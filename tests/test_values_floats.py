"""Floats as symbolic values: the oracles over tests/fixtures/values/floats.py,
the emitted file run for real, and the float operators' three meanings
(Python folding, `py` column, Z3 column) against Python's own floats."""

from __future__ import annotations

import io
import itertools
import math
import subprocess
import sys
from pathlib import Path

import pytest
import z3
from heap_enum import Bounds
from oracle import generated, missed_heap_paths, missed_paths, replay_mismatches

from pathcraft.solver import floats as F
from pathcraft.solver import fpsem
from pathcraft.solver import terms as T
from pathcraft.solver.ops import OPS
from pathcraft.solver.terms import App, Sym
from pathcraft.solver.z3backend import Z3Session, Z3Translator
from pathcraft.testcase.emit_pytest import PytestWriter

FLOATS = Path(__file__).resolve().parent / "fixtures" / "values" / "floats.py"
FUNCTIONS = [
    "celsius_to_fahrenheit", "safe_ratio", "ratio", "clamp", "average", "sign", "income_tax", "mean",
    "percent", "nearest", "distance", "at_least", "whole_steps", "leftover", "discount",
    "hypotenuse", "root_or_zero", "nearly_equal", "bucket", "pages", "doubled_finite", "circle_area",
    "count_above", "repeat", "with_vat", "rounded_mean", "to_kelvin", "scaled", "ring_area", "side",
    "nearest_to",
]
# list[float]: an input list of each length, its items symbols
LISTS = ["list_mean", "list_largest", "list_scale", "list_first_negative", "list_spread", "list_half_sum",
         "list_signs"]
METHODS = ["Account.withdraw"]  # a declared float field
INFERRED = ["Meter.add"]  # a field typed from `self.reading = 0.0` (heap_enum reads annotations only: replay)


@pytest.mark.parametrize("name", FUNCTIONS + LISTS + METHODS + INFERRED)
def test_replay(name: str) -> None:
    cases = generated(FLOATS, name, "loop-2")
    assert cases, "no test case generated"
    assert replay_mismatches(FLOATS, name, cases) == []


@pytest.mark.parametrize("name", FUNCTIONS)
def test_enumeration(name: str) -> None:
    """Every path the real code takes on the small floats of `heap_enum.FLOATS`
    (signed zeros, 0.1, the infinities, nan) and small ints was found."""
    cases = generated(FLOATS, name, "loop-2")
    assert missed_paths(FLOATS, name, cases, k=2) == []


@pytest.mark.parametrize("name", METHODS + LISTS)
def test_enumeration_of_float_fields_and_lists(name: str) -> None:
    cases = generated(FLOATS, name, "loop-2")
    missed, count = missed_heap_paths(FLOATS, name, cases, k=2, bounds=Bounds(max_objects=1))
    assert count > 0 and missed == []


def test_inputs_are_short_and_special_values_only_when_needed() -> None:
    ordinary = ["celsius_to_fahrenheit", "safe_ratio", "clamp", "average", "sign", "at_least", "discount",
                "circle_area", "hypotenuse"]  # no path of these needs an extreme value
    values = [v for name in ordinary for c in generated(FLOATS, name, "loop-2") for _, v in c.inputs
              if isinstance(v, float)]
    assert all(len(repr(v)) <= 4 or math.isnan(v) for v in values), values
    assert any(math.isnan(v) for v in values) and not all(v == 0 for v in values)
    for c in generated(FLOATS, "clamp", "loop-2"):  # a path satisfied by ordinary numbers gets them
        assert all(math.isfinite(v) for _, v in c.inputs)


def test_emitted_file_imports_and_passes(tmp_path: Path) -> None:
    """nan/inf inputs are written `float('nan')`, a nan or zero result is
    checked through its repr; the file runs green under pytest."""
    out = io.StringIO()
    writer = PytestWriter(out, "floats", str(FLOATS), FUNCTIONS, "loop-2")
    for name in ("sign", "percent", "safe_ratio", "mean", "list_signs"):
        for case in generated(FLOATS, name, "loop-2"):
            writer.add(case)
    writer.close()
    text = out.getvalue()
    assert "float('nan')" in text and "float('inf')" in text and "repr(" in text
    test_file = tmp_path / "test_gen_floats.py"
    test_file.write_text(text, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
                         capture_output=True, text=True, cwd=tmp_path,
                         env={"PYTHONPATH": str(FLOATS.parent), "PATH": ""})
    assert run.returncode == 0, run.stdout + run.stderr


# ------------------------------------------------------------ the operators

SAMPLES = (0.0, -0.0, 0.5, -1.5, 2.0, 0.1, 3.0, -7.25, 1e308, 5e-324, math.inf, -math.inf, math.nan)
INTS = (0, 1, -3, 7, 2 ** 53 + 1, -(2 ** 60) - 1)


def _same(x: object, y: object) -> bool:
    if isinstance(x, float) and isinstance(y, float):
        return fpsem.same_float(x, y) or (math.isnan(x) and math.isnan(y))
    return type(x) is type(y) and x == y


_CTX = z3.Context()  # one for the module: a context freed before its expressions crashes Z3
_TRANSLATE = Z3Translator(_CTX)


def _z3_value(term: App) -> object:
    """`term` (constant arguments, not folded) evaluated by Z3."""
    expr = z3.simplify(_TRANSLATE(term))
    if z3.is_fp(expr):
        if z3.is_true(z3.simplify(z3.fpIsNaN(expr, _CTX))):
            return math.nan
        return fpsem.from_bits(z3.simplify(z3.fpToIEEEBV(expr, _CTX)).as_long())
    if z3.is_bool(expr):
        return z3.is_true(expr)
    return expr.as_long()


def _python(op: str, *args: object) -> object:
    """What Python computes, or None where the engine guards the operator."""
    x = args[0]
    try:
        return {
            "fadd": lambda: x + args[1], "fsub": lambda: x - args[1], "fmul": lambda: x * args[1],
            "fdiv": lambda: x / args[1], "ffloordiv": lambda: x // args[1], "fmod": lambda: x % args[1],
            "fneg": lambda: -x, "fabs": lambda: abs(x), "ftrunc": lambda: int(x), "fround": lambda: round(x),
            "fisnan": lambda: math.isnan(x), "fisinf": lambda: math.isinf(x),
        }[op]()
    except (ZeroDivisionError, ValueError, OverflowError):
        return None


@pytest.mark.parametrize("op", ["fadd", "fsub", "fmul", "fdiv", "ffloordiv", "fmod"])
def test_binary_operators_agree_with_python(op: str) -> None:
    for x, y in itertools.product(SAMPLES, repeat=2):
        expected = _python(op, x, y)
        if expected is None:
            continue
        assert _same(T.apply(op, x, y), expected), (op, x, y)  # folding
        assert _same(_z3_value(App(op, (x, y), "float")), expected), (op, x, y)


@pytest.mark.parametrize("op", ["fneg", "fabs", "ftrunc", "fround", "fisnan", "fisinf"])
def test_unary_operators_agree_with_python(op: str) -> None:
    for x in SAMPLES:
        expected = _python(op, x)
        if expected is None:
            continue
        assert _same(T.apply(op, x), expected), (op, x)
        assert _same(_z3_value(App(op, (x,), OPS[op].sort((x,)))), expected), (op, x)


@pytest.mark.parametrize("op", ["eq", "ne", "lt", "le", "gt", "ge"])
def test_comparisons_are_exact_across_int_and_float(op: str) -> None:
    """`2**53 + 1 > 2.0**53` in Python: the int is not converted."""
    import operator
    py = getattr(operator, op)
    for x, y in itertools.chain(itertools.product(SAMPLES, repeat=2), itertools.product(INTS, SAMPLES),
                                itertools.product(SAMPLES, INTS), [(2 ** 53 + 1, 2.0 ** 53)]):
        expected = py(x, y)
        assert F.binary(op, x, y, []) is expected, (op, x, y)
        assert _z3_value(App("f" + op, (x, y), "bool")) is expected, (op, x, y)


def test_round_to_digits_rounds_the_exact_decimal_value() -> None:
    """`round(2.675, 2)` is 2.67 (the double is below 2.675); ties go to even;
    a zero keeps the sign."""
    for x in (*SAMPLES, 2.675, 0.125, -0.4, 1234.5, 1 / 3, 123.456):
        for n in (-2, 0, 1, 2, 5):
            expected = round(x, n)
            assert _same(T.apply("fround_digits", x, n), expected), (x, n)
            assert _same(_z3_value(App("fround_digits", (x, n), "float")), expected), (x, n)


def test_int_conversions_round_half_even_like_python() -> None:
    for i in (*INTS, 2 ** 53 + 3, 2 ** 1000 + 1):
        assert _same(_z3_value(App("i2f", (i,), "float")), float(i)), i
        assert _same(_z3_value(App("idiv", (i, 3), "float")), i / 3), i
    assert _same(_z3_value(App("idiv", (1, 10), "float")), 0.1)


def test_terms_keep_signed_zero_and_nan_apart() -> None:
    x = Sym("x", "float")
    assert T.apply("fadd", x, 0.0) != T.apply("fadd", x, -0.0)
    assert T.apply("fadd", x, math.nan) == T.apply("fadd", x, math.nan)
    assert T.apply("fadd", x, 1.0) != T.apply("fadd", x, 1) and T.sort_of(1.0) == "float"
    assert T.apply("fadd", x, 0.0) is not x  # -0.0 + 0.0 is 0.0: no identity folding
    assert T.not_(T.apply("flt", x, 1.0)) != T.apply("fge", x, 1.0)  # nan: not (x < 1) is not x >= 1
    assert T.show(T.apply("fadd", x, math.inf)) == "x + float('inf')"


def test_mixed_arithmetic_converts_the_int_within_its_domain() -> None:
    n, domain = Sym("n", "int"), []
    term = F.binary("add", n, 0.5, domain)
    assert isinstance(term, App) and term.op == "fadd" and len(domain) == 1
    assert F.binary("lt", n, 0.5, []) == App("flt", (n, 0.5), "bool")  # exact, no conversion
    assert F.binary("lt", Sym("x", "float"), 3, []) == App("flt", (Sym("x", "float"), 3.0), "bool")


def test_solver_finds_exact_models() -> None:
    x, d = Sym("x", "float"), []
    session = Z3Session(10000, 0)
    verdict, model = session.check(None, [F.binary("gt", F.binary("mul", x, 3, d), 0.3, d),
                                          F.binary("lt", x, 0.1000001, d)], [x])
    assert verdict == "sat" and model is not None
    value = model["x"]
    assert isinstance(value, float) and value * 3 > 0.3 and value < 0.1000001


def _translated(tmp_path: Path, source: str, name: str = "f") -> object:
    from pathcraft.frontend import translate
    path = tmp_path / "mod.py"
    path.write_text(source, encoding="utf-8")
    result = translate(str(path), [name])
    return result.errors.get(name) or result.program.functions[name]


def test_annotations(tmp_path: Path) -> None:
    """`int | float` takes floats."""
    info = _translated(tmp_path, "def f(x: int | float) -> float:\n    return x / 2\n")
    assert [str(t) for t in getattr(info, "param_types")] == ["float"]


def test_float_of_a_literal_string_is_a_constant(tmp_path: Path) -> None:
    path = tmp_path / "lit.py"
    path.write_text("def f(x: float) -> bool:\n    return x < float('inf') and x > float('-inf')\n",
                    encoding="utf-8")
    cases = generated(path, "f", "loop-2")
    assert cases and replay_mismatches(path, "f", cases) == []


def test_a_tuple_holding_an_infinity_or_a_nan_is_written_so_it_checks() -> None:
    """`(None, inf, 0)` is written with `float('inf')` (a bare `inf` is no
    name in the test file); a tuple holding a nan compares by repr (the nan
    of the result is not the literal's, and a tuple compares items by `is`
    first, then `==`). Found on corpus kd_tree/nearest_neighbour_search.py."""
    from pathcraft.testcase.emit_pytest import scalar_check

    assert scalar_check("f()", (None, float("inf"), 0)) == "assert f() == (None, float('inf'), 0)"
    assert scalar_check("f()", (1, float("nan"))) == "assert repr(f()) == '(1, nan)'"
    assert scalar_check("f()", (2.5,)) == "assert f() == (2.5,)"
    assert eval("(None, float('inf'), 0)") == (None, float("inf"), 0)  # noqa: S307
