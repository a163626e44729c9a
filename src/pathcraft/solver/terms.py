"""Symbolic terms over unbounded ints and bools, with constant folding.

Terms are Python constants (`int`, `bool`) or immutable `Sym`/`App` nodes.
Every constructor folds what it can (constants, neutral elements, double
negations), so that a condition whose value is already known never reaches
a solver. The operators follow Python, not SMT-LIB: `floordiv`/`mod` are
floored, and `evaluate` computes with Python's own operators.

What each operator means (result sort, Python semantics, Z3 translation,
notation) is stated once, in the table of `solver/ops.py`; constant
folding, `apply`, `evaluate`, `show` and `substitute` below all read it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType
from typing import Union

from pathcraft import budget as work
from pathcraft.solver import ops as _ops
from pathcraft.solver.bitops import MAX_SHIFT
from pathcraft.solver.fpsem import float_literal, same_float
from pathcraft.solver.sorts import ARR_BOOL, ARR_INT, BOOL, FLOAT, INT, STR, ArrayValue, Value, array_sort, element_sort

__all__ = ["ARR_BOOL", "ARR_INT", "BOOL", "FLOAT", "INT", "STR", "ArrayValue", "Value", "array_sort",
           "element_sort"]


@dataclass(frozen=True, eq=False, slots=True)
class Sym:
    """An input of the function under test (or a fresh unknown)."""

    name: str
    sort: str

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sym) and other.name == self.name and other.sort == self.sort

    def __hash__(self) -> int:
        return hash((self.name, self.sort))


@dataclass(frozen=True, eq=False, slots=True)
class App:
    """An operator applied to terms. The hash is computed once: terms are
    keys of the solver caches and are compared often. The symbol set is
    filled in on first use (`symbols`): kept on the node rather than in a
    process-wide memo, so it lives as long as the term and nothing a
    previous search built can influence this one."""

    op: str
    args: tuple[Term, ...]
    sort: str
    _hash: int = field(default=0, repr=False, compare=False)
    _symbols: frozenset[Sym] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.op, self.args, self.sort)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return isinstance(other, App) and _same_head(self, other) and _same_dags(self, other)


Term = Union[int, bool, float, str, Sym, App]  # a Python str is a constant of sort STR


def _same_head(a: App, b: App) -> bool:
    return a._hash == b._hash and a.op == b.op and a.sort == b.sort


def _same_dags(a: App, b: App) -> bool:
    """Are two terms with the same head equal all the way down? Each pair
    of subterms is compared once: terms built apart share their subterms
    in the same places, and a recursive comparison walked every path
    through those DAGs, exponential in their depth (the solver cache's
    lookup of packaging's `markers._normalize`, whose `replace` loops nest
    a string term per turn, ran past its 68 s item budget). `True == 1` in
    Python: constants are compared by type too (and floats by their bits:
    `0.0 == -0.0`, `nan != nan`)."""
    seen: set[tuple[int, int]] = set()
    todo = [(a, b)]
    while todo:
        x, y = todo.pop()
        if len(x.args) != len(y.args):
            return False
        for u, v in zip(x.args, y.args):
            if u is v:
                continue
            if type(u) is not type(v):
                return False
            if isinstance(u, App):
                assert isinstance(v, App)
                if not _same_head(u, v):
                    return False
                pair = (id(u), id(v))
                if pair not in seen:
                    seen.add(pair)
                    todo.append((u, v))
            elif not (same_float(u, v) if isinstance(u, float) else u == v):  # type: ignore[arg-type]
                return False
    return True


def is_const(t: Term) -> bool:
    return isinstance(t, (int, bool, float, str))


def sort_of(t: Term) -> str:
    if isinstance(t, bool):
        return BOOL
    if isinstance(t, int):
        return INT
    if isinstance(t, float):
        return FLOAT
    if isinstance(t, str):
        return STR
    return t.sort


def symbols(t: Term) -> frozenset[Sym]:
    """The symbols a term mentions (memoised on each node). A set: sort it
    (by name) wherever the order could reach a result."""
    if isinstance(t, Sym):
        return frozenset((t,))
    if not isinstance(t, App):
        return frozenset()
    found = t._symbols
    if found is None:
        found = frozenset().union(*[symbols(a) for a in t.args])  # a list: see value_of
        object.__setattr__(t, "_symbols", found)  # frozen: a cache, not a change of value
    return found


Model = Mapping[str, Value]


def _app(op: str, args: tuple[Term, ...]) -> App:
    """A node of `op`, with the result sort the table gives (no folding)."""
    return App(op, args, _ops.OPS[op].sort(args))


def _const(op: str, *args: int | bool | float | str) -> int | bool | float | str:
    """`op` folded over constants with the table's Python semantics."""
    value = _ops.OPS[op].py(*args)
    assert not isinstance(value, ArrayValue)  # only scalar operators fold constants
    return value


