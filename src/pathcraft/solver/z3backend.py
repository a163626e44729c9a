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

import z3

from pathcraft.solver import fpsem
from pathcraft.solver.ops import OPS
from pathcraft.solver.path import PathNode, nodes
from pathcraft.solver.strings import read_string, z3_string
from pathcraft.solver.terms import ARR_BOOL, ARR_INT, BOOL, FLOAT, STR, App, ArrayValue, Sym, Term, Value, symbols


class Z3Translator:
    """Terms to Z3 expressions, memoised per term node."""

    def __init__(self, ctx: z3.Context) -> None:
        self.ctx = ctx
        self._cache: dict[Term, z3.ExprRef] = {}
        self._vars: dict[str, z3.ExprRef] = {}

    def var(self, sym: Sym) -> z3.ExprRef:
        found = self._vars.get(sym.name)
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
            self._vars[sym.name] = found
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
        return OPS[t.op].z3(z3, *(self(x) for x in t.args))


class Z3Session:
    """One incremental Z3 solver whose scopes follow the current path."""

    def __init__(self, timeout_ms: int, rlimit: int) -> None:
        self.ctx = z3.Context()
        self.solver = z3.Solver(ctx=self.ctx)
        self.solver.set("timeout", timeout_ms)
        self.rlimit = rlimit
        self.translate = Z3Translator(self.ctx)
        self._stack: list[PathNode] = []
        self.calls = 0
        self.seconds = 0.0

    def _sync(self, path: PathNode | None) -> None:
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
            self.solver.add(self.translate(node.constraint))
            self._stack.append(node)

    def check(
        self, path: PathNode | None, extra: Iterable[Term], wanted: Iterable[Sym],
        rlimit: int | None = None,
    ) -> tuple[str, dict[str, Value] | None]:
        """'sat' with a model of `wanted`, 'unsat', or 'unknown' (`rlimit`
        overrides the session's resource limit for this check)."""
        self._sync(path)
        self.solver.set("rlimit", self.rlimit if rlimit is None else rlimit)
        self.solver.push()
        try:
            for term in extra:
                self.solver.add(self.translate(term))
            started = time.perf_counter()
            result = self.solver.check()
            self.seconds += time.perf_counter() - started
            self.calls += 1
            if result == z3.sat:
                return "sat", self._model(wanted)
            if result == z3.unsat:
                return "unsat", None
            return "unknown", None
        finally:
            self.solver.pop()

    def _model(self, wanted: Iterable[Sym]) -> dict[str, Value]:
        model = self.solver.model()
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
