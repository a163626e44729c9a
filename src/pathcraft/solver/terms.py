"""Symbolic terms over unbounded ints and bools, with constant folding.

Terms are Python constants (`int`, `bool`) or immutable `Sym`/`App` nodes.
Every constructor folds what it can (constants, neutral elements, double
negations), so that a condition whose value is already known never reaches
a solver. The operators follow Python, not SMT-LIB: `floordiv`/`mod` are
floored, and `evaluate` computes with Python's own operators.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Union

INT = "int"
BOOL = "bool"
ARR_INT = "arr_int"  # list contents: arrays from int indices to ints / bools
ARR_BOOL = "arr_bool"


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
        return (
            isinstance(other, App)
            and other._hash == self._hash
            and other.op == self.op
            and other.sort == self.sort
            and _same_args(other.args, self.args)
        )


Term = Union[int, bool, Sym, App]


def _same_args(a: tuple[Term, ...], b: tuple[Term, ...]) -> bool:
    # `True == 1` in Python: compare constants by type too.
    return len(a) == len(b) and all(type(x) is type(y) and x == y for x, y in zip(a, b))


def is_const(t: Term) -> bool:
    return isinstance(t, (int, bool))


def sort_of(t: Term) -> str:
    if isinstance(t, bool):
        return BOOL
    if isinstance(t, int):
        return INT
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
        found = frozenset().union(*(symbols(a) for a in t.args))
        object.__setattr__(t, "_symbols", found)  # frozen: a cache, not a change of value
    return found

# ------------------------------------------------------------------ coercion


def as_int(t: Term) -> Term:
    """Python's view of a bool as 0/1 in arithmetic."""
    if isinstance(t, bool):
        return int(t)
    if isinstance(t, int):
        return t
    if t.sort == BOOL:
        return ite(t, 1, 0)
    return t


def truthy(t: Term) -> Term:
    """`bool(t)`."""
    if isinstance(t, bool):
        return t
    if isinstance(t, int):
        return t != 0
    if t.sort == BOOL:
        return t
    return ne(t, 0)


# ------------------------------------------------------------- arithmetic


def add(a: Term, b: Term) -> Term:
    a, b = as_int(a), as_int(b)
    if is_const(a) and is_const(b):
        return a + b  # type: ignore[operator]
    if a == 0 and type(a) is int:
        return b
    if b == 0 and type(b) is int:
        return a
    return App("add", (a, b), INT)


def sub(a: Term, b: Term) -> Term:
    a, b = as_int(a), as_int(b)
    if is_const(a) and is_const(b):
        return a - b  # type: ignore[operator]
    if type(b) is int and b == 0:
        return a
    if a == b and not is_const(a):
        return 0
    return App("sub", (a, b), INT)


def mul(a: Term, b: Term) -> Term:
    a, b = as_int(a), as_int(b)
    if is_const(a) and is_const(b):
        return a * b  # type: ignore[operator]
    for x, y in ((a, b), (b, a)):
        if type(x) is int:
            if x == 0:
                return 0
            if x == 1:
                return y
    return App("mul", (a, b), INT)


def neg(a: Term) -> Term:
    a = as_int(a)
    if is_const(a):
        return -a  # type: ignore[operator]
    if isinstance(a, App) and a.op == "neg":
        return a.args[0]
    return App("neg", (a,), INT)


def floordiv(a: Term, b: Term) -> Term:
    """Floored division; the caller guarantees `b != 0`."""
    a, b = as_int(a), as_int(b)
    if is_const(a) and is_const(b) and b != 0:
        return a // b  # type: ignore[operator]
    if type(b) is int and b == 1:
        return a
    return App("floordiv", (a, b), INT)


def mod(a: Term, b: Term) -> Term:
    """Floored remainder (sign of the divisor); the caller guarantees `b != 0`."""
    a, b = as_int(a), as_int(b)
    if is_const(a) and is_const(b) and b != 0:
        return a % b  # type: ignore[operator]
    if type(b) is int and b in (1, -1):
        return 0
    return App("mod", (a, b), INT)


def ite(c: Term, a: Term, b: Term) -> Term:
    c = truthy(c)
    if isinstance(c, bool):
        return a if c else b
    if sort_of(a) != sort_of(b):
        a, b = as_int(a), as_int(b)
    if type(a) is type(b) and a == b:
        return a
    return App("ite", (c, a, b), sort_of(a))


# ------------------------------------------------------------------ arrays


def array_sort(elem_sort: str) -> str:
    return ARR_BOOL if elem_sort == BOOL else ARR_INT


def select(a: Term, i: Term) -> Term:
    """Element `i` of array `a` (reads through stores with known indices)."""
    i = as_int(i)
    elem = BOOL if sort_of(a) == ARR_BOOL else INT
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
    return App("select", (a, i), elem)


def store(a: Term, i: Term, v: Term) -> Term:
    elem = BOOL if sort_of(a) == ARR_BOOL else INT
    v = truthy(v) if elem == BOOL else as_int(v)
    return App("store", (a, as_int(i), v), sort_of(a))


def karray(v: Term) -> Term:
    """The array with `v` everywhere (`[v] * n`)."""
    return App("karray", (v,), array_sort(sort_of(v)))


@dataclass(frozen=True)
class ArrayValue:
    """A model's value for an array: a default and the entries that differ."""

    default: int | bool
    entries: tuple[tuple[int, int | bool], ...] = ()

    def get(self, i: int) -> int | bool:
        for k, v in self.entries:
            if k == i:
                return v
        return self.default

    def set(self, i: int, v: int | bool) -> ArrayValue:
        return ArrayValue(self.default, tuple((k, x) for k, x in self.entries if k != i) + ((i, v),))