def _folding(op: str) -> Callable[..., Term]:
    """The constructor of an operator without rewrites of its own (the
    string operators): folded when every argument is a constant."""
    def build(*args: Term) -> Term:
        if all(is_const(a) for a in args):
            value = _const(op, *args)  # type: ignore[arg-type]  # constants
            sort = _ops.OPS[op].sort(args)
            return bool(value) if sort == BOOL else int(value) if sort == INT else value
        return _app(op, args)
    return build


# ------------------------------------------------------------------ coercion


def as_int(t: Term) -> Term:
    """Python's view of a bool as 0/1 in arithmetic."""
    if isinstance(t, bool):
        return int(t)
    if isinstance(t, (int, float, str)):
        return t
    if t.sort == BOOL:
        return ite(t, 1, 0)
    return t


def truthy(t: Term) -> Term:
    """`bool(t)`."""
    if isinstance(t, bool):
        return t
    if isinstance(t, (int, float)):
        return t != 0
    if isinstance(t, str):
        return t != ""
    if t.sort == BOOL:
        return t
    if t.sort == FLOAT:  # nan is true
        return _app("fne", (t, 0.0))
    if t.sort == STR:
        return ne(t, "")
    return ne(t, 0)


# ------------------------------------------------------------- arithmetic


def add(a: Term, b: Term) -> Term:
    a, b = as_int(a), as_int(b)
    if isinstance(a, int) and isinstance(b, int):
        return _const("add", a, b)
    if a == 0 and type(a) is int:
        return b
    if b == 0 and type(b) is int:
        return a
    return _app("add", (a, b))


def sub(a: Term, b: Term) -> Term:
    a, b = as_int(a), as_int(b)
    if isinstance(a, int) and isinstance(b, int):
        return _const("sub", a, b)
    if type(b) is int and b == 0:
        return a
    if a == b and not is_const(a):
        return 0
    return _app("sub", (a, b))


def mul(a: Term, b: Term) -> Term:
    a, b = as_int(a), as_int(b)
    if isinstance(a, int) and isinstance(b, int):
        return _const("mul", a, b)
    for x, y in ((a, b), (b, a)):
        if type(x) is int:
            if x == 0:
                return 0
            if x == 1:
                return y
    return _app("mul", (a, b))


def neg(a: Term) -> Term:
    a = as_int(a)
    if isinstance(a, int):
        return _const("neg", a)
    if isinstance(a, App) and a.op == "neg":
        return a.args[0]
    return _app("neg", (a,))


def floordiv(a: Term, b: Term) -> Term:
    """Floored division; the caller guarantees `b != 0`."""
    a, b = as_int(a), as_int(b)
    if isinstance(a, int) and isinstance(b, int) and b != 0:
        return _const("floordiv", a, b)
    if type(b) is int and b == 1:
        return a
    return _app("floordiv", (a, b))


def mod(a: Term, b: Term) -> Term:
    """Floored remainder (sign of the divisor); the caller guarantees `b != 0`."""
    a, b = as_int(a), as_int(b)
    if isinstance(a, int) and isinstance(b, int) and b != 0:
        return _const("mod", a, b)
    if type(b) is int and b in (1, -1):
        return 0
    return _app("mod", (a, b))


def ite(c: Term, a: Term, b: Term) -> Term:
    c = truthy(c)
    if isinstance(c, bool):
        return a if c else b
    if sort_of(a) != sort_of(b):
        a, b = as_int(a), as_int(b)
    if type(a) is type(b) and a == b:
        return a
    return _app("ite", (c, a, b))


