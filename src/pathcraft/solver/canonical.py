"""Canonical models: the values a test case is built from, independent of
the search that found its path.

The search's own model of a path depends on what its solver saw before (the
incremental Z3 session, the slicing cache, models reused from the parent
state), so the same path found by another search order would get other
inputs. Test inputs come instead from a Z3 session of their own, fed only
the paths being concretized, in their canonical (depth-first) order: every
search that finds the same paths asks the same questions in the same order
of a session with the same history, and gets the same answers. Small ints
are preferred: the smallest values are tried in a fixed order in Python
first (a bounded backtracking search), without a solver call; a path whose
strings Z3 handles badly (`find` in a cut string: the loops of `replace`,
`split`, `count`) is grown along its constraints by trying strings
(stringsearch.grown), and one that reads an int's digits as a string
tries the numerals built from its constants (stringsearch.numeral_model),
Z3 asked only when these find none.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from types import MappingProxyType

from pathcraft import budget as work
from pathcraft.solver import floatsearch, stringsearch
from pathcraft.solver.path import PathNode, nodes
from pathcraft.solver.sorts import ArrayValue
from pathcraft.solver.terms import (
    ARR_INT, BOOL, FLOAT, INT, STR, App, Model, Sym, Term, Value, apply, compile_terms, holds_operator,
    symbols, within,
)
from pathcraft.solver.z3backend import Z3Session, path_symbols

# The empty model: `evaluate` reads every symbol it does not name as 0 / False.
_ZERO: Model = MappingProxyType({})


class CanonicalModels:
    """One per function run; ask it for paths in canonical order only."""

    def __init__(self, bounds: tuple[int, ...], timeout_ms: int, rlimit: int) -> None:
        self.bounds = bounds
        self.timeout_ms = timeout_ms
        self.rlimit = rlimit
        self._session: Z3Session | None = None  # a fresh Z3 context costs ~15 ms: only when needed
        self._floats: dict[Term, bool] = {}  # does a constraint involve floats? (`floatsearch.involves_float`)
        self._hard = stringsearch.HardForZ3()  # is a constraint hard for Z3?
        self._numerals: dict[Term, bool] = {}  # does a constraint read an int's digits (`str(n)`)?

    def model(self, store: PathNode | None, inputs: Iterable[Sym], distinct_items: bool = False) -> Model | None:
        """A model of the path constraints `store`: the first assignment of
        small values in a fixed order, if the bounded search finds one, else
        Z3's, covering `inputs` and every symbol of the path, with every int
        in [-b, b] for the first bound `b` that allows one (then unbounded);
        None if Z3 finds none in its limits. `distinct_items`: first try
        the items of each int list pairwise different (a long probe's
        lists: a sort shows its work on `[3, 1, 2]`, not on `[0, 0, 0]`)."""
        inputs = list(inputs)
        constraints = [node.constraint for node in nodes(store)]
        found = _smallest(constraints, self._floats)
        if found is None and any(self._hard(c) for c in constraints):
            found = stringsearch.grown(constraints)  # Z3 takes seconds past its timeout on these
        if found is None and any(holds_operator(c, stringsearch.NUMERALS, self._numerals) for c in constraints):
            found = stringsearch.numeral_model(constraints)  # and seconds on these in its small boxes
        if found is not None:
            return _telling(found, store, inputs)
        wanted = sorted(set(path_symbols(store, [])) | set(inputs), key=lambda s: (s.name, s.sort))
        if self._session is None:
            self._session = Z3Session(self.timeout_ms, self.rlimit, budgeted=False)  # a found path's test
        # (int box, strings: "telling" words, "word"s, "phrase"s, or any; int lists' items all different)
        tiers: list[tuple[int | None, str, bool]] = [(bound, "word", False) for bound in (*self.bounds, None)]
        if self.bounds and any(s.sort == STR for s in wanted):
            tiers[0:0] = [(self.bounds[0], "telling", False)]
            tiers[-1:-1] = [(self.bounds[-1], "phrase", False)]
        if distinct_items and self.bounds and any(s.sort == ARR_INT for s in wanted):
            tiers[0:0] = [(self.bounds[-1], "word", True)]
        for bound, strings, distinct in tiers:
            extra = [*within(wanted, bound), *_items_within(wanted, bound), *_readable(wanted, bound, strings),
                     *(_items_distinct(wanted) if distinct else ())] if bound is not None else []
            verdict, model = self._session.check(store, extra, wanted)
            if verdict == "sat" and model is not None:
                return _telling(model, store, inputs)
        return None


def _items_within(wanted: Iterable[Sym], bound: int) -> list[Term]:
    """The first `_LIST_ITEMS` items of each input int list in the box too:
    a path through a long list asks for items in some order, and Z3 picks
    `[15525, 15526, ...]` for them unless told otherwise."""
    out: list[Term] = []
    for sym in wanted:
        if sym.sort == ARR_INT:
            for i in range(_LIST_ITEMS):
                item = apply("select", sym, i)
                out += [apply("ge", item, -bound), apply("le", item, bound)]
    return out


def _items_distinct(wanted: Iterable[Sym]) -> list[Term]:
    """The first `_LIST_ITEMS` items of each input int list pairwise
    different, those within the list's length."""
    out: list[Term] = []
    for sym in wanted:
        if sym.sort == ARR_INT:
            length = Sym(f"len({sym.name})", INT)  # the length symbol's convention (heap/lazy.py)
            for i, j in itertools.combinations(range(_LIST_ITEMS), 2):
                different = apply("ne", apply("select", sym, i), apply("select", sym, j))
                out.append(apply("or", apply("le", length, j), different))
    return out


