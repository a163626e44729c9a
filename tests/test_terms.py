"""Unit tests of `solver/terms.py`: folding, Python semantics, printing, and
the Z3 translation of floored `//` and `%`."""

from __future__ import annotations

import importlib
import itertools
import pkgutil
import random
import subprocess
import sys
from collections.abc import Callable

import pytest
import z3

import pathcraft.solver
from pathcraft.solver import terms as T
from pathcraft.solver.ops import FLOAT_OPS, OPS
from pathcraft.solver.terms import ARR_BOOL, ARR_INT, BOOL, INT, STR, App, ArrayValue, Sym, Term
from pathcraft.solver.z3backend import Z3Translator

X, Y, Z = Sym("x", INT), Sym("y", INT), Sym("z", INT)
P, Q = Sym("p", BOOL), Sym("q", BOOL)
S, U = Sym("s", STR), Sym("u", STR)
A, B = Sym("a", ARR_INT), Sym("b", ARR_BOOL)


def lt(a: Term, b: Term) -> Term:
    return T.relation("lt", a, b)


def le(a: Term, b: Term) -> Term:
    return T.relation("le", a, b)


def ge(a: Term, b: Term) -> Term:
    return T.relation("ge", a, b)


# ------------------------------------------------------------- folding


def test_arithmetic_on_constants_folds_to_python_ints() -> None:
    """Constant operands give a plain int (never an App, never a bool)."""
    cases: list[tuple[Term, int]] = [
        (T.add(2, 3), 5), (T.sub(2, 7), -5), (T.mul(-3, 4), -12), (T.neg(4), -4),
        (T.floordiv(-7, 2), -4), (T.floordiv(7, -2), -4), (T.mod(-7, 2), 1), (T.mod(7, -2), -1),
        (T.add(True, True), 2), (T.mul(True, 5), 5), (T.neg(True), -1),
    ]
    for got, expected in cases:
        assert type(got) is int and got == expected


def test_neutral_and_absorbing_elements() -> None:
    assert T.add(X, 0) is X and T.add(0, X) is X
    assert T.sub(X, 0) is X
    assert T.sub(X, X) == 0 and type(T.sub(X, X)) is int
    assert T.mul(X, 1) is X and T.mul(1, X) is X
    assert T.mul(X, 0) == 0 and T.mul(0, X) == 0
    assert T.neg(T.neg(X)) is X
    assert T.floordiv(X, 1) is X
    # x % 1 == 0 and x % -1 == 0 for every int x
    assert T.mod(X, 1) == 0 and T.mod(X, -1) == 0


def test_false_is_not_the_neutral_element_of_a_symbol_sum() -> None:
    """`p + 0` keeps p's value as an int: the result is `ite(p, 1, 0)`, not `p`."""
    assert T.add(P, 0) == T.ite(P, 1, 0)
    assert T.sort_of(T.add(P, 0)) == INT


def test_no_folding_of_symbolic_or_zero_divisor() -> None:
    """`7 // 0` is the caller's job (a ZeroDivisionError branch); the term is kept."""
    assert isinstance(T.floordiv(7, 0), App)
    assert isinstance(T.mod(7, 0), App)
    assert isinstance(T.floordiv(X, -1), App)
    assert isinstance(T.mod(X, 2), App)


def test_relations_fold() -> None:
    assert T.eq(3, 3) is True and T.ne(3, 3) is False
    assert lt(2, 3) is True and ge(2, 3) is False
    assert T.eq(X, X) is True and lt(X, X) is False and le(X, X) is True and ge(X, X) is True
    assert T.ne(X, X) is False
    assert T.eq(True, 1) is True  # Python: True == 1
    assert T.eq(P, P) is True and T.ne(P, P) is False
    assert T.eq(True, False) is False
    assert isinstance(T.eq(X, 3), App)


def test_negation_flips_relations_and_cancels() -> None:
    assert T.not_(lt(X, Y)) == ge(X, Y)
    assert T.not_(T.eq(X, 1)) == T.ne(X, 1)
    assert T.not_(T.not_(P)) is P
    assert T.not_(True) is False and T.not_(0) is True and T.not_(5) is False
    # not x (an int) is x == 0
    assert T.not_(X) == T.eq(X, 0)


