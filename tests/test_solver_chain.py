"""Unit tests of the solver chain (`solver/chain.py`): which layer answers,
hit counters, independence slicing, cached models, and `unknown`."""

from __future__ import annotations

from functools import reduce
from pathlib import Path

from pathcraft.engine.criteria import Criterion
from pathcraft.engine.engine import Engine
from pathcraft.engine.options import EngineOptions
from pathcraft.frontend import translate
from pathcraft.solver import terms as T
from pathcraft.solver.chain import (
    SAT,
    UNKNOWN,
    UNSAT,
    Answer,
    Query,
    SlicingCacheLayer,
    SolverChain,
    SolverOptions,
)
from pathcraft.solver.path import PathNode, constraints, extend
from pathcraft.solver.terms import INT, Sym, Term

X, Y, Z, W = (Sym(n, INT) for n in "xyzw")


def rel(op: str, a: Term, b: Term) -> Term:
    return T.relation(op, a, b)


def path_of(*cs: Term) -> PathNode | None:
    return reduce(extend, cs, None)  # type: ignore[arg-type]


def satisfies(model: dict[str, int | bool] | object, cs: list[Term]) -> bool:
    return all(T.evaluate(c, model) for c in cs)  # type: ignore[arg-type]


def hits(chain: SolverChain) -> dict[str, int]:
    return chain.answered_by()


# ------------------------------------------------------------- each layer


def test_constant_layer() -> None:
    chain = SolverChain()
    model = {"x": 1}
    assert chain.check(Query(None, model, True)) == Answer(SAT, model, "constant")
    assert chain.check(Query(None, model, False)).verdict == UNSAT
    assert hits(chain)["constant"] == 2
    assert hits(chain)["z3"] == 0 and chain.z3_calls == 0


def test_model_layer_answers_when_the_state_model_satisfies() -> None:
    chain = SolverChain()
    path = path_of(rel("gt", X, 0))
    answer = chain.check(Query(path, {"x": 3}, rel("lt", X, 10)))
    assert answer.verdict == SAT and answer.layer == "model" and answer.model == {"x": 3}
    assert hits(chain)["model"] == 1 and chain.z3_calls == 0


def test_interval_layer_refutes() -> None:
    """x > 5 on the path, model x = 6: `x < 3` is false in the model (the
    model layer passes) and the bounds [6, inf) refute it."""
    chain = SolverChain()
    answer = chain.check(Query(path_of(rel("gt", X, 5)), {"x": 6}, rel("lt", X, 3)))
    assert answer.verdict == UNSAT and answer.layer == "interval"
    assert hits(chain)["interval"] == 1 and chain.z3_calls == 0


def test_interval_layer_implies_when_model_layer_is_off() -> None:
    chain = SolverChain(SolverOptions(use_model=False))
    answer = chain.check(Query(path_of(rel("gt", X, 5)), {"x": 6}, rel("gt", X, 2)))
    assert answer.verdict == SAT and answer.layer == "interval"
    assert "model" not in hits(chain)


def test_z3_layer_answers_sat_with_a_model_of_path_and_condition() -> None:
    chain = SolverChain()
    path = path_of(rel("gt", X, 0), rel("gt", Y, X))
    condition = T.eq(T.add(X, Y), 7)
    answer = chain.check(Query(path, {"x": 1, "y": 2}, condition))
    assert answer.verdict == SAT and answer.layer == "z3"
    assert answer.model is not None and satisfies(answer.model, [*constraints(path), condition])
    assert hits(chain)["z3"] == 1 and chain.z3_calls == 1


def test_z3_layer_answers_unsat() -> None:
    """x > 0, y > x; x + y == 2 needs y >= 2 and x >= 1: impossible (3 > 2).
    Intervals cannot see it (x + y is [1, inf) vs 2)."""
    chain = SolverChain()
    path = path_of(rel("gt", X, 0), rel("gt", Y, X))
    answer = chain.check(Query(path, {"x": 1, "y": 2}, T.eq(T.add(X, Y), 2)))
    assert answer.verdict == UNSAT and answer.layer == "z3"


def test_disabled_layers_are_skipped() -> None:
    chain = SolverChain(SolverOptions(use_model=False, use_intervals=False, use_cache=False))
    answer = chain.check(Query(path_of(rel("gt", X, 5)), {"x": 6}, rel("gt", X, 2)))
    assert answer.layer == "z3"
    assert set(hits(chain)) >= {"constant", "z3"}
    assert not {"model", "interval", "cache"} & set(hits(chain))