# ---------------------------------------------------------------- bitwise


def bitand(a: Term, b: Term) -> Term:
    """`a & b`; on two bools it is `and` (Python keeps the bool)."""
    if sort_of(a) == BOOL and sort_of(b) == BOOL:
        return and_(a, b)
    a, b = as_int(a), as_int(b)
    if isinstance(a, int) and isinstance(b, int):
        return _const("bitand", a, b)
    for x, y in ((a, b), (b, a)):
        if type(x) is int and x in (0, -1):
            return 0 if x == 0 else y
    if a == b:
        return a
    return _app("bitand", (a, b))


def bitor(a: Term, b: Term) -> Term:
    """`a | b`; on two bools it is `or`."""
    if sort_of(a) == BOOL and sort_of(b) == BOOL:
        return or_(a, b)
    a, b = as_int(a), as_int(b)
    if isinstance(a, int) and isinstance(b, int):
        return _const("bitor", a, b)
    for x, y in ((a, b), (b, a)):
        if type(x) is int and x in (0, -1):
            return y if x == 0 else -1
    if a == b:
        return a
    return _app("bitor", (a, b))


def bitxor(a: Term, b: Term) -> Term:
    """`a ^ b`; on two bools it is `!=`."""
    if sort_of(a) == BOOL and sort_of(b) == BOOL:
        return ne(a, b)
    a, b = as_int(a), as_int(b)
    if isinstance(a, int) and isinstance(b, int):
        return _const("bitxor", a, b)
    for x, y in ((a, b), (b, a)):
        if type(x) is int and x == 0:
            return y
    if a == b:
        return 0
    return _app("bitxor", (a, b))


def shl(a: Term, b: Term) -> Term:
    """`a << b`; the caller guarantees `0 <= b <= MAX_SHIFT`."""
    a, b = as_int(a), as_int(b)
    if isinstance(b, int):
        return mul(a, 2 ** b) if 0 <= b <= MAX_SHIFT else 0
    if type(a) is int and a == 0:
        return 0
    return _app("shl", (a, b))


def shr(a: Term, b: Term) -> Term:
    """`a >> b`; the caller guarantees `0 <= b <= MAX_SHIFT`."""
    a, b = as_int(a), as_int(b)
    if isinstance(b, int):
        return floordiv(a, 2 ** b) if 0 <= b <= MAX_SHIFT else 0
    if type(a) is int and a in (0, -1):
        return a
    return _app("shr", (a, b))


def bit_length(a: Term) -> Term:
    a = as_int(a)
    if isinstance(a, int):
        return _const("bit_length", a)
    return _app("bit_length", (a,))


def bit_count(a: Term) -> Term:
    a = as_int(a)
    if isinstance(a, int):
        return _const("bit_count", a)
    return _app("bit_count", (a,))


def bin_digits(a: Term) -> Term:
    """|a|'s binary (`bin_digits`) or octal (`oct_digits`) digits read as a decimal number."""
    return _digit_word("bin_digits", a)


def oct_digits(a: Term) -> Term:
    return _digit_word("oct_digits", a)


def _digit_word(op: str, a: Term) -> Term:
    a = as_int(a)
    if isinstance(a, int):
        return _const(op, a)
    return _app(op, (a,))


# ------------------------------------------------------------------ arrays


def select(a: Term, i: Term) -> Term:
    """Element `i` of array `a` (reads through stores with known indices)."""
    i = as_int(i)
    while isinstance(a, App):
        if a.op == "karray":
            return a.args[0]
        if a.op == "store":
            j = a.args[1]
            if type(j) is type(i) and j == i:
                return a.args[2]
            if is_const(i) and is_const(j):
                a = a.args[0]
                continue
        break
    return _app("select", (a, i))


def store(a: Term, i: Term, v: Term) -> Term:
    v = truthy(v) if element_sort(sort_of(a)) == BOOL else as_int(v)
    return _app("store", (a, as_int(i), v))


def karray(v: Term) -> Term:
    """The array with `v` everywhere (`[v] * n`)."""
    return _app("karray", (v,))


# --------------------------------------------------------------- relations


