"""Builtins: `bin`/`oct`/`hex`, `pow` with two and three arguments,
`math.pow` where exact, `next(iter(x))`, `tuple(x)`, `int(s, base)`, checked against the real code (replay and
enumeration oracles) on everyday functions of our own."""

from __future__ import annotations

from pathlib import Path

import pytest
import z3
from heap_enum import Bounds
from oracle import generated, missed_heap_paths, missed_paths, replay_mismatches

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.solver import terms as T
from pathcraft.solver.terms import INT, Sym
from pathcraft.solver.z3backend import Z3Translator

BUILTINS = Path(__file__).resolve().parent / "fixtures" / "structure" / "builtin_calls.py"
FUNCTIONS = [
    "binary_digits", "ones_in_binary", "octal_label", "hex_code", "last_digit_of_power", "modular_square",
    "power_or_zero", "place_value", "square_area", "first_key", "first_or_zero", "first_letter", "frozen_scores",
    "letters", "parse_bits", "parse_hex_byte", "hours_and_minutes", "whole_parts",
    "digit_in_base", "sum_in_base", "padded_bits", "hex_pair",
    "has_letter_bit", "capacity",
]

INTS_ONLY = FUNCTIONS[:9]


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("criterion", ["loop-1", "loop-2", "loop-3"])
def test_replay(name: str, criterion: str) -> None:
    cases = generated(BUILTINS, name, criterion)
    assert cases, "no test case generated"
    assert replay_mismatches(BUILTINS, name, cases) == []


@pytest.mark.parametrize("name", FUNCTIONS)
def test_enumeration(name: str) -> None:
    cases = generated(BUILTINS, name, "loop-2")
    if name in INTS_ONLY:
        assert missed_paths(BUILTINS, name, cases, k=2) == []
    else:  # small dicts, lists and strings (up to three characters of digits, letters, a space)
        missed, runs = missed_heap_paths(BUILTINS, name, cases, k=2, bounds=Bounds(max_list=3, max_dict=2))
        assert runs > 0 and missed == []


def _run(name: str) -> tuple[list[str], dict[str, int], list[object]]:
    result = translate(str(BUILTINS), [name])
    run = generate(result.program, name, GenerateOptions.of())
    return list(run.notes), dict(run.stats), list(run.cases)


def test_formats_beyond_64_bits_are_dropped_and_counted() -> None:
    notes, stats, cases = _run("binary_digits")
    assert stats["unsupported_paths"] > 0 and "bin() of an int beyond 64 bits" in " ".join(notes)
    assert cases


def test_pow_with_a_zero_modulus_raises_and_an_inverse_is_not_guessed() -> None:
    cases = generated(BUILTINS, "modular_square")
    assert ("ValueError", "pow() 3rd argument cannot be 0") in {(c.exc_type, c.exc_message) for c in cases}
    notes, stats, _ = _run("last_digit_of_power")
    assert stats["unsupported_paths"] > 0 and "modular inverse" in " ".join(notes)


def test_math_pow_is_written_only_where_libm_is_exact(tmp_path: Path) -> None:
    """A float operand or a power beyond 2**53 drops the path: libm's
    rounding is not modelled; ints within it give the exact double."""
    source = tmp_path / "fpow.py"
    source.write_text("import math\n\n\ndef f(x: float) -> float:\n    return math.pow(x, 2)\n")
    run = generate(translate(str(source), ["f"]).program, "f", GenerateOptions.of())
    assert run.cases == [] and run.stats["unsupported_paths"] > 0
    cases = generated(BUILTINS, "place_value")
    returned = [c for c in cases if c.kind == "return"]
    assert returned and all(isinstance(c.value, float) for c in returned)


def test_next_of_an_empty_iterable_raises_stop_iteration() -> None:
    cases = generated(BUILTINS, "first_letter")
    assert {(c.kind, c.exc_type) for c in cases} == {("return", None), ("raise", "StopIteration")}


def test_int_with_a_base_drops_what_its_grammar_would_decide() -> None:
    """Signs, spaces, prefixes and underscores are not modelled: those
    paths are dropped; a character no literal of the base holds is a
    ValueError whose message (it quotes the string) is not asserted."""
    notes, stats, cases = _run("parse_bits")
    assert stats["unsupported_paths"] > 0 and "int() with a base" in " ".join(notes)
    raised = [c for c in cases if c.kind == "raise"]
    assert raised and all(c.exc_type == "ValueError" and c.exc_message is None for c in raised)


def test_int_with_a_base_of_an_int_raises_type_error(tmp_path: Path) -> None:
    source = tmp_path / "based.py"
    source.write_text("def f(n: int) -> int:\n    return int(n, 2)\n")
    run = generate(translate(str(source), ["f"]).program, "f", GenerateOptions.of())
    assert {(c.exc_type, c.exc_message) for c in run.cases} == {
        ("TypeError", "int() can't convert non-string with explicit base")}
    assert replay_mismatches(source, "f", run.cases) == []


def test_divmod_by_a_float_zero_says_float_divmod() -> None:
    """CPython's message for a float divmod by zero is its own ("float
    divmod()", 3.6 to 3.13), not `//`'s."""
    cases = generated(BUILTINS, "whole_parts")
    assert ("ZeroDivisionError", "float divmod()") in {(c.exc_type, c.exc_message) for c in cases}


# ------------------------------------------------- the digit-word operators

DIGIT_SAMPLES = [0, 1, 2, 3, 5, 7, 8, 9, 10, 64, 255, 256, 511, 4097, 2 ** 31 - 1, 2 ** 40 + 5, 2 ** 63,
                 2 ** 64 - 1]


def test_digit_words_fold_and_evaluate_as_python() -> None:
    x = Sym("x", INT)
    for n in DIGIT_SAMPLES:
        assert T.bin_digits(n) == int(bin(n)[2:]) and T.oct_digits(n) == int(oct(n)[2:])
        assert T.evaluate(T.bin_digits(x), {"x": n}) == int(bin(n)[2:])
        assert T.evaluate(T.oct_digits(x), {"x": n}) == int(oct(n)[2:])
    assert T.bin_digits(True) == 1 and T.show(T.bin_digits(x)) == "bin_digits(x)"


def test_digit_words_in_z3_match_python_below_2_to_the_64() -> None:
    x = Sym("x", INT)
    ctx = z3.Context()
    translate = Z3Translator(ctx)
    for n in DIGIT_SAMPLES:
        for term, python in ((T.bin_digits(x), bin), (T.oct_digits(x), oct)):
            solver = z3.Solver(ctx=ctx)
            out = z3.Int("out", ctx)
            solver.add(translate(T.eq(x, n)), out == translate(term), *translate.definitions(term))
            assert solver.check() == z3.sat
            assert solver.model().eval(out, model_completion=True).as_long() == int(python(n)[2:]), n