def test_connectives_fold() -> None:
    assert T.and_(True, P) is P and T.and_(P, True) is P
    assert T.and_(False, P) is False and T.and_(P, 0) is False
    assert T.or_(True, P) is True and T.or_(P, 7) is True
    assert T.or_(False, P) is P and T.or_(P, False) is P
    assert T.and_(X, P) == App("and", (T.ne(X, 0), P), BOOL)


def test_ite_folds() -> None:
    assert T.ite(True, X, Y) is X
    assert T.ite(0, X, Y) is Y
    assert T.ite(P, X, X) is X
    mixed = T.ite(P, True, 5)  # bool and int branches: both as ints
    assert mixed == App("ite", (P, 1, 5), INT)


def test_constants_compare_by_type_inside_terms() -> None:
    """`True == 1` in Python, yet terms keep constants apart by type (a bool
    equation is not an int one); arithmetic coerces first, so x + True is x + 1."""
    assert T.add(X, True) == T.add(X, 1)
    assert App("eq", (P, True), BOOL) != App("eq", (P, 1), BOOL)
    assert T.symbols(T.add(T.mul(X, Y), P)) == frozenset({X, Y, P})


def test_symbols_are_memoised_on_the_node() -> None:
    """No process-wide memo: the set is kept on the node, and an equal node
    built separately computes the same set on its own."""
    term = T.add(T.mul(X, Y), P)
    assert T.symbols(term) is T.symbols(term)
    again = T.add(T.mul(X, Y), P)
    assert again == term and again is not term
    assert T.symbols(again) == T.symbols(term)
    assert not hasattr(T, "_SYMBOLS")


# ------------------------------------------------------------- coercion


def test_as_int() -> None:
    assert T.as_int(True) == 1 and type(T.as_int(True)) is int
    assert T.as_int(False) == 0 and type(T.as_int(False)) is int
    assert T.as_int(7) == 7
    assert T.as_int(X) is X
    assert T.as_int(P) == App("ite", (P, 1, 0), INT)
    assert T.as_int(lt(X, Y)) == App("ite", (lt(X, Y), 1, 0), INT)


def test_truthy() -> None:
    assert T.truthy(5) is True and T.truthy(-1) is True and T.truthy(0) is False
    assert T.truthy(False) is False
    assert T.truthy(P) is P
    assert T.truthy(X) == T.ne(X, 0)
    assert T.truthy(lt(X, Y)) == lt(X, Y)
    for value in (-2, 0, 3):
        assert T.evaluate(T.truthy(X), {"x": value}) is bool(value)


# ------------------------------------------------------------ evaluation


def test_evaluate_follows_python() -> None:
    for a, b in itertools.product(range(-7, 8), repeat=2):
        model = {"x": a, "y": b}
        assert T.evaluate(T.add(X, Y), model) == a + b
        assert T.evaluate(T.sub(X, Y), model) == a - b
        assert T.evaluate(T.mul(X, Y), model) == a * b
        assert T.evaluate(T.neg(X), model) == -a
        assert T.evaluate(lt(X, Y), model) is (a < b)
        if b:
            assert T.evaluate(T.floordiv(X, Y), model) == a // b
            assert T.evaluate(T.mod(X, Y), model) == a % b


def test_evaluate_bools_as_ints_and_free_symbols() -> None:
    assert T.evaluate(T.add(P, P), {"p": True}) == 2  # True + True
    assert T.evaluate(T.mul(P, X), {"p": True, "x": -4}) == -4
    assert T.evaluate(T.add(P, X), {}) == 0  # free symbols are 0 / False
    assert T.evaluate(P, {}) is False
    assert T.evaluate(T.and_(P, T.not_(Q)), {"p": True, "q": False}) is True
    assert T.evaluate(T.or_(P, Q), {"p": False, "q": False}) is False
    assert T.evaluate(T.ite(lt(X, 0), T.neg(X), X), {"x": -5}) == 5


# ---------------------------------------------------- random term trees

Env = dict[str, "int | bool"]
Py = Callable[[Env], "int | bool"]