def test_queries_are_counted() -> None:
    chain = SolverChain()
    for _ in range(3):
        chain.check(Query(None, {}, True))
    assert chain.queries == 3


# ---------------------------------------------------------------- slicing


def test_slice_picks_only_constraints_sharing_symbols_transitively() -> None:
    """condition mentions z; `x + z > 1` shares z, `x > 0` shares x with
    it; `y > 0` and `w < 3` are independent."""
    c_x, c_y, c_xz, c_w = rel("gt", X, 0), rel("gt", Y, 0), rel("gt", T.add(X, Z), 1), rel("lt", W, 3)
    path = path_of(c_x, c_y, c_xz, c_w)
    assert SlicingCacheLayer._slice(path, T.eq(Z, 2)) == frozenset({c_x, c_xz})
    assert SlicingCacheLayer._slice(path, T.eq(W, 2)) == frozenset({c_w})
    assert SlicingCacheLayer._slice(path, T.eq(Sym("v", INT), 2)) == frozenset()


def test_cache_hit_on_a_repeated_sliced_query_and_merged_model() -> None:
    """Two paths share `x > 3` and differ on y. The query `x == 10`
    (false in both models; [4, inf) cannot decide it) slices to {x > 3}:
    the first goes to Z3, the second is a cache hit whose merged model
    must satisfy the second path (y < 0) and the condition."""
    shared = rel("gt", X, 3)
    first = path_of(shared, rel("gt", Y, 0))
    second = path_of(shared, rel("lt", Y, 0))
    condition = T.eq(X, 10)
    chain = SolverChain()
    a1 = chain.check(Query(first, {"x": 4, "y": 1}, condition))
    assert a1.verdict == SAT and a1.layer == "z3"
    a2 = chain.check(Query(second, {"x": 4, "y": -1}, condition))
    assert a2.verdict == SAT and a2.layer == "cache"
    assert hits(chain)["cache"] == 1 and chain.z3_calls == 1
    assert a2.model is not None
    assert satisfies(a2.model, [*constraints(second), condition])
    assert a2.model["y"] == -1  # the state's own value for the independent symbol


def test_cache_remembers_unsat() -> None:
    shared = rel("gt", X, 3)
    condition = T.eq(T.mul(X, X), 2)  # no integer square root of 2
    chain = SolverChain()
    assert chain.check(Query(path_of(shared, rel("gt", Y, 0)), {"x": 4, "y": 1}, condition)).verdict == UNSAT
    again = chain.check(Query(path_of(shared, rel("lt", Y, 0)), {"x": 4, "y": -1}, condition))
    assert again.verdict == UNSAT and again.layer == "cache"


# ---------------------------------------------------------------- unknown

HARD = T.eq(T.add(T.mul(T.mul(X, X), X), T.mul(T.mul(Y, Y), Y)), T.mul(T.mul(Z, Z), Z))


def test_unknown_is_returned_not_raised() -> None:
    """rlimit=1 exhausts Z3's resource budget before any answer: `unknown`
    (checked by hand to be reliable even for trivial queries)."""
    chain = SolverChain(SolverOptions(timeout_ms=1, rlimit=1))
    path = path_of(rel("gt", X, 0), rel("gt", Y, 0), rel("gt", Z, 0))
    answer = chain.check(Query(path, {"x": 1, "y": 1, "z": 1}, HARD))
    assert answer.verdict == UNKNOWN and answer.model is None
    assert chain.z3.unknown == 1


def test_unknown_is_not_cached() -> None:
    """An unknown goes through every tier of the Z3 layer (a tenth of the
    rlimit, full rlimit, and one retry per box of SolverOptions.box_bounds;
    rlimit=1 defeats them all); the second check must not be a cache hit."""
    chain = SolverChain(SolverOptions(timeout_ms=1, rlimit=1))
    path = path_of(rel("gt", X, 0))
    query = Query(path, {"x": 1}, T.eq(X, 17))
    assert chain.check(query).verdict == UNKNOWN
    assert chain.check(query).verdict == UNKNOWN
    per_check = 2 + len(SolverOptions().box_bounds)
    assert hits(chain).get("cache", 0) == 0 and chain.z3_calls == 2 * per_check