def _readable(wanted: Iterable[Sym], bound: int, kind: str) -> list[Term]:
    """Strings of lowercase letters (`kind` "word"; "phrase": and spaces),
    at most `bound + 1` long: tried before any printable string (the input
    domain). "telling": words moreover not empty, different from each
    other, and without a repeated letter (a test of `reverse` on "aa"
    tells nothing)."""
    telling = kind == "telling"
    out: list[Term] = []
    strings = [s for s in wanted if s.sort == STR]
    for sym in strings:
        length = apply("strlen", sym)
        out += [apply("phrase" if kind == "phrase" else "word", sym), apply("le", length, bound + 1)]
        if telling:
            out.append(apply("ge", length, 1))
            for i, j in itertools.combinations(range(bound + 1), 2):
                same = apply("eq", apply("substr", sym, i, 1), apply("substr", sym, j, 1))
                out.append(apply("or", apply("le", length, j), apply("not", same)))
    if telling:
        out += [apply("ne", a, b) for a, b in itertools.combinations(strings, 2)]
    return out


def is_domain(constraint: Term) -> bool:
    """Is `constraint` the domain of a string input (printable ASCII)?"""
    return isinstance(constraint, App) and constraint.op == "printable" and isinstance(constraint.args[0], Sym)


# Small values, the more telling first: 0 and 1 are identities of + and *,
# so a test whose inputs are 0 or 1 often cannot tell a mutant apart.
_SMALL_INTS = (2, 3, -2, 1, -1, 0, 4, -3, 5)
_BUDGET = 1000  # values tried in Python, per path, before asking Z3


# Values for inputs nothing constrains: no identities of + and * (0, 1, -1).
_FILL_INTS = (2, 3, 4, 5, -2, -3, 6, 7)
_FILL_FLOATS = (2.5, 3.5, -1.5, 4.5, 0.75, -2.5, 5.5, 6.5)  # short reprs, not integral: `int(x)` differs from x
_FILL_STRS = ("abc", "xyz", "hello", "world", "spam", "eggs", "foo", "bar")
_LIST_ITEMS = 8  # items of an input list given telling values (longer lists: the rest 0)


