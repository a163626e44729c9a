"""Models of float constraints by trying values, before Z3.

Z3's floating-point theory bit-blasts: `x * 1.8 == 180.0` costs it seconds,
a mixed int/float comparison often more than its resource limit. Most
constraints of everyday code, though, are satisfied by a value built from
their own constants (`(100 - 32) / 1.8`, `c` and its neighbours `c ± 1 ulp`)
or by a small short number. This module tries such values in a fixed order,
with Python's own float arithmetic (the operator table's `py` column), so a
model it finds is a model: exact by construction. It proves nothing: when
it finds none, Z3 decides. Values are tried in an order that makes tests
readable (2.0, 0.5, 1.5 before 1e-308), the same order every time.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable

from pathcraft import budget as work
from pathcraft.solver.ops import FLOAT_OPS
from pathcraft.solver.sorts import BOOL, FLOAT, INT, STR
from pathcraft.solver.terms import App, Model, Sym, Term, Value, compile_conjunction, compile_terms, dag_size, symbols

# short, telling values first (not 0 or 1: identities of + and *), the special ones last
SMALL_FLOATS = (2.0, 0.5, 1.5, -2.0, 1.0, -1.0, 3.0, -0.5, 2.5, 0.0, 4.0, -1.5, 10.0, 0.25, -3.0, 100.0)
SPECIAL_FLOATS = (-0.0, math.inf, -math.inf, math.nan)
SMALL_INTS = (2, 3, -2, 1, -1, 0, 4, -3, 5)
BUDGET = 6000  # assignments tried per search
NODES_PER_CANDIDATE = 4  # a candidate of constraints of this many operators is one candidate's work
MAX_DERIVED = 48  # values derived from the constants, per search


def involves_float(terms: Iterable[Term], memo: dict[Term, bool] | None = None) -> bool:
    """Does any of `terms` have a float symbol or operator? `memo` keeps
    the answer per term (a path's constraints are asked about again and again)."""
    if memo is not None:
        for t in terms:
            found = memo.get(t)
            if found is None:
                found = memo[t] = involves_float((t,))
            if found:
                return True
        return False
    seen: set[int] = set()
    stack = list(terms)
    while stack:
        t = stack.pop()
        if isinstance(t, float):
            return True
        if isinstance(t, Sym):
            if t.sort == FLOAT:
                return True
            continue
        if not isinstance(t, App) or id(t) in seen:
            continue
        seen.add(id(t))
        if t.op in FLOAT_OPS:
            return True
        stack.extend(t.args)
    return False


def _constants(terms: Iterable[Term]) -> tuple[list[float], list[int]]:
    floats: list[float] = []
    ints: list[int] = []
    seen: set[int] = set()
    stack = list(terms)
    while stack:
        t = stack.pop()
        if isinstance(t, bool):
            continue
        if isinstance(t, float):
            floats.append(t)
        elif isinstance(t, int):
            ints.append(t)
        elif isinstance(t, App) and id(t) not in seen:
            seen.add(id(t))
            stack.extend(reversed(t.args))
    return floats, ints


def _unique(values: Iterable[float]) -> list[float]:
    out: list[float] = []
    keys: set[str] = set()
    for v in values:
        key = v.hex()
        if key not in keys:
            keys.add(key)
            out.append(v)
    return out


def float_candidates(terms: list[Term]) -> list[float]:
    """The values tried for a float symbol of `terms`, in order."""
    floats, ints = _constants(terms)
    consts = _unique([*floats, *(float(i) for i in ints if abs(i) < 2 ** 53)])
    derived: list[float] = []
    for c in consts:
        derived += [c, math.nextafter(c, math.inf), math.nextafter(c, -math.inf), c + 1, c - 1, -c, c / 2, c * 2]
    for a in consts:
        for b in consts:
            if a is not b:
                derived += [a - b, a + b, a * b] + ([a / b] if b else [])
    derived = [d for d in _unique(derived) if math.isfinite(d)][:MAX_DERIVED * 4]
    return _unique([*SMALL_FLOATS, *derived, *SPECIAL_FLOATS])


def int_candidates(terms: list[Term]) -> list[int]:
    floats, ints = _constants(terms)
    near = [v for c in ints for v in (c, c + 1, c - 1)]
    near += [v for f in floats if math.isfinite(f) and abs(f) < 2 ** 62 for v in (math.floor(f), math.ceil(f))]
    out: list[int] = []
    for v in (*SMALL_INTS, *near):
        if v not in out:
            out.append(v)
    return out


def search(constraints: list[Term], order: list[Sym], fixed: Model | None = None,
           budget: int = BUDGET, seed: Model | None = None,
           strings: list[str] | None = None, more_ints: list[int] | None = None) -> dict[str, Value] | None:
    """Values for `order` (ints, bools and floats, and strs when `strings`
    gives their candidates; `fixed` gives the rest; `more_ints`: ints tried
    after the usual ones) that satisfy every constraint; None if none is
    found within `budget`. With a `seed` (a model of all but the newest
    constraint, say), one symbol, then two,
    are changed from it first; then backtracking over the candidates,
    earlier symbols varying slowest."""
    fixed = fixed or {}
    sorts = (INT, BOOL, FLOAT, STR) if strings is not None else (INT, BOOL, FLOAT)
    if any(s.sort not in sorts for s in order):
        return None
    texts = strings or []
    per_candidate = 1 + dag_size(constraints) // NODES_PER_CANDIDATE
    share = work.current().for_a_check()  # a check's share of the run (budget.CHECK_SHARE), in candidates here
    if share is not None:  # (700 licenses in a path's terms: one candidate checks thousands of operators)
        budget = max(1, min(budget, share // (per_candidate * work.CANDIDATE_WORK)))
    left = [budget]
    try:
        return _search(constraints, order, fixed, seed, texts, more_ints or [], left)
    finally:  # the assignments tried are work (budget.py), each about as dear as the terms it checks
        work.current().candidates += (budget - max(left[0], 0)) * per_candidate


def _search(constraints: list[Term], order: list[Sym], fixed: Model, seed: Model | None, texts: list[str],
            more_ints: list[int], left: list[int]) -> dict[str, Value] | None:
    if seed is not None:
        found = _near(constraints, order, fixed, seed, left, texts, more_ints)
        if found is not None:
            return found
    position = {sym: i for i, sym in enumerate(order)}
    due: list[list[Callable[[Model], Value]]] = [[] for _ in order]
    placed = [(c, [position[s] for s in symbols(c) if s in position]) for c in constraints]
    placed = [(c, mine) for c, mine in placed if mine]
    for (_, mine), check in zip(placed, compile_terms(c for c, _ in placed)):
        due[max(mine)].append(check)
    floats, ints = float_candidates(constraints), _with(int_candidates(constraints), more_ints)
    assignment: dict[str, Value] = dict(fixed)

    def values(sym: Sym) -> Iterable[Value]:
        return _values(sym, floats, ints, texts)

    def extend(i: int) -> bool:
        if i == len(order):
            return True
        sym = order[i]
        for value in values(sym):
            left[0] -= 1
            if left[0] < 0:
                return False
            assignment[sym.name] = value
            if all(check(assignment) for check in due[i]) and extend(i + 1):
                return True
        assignment.pop(sym.name, None)
        return False

    if not extend(0):
        return None
    return {s.name: assignment[s.name] for s in order}


def _values(sym: Sym, floats: list[float], ints: list[int], strings: list[str]) -> Iterable[Value]:
    if sym.sort == FLOAT:
        return floats
    if sym.sort == INT:
        return ints
    if sym.sort == STR:
        return strings
    return (False, True)


def _with(ints: list[int], more: list[int]) -> list[int]:
    return ints + [v for v in more if v not in ints]


def _near(constraints: list[Term], order: list[Sym], fixed: Model, seed: Model,
          left: list[int], strings: list[str], more_ints: list[int]) -> dict[str, Value] | None:
    """The seed with one symbol changed, then two, to a candidate value."""
    holds = compile_conjunction(constraints)
    floats, ints = float_candidates(constraints), _with(int_candidates(constraints), more_ints)
    base: dict[str, Value] = {**fixed}
    for sym in order:
        found = seed.get(sym.name)
        base[sym.name] = found if found is not None else (0.0 if sym.sort == FLOAT else False if sym.sort == BOOL
                                                          else "" if sym.sort == STR else 0)
    for size in (1, 2):
        for group in itertools.combinations(order, size):
            for values in itertools.product(*(_values(s, floats, ints, strings) for s in group)):
                left[0] -= 1
                if left[0] < 0:
                    return None
                trial = {**base, **{s.name: v for s, v in zip(group, values)}}
                if holds(trial):
                    return {s.name: trial[s.name] for s in order}
    return None