def relation(op: str, a: Term, b: Term) -> Term:
    """`a op b` for a comparison `op` (eq, ne, lt, le, gt, ge)."""
    if sort_of(a) == STR or sort_of(b) == STR:  # strings: by code point (the caller checks both are)
        if isinstance(a, str) and isinstance(b, str):
            return _const(op, a, b)
        if a == b:
            return op in ("eq", "le", "ge")
        return _app(op, (a, b))
    if sort_of(a) == BOOL and sort_of(b) == BOOL and op in ("eq", "ne"):
        if isinstance(a, int) and isinstance(b, int):
            return _const(op, a, b)
        if a == b:
            return op == "eq"
        return _app(op, (a, b))
    a, b = as_int(a), as_int(b)
    if isinstance(a, int) and isinstance(b, int):
        return _const(op, a, b)
    if a == b:
        return op in ("eq", "le", "ge")
    return _app(op, (a, b))


def eq(a: Term, b: Term) -> Term:
    return relation("eq", a, b)


def ne(a: Term, b: Term) -> Term:
    return relation("ne", a, b)


def lt(a: Term, b: Term) -> Term:
    return relation("lt", a, b)


def le(a: Term, b: Term) -> Term:
    return relation("le", a, b)


def gt(a: Term, b: Term) -> Term:
    return relation("gt", a, b)


def ge(a: Term, b: Term) -> Term:
    return relation("ge", a, b)


def not_(a: Term) -> Term:
    a = truthy(a)
    if isinstance(a, bool):
        return not a
    if isinstance(a, App):
        if a.op == "not":
            return a.args[0]
        negated = _ops.OPS[a.op].negated
        if negated is not None:
            return _app(negated, a.args)
    return _app("not", (a,))


def and_(a: Term, b: Term) -> Term:
    a, b = truthy(a), truthy(b)
    if a is False or b is False:
        return False
    if a is True:
        return b
    if b is True:
        return a
    return _app("and", (a, b))


def or_(a: Term, b: Term) -> Term:
    a, b = truthy(a), truthy(b)
    if a is True or b is True:
        return True
    if a is False:
        return b
    if b is False:
        return a
    return _app("or", (a, b))


def within(symbols: Iterable[Sym], bound: int) -> list[Term]:
    """`-bound <= s <= bound` for every int symbol (a box to look for a
    model in: small values, and easy non-linear problems)."""
    out: list[Term] = []
    for sym in symbols:
        if sym.sort == INT:
            out.append(App("ge", (sym, -bound), BOOL))
            out.append(App("le", (sym, bound), BOOL))
    return out


# ------------------------------------------------- building by operator name


def apply(op: str, *args: Term) -> Term:
    """`op` (a name in the operator table: "add", "lt", "select", ...)
    applied to `args` through its folding constructor, for callers that
    hold the operator as data (the engine's binary expressions, rebuilding
    a term after rewriting its arguments)."""
    spec = _ops.OPS.get(op)
    if spec is None:
        raise ValueError(f"unknown operator {op!r}")
    if len(args) != spec.arity:
        raise TypeError(f"{op} takes {spec.arity} argument(s), got {len(args)}")
    return _FOLD[op](*args)


# -------------------------------------------------------------- evaluation


def value_of(t: Term, model: Model, memo: dict[int, Value] | None = None) -> Value:
    """The value of `t` (an array term too) when each symbol takes its value
    in `model` (0 / False / an all-0 or all-False array for symbols the
    model leaves free). Subterms are shared (a long run's array is a chain
    of stores over stores): each is evaluated once per call, in `memo`
    (keyed by identity: the terms live as long as the call)."""
    if isinstance(t, (bool, int, float, str)):
        return t
    if isinstance(t, Sym):
        found = model.get(t.name)
        if found is not None:
            return found
        return _default(t.sort)
    if memo is None:
        memo = {}
    known = memo.get(id(t))
    if known is not None:
        return known
    spec = _ops.OPS[t.op]
    if spec.lazy:  # `ite` evaluates only the branch it takes
        value = spec.py(*(partial(value_of, a, model, memo) for a in t.args))
    else:
        # a list, not a generator: a generator's frames are run from C, and
        # Python 3.12 bounds C recursion (a term 1000 operators deep) whatever
        # the recursion limit
        value = spec.py(*[value_of(a, model, memo) for a in t.args])
    if t.sort in (INT, BOOL, FLOAT):  # a scalar comes out as its node's sort, whatever the model holds
        assert not isinstance(value, (ArrayValue, str))
        value = bool(value) if t.sort == BOOL else (float(value) if t.sort == FLOAT else int(value))
    memo[id(t)] = value
    return value