def _telling(model: Model, store: PathNode | None, inputs: list[Sym]) -> Model:
    """`model` with each int input that no path constraint mentions (and the
    items of each such int list) set to a small value no other int of the
    model has, in name order: any value satisfies the path, and a test whose
    free inputs are all 0 cannot tell `x + y` from `x`, or `items[0]` from
    `items[1]`."""
    mentioned: set[Sym] = set()
    for node in nodes(store):
        if not is_domain(node.constraint):
            mentioned |= symbols(node.constraint)
    free = [s for s in inputs if s not in mentioned and s.sort in (INT, ARR_INT, FLOAT, STR)]
    if not free:
        return model
    words = (w for w in _FILL_STRS if w not in model.values())
    taken = {v for v in model.values() if isinstance(v, int) and not isinstance(v, bool)}
    fresh = (v for v in itertools.chain(_FILL_INTS, itertools.count(_FILL_INTS[-1] + 1)) if v not in taken)
    taken_floats = {v for v in model.values() if isinstance(v, float)}
    fresh_floats = (v for v in itertools.chain(_FILL_FLOATS, (k + 0.5 for k in itertools.count(7)))
                    if v not in taken_floats)
    filled = dict(model)
    for sym in sorted(free, key=lambda s: (s.sort == ARR_INT, s.name)):  # scalars first
        if sym.sort == FLOAT:
            filled[sym.name] = next(fresh_floats)
        elif sym.sort == INT:
            filled[sym.name] = next(fresh)
        elif sym.sort == STR:
            filled[sym.name] = next(words, "abc")
        else:  # an input list's items: as many as its length (the length symbol's convention)
            length = model.get(f"len({sym.name})", _LIST_ITEMS)
            count = min(length, _LIST_ITEMS) if isinstance(length, int) and length >= 0 else _LIST_ITEMS
            filled[sym.name] = ArrayValue(0, tuple((k, next(fresh)) for k in range(count)))
    return MappingProxyType(filled)


class _Exhausted(Exception):
    pass


def _smallest(constraints: list[Term], floats: dict[Term, bool] | None = None) -> Model | None:
    """The first assignment, in a fixed order, that satisfies every
    constraint: symbols no constraint mentions are 0 / False; the others,
    one group of constraints sharing symbols at a time, take ints in the
    order of `_SMALL_INTS` (pairwise different, also from other groups' ints, if possible) and bools False
    first, earlier symbols (by name) varying slowest. Backtracking checks a constraint as soon as its last symbol
    has a value. None when a group has an array, or the budget runs out,
    or no small values fit."""
    budget = [_BUDGET]
    try:
        return _smallest_groups(constraints, floats, budget)
    finally:  # the assignments tried are work (budget.py): each checks the few constraints it completes
        work.current().candidates += _BUDGET - max(budget[0], 0)


def _smallest_groups(constraints: list[Term], floats: dict[Term, bool] | None, budget: list[int]) -> Model | None:
    model: dict[str, int | bool | float] = {}
    try:
        for group, mentioned in _independent_groups(constraints):
            if floatsearch.involves_float(group, floats):
                # the first small values in order; else 2.0 / 2 everywhere with one or two symbols changed
                start = {s.name: 2.0 if s.sort == FLOAT else (False if s.sort == BOOL else 2) for s in mentioned}
                found_floats = floatsearch.search(group, mentioned, budget=3000) or \
                    floatsearch.search(group, mentioned, budget=3000, seed=start)
                if found_floats is None:
                    return None
                model.update(found_floats)  # type: ignore[arg-type]  # no arrays in a float group
                continue
            if any(s.sort not in (INT, BOOL) for s in mentioned):
                return None
            # pairwise different ints first (telling tests), then any
            used = {v for v in model.values() if isinstance(v, int) and not isinstance(v, bool)}
            found = _backtrack(group, mentioned, budget, distinct=True, used=used) or \
                _backtrack(group, mentioned, budget, distinct=False)
            if found is None:
                return None
            model.update(found)
    except _Exhausted:
        return None
    return model


