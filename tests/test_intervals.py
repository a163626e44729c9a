"""Unit tests of `solver/intervals.py`: learning bounds, interval arithmetic,
three-valued `decide`, and its soundness against brute force."""

from __future__ import annotations

import itertools
from functools import reduce

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pathcraft.solver import terms as T
from pathcraft.solver.intervals import EMPTY_BOUNDS, Bounds, decide, interval, learn
from pathcraft.solver.terms import BOOL, INT, Sym, Term

X, Y = Sym("x", INT), Sym("y", INT)
P = Sym("p", BOOL)


def rel(op: str, a: Term, b: Term) -> Term:
    return T.relation(op, a, b)


def learnt(*constraints: Term) -> Bounds:
    return reduce(learn, constraints, EMPTY_BOUNDS)


# ---------------------------------------------------------------- learn


@pytest.mark.parametrize(
    ("constraint", "expected"),
    [
        (rel("lt", X, 5), (None, 4)),
        (rel("le", X, 5), (None, 5)),
        (rel("gt", X, 5), (6, None)),
        (rel("ge", X, 5), (5, None)),
        (rel("eq", X, 5), (5, 5)),
        # constant on the left: 3 <= x is x >= 3, 3 > x is x <= 2
        (rel("le", 3, X), (3, None)),
        (rel("lt", 3, X), (4, None)),
        (rel("gt", 3, X), (None, 2)),
        (rel("ge", 3, X), (None, 3)),
        (rel("eq", -2, X), (-2, -2)),
    ],
)
def test_learn_one_constraint(constraint: Term, expected: tuple[int | None, int | None]) -> None:
    assert learnt(constraint)["x"] == expected


def test_learn_meets_bounds() -> None:
    bounds = learnt(rel("ge", X, 0), rel("lt", X, 10), rel("le", X, 20), rel("gt", X, -5))
    assert bounds["x"] == (0, 9)


def test_learn_ne_shaves_only_at_a_bound() -> None:
    base = learnt(rel("ge", X, 0), rel("le", X, 5))
    assert learn(base, rel("ne", X, 0))["x"] == (1, 5)
    assert learn(base, rel("ne", X, 5))["x"] == (0, 4)
    assert learn(base, rel("ne", 5, X))["x"] == (0, 4)
    # an inner point cannot be represented: bounds unchanged
    assert learn(base, rel("ne", X, 3))["x"] == (0, 5)
    # no bound at all: nothing to shave
    assert learnt(rel("ne", X, 3)).get("x", (None, None)) == (None, None)


def test_learn_bool_symbols() -> None:
    assert learnt(P)["p"] == (1, 1)
    assert learnt(T.not_(P))["p"] == (0, 0)


def test_learn_ignores_what_it_cannot_use_and_does_not_mutate() -> None:
    base = learnt(rel("ge", X, 0))
    for c in (rel("lt", X, Y), rel("lt", T.add(X, 1), 3), T.or_(rel("lt", X, 0), rel("gt", Y, 0))):
        assert learn(base, c) == base
    after = learn(base, rel("le", X, 3))
    assert base == {"x": (0, None)} and after == {"x": (0, 3)}


# ------------------------------------------------------------- interval


def test_interval_arithmetic() -> None:
    b = learnt(rel("ge", X, -2), rel("le", X, 3), rel("ge", Y, 1), rel("le", Y, 4))
    assert interval(X, b) == (-2, 3)
    assert interval(T.add(X, Y), b) == (-1, 7)
    assert interval(T.sub(X, Y), b) == (-6, 2)
    assert interval(T.neg(X), b) == (-3, 2)
    # products of the corners: -2*4 = -8 .. 3*4 = 12
    assert interval(T.mul(X, Y), b) == (-8, 12)
    assert interval(T.mul(X, X), b) == (-6, 9)  # sound, not exact (x*x >= 0)
    assert interval(T.mod(X, Y), b) == (0, 3)  # divisor in [1,4]: remainder in [0,3]
    assert interval(T.mod(X, T.neg(Y)), b) == (-3, 0)  # divisor in [-4,-1]
    assert interval(7, b) == (7, 7) and interval(True, b) == (1, 1)
    assert interval(P, b) == (0, 1)


def test_interval_unbounded_sides() -> None:
    b = learnt(rel("ge", X, 0))
    assert interval(T.add(X, 1), b) == (1, None)
    assert interval(T.neg(X), b) == (None, 0)
    # a constant factor scales the known side: x >= 0 gives 2x >= 0, -3x <= 0
    assert interval(T.mul(X, 2), b) == (0, None)
    assert interval(T.mul(-3, X), b) == (None, 0)
    # a product of two unbounded-above intervals stays unknown
    assert interval(T.mul(X, X), b) == (None, None)
    assert interval(T.floordiv(X, 2), b) == (None, None)


def test_interval_of_ite() -> None:
    b = learnt(rel("ge", X, 0), rel("le", X, 3))
    decided = T.ite(rel("ge", X, 0), T.add(X, 10), T.neg(X))
    assert interval(decided, b) == (10, 13)
    undecided = T.ite(rel("lt", X, 2), X, T.add(X, 5))
    assert interval(undecided, b) == (0, 8)


# --------------------------------------------------------------- decide


def test_decide_three_valued() -> None:
    b = learnt(rel("ge", X, 0), rel("le", X, 5))
    assert decide(rel("ge", X, 0), b) is True
    assert decide(rel("lt", X, 0), b) is False
    assert decide(rel("lt", X, 3), b) is None
    assert decide(rel("le", X, 5), b) is True
    assert decide(rel("gt", X, 5), b) is False
    assert decide(rel("eq", X, 9), b) is False
    assert decide(rel("ne", X, 9), b) is True
    assert decide(rel("eq", X, 2), b) is None
    assert decide(rel("eq", X, 4), learnt(rel("eq", X, 4))) is True
    assert decide(rel("ne", X, 4), learnt(rel("eq", X, 4))) is False