def _default(sort: str) -> Value:
    """The value of a symbol a model leaves free."""
    if sort in (ARR_INT, ARR_BOOL):
        return ArrayValue(False if sort == ARR_BOOL else 0)
    return False if sort == BOOL else 0.0 if sort == FLOAT else "" if sort == STR else 0


def holds_operator(t: Term, operators: Collection[str], memo: dict[Term, bool]) -> bool:
    """Does `t` hold one of `operators`? Memoised in `memo`: terms share subterms."""
    if not isinstance(t, App):
        return False
    found = memo.get(t)
    if found is None:
        found = t.op in operators or any(holds_operator(a, operators, memo) for a in t.args)
        memo[t] = found
    return found


# evaluates a compiled term under a model, with the values of the shared nodes already computed
_Run = Callable[[Model, dict[int, Value]], Value]
_UNSET = object()


def compile_term(t: Term) -> Callable[[Model], Value]:
    """`value_of(t, model)` as a function of `model`, for evaluating one
    term under many models (a search for small values): the operator table
    is consulted once, not per evaluation, and each node the term's DAG
    shares is computed once per evaluation (the prelude's loop over `find`
    nests each turn's index in the next, and a tree walk of such a term is
    exponential in the turns)."""
    return compile_terms([t])[0]


def compile_terms(ts: Iterable[Term]) -> list[Callable[[Model], Value]]:
    """`compile_term` of each of `ts`, compiled together: a node they
    share is compiled once (what is shared is judged over all of them, so a
    node is never compiled as unshared for one term and reused by another
    that shares it)."""
    ts = list(ts)
    memo: dict[Term, _Run] = {}
    shared = _shared(ts)
    runs = [_compiled(t, memo, shared) for t in ts]
    return [lambda model, run=run: run(model, {}) for run in runs]  # type: ignore[misc]


def compile_conjunction(ts: Iterable[Term]) -> Callable[[Model], bool]:
    """Do all of `ts` hold in a model? Compiled as `compile_terms`; the
    terms' shared nodes are computed once per model across all of them
    (a path's constraints share most of their terms)."""
    ts = list(ts)
    memo: dict[Term, _Run] = {}
    shared = _shared(ts)
    runs = [_compiled(t, memo, shared) for t in ts]

    def holds(model: Model) -> bool:
        done: dict[int, Value] = {}
        return all(run(model, done) for run in runs)
    return holds


def dag_size(ts: Iterable[Term]) -> int:
    """The number of distinct operator nodes of `ts` (shared ones once):
    what one evaluation of them all costs, about."""
    seen: set[int] = set()
    stack = list(ts)
    while stack:
        t = stack.pop()
        if isinstance(t, App) and id(t) not in seen:
            seen.add(id(t))
            stack.extend(t.args)
    return len(seen)


def _shared(ts: list[Term]) -> set[int]:
    """The ids of the App nodes reached more than once from `ts` (the only
    ones worth keeping a value of during an evaluation)."""
    seen: set[int] = set()
    shared: set[int] = set()
    stack = list(ts)
    while stack:
        t = stack.pop()
        if not isinstance(t, App):
            continue
        if id(t) in seen:
            shared.add(id(t))
            continue
        seen.add(id(t))
        stack.extend(t.args)
    return shared


