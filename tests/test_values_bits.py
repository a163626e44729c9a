"""Bit operations `& | ^ ~ << >>`, `int.bit_length()` and `int.bit_count()`:
the engine against the real code (replay and enumeration oracles) on
everyday functions, and the new term operators against Python, folded,
evaluated and translated to Z3, on random and edge values."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
import z3
from oracle import generated, missed_paths, replay_mismatches

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.solver import terms as T
from pathcraft.solver.bitops import HIGH, LOW, MAX_SHIFT
from pathcraft.solver.terms import BOOL, INT, Sym, Term
from pathcraft.solver.z3backend import Z3Session, Z3Translator

BITS = Path(__file__).resolve().parent / "fixtures" / "values" / "bits.py"
FUNCTIONS = [
    "is_power_of_two", "count_set_bits", "get_bit", "set_bit", "clear_bit", "toggle_low_bits",
    "xor_swap", "gray_code", "parity", "lowest_set_bit", "same_sign", "width_class", "flags", "both",
]
X, Y = Sym("x", INT), Sym("y", INT)
P, Q = Sym("p", BOOL), Sym("q", BOOL)


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("criterion", ["loop-1", "loop-2", "loop-3"])
def test_replay(name: str, criterion: str) -> None:
    cases = generated(BITS, name, criterion)
    assert cases, "no test case generated"
    assert replay_mismatches(BITS, name, cases) == []


@pytest.mark.parametrize("name", FUNCTIONS)
def test_enumeration(name: str) -> None:
    cases = generated(BITS, name, "loop-2")
    assert missed_paths(BITS, name, cases, k=2) == []


def test_wide_operands_are_dropped_and_counted_not_guessed() -> None:
    """`&` of operands beyond signed 64 bits and shifts by more than
    MAX_SHIFT are not modelled: those paths are dropped, with a reason;
    every test that is written states the 64-bit bound in its path."""
    result = translate(str(BITS), ["set_bit"])
    run = generate(result.program, "set_bit", GenerateOptions.of())
    assert run.stats["unsupported_paths"] > 0
    assert "'|' beyond signed 64 bits" in run.notes and f"a shift by more than {MAX_SHIFT}" in run.notes
    returning = [c for c in run.cases if c.kind == "return"]
    assert returning
    assert all(str(HIGH) in " ".join(c.constraints) for c in returning)


def test_negative_shift_count_raises_value_error() -> None:
    cases = generated(BITS, "get_bit")
    raised = [c for c in cases if c.kind == "raise"]
    assert [(c.exc_type, c.exc_message) for c in raised] == [("ValueError", "negative shift count")]
    assert all(dict(c.inputs)["i"] < 0 for c in raised)


# ------------------------------------------------------------- the operators

EDGES = [0, 1, -1, 2, -2, 3, 5, -7, 255, -256, 2 ** 31, -(2 ** 31), 2 ** 62, LOW, HIGH, LOW + 1, HIGH - 1]


def _samples(seed: int, count: int) -> list[int]:
    rng = random.Random(seed)
    out = list(EDGES)
    for _ in range(count):
        width = rng.choice((3, 8, 16, 32, 63))
        out.append(rng.randint(-(2 ** width), 2 ** width - 1))
    return [max(LOW, min(HIGH, v)) for v in out]


BINARY = {"bitand": (T.bitand, lambda a, b: a & b), "bitor": (T.bitor, lambda a, b: a | b),
          "bitxor": (T.bitxor, lambda a, b: a ^ b)}


def test_folding_matches_python_on_constants_and_keeps_bools() -> None:
    for a, b in itertools.product(_samples(1, 10), repeat=2):
        for build, python in BINARY.values():
            got = build(a, b)
            assert type(got) is int and got == python(a, b)
    for p, q in itertools.product((False, True), repeat=2):
        for build, python in BINARY.values():
            assert build(p, q) is python(p, q)  # bool & bool is a bool
    assert T.shl(3, 4) == 48 and T.shr(-7, 1) == -4 and T.shr(-1, MAX_SHIFT) == -1
    assert T.bit_length(-8) == 4 and T.bit_count(-8) == 1 and T.bit_length(True) == 1


def test_neutral_and_absorbing_elements() -> None:
    assert T.bitand(X, 0) == 0 and T.bitand(-1, X) is X and T.bitand(X, X) is X
    assert T.bitor(X, 0) is X and T.bitor(-1, X) == -1 and T.bitor(X, X) is X
    assert T.bitxor(X, 0) is X and T.bitxor(X, X) == 0
    assert T.shl(X, 3) == T.mul(X, 8) and T.shr(X, 0) is X and T.shr(0, Y) == 0
    assert T.bitand(P, Q) == T.and_(P, Q) and T.bitxor(P, Q) == T.ne(P, Q)


def test_show_parenthesises_by_python_precedence() -> None:
    term = T.eq(T.bitand(X, T.sub(X, 1)), 0)
    assert T.show(term) == "x & (x - 1) == 0"  # comparisons bind looser than `&`
    assert eval(T.show(T.bitor(T.bitxor(X, Y), T.bitand(X, Y))), {"x": 6, "y": 3}) == (6 ^ 3) | (6 & 3)
    assert T.show(T.add(T.shl(X, Y), 1)) == "(x << y) + 1"
    assert T.show(T.bit_length(X)) == "int.bit_length(x)"


def _z3_values(terms: list[Term], env: dict[str, int]) -> list[int]:
    ctx = z3.Context()
    translate = Z3Translator(ctx)
    solver = z3.Solver(ctx=ctx)
    outs = [z3.Int(f"out{i}", ctx) for i in range(len(terms))]
    for sym in (X, Y):
        solver.add(translate(T.eq(sym, env[sym.name])))
    for out, term in zip(outs, terms):
        solver.add(out == translate(term), *translate.definitions(term))
    assert solver.check() == z3.sat
    model = solver.model()
    return [model.eval(out, model_completion=True).as_long() for out in outs]


def test_z3_translation_matches_python_in_signed_64_bits() -> None:
    """Z3's value of each translated operator is Python's, on random and
    edge operands within the bounds the guards state."""
    terms = [T.bitand(X, Y), T.bitor(X, Y), T.bitxor(X, Y), T.bit_length(X), T.bit_count(X)]
    rng = random.Random(5)
    samples = _samples(2, 25)
    pairs = list(itertools.product(EDGES, repeat=2))[::7] + [(rng.choice(samples), rng.choice(samples))
                                                             for _ in range(40)]
    for a, b in pairs:
        expected = [a & b, a | b, a ^ b, a.bit_length(), a.bit_count()]
        assert _z3_values(terms, {"x": a, "y": b}) == expected, (a, b)
        assert [T.evaluate(t, {"x": a, "y": b}) for t in terms] == expected


def test_z3_shifts_match_python_for_every_count() -> None:
    terms = [T.shl(X, Y), T.shr(X, Y)]
    for a in (0, 1, -1, 5, -6, 2 ** 40 + 3, LOW, HIGH):
        for count in (0, 1, 2, 7, 31, 63, MAX_SHIFT):
            assert _z3_values(terms, {"x": a, "y": count}) == [a << count, a >> count], (a, count)


def test_z3_decides_bitwise_queries_within_the_rlimit() -> None:
    """Z3 with the operands' bits as linear definitions: `x & (x - 1) == 0`
    with `x > 3` has a model (a power of two), and `x & y > x` for positive
    x, y has none (what the int/bit-vector bridge answered unknown)."""
    session = Z3Session(timeout_ms=5000, rlimit=2_000_000)
    fits = [T.ge(X, LOW), T.le(X, HIGH), T.ge(Y, LOW), T.le(Y, HIGH)]
    power = [*fits, T.ge(T.sub(X, 1), LOW), T.eq(T.bitand(X, T.sub(X, 1)), 0), T.gt(X, 3)]
    verdict, model = session.check(None, power, [X])
    assert verdict == "sat" and model is not None
    assert model["x"] > 3 and model["x"] & (model["x"] - 1) == 0
    verdict, _ = session.check(None, [*fits, T.gt(X, 0), T.gt(Y, 0), T.gt(T.bitand(X, Y), X)], [X, Y])
    assert verdict == "unsat"


def test_a_float_operand_raises_type_error(tmp_path: Path) -> None:
    """`x & 3`, `x << 1`, `~x` on a float: TypeError (its type only), never
    the int arithmetic the linear forms would compute."""
    source = tmp_path / "floaty.py"
    source.write_text("def f(x: float, k: int) -> int:\n"
                      "    if k > 0:\n"
                      "        return x & 3\n"
                      "    if k < 0:\n"
                      "        return x << 1\n"
                      "    return ~x\n")
    result = translate(str(source), ["f"])
    run = generate(result.program, "f", GenerateOptions.of())
    assert {(c.kind, c.exc_type, c.exc_message) for c in run.cases} == {("raise", "TypeError", None)}
    assert replay_mismatches(source, "f", run.cases) == []
