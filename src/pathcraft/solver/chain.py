"""The solver chain: small layers in front of Z3, each answering what it can.

A query asks whether the path constraints of a state, together with one more
condition (a rule guard), are satisfiable. The state always carries a model of
its path constraints, which makes most queries cheap:

  constant  the condition folded to True/False
  implied   the condition or its negation is already a path constraint
  model     the state's model already satisfies the condition (a sat answer
            with no solving: one of the two guards of every binary branch)
  interval  bounds learnt from the path imply or refute the condition
  cache     independence slicing (only the constraints sharing symbols with
            the condition) and a cache keyed on the slice
  probe     for a slice with floats: values built from its constants, tried
            in Python (`floatsearch`), before Z3's bit-blasting
  z3        incremental Z3, under a timeout and an rlimit

`build_chain` stacks them; each counts the queries it answered.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from pathcraft.solver import floatsearch, stringsearch
from pathcraft.solver.intervals import decide
from pathcraft.solver.path import PathNode, bounds_of, iter_newest_first
from pathcraft.solver.terms import Model, Term, Value, evaluate, is_const, not_, order_key, symbols, within
from pathcraft.solver.z3backend import Z3Session, path_symbols

SAT, UNSAT, UNKNOWN = "sat", "unsat", "unknown"


@dataclass(frozen=True)
class Query:
    path: PathNode | None
    model: Model
    condition: Term


@dataclass(frozen=True)
class Answer:
    """`implied`: the path constraints already entail the condition, so a
    state need not record it again."""

    verdict: str
    model: Model | None
    layer: str
    implied: bool = False


class Solver(Protocol):
    name: str
    hits: int

    def check(self, query: Query) -> Answer: ...


@dataclass
class SolverOptions:
    # The rlimit (Z3's deterministic resource count) is the limit that
    # normally stops a hard query, so runs repeat on any machine; the
    # timeout is only a safety net.
    timeout_ms: int = 5000
    rlimit: int = 2_000_000
    box_bounds: tuple[int, ...] = (4, 16)  # on `unknown`, look for a model with every int in [-b, b]
    use_implied: bool = True
    use_model: bool = True
    use_intervals: bool = True
    use_cache: bool = True
    deadline: float | None = None  # the search's time budget (`time.monotonic()`): caps each Z3 check


class Z3Layer:
    name = "z3"

    def __init__(self, options: SolverOptions) -> None:
        self.options = options
        self.session = Z3Session(options.timeout_ms, options.rlimit, options.deadline)
        self.hits = 0
        self.unknown = 0

    def check(self, query: Query) -> Answer:
        """Tiers, cheapest first: a tenth of the rlimit; then, if Z3 gave up,
        the same inside the smallest box; the full rlimit; the larger boxes.
        Non-linear integer problems (nested `%`) often defeat Z3 in general
        but are easy in a small box, and a model found there is a model; an
        empty box proves nothing, so that stays unknown."""
        wanted = path_symbols(query.path, [query.condition])
        ints = [s for s in wanted if s.sort == "int"]
        small = max(1, self.options.rlimit // 10) if self.options.rlimit else 0
        boxes = list(self.options.box_bounds)
        tiers: list[tuple[int, int | None]] = [(small, None)]
        if boxes:
            tiers.append((small, boxes[0]))
        tiers.append((self.options.rlimit, None))
        tiers.extend((self.options.rlimit, b) for b in boxes[1:])
        self.hits += 1
        verdict, model = UNKNOWN, None
        for rlimit, bound in tiers:
            extra = [query.condition, *(within(ints, bound) if bound else [])]
            outcome, found = self.session.check(query.path, extra, wanted, rlimit)
            if outcome == SAT:
                verdict, model = SAT, found
                break
            if outcome == UNSAT and bound is None:
                verdict = UNSAT
                break
        if verdict == UNKNOWN:
            self.unknown += 1
        return Answer(verdict, model, self.name)


class _Layer:
    name = "layer"

    def __init__(self, inner: Solver) -> None:
        self.inner = inner
        self.hits = 0


class ConstantLayer(_Layer):
    name = "constant"

    def check(self, query: Query) -> Answer:
        if is_const(query.condition):
            self.hits += 1
            if query.condition:
                return Answer(SAT, query.model, self.name)
            return Answer(UNSAT, None, self.name)
        return self.inner.check(query)


class ImpliedLayer(_Layer):
    """The condition, or its negation, is literally one of the path constraints
    (a loop guard re-checked by `%`'s divisor guard, say)."""

    name = "implied"

    def check(self, query: Query) -> Answer:
        negation = not_(query.condition)
        for constraint in iter_newest_first(query.path):
            if constraint == query.condition:
                self.hits += 1
                return Answer(SAT, query.model, self.name, implied=True)
            if constraint == negation:
                self.hits += 1
                return Answer(UNSAT, None, self.name)
        return self.inner.check(query)


class ModelLayer(_Layer):
    """KLEE's counterexample-cache idea, for the one model we always have."""

    name = "model"

    def check(self, query: Query) -> Answer:
        if evaluate(query.condition, query.model):
            self.hits += 1
            return Answer(SAT, query.model, self.name)
        return self.inner.check(query)


class IntervalLayer(_Layer):
    name = "interval"

    def check(self, query: Query) -> Answer:
        verdict = decide(query.condition, bounds_of(query.path))
        if verdict is None:
            return self.inner.check(query)
        self.hits += 1
        if verdict:
            return Answer(SAT, query.model, self.name, implied=True)
        return Answer(UNSAT, None, self.name)


@dataclass
class _CacheEntry:
    verdict: str
    model: dict[str, Value] | None = field(default=None)


class SlicingCacheLayer(_Layer):
    """Independence slicing, then a cache keyed on the slice and condition.

    A cached model covers only the slice's symbols; merged into the state's
    model it satisfies the whole path, because the constraints outside the
    slice share no symbol with it."""

    name = "cache"

    def __init__(self, inner: Solver) -> None:
        super().__init__(inner)
        self._cache: dict[tuple[frozenset[Term], Term], _CacheEntry] = {}

    def check(self, query: Query) -> Answer:
        relevant = self._slice(query.path, query.condition)
        key = (relevant, query.condition)
        entry = self._cache.get(key)
        if entry is not None:
            self.hits += 1
            if entry.verdict == UNSAT:
                return Answer(UNSAT, None, self.name)
            merged = dict(query.model)
            merged.update(entry.model or {})
            return Answer(SAT, merged, self.name)
        answer = self.inner.check(query)
        if answer.verdict != UNKNOWN:
            sliced: dict[str, Value] | None = None
            if answer.model is not None:
                names = {s.name for t in (*relevant, query.condition) for s in symbols(t)}
                sliced = {k: v for k, v in answer.model.items() if k in names}
            self._cache[key] = _CacheEntry(answer.verdict, sliced)
        return answer

    @staticmethod
    def _slice(path: PathNode | None, condition: Term) -> frozenset[Term]:
        pending = list(iter_newest_first(path))
        wanted = set(symbols(condition))
        chosen: set[Term] = set()
        changed = True
        while changed:
            changed = False
            rest = []
            for c in pending:
                if symbols(c) & wanted:
                    chosen.add(c)
                    wanted |= symbols(c)
                    changed = True
                else:
                    rest.append(c)
            pending = rest
        return frozenset(chosen)


class FloatProbeLayer(_Layer):
    """A model of a float slice found by trying values (sat only: when it
    finds none, Z3 decides). The constraints outside the slice share no
    symbol with it, so the state's model still satisfies them."""

    name = "probe"

    def __init__(self, inner: Solver) -> None:
        super().__init__(inner)
        self._floats: dict[Term, bool] = {}  # does a constraint involve floats?

    def check(self, query: Query) -> Answer:
        if not floatsearch.involves_float([query.condition, *iter_newest_first(query.path)], self._floats):
            return self.inner.check(query)
        relevant = [*SlicingCacheLayer._slice(query.path, query.condition), query.condition]
        if floatsearch.involves_float(relevant, self._floats):
            wanted = sorted({s for t in relevant for s in symbols(t)}, key=lambda s: (s.name, s.sort))
            found = floatsearch.search(sorted(relevant, key=order_key), wanted, seed=query.model)
            if found is not None:
                self.hits += 1
                return Answer(SAT, {**query.model, **found}, self.name)
        return self.inner.check(query)


class StringProbeLayer(_Layer):
    """A model of a slice that applies `str.lower`/`upper`, or `find` to a
    string an earlier `find` cut, found by trying short strings
    (stringsearch.py). When none is found the query is unknown: Z3 is not
    asked (it cannot be stopped in `lower`/`upper`, z3backend.UNBOUNDED_IN_Z3,
    and takes seconds past its timeout on the `find` chains)."""

    name = "strings"

    def __init__(self, inner: Solver) -> None:
        super().__init__(inner)
        self._hard = stringsearch.HardForZ3()  # does a constraint hold what Z3 handles badly?
        self.unknown = 0  # queries of such a slice whose search found no model: unknown, Z3 not asked

    def check(self, query: Query) -> Answer:
        if not any(self._hard(t)
                   for t in (query.condition, *iter_newest_first(query.path))):
            return self.inner.check(query)
        relevant = [*SlicingCacheLayer._slice(query.path, query.condition), query.condition]
        if any(self._hard(t) for t in relevant):
            found = stringsearch.search(relevant, query.model)
            if found is not None:
                self.hits += 1
                return Answer(SAT, {**query.model, **found}, self.name)
            self.unknown += 1
            return Answer(UNKNOWN, None, self.name)
        return self.inner.check(query)


class SolverChain:
    """The stacked layers plus the counters `--stats` prints."""

    def __init__(self, options: SolverOptions | None = None) -> None:
        self.options = options or SolverOptions()
        self.z3 = Z3Layer(self.options)
        probe = FloatProbeLayer(self.z3)
        top: Solver = StringProbeLayer(probe)
        self.layers: list[Solver] = [top, probe, self.z3]
        if self.options.use_cache:
            top = SlicingCacheLayer(top)
            self.layers.insert(0, top)
        if self.options.use_intervals:
            top = IntervalLayer(top)
            self.layers.insert(0, top)
        if self.options.use_model:
            top = ModelLayer(top)
            self.layers.insert(0, top)
        if self.options.use_implied:
            top = ImpliedLayer(top)
            self.layers.insert(0, top)
        top = ConstantLayer(top)
        self.layers.insert(0, top)
        self.top = top
        self.queries = 0

    def check(self, query: Query) -> Answer:
        self.queries += 1
        return self.top.check(query)

    def answered_by(self) -> dict[str, int]:
        return {layer.name: layer.hits for layer in self.layers}

    @property
    def z3_calls(self) -> int:
        return self.z3.session.calls

    @property
    def z3_work(self) -> int:
        """Z3's deterministic resource count spent so far (z3backend.Z3Session.work)."""
        return self.z3.session.work

    @property
    def z3_seconds(self) -> float:
        return self.z3.session.seconds