# --------------------------------------------------------------- relations

_NEGATED = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "le": "gt", "gt": "le"}
_PY_REL: dict[str, Callable[[int, int], bool]] = {
    "eq": lambda x, y: x == y,
    "ne": lambda x, y: x != y,
    "lt": lambda x, y: x < y,
    "le": lambda x, y: x <= y,
    "gt": lambda x, y: x > y,
    "ge": lambda x, y: x >= y,
}


def relation(op: str, a: Term, b: Term) -> Term:
    if sort_of(a) == BOOL and sort_of(b) == BOOL and op in ("eq", "ne"):
        if is_const(a) and is_const(b):
            return _PY_REL[op](a, b)  # type: ignore[arg-type]
        if a == b:
            return op == "eq"
        return App(op, (a, b), BOOL)
    a, b = as_int(a), as_int(b)
    if is_const(a) and is_const(b):
        return _PY_REL[op](a, b)  # type: ignore[arg-type]
    if a == b:
        return op in ("eq", "le", "ge")
    return App(op, (a, b), BOOL)


def eq(a: Term, b: Term) -> Term:
    return relation("eq", a, b)


def ne(a: Term, b: Term) -> Term:
    return relation("ne", a, b)


def not_(a: Term) -> Term:
    a = truthy(a)
    if isinstance(a, bool):
        return not a
    assert isinstance(a, App) or isinstance(a, Sym)
    if isinstance(a, App):
        if a.op == "not":
            return a.args[0]
        if a.op in _NEGATED:
            return App(_NEGATED[a.op], a.args, BOOL)
    return App("not", (a,), BOOL)


def and_(a: Term, b: Term) -> Term:
    a, b = truthy(a), truthy(b)
    if a is False or b is False:
        return False
    if a is True:
        return b
    if b is True:
        return a
    return App("and", (a, b), BOOL)


def or_(a: Term, b: Term) -> Term:
    a, b = truthy(a), truthy(b)
    if a is True or b is True:
        return True
    if a is False:
        return b
    if b is False:
        return a
    return App("or", (a, b), BOOL)


# -------------------------------------------------------------- evaluation

Model = Mapping[str, Union[int, bool, "ArrayValue"]]

_PY_OPS: dict[str, Callable[..., int | bool]] = {
    "add": lambda x, y: x + y,
    "sub": lambda x, y: x - y,
    "mul": lambda x, y: x * y,
    "neg": lambda x: -x,
    "floordiv": lambda x, y: x // y if y else 0,
    "mod": lambda x, y: x % y if y else 0,
    "not": lambda x: not x,
    "and": lambda x, y: bool(x and y),
    "or": lambda x, y: bool(x or y),
    **_PY_REL,
}


def evaluate(t: Term, model: Model) -> int | bool:
    """The value of `t` when each symbol takes its value in `model`
    (0 / False for symbols the model leaves free)."""
    if isinstance(t, (bool, int)):
        return t
    if isinstance(t, Sym):
        value = model.get(t.name)
        if value is None:
            if t.sort in (ARR_INT, ARR_BOOL):
                return ArrayValue(False if t.sort == ARR_BOOL else 0)  # type: ignore[return-value]
            return False if t.sort == BOOL else 0
        return value  # type: ignore[return-value]
    if t.op == "ite":
        return evaluate(t.args[1], model) if evaluate(t.args[0], model) else evaluate(t.args[2], model)
    if t.op == "karray":
        return ArrayValue(evaluate(t.args[0], model))  # type: ignore[return-value]
    if t.op == "store":
        base = evaluate(t.args[0], model)
        return base.set(int(evaluate(t.args[1], model)), evaluate(t.args[2], model))  # type: ignore[union-attr,return-value]
    if t.op == "select":
        base = evaluate(t.args[0], model)
        value = base.get(int(evaluate(t.args[1], model)))  # type: ignore[union-attr]
        return bool(value) if t.sort == BOOL else int(value)
    values = [evaluate(a, model) for a in t.args]
    if t.sort == INT:
        values = [int(v) for v in values]
    return _PY_OPS[t.op](*values)


# ----------------------------------------------------------------- printing

_INFIX = {
    "add": "+", "sub": "-", "mul": "*", "floordiv": "//", "mod": "%",
    "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
    "and": "and", "or": "or",
}
_PRECEDENCE = {
    "or": 1, "and": 2, "not": 3,
    "eq": 4, "ne": 4, "lt": 4, "le": 4, "gt": 4, "ge": 4,
    "add": 5, "sub": 5, "mul": 6, "floordiv": 6, "mod": 6, "neg": 7,
}


def show(t: Term, parent: int = 0) -> str:
    """Python-syntax rendering, for comments in generated tests."""
    if isinstance(t, (bool, int)):
        return repr(t)
    if isinstance(t, Sym):
        return t.name
    if t.op == "ite":
        text = f"{show(t.args[1], 1)} if {show(t.args[0], 1)} else {show(t.args[2], 1)}"
        return f"({text})" if parent else text
    if t.op == "select":
        return f"{show(t.args[0], 8)}[{show(t.args[1])}]"
    if t.op == "store":
        return f"store({show(t.args[0])}, {show(t.args[1])}, {show(t.args[2])})"
    if t.op == "karray":
        return f"[{show(t.args[0])}, ...]"
    prec = _PRECEDENCE[t.op]
    if t.op == "neg":
        text = "-" + show(t.args[0], prec)
    elif t.op == "not":
        text = "not " + show(t.args[0], prec)
    else:
        left = show(t.args[0], prec)
        right = show(t.args[1], prec + 1)
        text = f"{left} {_INFIX[t.op]} {right}"
    return f"({text})" if prec < parent or (prec == parent and prec == 4) else text