def _compiled(t: Term, memo: dict[Term, _Run], shared: set[int]) -> _Run:
    found = memo.get(t)
    if found is not None:
        return found
    run: _Run
    if isinstance(t, (bool, int, float, str)):
        constant: Value = t
        run = lambda model, done: constant  # noqa: E731
    elif isinstance(t, Sym):
        name = t.name
        default = _default(t.sort)
        run = lambda model, done: model.get(name, default)  # noqa: E731
    else:
        spec = _ops.OPS[t.op]
        parts = [_compiled(a, memo, shared) for a in t.args]
        py = spec.py
        inner: _Run
        if spec.lazy:
            inner = lambda model, done: py(*(partial(p, model, done) for p in parts))  # noqa: E731
        elif len(parts) == 2:
            left, right = parts
            inner = lambda model, done: py(left(model, done), right(model, done))  # noqa: E731
        else:
            inner = lambda model, done: py(*(p(model, done) for p in parts))  # noqa: E731
        cast: Callable[[Value], Value] | None = bool if t.sort == BOOL else int if t.sort == INT \
            else float if t.sort == FLOAT else None  # type: ignore[assignment]  # an INT node's value is an int
        if cast is not None:
            plain = inner
            inner = lambda model, done: cast(plain(model, done))  # noqa: E731
        if id(t) in shared:
            slot = len(memo)
            computed = inner

            def run(model: Model, done: dict[int, Value]) -> Value:
                value = done.get(slot, _UNSET)
                if value is _UNSET:
                    value = done[slot] = computed(model, done)
                return value  # type: ignore[return-value]
        else:
            run = inner
    memo[t] = run
    return run


def evaluate(t: Term, model: Model) -> int | bool | float:
    """The value of the int or bool term `t` in `model` (see `value_of`)."""
    value = value_of(t, model)
    if isinstance(value, (ArrayValue, str)):
        raise TypeError(f"{show(t)} is an array: use value_of")
    return value


# ----------------------------------------------------------------- printing


SHOWN_NODES = 2000  # operators written out at most; the rest of a larger term is `...`
SHOWN_PER_CANDIDATE = 8  # operators written cost as much as one candidate assignment checked


def show(t: Term, parent: float = 0) -> str:
    """Python-syntax rendering, for comments in generated tests. `parent`
    is the precedence of the context: parenthesise what binds looser (and
    comparisons inside comparisons, which Python would chain). Terms share
    subterms, and a loop run many times (a long probe of a quicksort)
    builds one whose text, a tree, is exponentially larger than the term:
    past `SHOWN_NODES` operators the rest is written `...`. The operators
    written are work (budget.py): a test's comment may show thousands."""
    left = [SHOWN_NODES]
    text = _show(t, parent, left)
    work.current().candidates += (SHOWN_NODES - left[0]) // SHOWN_PER_CANDIDATE
    return text


ORDER_NODES = 64  # operators an ordering key writes out


def order_key(t: Term) -> str:
    """A deterministic key to put constraints in an order that does not
    depend on the path that built them (the probe layers'): the start of
    `show`'s text, at most `ORDER_NODES` operators of it (the whole text of
    a loop's DAG is exponential). Ties keep the given order."""
    return _show(t, 0, [ORDER_NODES])


def _show(t: Term, parent: float, budget: list[int]) -> str:
    if isinstance(t, App):
        if budget[0] <= 0:
            return "..."
        budget[0] -= 1
    if isinstance(t, float):
        return float_literal(t)
    if isinstance(t, (bool, int, str)):
        return repr(t)
    if isinstance(t, Sym):
        return t.name
    spec = _ops.OPS[t.op]
    prec, args = spec.precedence, t.args
    if spec.notation in ("infix", "compare"):
        text = f"{_show(args[0], prec, budget)} {spec.text} {_show(args[1], prec + 1, budget)}"
    elif spec.notation == "prefix":
        text = spec.text + _show(args[0], prec, budget)
    elif spec.notation == "ite":
        then, test, other = (_show(args[i], prec + 1, budget) for i in (1, 0, 2))
        text = f"{then} if {test} else {other}"
    elif spec.notation == "index":
        text = f"{_show(args[0], prec, budget)}[{_show(args[1], 0, budget)}]"
    elif spec.notation == "fill":
        text = f"[{_show(args[0], 0, budget)}, ...]"
    else:  # "call"
        text = f"{spec.text}({', '.join(_show(a, 0, budget) for a in args)})"
    return f"({text})" if prec < parent or (prec == parent and spec.notation == "compare") else text


# ----------------------------------------------- substitution and renaming


