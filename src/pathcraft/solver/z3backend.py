"""The last layer of the chain: Z3, kept incremental along the search path.

The Z3 solver's assertion stack mirrors the path constraints of the state
being extended: on each query the common prefix with the previous query is
kept, the rest popped, and the new constraints pushed, so a depth-first
search pays for each constraint once. Every check runs under a timeout and
an rlimit; `unknown` is an answer like the others.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

import z3

from pathcraft import budget as work
from pathcraft.solver.bitops import BIT_OPERATORS, define_bits
from pathcraft.solver import fpsem
from pathcraft.solver.ops import OPS
from pathcraft.solver.path import PathNode, nodes
from pathcraft.solver.strings import read_string, z3_string
from pathcraft.solver.terms import (
    ARR_BOOL, ARR_INT, BOOL, FLOAT, STR, App, ArrayValue, Sym, Term, Value, holds_operator, is_const, symbols,
)

# Operators whose Z3 encoding runs past Z3's own timeout and rlimit. Float `%` and `//` use
# IEEE remainder (fp.rem), which Z3 5.4 bit-blasts over the whole exponent range before it
# looks at a limit: one `x % 10.0 > 3.5` on a double ran over 60 s under a 5 s timeout (a
# long probe of thealgorithms' radix_sort hung on twelve of them). A query holding one is
# answered 'unknown' without calling Z3; the engine's own float search (floatsearch.py)
# still tries it first, and a test keeps the search's model when the canonical one is unknown.
# `str.lower`/`upper` are a `seq.map` of a lambda: with a slice of the result and a dozen
# equalities to constants (boltons' singularize looking its word up in a table), one check
# held the interpreter for over 60 s under a 2 s timeout (the GIL too: no watchdog can stop
# it); the string layers before Z3 (solver/chain.py) find the models such paths need.
UNBOUNDED_IN_Z3 = frozenset({"fmod", "ffloordiv", "lower", "upper"})


class _WithBits:
    """The `z3` module as the operator table's Z3 column sees it, plus
    `bits(x, signed)`: Booleans defined as the bits of `x` (`bitops`)."""

    def __init__(self, translator: Z3Translator, used: list[int]) -> None:
        self._translator = translator
        self._used = used

    def __getattr__(self, name: str) -> Any:
        return getattr(z3, name)

    def bits(self, x: z3.ExprRef, signed: bool) -> list[z3.BoolRef]:
        return self._translator.bits(x, signed, self._used)


class Z3Translator:
    """Terms to Z3 expressions, memoised per term node. Some operators
    introduce auxiliary Booleans (an operand's bits) defined by
    constraints of their own: `asserted(t)` is the expression of `t` with
    the definitions it relies on, the form to add to a solver."""

    def __init__(self, ctx: z3.Context) -> None:
        self.ctx = ctx
        self._cache: dict[Term, z3.ExprRef] = {}
        self._vars: dict[tuple[str, str], z3.ExprRef] = {}  # a name may stand for values of several sorts
        self._bits: dict[tuple[int, bool], int] = {}  # (operand's ast id, signed) -> definition number
        self._definitions: list[tuple[list[z3.BoolRef], z3.BoolRef]] = []
        self._uses: dict[Term, tuple[int, ...]] = {}  # definitions a translated term relies on
        self._has_bits: dict[Term, bool] = {}
        self._unbounded: dict[Term, bool] = {}

    def var(self, sym: Sym) -> z3.ExprRef:
        found = self._vars.get((sym.name, sym.sort))
        if found is None:
            if sym.sort in (ARR_INT, ARR_BOOL):
                elem = z3.BoolSort(self.ctx) if sym.sort == ARR_BOOL else z3.IntSort(self.ctx)
                found = z3.Array(sym.name, z3.IntSort(self.ctx), elem)
            elif sym.sort == FLOAT:
                found = z3.FP(sym.name, fpsem.z3_sort(z3, self.ctx))
            elif sym.sort == STR:
                found = z3.String(sym.name, self.ctx)
            else:
                maker = z3.Bool if sym.sort == BOOL else z3.Int
                found = maker(sym.name, self.ctx)
            self._vars[(sym.name, sym.sort)] = found
        return found

    def __call__(self, t: Term) -> z3.ExprRef:
        if isinstance(t, bool):
            return z3.BoolVal(t, self.ctx)
        if isinstance(t, int):
            return z3.IntVal(t, self.ctx)
        if isinstance(t, float):
            return fpsem.z3_const(z3, t, self.ctx)
        if isinstance(t, str):
            return z3_string(z3, t, self.ctx)
        if isinstance(t, Sym):
            return self.var(t)
        found = self._cache.get(t)
        if found is None:
            found = self._translate(t)
            self._cache[t] = found
        return found

    def _translate(self, t: App) -> z3.ExprRef:
        args = [self(x) for x in t.args]
        used: list[int] = []
        found = OPS[t.op].z3(_WithBits(self, used), *args)
        for x in t.args:
            used.extend(self._uses.get(x, ()))
        if used:
            self._uses[t] = tuple(sorted(set(used)))
        return found

    def bits(self, x: z3.ExprRef, signed: bool, used: list[int]) -> list[z3.BoolRef]:
        key = (x.get_id(), signed)
        number = self._bits.get(key)
        if number is None:
            number = len(self._definitions)
            self._definitions.append(define_bits(z3, x, signed, f"bit!{number}"))
            self._bits[key] = number
        used.append(number)
        return self._definitions[number][0]

    def uses_bits(self, t: Term) -> bool:
        """Does `t` hold an operator that defines auxiliary Booleans? (Read
        from the term: translating it here would create Z3's terms in
        another order, and Z3's answers depend on that order.)"""
        return holds_operator(t, BIT_OPERATORS, self._has_bits)

    def unbounded(self, t: Term) -> bool:
        """Does `t` hold an operator Z3 cannot be stopped in (`UNBOUNDED_IN_Z3`)?"""
        return holds_operator(t, UNBOUNDED_IN_Z3, self._unbounded)

    def definitions(self, t: Term) -> list[z3.BoolRef]:
        """The definitions of the auxiliary Booleans `t`'s expression uses."""
        self(t)
        return [self._definitions[n][1] for n in self._uses.get(t, ())] if isinstance(t, App) else []

    def asserted(self, t: Term) -> z3.ExprRef:
        expr, defined = self(t), self.definitions(t)
        return z3.And(expr, *defined) if defined else expr


def rlimit_count(solver: z3.Solver) -> int:
    """The cumulative "rlimit count" of the solver's context (0 if Z3 gives none)."""
    try:
        return int(solver.statistics().get_key_value("rlimit count"))
    except z3.Z3Exception:
        return 0


# What a unit of Z3's resource count costs, by the theories a check uses
# (budget.py weighs the count by these): floating point is several times
# dearer per unit than linear integers, non-linear integers and strings in
# between (measured on SAMPLE40 by bench/budget.py).
FLOAT_OPERATORS = frozenset({
    "fabs", "fadd", "fceil", "fdiv", "feq", "ffloor", "ffloordiv", "fge", "fgt", "fisinf", "fisnan", "fle", "flt",
    "fmod", "fmul", "fne", "fneg", "fround", "fround_digits", "fsqrt", "fsub", "ftrunc", "i2f"})
HARDER_OPERATORS = frozenset({
    "mul", "floordiv", "idiv", "mod", "concat", "contains", "indexof", "nat_of_str", "prefixof", "str_of_nat",
    "strlen", "substr", "suffixof"})
FLOAT_NON_LINEAR = frozenset({"fmul", "fdiv", "fmod", "ffloordiv"})  # non-linear when no operand is a constant
FLOAT_ROOTS = frozenset({"fsqrt"})
# (`is_prime`'s `n ** 0.5` checks spent 20 µs a unit, floats' sums 1.2 µs, `extended_gcd`'s
# products 0.45 µs, ints' sums 0.15 µs)
FLOAT_NON_LINEAR_WEIGHT, FLOAT_WEIGHT, HARDER_WEIGHT = 50, 6, 3
# a budgeted check's timeout: this many times what its share of the work
# budget should take (Z3 does not stop on its resource count inside every
# tactic: `i * i <= n` ran past it by seconds); a check its count stops
# ends long before, so this only bounds the ones that overrun
_OVERRUN = 3

# below this many milliseconds left of the search's budget, a check is not started
_LEAST_MS = 20


class Z3Session:
    """One incremental Z3 solver whose scopes follow the current path.

    `deadline` (a `time.monotonic()` value: the function's time budget)
    caps each check's timeout, so one query cannot carry a search far past
    its budget: a check of bit-blasted terms can take Z3's whole timeout,
    several times over as the chain retries it (more_itertools'
    `_shift_to_odd` ran 97 s under `--timeout 2`). Past the deadline a
    check answers unknown without calling Z3."""

    def __init__(self, timeout_ms: int, rlimit: int, deadline: float | None = None, budgeted: bool = True) -> None:
        self.ctx = z3.Context()
        self.solver = z3.Solver(ctx=self.ctx)
        self.solver.set("timeout", timeout_ms)
        self.timeout_ms = timeout_ms
        self.rlimit = rlimit
        self.deadline = deadline
        # a search's session stops where the function's work budget does (budget.py); a
        # canonical model's does not: it is the test of a path already found
        self.budgeted = budgeted
        self._solver_timeout = timeout_ms  # what `self.solver` is set to now
        self.translate = Z3Translator(self.ctx)
        self._stack: list[PathNode] = []
        self.calls = 0
        self.seconds = 0.0
        # Z3's deterministic resource count spent by this session's checks: a
        # budget in it stops a search at the same point on any machine
        self.work = 0
        # Z3's resource count is the context's, cumulative over every solver of it (the incremental
        # one and the fresh ones of bit-blasted checks): a check spent what it grew by since the last
        self._counted = 0
        self.refused = 0  # queries answered 'unknown' unasked (`UNBOUNDED_IN_Z3`)
        # of each operator node met (`_term_weight`), by identity: looked up by equality, a
        # term built apart from an equal one is compared with it all the way down, at every check
        self._weights: dict[int, tuple[App, int]] = {}

    def _sync(self, path: PathNode | None) -> int:
        """Make the incremental solver's scopes the path's; how many terms it asserted."""
        wanted = nodes(path)
        keep = 0
        for mine, theirs in zip(self._stack, wanted):
            if mine is not theirs:
                break
            keep += 1
        if keep < len(self._stack):
            self.solver.pop(len(self._stack) - keep)
            del self._stack[keep:]
        for node in wanted[keep:]:
            self.solver.push()
            self.solver.add(self.translate.asserted(node.constraint))
            self._stack.append(node)
        return len(wanted) - keep

    def check(
        self, path: PathNode | None, extra: Iterable[Term], wanted: Iterable[Sym],
        rlimit: int | None = None,
    ) -> tuple[str, dict[str, Value] | None]:
        """'sat' with a model of `wanted`, 'unsat', or 'unknown' (`rlimit`
        overrides the session's resource limit for this check). A query
        with bitwise operators goes to a solver of its own, not scoped:
        Z3 preprocesses the bits' definitions only outside incremental
        mode, and answers unknown on most such queries inside it."""
        extra = list(extra)
        limit = self.rlimit if rlimit is None else rlimit
        terms = [node.constraint for node in nodes(path)] + extra
        if any(self.translate.unbounded(t) for t in terms):
            self.refused += 1
            return "unknown", None
        timeout = self._timeout()
        if timeout is None:
            return "unknown", None
        weight = self._weight(terms)
        budget = work.current()
        left = budget.z3_for_a_check() if self.budgeted else None
        if left is not None:
            left //= weight
            if left <= 0:
                return "unknown", None
            limit = min(limit, left) if limit else left
            timeout = min(timeout, max(_LEAST_MS, int(_OVERRUN * 1000 * budget.seconds_for_a_check())))
        if any(self.translate.uses_bits(t) for t in terms):
            solver = z3.Solver(ctx=self.ctx)
            solver.set("timeout", timeout)
            solver.set("rlimit", limit)
            solver.add(*[self.translate.asserted(t) for t in terms])
            budget.assertions += len(terms)
            return self._checked(solver, wanted, weight)
        if timeout != self._solver_timeout:
            self.solver.set("timeout", timeout)
            self._solver_timeout = timeout
        self.solver.set("rlimit", limit)
        budget.assertions += self._sync(path) + len(extra)
        self.solver.push()
        try:
            for term in extra:
                self.solver.add(self.translate.asserted(term))
            verdict = self._checked(self.solver, wanted, weight)
        finally:
            self.solver.pop()
        return verdict

    def _timeout(self) -> int | None:
        """The next check's timeout in milliseconds: Z3's own, or what is
        left of the budget if less; None when too little is left."""
        if self.deadline is None:
            return self.timeout_ms
        left = int((self.deadline - time.monotonic()) * 1000)
        if left < _LEAST_MS:
            return None
        return min(self.timeout_ms, left)

    def _weight(self, terms: list[Term]) -> int:
        """What a unit of Z3's resource count costs in a check of `terms`."""
        return max((self._term_weight(t) for t in terms), default=1)

    def _term_weight(self, t: Term) -> int:
        """The dearest theory `t` uses, as a weight (one walk of the DAG, memoised)."""
        if not isinstance(t, App):
            return 1
        known = self._weights

        def weight_of(node: App) -> int | None:
            found = known.get(id(node))
            return found[1] if found is not None and found[0] is node else None

        todo: list[tuple[App, bool]] = [(t, False)]
        while todo:
            node, expanded = todo.pop()
            if weight_of(node) is not None:
                continue
            apps = [a for a in node.args if isinstance(a, App)]
            if not expanded:
                todo.append((node, True))
                todo.extend((a, False) for a in apps if weight_of(a) is None)
                continue
            variable = not any(is_const(a) for a in node.args)
            own = FLOAT_NON_LINEAR_WEIGHT if node.op in FLOAT_ROOTS or node.op in FLOAT_NON_LINEAR and variable \
                else FLOAT_WEIGHT if node.op in FLOAT_OPERATORS \
                else HARDER_WEIGHT if node.op in HARDER_OPERATORS else 1
            weights = [own] + [w for w in (weight_of(a) for a in apps) if w is not None]
            known[id(node)] = (node, max(weights))
        found = weight_of(t)
        return found if found is not None else 1

    def _checked(self, solver: z3.Solver, wanted: Iterable[Sym],
                 weight: int = 1) -> tuple[str, dict[str, Value] | None]:
        started = time.perf_counter()
        result = solver.check()
        self.seconds += time.perf_counter() - started
        self.calls += 1
        count = rlimit_count(solver)
        spent, self._counted = max(0, count - self._counted), max(count, self._counted)
        self.work += spent
        work.current().z3 += spent * weight
        if result == z3.sat:
            return "sat", self._model(solver.model(), wanted)
        if result == z3.unsat:
            return "unsat", None
        return "unknown", None

    def _model(self, model: z3.ModelRef, wanted: Iterable[Sym]) -> dict[str, Value]:
        out: dict[str, Value] = {}
        for sym in wanted:
            value = model.eval(self.translate.var(sym), model_completion=True)
            if sym.sort in (ARR_INT, ARR_BOOL):
                out[sym.name] = _array_value(value, model)
            elif sym.sort == FLOAT:
                out[sym.name] = _float_value(self.translate.var(sym), model)
            elif sym.sort == STR:
                out[sym.name] = read_string(z3, value)
            else:
                out[sym.name] = z3.is_true(value) if sym.sort == BOOL else value.as_long()
        return out


def _float_value(var: z3.ExprRef, model: z3.ModelRef) -> float:
    """A Float64 variable's value in `model`, exactly (through its bits)."""
    if z3.is_true(model.eval(z3.fpIsNaN(var, var.ctx), model_completion=True)):
        return float("nan")
    bits = model.eval(z3.fpToIEEEBV(var, var.ctx), model_completion=True)
    return fpsem.from_bits(bits.as_long())


def _scalar(value: z3.ExprRef) -> int | bool:
    return bool(z3.is_true(value)) if z3.is_bool(value) else int(value.as_long())


def _array_value(value: z3.ExprRef, model: z3.ModelRef) -> ArrayValue:
    """A Z3 array value (K, Store chains or as-array) as an ArrayValue."""
    entries: list[tuple[int, int | bool]] = []
    while True:
        if z3.is_store(value):
            index = value.arg(1).as_long()
            if all(k != index for k, _ in entries):
                entries.append((index, _scalar(value.arg(2))))
            value = value.arg(0)
            continue
        if z3.is_K(value):
            return ArrayValue(_scalar(value.arg(0)), tuple(entries))
        if z3.is_as_array(value):
            interp = model[z3.get_as_array_func(value)]
            for args_and_value in interp.as_list()[:-1]:
                index = args_and_value[0].as_long()
                if all(k != index for k, _ in entries):
                    entries.append((index, _scalar(args_and_value[1])))
            return ArrayValue(_scalar(interp.else_value()), tuple(entries))
        raise ValueError(f"unexpected array value {value}")


def path_symbols(path: PathNode | None, extra: Iterable[Term]) -> list[Sym]:
    """The symbols of the path and `extra`, in name order: the order the
    box constraints are asserted in, so it must not depend on set iteration
    (string hashes differ between processes)."""
    found: set[Sym] = set()
    for node in nodes(path):
        found |= symbols(node.constraint)
    for term in extra:
        found |= symbols(term)
    return sorted(found, key=lambda s: (s.name, s.sort))