def _backtrack(group: list[Term], order: list[Sym], budget: list[int],
               distinct: bool, used: set[int] | None = None) -> dict[str, int | bool] | None:
    """`distinct`: ints pairwise different, and different from `used` (the
    values earlier groups took)."""
    position = {sym: i for i, sym in enumerate(order)}
    due: list[list[Callable[[Model], Value]]] = [[] for _ in order]  # decided once symbol i has a value
    for constraint, check in zip(group, compile_terms(group)):
        due[max(position[sym] for sym in symbols(constraint))].append(check)
    assignment: dict[str, int | bool] = {}
    edges = _edges(group)

    def extend(i: int) -> bool:
        if i == len(order):
            return True
        sym = order[i]
        taken = ({v for k, v in assignment.items() if not isinstance(v, bool)} | (used or set())) \
            if distinct else set()
        near = edges.get(sym, ())
        for value in ((*near, *(v for v in _SMALL_INTS if v not in near)) if sym.sort == INT else (False, True)):
            if sym.sort == INT and value in taken:
                continue
            budget[0] -= 1
            if budget[0] < 0:
                raise _Exhausted
            assignment[sym.name] = value
            if all(check(assignment) for check in due[i]) and extend(i + 1):
                return True
        assignment.pop(sym.name, None)
        return False

    return assignment if extend(0) else None


_ORDERINGS = ("lt", "le", "gt", "ge")


def _edges(constraints: list[Term]) -> dict[Sym, tuple[int, ...]]:
    """For a symbol the path only compares with constants (`x >= 0`,
    `n < 5`), the values at the edge of those comparisons, tried first: a
    test on the boundary tells `>=` from `>`, and `0` from `1`, as a value
    in the middle of the range cannot. A symbol that also takes part in
    arithmetic keeps the small telling values (an edge there makes `gcd`
    1 and `x * y` 0). The latest comparison's edges come first: the branch
    that made this path is the one its test should sit on the edge of (an
    earlier one is the latest of the path that branched the other way)."""
    found: dict[Sym, list[int]] = {}
    mixed: set[Sym] = set()
    for constraint in reversed(constraints):
        simple = isinstance(constraint, App) and constraint.op in (*_ORDERINGS, "eq", "ne") \
            and len(constraint.args) == 2 and any(isinstance(a, Sym) for a in constraint.args) \
            and any(isinstance(a, int) and not isinstance(a, bool) for a in constraint.args)
        if not simple:
            mixed |= symbols(constraint)
            continue
        assert isinstance(constraint, App)
        left, right = constraint.args
        sym, bound = (left, right) if isinstance(left, Sym) else (right, left)
        if constraint.op in _ORDERINGS and isinstance(sym, Sym) and sym.sort == INT and isinstance(bound, int):
            values = found.setdefault(sym, [])
            values.extend(v for v in (bound, bound - 1, bound + 1) if v not in values)
    return {sym: tuple(values) for sym, values in found.items() if sym not in mixed}


def _independent_groups(constraints: list[Term]) -> list[tuple[list[Term], list[Sym]]]:
    """Constraints joined when they share a symbol (transitively), each
    group with its symbols in name order; groups in order of first use."""
    groups: list[tuple[list[Term], set[Sym]]] = []
    for constraint in constraints:
        mentioned = set(symbols(constraint))
        merged: tuple[list[Term], set[Sym]] = ([constraint], mentioned)
        rest = []
        for group in groups:
            if group[1] & mentioned:
                merged = (group[0] + merged[0], group[1] | merged[1])
            else:
                rest.append(group)
        groups = rest + [merged]
    return [(terms, sorted(syms, key=lambda s: (s.name, s.sort))) for terms, syms in groups]