def test_decide_connectives() -> None:
    b = learnt(rel("ge", X, 0), rel("le", X, 5))
    yes, no, maybe = rel("ge", X, 0), rel("gt", X, 5), rel("lt", X, 3)
    assert decide(T.and_(yes, maybe), b) is None
    assert decide(T.and_(no, maybe), b) is False
    assert decide(T.or_(yes, maybe), b) is True
    assert decide(T.or_(no, maybe), b) is None
    assert decide(T.or_(no, no), b) is False
    assert decide(T.not_(P), learnt(P)) is False
    assert decide(P, learnt(T.not_(P))) is False
    assert decide(P, EMPTY_BOUNDS) is None
    assert decide(True, EMPTY_BOUNDS) is True


def test_decide_without_bounds_knows_nothing() -> None:
    for op in ("eq", "ne", "lt", "le", "gt", "ge"):
        assert decide(rel(op, X, 3), EMPTY_BOUNDS) is None


# ---------------------------------------------------- soundness property

BOX = range(-5, 6)
OPS = ("eq", "ne", "lt", "le", "gt", "ge")


@st.composite
def int_terms(draw: st.DrawFn, depth: int = 3) -> Term:
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.one_of(st.sampled_from([X, Y]), st.integers(-4, 4), st.just(T.as_int(P))))
    op = draw(st.sampled_from(["add", "sub", "mul", "neg", "mod", "floordiv", "ite"]))
    a = draw(int_terms(depth - 1))
    if op == "neg":
        return T.neg(a)
    if op == "ite":
        return T.ite(draw(bool_terms(depth - 1)), a, draw(int_terms(depth - 1)))
    if op in ("mod", "floordiv"):
        d = draw(st.one_of(st.sampled_from([-3, -2, 2, 3]), st.just(T.add(T.mul(Y, Y), 1))))
        return T.mod(a, d) if op == "mod" else T.floordiv(a, d)
    b = draw(int_terms(depth - 1))
    return {"add": T.add, "sub": T.sub, "mul": T.mul}[op](a, b)


@st.composite
def bool_terms(draw: st.DrawFn, depth: int = 3) -> Term:
    kind = draw(st.sampled_from(["rel", "rel", "rel", "not", "and", "or", "p"]))
    if kind == "p" or depth == 0:
        return P
    if kind == "rel":
        return rel(draw(st.sampled_from(OPS)), draw(int_terms(depth - 1)), draw(int_terms(depth - 1)))
    a = draw(bool_terms(depth - 1))
    if kind == "not":
        return T.not_(a)
    b = draw(bool_terms(depth - 1))
    return T.and_(a, b) if kind == "and" else T.or_(a, b)


@st.composite
def simple_constraints(draw: st.DrawFn) -> Term:
    """What `learn` understands (symbol vs constant, either side; p / not p),
    plus now and then something it must ignore."""
    kind = draw(st.integers(0, 5))
    if kind == 5:
        return draw(bool_terms(2))
    if kind == 4:
        return draw(st.sampled_from([P, T.not_(P)]))
    sym = draw(st.sampled_from([X, Y]))
    c = draw(st.integers(-6, 6))
    op = draw(st.sampled_from(OPS))
    return rel(op, sym, c) if draw(st.booleans()) else rel(op, c, sym)


def _models() -> list[dict[str, int | bool]]:
    return [{"x": a, "y": b, "p": p} for a, b, p in itertools.product(BOX, BOX, (False, True))]


MODELS = _models()
# the box itself is part of every path, so brute force over it is exhaustive
BOX_BOUNDS = learnt(rel("ge", X, -5), rel("le", X, 5), rel("ge", Y, -5), rel("le", Y, 5))


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(constraints=st.lists(simple_constraints(), max_size=3), condition=bool_terms())
def test_decide_is_sound(constraints: list[Term], condition: Term) -> None:
    """Whenever `decide` answers True/False, every model of the path
    constraints (within the box, which the bounds also contain) agrees."""
    bounds = reduce(learn, constraints, BOX_BOUNDS)
    verdict = decide(condition, bounds)
    if verdict is None:
        return
    for model in MODELS:
        if all(T.evaluate(c, model) for c in constraints):
            assert T.evaluate(condition, model) == verdict, (T.show(condition), model)


@settings(max_examples=200, deadline=None, database=None)
@given(constraints=st.lists(simple_constraints(), max_size=3), term=int_terms())
def test_interval_is_sound(constraints: list[Term], term: Term) -> None:
    """Every value a term takes on a model of the path lies in its interval."""
    bounds = reduce(learn, constraints, BOX_BOUNDS)
    lo, hi = interval(term, bounds)
    for model in MODELS:
        if all(T.evaluate(c, model) for c in constraints):
            value = T.evaluate(term, model)
            assert (lo is None or lo <= value) and (hi is None or value <= hi), (T.show(term), model)


def test_array_terms_have_no_interval() -> None:
    """A list made with `[0] * n` is a `karray`; bounds reasoning passes
    over array terms (pigeon_sort in the reach sweep crashed here)."""
    x, y = T.Sym("x", T.INT), T.Sym("y", T.INT)
    filled = T.store(T.karray(0), x, 1)
    assert interval(T.karray(0), {}) == (None, None)
    assert interval(filled, {}) == (None, None)
    assert decide(T.relation("gt", T.select(filled, y), 0), {}) is None