def _int_term(rng: random.Random, depth: int) -> tuple[Term, Py]:
    """A random int term built with the constructors, and the same
    expression computed directly with Python operators."""
    if depth == 0 or rng.random() < 0.25:
        choice = rng.randrange(4)
        if choice == 0:
            c = rng.randint(-4, 4)
            return c, lambda env, c=c: c
        if choice == 1:
            return X, lambda env: env["x"]
        if choice == 2:
            return Y, lambda env: env["y"]
        return T.as_int(P), lambda env: int(env["p"])
    op = rng.choice(["add", "sub", "mul", "neg", "floordiv", "mod", "ite", "boolint"])
    a, fa = _int_term(rng, depth - 1)
    if op == "neg":
        return T.neg(a), lambda env: -fa(env)
    if op == "ite":
        c, fc = _bool_term(rng, depth - 1)
        b, fb = _int_term(rng, depth - 1)
        return T.ite(c, a, b), lambda env: fa(env) if fc(env) else fb(env)
    if op == "boolint":
        c, fc = _bool_term(rng, depth - 1)
        return T.add(a, c), lambda env: fa(env) + fc(env)
    if op in ("floordiv", "mod"):
        # a divisor that is never zero: a non-zero constant or y*y + 1
        if rng.random() < 0.5:
            d: Term = rng.choice([-3, -2, -1, 1, 2, 3])
            fd: Py = lambda env, d=d: d  # noqa: E731
        else:
            d = T.add(T.mul(Y, Y), 1)
            fd = lambda env: env["y"] * env["y"] + 1  # noqa: E731
        if op == "floordiv":
            return T.floordiv(a, d), lambda env: fa(env) // fd(env)
        return T.mod(a, d), lambda env: fa(env) % fd(env)
    b, fb = _int_term(rng, depth - 1)
    if op == "add":
        return T.add(a, b), lambda env: fa(env) + fb(env)
    if op == "sub":
        return T.sub(a, b), lambda env: fa(env) - fb(env)
    return T.mul(a, b), lambda env: fa(env) * fb(env)


_REL_PY: dict[str, Callable[[int, int], bool]] = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
}


def _bool_term(rng: random.Random, depth: int) -> tuple[Term, Py]:
    if depth == 0 or rng.random() < 0.2:
        if rng.random() < 0.5:
            return P, lambda env: env["p"]
        return Q, lambda env: env["q"]
    op = rng.choice(["rel", "rel", "not", "and", "or", "booleq", "truthy"])
    if op == "rel":
        rel = rng.choice(list(_REL_PY))
        a, fa = _int_term(rng, depth - 1)
        b, fb = _int_term(rng, depth - 1)
        return T.relation(rel, a, b), lambda env: _REL_PY[rel](fa(env), fb(env))
    if op == "truthy":
        a, fa = _int_term(rng, depth - 1)
        return T.truthy(a), lambda env: bool(fa(env))
    c, fc = _bool_term(rng, depth - 1)
    if op == "not":
        return T.not_(c), lambda env: not fc(env)
    d, fd = _bool_term(rng, depth - 1)
    if op == "and":
        return T.and_(c, d), lambda env: bool(fc(env) and fd(env))
    if op == "or":
        return T.or_(c, d), lambda env: bool(fc(env) or fd(env))
    return T.eq(c, d), lambda env: fc(env) == fd(env)


def _models(rng: random.Random, n: int) -> list[Env]:
    return [
        {"x": rng.randint(-6, 6), "y": rng.randint(-6, 6), "p": rng.random() < 0.5, "q": rng.random() < 0.5}
        for _ in range(n)
    ]


