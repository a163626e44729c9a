"""Concretization (paper 004 §2, concolic execution): a call the symbolic
model cannot follow is run on concrete values and the path goes on with its
result.

Every state carries a model of its path constraints: the concrete input of
a run that takes the path so far. At a call of an allow-listed function
(`ir/pure_calls.py`) the arguments are fixed to their values in that model
(`x == 7` joins the path constraints, so the test states exactly that
input), the real function runs in-process on them, and its result, or the
exception it raised, continues the path as a constant.

Fixing the arguments gives up the other values they could take, so a path
is sampled up to `samples` times: each further sample asks the solver for
other arguments on the same path, larger ones first where the path allows. What follows
the call then sees different results (a loop bound, a branch on the
result), which is how concolic mode covers code past an unmodelled call.
The engine never calls anything else: no code of the analysed program runs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from pathcraft.engine.branch import Brancher
from pathcraft.engine.state import EngineStats, State
from pathcraft.engine.values import Value
from pathcraft.errors import Unsupported
from pathcraft.ir import pure_calls
from pathcraft.ir.nodes import Text
from pathcraft.ir.values import ExcValue
from pathcraft.solver import terms as T
from pathcraft.solver.terms import Term, is_const

CONCRETIZED = "concolic.concretized"  # state.ext: the calls a path ran concretely, (function, arguments) each


@dataclass(frozen=True)
class Sample:
    """One concrete run of the call: the state with its arguments fixed, and
    the function's result or the exception it raised."""

    state: State
    result: Term | None
    raised: ExcValue | None


class Concretizer:
    def __init__(self, brancher: Brancher, stats: EngineStats, samples: int = 3) -> None:
        self.brancher = brancher
        self.stats = stats
        self.samples = samples

    def run(self, state: State, function: Value, args: list[Value]) -> list[Sample]:
        """Up to `samples` concrete runs of `function(*args)` on `state`'s path."""
        assert isinstance(function, Text) and isinstance(function.value, str)
        name = function.value
        callable_ = pure_calls.FUNCTIONS[name]
        terms: list[Term] = []
        for arg in args:
            if not _is_number(arg):
                raise Unsupported(f"{name}() on a value that is not a number (concolic mode runs it on numbers)")
            terms.append(arg)  # type: ignore[arg-type]  # a number term
        symbolic = [t for t in terms if not is_const(t)]
        out: list[Sample] = []
        current: State | None = state
        for _ in range(self.samples if symbolic else 1):
            if current is None:
                break
            values = [T.value_of(t, current.model) for t in terms]
            fixed: State | None = current
            for t, v in zip(terms, values):
                if not is_const(t) and fixed is not None:
                    fixed = self._fix(fixed, t, v)
            if fixed is None:
                break
            bound = pure_calls.BOUNDED.get(name)
            if bound is not None and any(abs(v) > bound for v in values if isinstance(v, int)):
                raise Unsupported(f"{name}() on ints over {bound} (it could run for long)")
            fixed = fixed.with_ext(CONCRETIZED, (*_calls(fixed), (name, tuple(values))))
            self.stats.concretized += 1
            try:
                result = callable_(*values)
            except pure_calls.RAISES as exc:
                out.append(Sample(fixed, None, ExcValue(type(exc).__name__, None)))
            else:
                if not isinstance(result, (bool, int, float)):
                    raise Unsupported(f"{name}() returned a {type(result).__name__}")
                out.append(Sample(fixed, result, None))
            if symbolic and len(out) < self.samples:
                current = self._next(current, [(t, v) for t, v in zip(terms, values) if not is_const(t)])
        return out

    def _fix(self, state: State, term: Term, value: object) -> State | None:
        """`state` with `term` fixed to `value` (shown in the test's path
        comment), a float's sign and nan too."""
        shown, hidden = _same(term, value)
        fixed = self.brancher.constrain(state, shown)
        return self.brancher.constrain(fixed, hidden, origin="concretized") if fixed is not None else None

    def _next(self, state: State, used: list[tuple[Term, object]]) -> State | None:
        """`state` narrowed to other values for the next sample: larger ones
        if the path allows (`n >= 2 * 3 + 2`, so a loop bound or a branch
        on the result may change), else any others."""
        growth = [_larger(t, v) for t, v in used]
        for wanted in ([g for g in growth if g is not None], []):
            other = _conjunction([*wanted, T.not_(_conjunction([_same(t, v)[0] for t, v in used]))])
            narrowed = self.brancher.narrow(state.store, state.model, other, origin="concretized")
            if narrowed is not None:
                store, model = narrowed
                return replace(state, store=store, model=model)
        return None


def _same(term: Term, value: object) -> tuple[Term, Term]:
    """`term` is `value` exactly: the equality a reader sees, and what
    tells a float's -0.0 from 0.0 (1/x keeps the sign)."""
    if isinstance(value, float):
        if math.isnan(value):
            return T.apply("fisnan", term), True
        if value == 0.0:
            sign = T.apply("fgt", T.apply("fdiv", 1.0, term), 0.0)
            return T.apply("feq", term, value), sign if math.copysign(1.0, value) > 0 else T.not_(sign)
        return T.apply("feq", term, value), True
    return T.eq(term, value), True  # type: ignore[arg-type]  # an int or a bool


def _larger(term: Term, value: object) -> Term | None:
    """A value further from zero than `value`: doubling and more."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or isinstance(value, float) and \
            not math.isfinite(value):
        return None
    if isinstance(value, int):
        return T.ge(term, 2 * value + 2) if value >= 0 else T.le(term, 2 * value - 2)
    return T.apply("fge", term, 2.0 * value + 2.0) if value >= 0 else T.apply("fle", term, 2.0 * value - 2.0)


def _conjunction(parts: list[Term]) -> Term:
    out: Term = True
    for part in parts:
        out = T.and_(out, part)
    return out


def _is_number(value: Value) -> bool:
    if isinstance(value, (bool, int, float)):
        return True
    return isinstance(value, (T.Sym, T.App)) and T.sort_of(value) in (T.INT, T.BOOL, T.FLOAT)


def _calls(state: State) -> tuple[tuple[str, tuple[object, ...]], ...]:
    held = state.ext.get(CONCRETIZED)
    return held if isinstance(held, tuple) else ()