def substitute(t: Term, mapping: Mapping[Sym, Term]) -> Term:
    """`t` with every symbol of `mapping` replaced by its term, all at once
    (a replacement is not itself substituted). Nodes are rebuilt through the
    folding constructors, so the result is what building it from scratch
    gives: `x + y` with y := 0 is `x`. Subterms without a mapped symbol are
    kept as they are (the same objects). Each replacement must have its
    symbol's sort (coerce with `as_int` / `truthy` first)."""
    for sym, replacement in mapping.items():
        if sort_of(replacement) != sym.sort:
            raise ValueError(f"{sym.name} is {sym.sort}, its replacement {show(replacement)} is "
                             f"{sort_of(replacement)}")
    done: dict[App, Term] = {}  # terms share subterms: rebuild each once

    def walk(u: Term) -> Term:
        if isinstance(u, Sym):
            return mapping.get(u, u)
        if not isinstance(u, App) or symbols(u).isdisjoint(mapping.keys()):
            return u
        found = done.get(u)
        if found is None:
            found = apply(u.op, *[walk(a) for a in u.args])  # a list: see value_of
            done[u] = found
        return found

    return walk(t)


Renaming = Union[str, Callable[[str], str]]


def renaming(syms: Iterable[Sym], how: Renaming, avoid: Iterable[Sym] = ()) -> dict[Sym, Sym]:
    """A fresh symbol for each of `syms`, same sort, named `name + how`
    (a suffix) or `how(name)`: one mapping to rename several terms (a
    summary's constraints, result and costs) consistently. Raises
    ValueError if two symbols would share a name, or a new name is one of
    `avoid`'s (the caller's symbols, which a summary must not capture)."""
    def rename(name: str) -> str:
        return name + how if isinstance(how, str) else how(name)

    ordered = sorted(set(syms), key=lambda s: (s.name, s.sort))
    out = {s: Sym(rename(s.name), s.sort) for s in ordered}
    new_names = [s.name for s in out.values()]
    if len(set(new_names)) != len({s.name for s in ordered}):
        raise ValueError(f"renaming is not one-to-one on {[s.name for s in ordered]}")
    taken = sorted({s.name for s in avoid} & set(new_names))
    if taken:
        raise ValueError(f"renamed symbols would capture {taken}")
    return out


def rename_apart(t: Term, how: Renaming, avoid: Iterable[Sym] = ()) -> Term:
    """`t` with every symbol renamed (see `renaming`), so that it can be
    combined with terms over other symbols without capturing any."""
    return substitute(t, renaming(symbols(t), how, avoid))


def fold_float(op: str, *args: Term) -> Term:
    """A float operator (`ops.FLOAT_OPS`) on `args`: constants folded with
    Python's own float arithmetic (exact by construction), nothing else
    (`x + 0.0` is not `x` when x is -0.0). `solver/floats.py` decides which
    operator Python applies and converts ints."""
    node = _app(op, args)
    if all(is_const(a) for a in args):
        value = _ops.OPS[op].py(*args)
        assert not isinstance(value, ArrayValue)
        return bool(value) if node.sort == BOOL else (float(value) if node.sort == FLOAT else int(value))
    return node


# The folding constructor of each operator of the table (`ops.OPS`).
_NATIVE: Mapping[str, Callable[..., Term]] = MappingProxyType({
    "add": add, "sub": sub, "mul": mul, "floordiv": floordiv, "mod": mod, "neg": neg,
    "eq": eq, "ne": ne, "lt": lt, "le": le, "gt": gt, "ge": ge,
    "not": not_, "and": and_, "or": or_, "ite": ite, "select": select, "store": store, "karray": karray,
    "bitand": bitand, "bitor": bitor, "bitxor": bitxor, "shl": shl, "shr": shr,
    "bit_length": bit_length, "bit_count": bit_count, "bin_digits": bin_digits, "oct_digits": oct_digits,
    **{op: partial(fold_float, op) for op in _ops.FLOAT_OPS},
})
# the others (string operators) fold constants only
_FOLD: Mapping[str, Callable[..., Term]] = MappingProxyType(
    {**_NATIVE, **{op: _folding(op) for op in _ops.OPS if op not in _NATIVE}})