def test_boxed_retry_turns_unknown_into_sat() -> None:
    """A non-linear query Z3 gives up on in general can have a small model;
    the retry inside a box finds it and the answer is sat, with a model that
    really satisfies the condition."""
    from pathcraft.solver.chain import Z3Layer

    class FirstTryUnknown(Z3Layer):
        def __init__(self) -> None:
            super().__init__(SolverOptions())
            real = self.session.check
            calls = {"n": 0}

            def check(path, extra, wanted, rlimit=None):  # type: ignore[no-untyped-def]
                calls["n"] += 1
                if calls["n"] == 1:
                    return "unknown", None
                return real(path, extra, wanted, rlimit)

            self.session.check = check  # type: ignore[method-assign]

    layer = FirstTryUnknown()
    condition = T.eq(T.mul(X, Y), 12)
    answer = layer.check(Query(path_of(rel("gt", X, 1), rel("gt", Y, 1)), {}, condition))
    assert answer.verdict == "sat" and answer.model is not None
    assert T.evaluate(condition, answer.model) is True


def test_engine_records_unknown_paths_and_goes_on(tmp_path: Path) -> None:
    """`if x > 5` from the initial model (x = 0): the else guard holds in the
    model (model layer, no Z3); the then guard needs Z3, which says
    unknown under rlimit=1. So: one path (the else) and one unknown."""
    src = tmp_path / "unk.py"
    src.write_text("def f(x: int) -> int:\n    if x > 5:\n        return 1\n    return 2\n")
    program = translate(str(src), ["f"]).program
    engine = Engine(program, EngineOptions(
        criterion=Criterion("loop", 2), solver=SolverOptions(timeout_ms=1, rlimit=1),
    ))
    paths = list(engine.explore("f"))
    assert engine.stats.unknown == 1
    assert [p.outcome.kind for p in paths] == ["return"]
    assert T.evaluate(paths[0].outcome.value, paths[0].model) == 2  # type: ignore[arg-type]
    assert engine.stats.stopped is None


def test_implied_layer_finds_the_condition_or_its_negation_on_the_path() -> None:
    """The condition itself on the path: sat, flagged implied (the state need
    not record it again); its negation on the path: unsat. The model given
    violates the path on purpose, so the model layer cannot answer first."""
    guard = T.ne(T.mod(X, 3), 0)
    chain = SolverChain()
    path = path_of(guard)
    same = chain.check(Query(path, {"x": 0}, guard))
    assert same.verdict == SAT and same.layer == "implied" and same.implied
    opposite = chain.check(Query(path, {"x": 0}, T.not_(guard)))
    assert opposite.verdict == UNSAT and opposite.layer == "implied"
    assert hits(chain)["implied"] == 2 and chain.z3_calls == 0


def test_a_check_past_the_search_deadline_is_unknown_without_calling_z3() -> None:
    """The deadline (the function's time budget) caps every Z3 check: past
    it, the answer is unknown and Z3 is not called; before it, a check's
    timeout is what is left when that is less than Z3's own timeout."""
    import time

    from pathcraft.solver.z3backend import Z3Session

    late = SolverChain(SolverOptions(deadline=time.monotonic() - 1, use_model=False, use_intervals=False))
    answer = late.check(Query(path_of(rel("gt", X, 0)), {}, T.eq(T.add(X, Y), 7)))
    assert answer.verdict == UNKNOWN and late.z3_calls == 0
    soon = Z3Session(5000, 2_000_000, deadline=time.monotonic() + 0.5)
    timeout = soon._timeout()
    assert timeout is not None and 0 < timeout <= 500
    assert Z3Session(5000, 2_000_000)._timeout() == 5000


def test_the_engine_gives_its_solvers_the_search_deadline(tmp_path: Path) -> None:
    import time

    src = tmp_path / "d.py"
    src.write_text("def f(x: int) -> int:\n    if x > 5:\n        return 1\n    return 2\n")
    program = translate(str(src), ["f"]).program
    deadline = time.monotonic() + 60
    engine = Engine(program, EngineOptions(deadline=deadline))
    assert engine.solver.z3.session.deadline == deadline
    assert engine.sibling(engine.options).solver.z3.session.deadline == deadline