def _random_terms(seed: int, count: int) -> list[tuple[Term, Py]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        out.append(_int_term(rng, 4) if i % 2 else _bool_term(rng, 4))
    return out


def test_folding_preserves_python_semantics() -> None:
    """Whatever the constructors fold, `evaluate` of the result equals the
    expression computed with Python's own operators."""
    rng = random.Random(7)
    for term, py in _random_terms(1, 400):
        for env in _models(rng, 6):
            assert T.evaluate(term, env) == py(env), (T.show(term), env)


def test_show_round_trips_through_python_eval() -> None:
    """`show` must parenthesise so that Python reads the text back as the
    same term: eval(show(t)) == evaluate(t) on sample models."""
    rng = random.Random(11)
    for term, _ in _random_terms(2, 400):
        text = T.show(term)
        for env in _models(rng, 5):
            assert eval(text, {}, dict(env)) == T.evaluate(term, env), (text, env)


@pytest.mark.parametrize(
    ("term", "text"),
    [
        (T.mul(T.add(X, Y), Z), "(x + y) * z"),
        (T.sub(X, T.sub(Y, Z)), "x - (y - z)"),
        (T.sub(T.sub(X, Y), Z), "x - y - z"),
        (T.neg(T.add(X, 1)), "-(x + 1)"),
        (T.floordiv(X, T.mul(Y, 2)), "x // (y * 2)"),
        (T.eq(lt(X, Y), P), "(x < y) == p"),
        (T.not_(T.and_(P, Q)), "not (p and q)"),
        (T.and_(T.or_(P, Q), lt(X, 1)), "(p or q) and x < 1"),
        (T.add(T.ite(P, X, Y), 1), "(x if p else y) + 1"),
    ],
)
def test_show_parentheses(term: Term, text: str) -> None:
    """Exactly the parentheses Python needs (checked by hand)."""
    assert T.show(term) == text


# -------------------------------------------------------- Z3 translation


def test_z3_floored_division_and_modulo_match_python() -> None:
    """THE pitfall: SMT-LIB `div`/`mod` are Euclidean; Python floors.
    For every a, b in [-7, 7], b != 0, fix the symbols by equality
    constraints and read back the values Z3 gives the translated terms."""
    ctx = z3.Context()
    translate = Z3Translator(ctx)
    a, b = Sym("a", INT), Sym("b", INT)
    rem, quo = z3.Int("rem", ctx), z3.Int("quo", ctx)
    solver = z3.Solver(ctx=ctx)
    solver.add(rem == translate(App("mod", (a, b), INT)))
    solver.add(quo == translate(App("floordiv", (a, b), INT)))
    wrong = []
    for va, vb in itertools.product(range(-7, 8), repeat=2):
        if vb == 0:
            continue
        solver.push()
        solver.add(translate(T.eq(a, va)), translate(T.eq(b, vb)))
        assert solver.check() == z3.sat
        model = solver.model()
        got = (model.eval(rem).as_long(), model.eval(quo).as_long())
        if got != (va % vb, va // vb):
            wrong.append((va, vb, got))
        solver.pop()
    assert wrong == []


def test_z3_translation_agrees_with_evaluate_on_random_terms() -> None:
    """For random terms and inputs, Z3's value of the translation is
    `evaluate`'s value (bools as bools, ints as ints)."""
    ctx = z3.Context()
    translate = Z3Translator(ctx)
    solver = z3.Solver(ctx=ctx)
    rng = random.Random(3)
    for term, _ in _random_terms(4, 80):
        if T.is_const(term):
            continue
        env = _models(rng, 1)[0]
        solver.push()
        for sym in (X, Y, P, Q):
            solver.add(translate(T.eq(sym, env[sym.name])))
        out = (z3.Bool if T.sort_of(term) == BOOL else z3.Int)("out", ctx)
        solver.add(out == translate(term))
        assert solver.check() == z3.sat
        value = solver.model().eval(out, model_completion=True)
        got = z3.is_true(value) if T.sort_of(term) == BOOL else value.as_long()
        assert got == T.evaluate(term, env), (T.show(term), env)
        solver.pop()


def test_arrays_evaluate_translate_and_show() -> None:
    """Reads through stores, the element sort of a bool array, and Z3's
    value of the translation equal to `evaluate`'s."""
    ctx = z3.Context()
    translate = Z3Translator(ctx)
    solver = z3.Solver(ctx=ctx)
    base = T.store(T.store(T.karray(7), X, 5), Y, T.add(X, 1))
    term = T.select(base, Z)
    flags = T.select(T.store(T.karray(False), X, P), Y)
    assert T.sort_of(flags) == BOOL and T.sort_of(term) == INT
    assert T.select(base, Y) == T.add(X, 1)  # the last store, same index
    assert T.show(term) == "store(store([7, ...], x, 5), y, x + 1)[z]"
    for x, y, z_, p in itertools.product(range(-1, 2), range(-1, 2), range(-1, 2), (False, True)):
        env: dict[str, int | bool] = {"x": x, "y": y, "z": z_, "p": p}
        expected = x + 1 if z_ == y else 5 if z_ == x else 7
        assert T.evaluate(term, env) == expected
        assert T.evaluate(flags, env) is (p if y == x else False)
        solver.push()
        for sym in (X, Y, Z, P):
            solver.add(translate(T.eq(sym, env[sym.name])))
        out, flag = z3.Int("out", ctx), z3.Bool("flag", ctx)
        solver.add(out == translate(term), flag == translate(flags))
        assert solver.check() == z3.sat
        model = solver.model()
        assert model.eval(out).as_long() == expected
        assert z3.is_true(model.eval(flag, model_completion=True)) is (p if y == x else False)
        solver.pop()
    assert T.value_of(base, {"x": 0, "y": 1}) == ArrayValue(7, ((0, 5), (1, 1)))
    assert T.value_of(A, {}) == ArrayValue(0) and T.value_of(B, {}) == ArrayValue(False)
    with pytest.raises(TypeError):
        T.evaluate(base, {})


# ------------------------------------------------------- operator table

_SAMPLE_ARGS: dict[str, tuple[Term, ...]] = {
    "add": (X, Y), "sub": (X, Y), "mul": (X, Y), "floordiv": (X, Y), "mod": (X, Y), "neg": (X,),
    "eq": (X, Y), "ne": (X, Y), "lt": (X, Y), "le": (X, Y), "gt": (X, Y), "ge": (X, Y),
    "not": (P,), "and": (P, Q), "or": (P, Q), "ite": (P, X, Y),
    "select": (A, X), "store": (A, X, Y), "karray": (P,),
    "bitand": (X, Y), "bitor": (X, Y), "bitxor": (X, Y), "shl": (X, Y), "shr": (X, Y),
    "bit_length": (X,), "bit_count": (X,), "bin_digits": (X,), "oct_digits": (X,),
    # floats (tests/test_values_floats.py checks their meaning)
    **{op: (Sym("fx", "float"), Sym("fy", "float"))[:OPS[op].arity] for op in FLOAT_OPS},
    "idiv": (X, Y), "i2f": (X,),
    # strings (tests/test_values_strings.py tests their meaning)
    "concat": (S, U), "strlen": (S,), "substr": (S, X, Y), "contains": (S, U), "prefixof": (S, U), "inre": (S, U),
    "suffixof": (S, U), "indexof": (S, U), "str_of_nat": (X,), "nat_of_str": (S,), "ord": (S,), "chr": (X,),
    "lower": (S,), "upper": (S,),
    **{name: (S,) for name in ("isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "printable",
                               "word", "phrase", "intlike")},
}


def test_every_operator_builds_its_own_node_of_the_tables_sort() -> None:
    """On arguments nothing folds, `apply` (the table's constructor) gives a
    node of that operator, with the table's arity and result sort."""
    assert set(_SAMPLE_ARGS) == set(OPS)
    for name, args in _SAMPLE_ARGS.items():
        spec = OPS[name]
        built = T.apply(name, *args)
        assert spec.name == name and spec.arity == len(args)
        assert isinstance(built, App) and built.op == name and built.args == args, name
        assert built.sort == spec.sort(args), name
    assert T.sort_of(T.apply("karray", P)) == ARR_BOOL


def test_apply_folds_like_the_constructors() -> None:
    assert T.apply("add", X, 0) is X
    assert T.apply("mul", 3, 4) == 12
    assert T.apply("lt", 1, 2) is True
    assert T.apply("not", T.lt(X, Y)) == T.ge(X, Y)
    assert T.apply("ite", True, X, Y) is X
    assert T.apply("select", T.karray(3), X) == 3
    with pytest.raises(ValueError):
        T.apply("pow", X, 2)
    with pytest.raises(TypeError):
        T.apply("add", X)


def test_negated_relations_are_each_others_negation() -> None:
    for name, spec in OPS.items():
        if spec.negated is not None:
            assert OPS[spec.negated].negated == name
            for a, b in itertools.product(range(-2, 3), repeat=2):
                assert spec.py(a, b) is not OPS[spec.negated].py(a, b)


def test_solver_modules_hold_no_mutable_module_state() -> None:
    """Searches in one process must not share anything through `solver/`:
    no module-level dict, list or set (tables are read-only mappings)."""
    for info in pkgutil.iter_modules(pathcraft.solver.__path__):
        module = importlib.import_module(f"pathcraft.solver.{info.name}")
        for name, value in vars(module).items():
            if not name.startswith("__"):
                assert not isinstance(value, (dict, list, set, bytearray)), f"{info.name}.{name}"


@pytest.mark.parametrize("first", ["pathcraft.solver.terms", "pathcraft.solver.ops"])
def test_terms_and_ops_import_in_either_order_without_z3(first: str) -> None:
    """`terms` and `ops` import each other (the table holds the
    constructors); either may come first, and neither loads Z3."""
    code = (f"import sys, {first}; from pathcraft.solver import terms as T; "
            "assert T.show(T.apply('add', T.Sym('x', 'int'), 1)) == 'x + 1'; "
            "assert 'z3' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


# ------------------------------------------------ substitution and renaming


def test_substitution_rebuilds_through_the_folding_constructors() -> None:
    assert T.substitute(T.add(X, Y), {Y: 0}) is X
    assert T.substitute(T.mul(X, T.add(Y, 1)), {Y: -1}) == 0
    assert T.substitute(T.lt(X, Y), {X: 1, Y: 2}) is True
    assert T.substitute(T.not_(T.and_(P, T.lt(X, 3))), {P: True}) == T.ge(X, 3)
    assert T.substitute(T.floordiv(X, Y), {Y: 1}) is X
    assert T.substitute(T.add(X, 1), {X: T.sub(Y, 1)}) == T.add(T.sub(Y, 1), 1)  # no algebra beyond folding


def test_substitution_is_simultaneous() -> None:
    assert T.substitute(T.sub(X, Y), {X: Y, Y: X}) == T.sub(Y, X)
    assert T.substitute(T.add(X, 1), {X: T.add(X, 1)}) == T.add(T.add(X, 1), 1)


def test_substitution_in_ite() -> None:
    term = T.ite(T.lt(X, 0), T.neg(X), X)
    assert T.substitute(term, {X: -3}) == 3
    assert T.substitute(term, {X: 4}) == 4
    assert T.substitute(term, {X: Y}) == T.ite(T.lt(Y, 0), T.neg(Y), Y)
    assert T.substitute(T.ite(P, X, Y), {X: Y}) is Y  # both branches equal now


def test_substitution_in_arrays() -> None:
    stored = T.store(T.store(A, X, 5), Y, 7)
    assert T.substitute(T.select(stored, Z), {Z: Y}) == 7
    assert T.substitute(T.select(stored, Z), {X: 1, Y: 2, Z: 1}) == 5
    assert T.substitute(T.select(stored, Z), {X: 1, Y: 2, Z: 3}) == T.select(A, 3)  # past both stores
    filled = T.substitute(T.select(T.store(A, X, Y), Z), {A: T.karray(0)})
    assert filled == T.select(T.store(T.karray(0), X, Y), Z)
    assert T.substitute(T.select(T.karray(X), Z), {X: 4}) == 4
    flags = T.store(B, X, P)
    assert T.substitute(flags, {P: T.lt(Y, 0)}) == T.store(B, X, T.lt(Y, 0))


def test_substitution_keeps_untouched_subterms_and_checks_sorts() -> None:
    left = T.lt(X, 1)
    term = T.and_(left, P)
    assert T.substitute(term, {P: Q}).args[0] is left  # type: ignore[union-attr]
    assert T.substitute(term, {}) is term
    with pytest.raises(ValueError):
        T.substitute(term, {X: True})
    with pytest.raises(ValueError):
        T.substitute(term, {P: 1})


def test_substitution_rebuilds_shared_subterms_once() -> None:
    """Terms are DAGs: 2**60 paths through this one, 61 distinct nodes."""
    term: Term = X
    for _ in range(60):
        term = T.add(term, term)
    assert T.substitute(term, {X: 1}) == 2**60


def test_substitution_agrees_with_evaluation_on_random_terms() -> None:
    """evaluate(t[x := s], env) == evaluate(t, env with x = evaluate(s, env))."""
    rng = random.Random(5)
    replacements: list[dict[Sym, Term]] = [
        {X: T.add(Y, 1)}, {X: 0, P: True}, {Y: T.mul(X, X), Q: T.lt(X, Y)}, {X: Y, Y: X}, {P: Q, Q: P},
        {X: -3, Y: 2, P: False, Q: True},
    ]
    for term, _ in _random_terms(6, 150):
        for mapping in replacements:
            substituted = T.substitute(term, mapping)
            for env in _models(rng, 3):
                shifted = {**env, **{s.name: T.evaluate(r, env) for s, r in mapping.items()}}
                assert T.evaluate(substituted, env) == T.evaluate(term, shifted), (T.show(term), mapping)


def test_rename_apart_renames_every_symbol() -> None:
    term = T.select(T.store(A, X, T.ite(P, Y, 1)), Z)
    renamed = T.rename_apart(term, "@1")
    assert {(s.name, s.sort) for s in T.symbols(renamed)} == {
        ("a@1", ARR_INT), ("x@1", INT), ("p@1", BOOL), ("y@1", INT), ("z@1", INT)}
    assert T.show(renamed) == "store(a@1, x@1, y@1 if p@1 else 1)[z@1]"
    assert T.rename_apart(T.add(X, P), str.upper) == T.add(Sym("X", INT), Sym("P", BOOL))
    assert T.rename_apart(7, "'") == 7


def test_renaming_is_consistent_one_to_one_and_avoids_capture() -> None:
    mapping = T.renaming([Y, X, X], "#2")
    assert mapping == {X: Sym("x#2", INT), Y: Sym("y#2", INT)}
    assert T.substitute(T.lt(X, Y), mapping) == T.lt(Sym("x#2", INT), Sym("y#2", INT))
    with pytest.raises(ValueError):
        T.rename_apart(T.add(X, Y), lambda name: "v")
    with pytest.raises(ValueError):
        T.rename_apart(T.add(X, Y), "'", avoid=[Sym("y'", INT)])
    assert T.rename_apart(T.add(X, Y), "'", avoid=[X, Y]) == T.add(Sym("x'", INT), Sym("y'", INT))


def test_renaming_preserves_values() -> None:
    rng = random.Random(9)
    for term, _ in _random_terms(8, 100):
        renamed = T.rename_apart(term, "_c")
        for env in _models(rng, 3):
            assert T.evaluate(renamed, {k + "_c": v for k, v in env.items()}) == T.evaluate(term, env)


def test_show_writes_a_shared_term_in_bounded_text() -> None:
    """A term that shares its subterms (a loop run many times builds one)
    is small, its text as a tree is not: 2**60 operators here. `show`
    writes the first `SHOWN_NODES` and cuts the rest, as `...`."""
    from pathcraft.solver.terms import SHOWN_NODES, App, show

    term: T.Term = T.Sym("x", T.INT)
    for _ in range(60):
        term = App("add", (term, term), T.INT)
    text = show(term)
    assert "..." in text and text.count("+") <= SHOWN_NODES
    small = App("add", (T.Sym("x", T.INT), 1), T.INT)
    assert show(small) == "x + 1"


def test_equal_dags_built_apart_compare_in_linear_time() -> None:
    """A loop nests a term per turn, each turn's term using the last one
    twice: built twice apart, the two DAGs are equal, and a recursive
    comparison walks all 2**60 paths through them (the solver cache's
    lookup hung on packaging's `markers._normalize`); pairs compared once,
    it takes 60 steps. A difference at the bottom is still seen."""
    def nested(leaf: T.Term, depth: int) -> T.Term:
        term = leaf
        for _ in range(depth):
            term = App("add", (term, term), INT)
        return term

    assert nested(X, 60) == nested(Sym("x", INT), 60)
    assert nested(X, 60) != nested(Y, 60)
    assert App("add", (nested(X, 59), nested(X, 59)), INT) != App("add", (nested(X, 59), nested(Y, 59)), INT)
    assert App("eq", (1, X), BOOL) != App("eq", (True, X), BOOL)  # True == 1, not as constants