def test_the_case_layer_finds_a_string_whose_case_changes() -> None:
    """`word.upper() != word` with `word` printable: Z3 is not asked
    (lower/upper are answered unknown unasked); the case layer tries short
    strings with Python's semantics, and what it returns is a model."""
    word = Sym("word", T.STR)
    printable = T.apply("printable", word)
    changes = T.not_(rel("eq", T.apply("upper", word), word))
    chain = SolverChain()
    answer = chain.check(Query(path_of(printable), {"word": ""}, changes))
    assert answer.verdict == SAT and answer.layer == "strings"
    assert answer.model["word"].upper() != answer.model["word"]  # type: ignore[union-attr]
    assert satisfies(answer.model, [printable, changes]) and chain.z3_calls == 0
    # a constant of the condition, in another case: `name.lower() == "yes"`
    yes = rel("eq", T.apply("lower", word), "yes")
    found = chain.check(Query(path_of(printable), {"word": ""}, yes))
    assert found.verdict == SAT and found.model["word"].lower() == "yes"  # type: ignore[union-attr]
    # none to be found: unknown, never a guess
    never = rel("eq", T.apply("lower", word), "YES")
    assert chain.check(Query(path_of(printable), {"word": ""}, never)).verdict == UNKNOWN


def _after_dot(s: Term) -> Term:
    """`s[s.find(".") + 1:]` as the engine writes it (the slice's bounds clamped)."""
    start = T.apply("add", T.apply("indexof", s, "."), 1)
    return T.apply("substr", s, start, T.apply("sub", T.apply("strlen", s), start))


def test_the_strings_layer_finds_a_loop_s_next_turn_without_z3() -> None:
    """`find` in a string cut from the input (the second and third turns of
    a loop over `find`, as `str.replace` runs): the strings layer grows the
    current model by a constant and checks it in Python; Z3, which takes
    seconds on such terms past its timeout, is not asked."""
    s = Sym("s", T.STR)
    printable = T.apply("printable", s)
    first = rel("ge", T.apply("indexof", s, "."), 0)
    second = rel("ge", T.apply("indexof", _after_dot(s), "."), 0)
    third = rel("ge", T.apply("indexof", _after_dot(_after_dot(s)), "."), 0)
    chain = SolverChain()
    answer = chain.check(Query(path_of(printable, first, second), {"s": ".."}, third))
    assert answer.verdict == SAT and answer.layer == "strings" and chain.z3_calls == 0
    assert answer.model["s"].count(".") >= 3  # type: ignore[union-attr]
    assert satisfies(answer.model, [printable, first, second, third])
    # none to be found (an `a` before the third dot is no dot): unknown, never a guess, Z3 not asked
    never = rel("eq", T.apply("substr", _after_dot(_after_dot(s)), 0, 1), "a")
    both = T.apply("and", third, rel("eq", T.apply("indexof", _after_dot(_after_dot(s)), "."), 0))
    assert chain.check(Query(path_of(printable, first, second), {"s": ".."}, T.apply("and", both, never))
                       ).verdict == UNKNOWN and chain.z3_calls == 0


def test_a_compiled_term_computes_each_shared_node_once() -> None:
    """Terms share subterms; evaluated as a tree, `x + x` nested 200 deep
    is 2**200 additions (the prelude's `find` loops build such terms)."""
    x = Sym("x", INT)
    t: Term = x
    for _ in range(200):
        t = T.apply("add", t, t)
    assert T.compile_term(t)({"x": 1}) == 2 ** 200


def test_canonical_models_of_string_paths_are_found_without_z3() -> None:
    """Canonical models (test inputs) of two kinds of path Z3 spends seconds
    on: an int's digits read as a string (`str(n)[-2:] == '21'`-like, in
    the small boxes asked first), and a loop's turns over `find`, grown
    along the path. Each is a model, found with no Z3 session made."""
    from pathcraft.solver.canonical import CanonicalModels
    from pathcraft.solver.path import extend

    n = Sym("n", INT)
    digits = T.apply("str_of_nat", n)
    last = T.apply("substr", digits, T.apply("sub", T.apply("strlen", digits), 1), 1)
    second = T.apply("substr", digits, T.apply("sub", T.apply("strlen", digits), 2), 1)
    numeral = [rel("ge", n, 0), rel("ge", T.apply("strlen", digits), 2), rel("eq", last, "1"), rel("ne", second, "1")]
    s = Sym("s", T.STR)
    turns = [T.apply("printable", s), rel("ge", T.apply("indexof", s, "."), 0),
             rel("ge", T.apply("indexof", _after_dot(s), "."), 0),
             rel("ge", T.apply("indexof", _after_dot(_after_dot(s)), "."), 0)]
    for path in (numeral, turns):
        store = None
        for constraint in path:
            store = extend(store, constraint)
        canonical = CanonicalModels((3, 10), 1000, 100_000)
        model = canonical.model(store, sorted(set().union(*(T.symbols(c) for c in path)), key=lambda x: x.name))
        assert model is not None and satisfies(model, path) and canonical._session is None
