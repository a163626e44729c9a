"""Where a strategy's paths become tests (strategies/base.py: `Sink`).

A path is filtered (a concolic repeat, an exception when only normal paths
are asked for, a threshold policy that cannot hold), then written at once
or held until the search ends and written in depth-first order after the
selection policies. Writing a test concretizes its path, names it and
passes it to the run's caller the moment it exists.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from pathcraft.cost.policy import Policy, Threshold, Top, Worst, exceed_condition
from pathcraft.engine.concretize import CONCRETIZED
from pathcraft.models.warnings.semantics import ISSUED
from pathcraft.engine.generators import DRAINED
from pathcraft.engine.engine import Engine
from pathcraft.engine.state import EngineStats, SymbolicPath
from pathcraft.errors import Unsupported
from pathcraft.frontend.invariants import Checked, unwrap, verdict
from pathcraft.ir.driver import DriverPlan
from pathcraft.ir.nodes import Program
from pathcraft.solver import terms as T
from pathcraft.solver.canonical import CanonicalModels
from pathcraft.solver.path import bounds_of
from pathcraft.solver.simplify import normalize
from pathcraft.solver.terms import Sym, evaluate, is_const
from pathcraft.strategies import probes
from pathcraft.strategies.base import Candidate
from pathcraft.testcase.constructed import concretize_constructed, target_trace
from pathcraft.testcase.emit_pytest import homed, module_alias
from pathcraft.testcase.heapdesc import ENUM_KEY
from pathcraft.testcase.model import TestCase, concretize
from pathcraft.testcase.records import NamedValue

_INT_DIGITS = sys.get_int_max_str_digits() or 4300  # Python's limit on an int literal's digits


class CaseSink:
    """The tests of one function's run, as its strategy finds their paths."""

    def __init__(self, program: Program, qualname: str, engine: Engine, models: CanonicalModels, *,
                 plan: DriverPlan | None, checked: Checked | None, policies: Sequence[Policy],
                 cost_names: tuple[str, ...], exceptions: bool,
                 on_case: Callable[[TestCase], None] | None) -> None:
        self.program, self.qualname, self.models = program, qualname, models
        self.engine = engine  # whose brancher narrows paths to the policies
        self.stats: EngineStats = engine.stats  # where a test that cannot be stated is counted
        self.plan, self.checked, self.cost_names, self.exceptions = plan, checked, cost_names, exceptions
        self.on_case = on_case
        self.thresholds = [p for p in policies if isinstance(p, Threshold)]
        self.selections = [p for p in policies if not isinstance(p, Threshold)]
        self.cases: list[TestCase] = []
        self.choices: list[tuple[int, ...]] = []  # of each test's path, as `cases`
        self.written: list[SymbolicPath] = []
        self.covered: set[tuple[str, Any]] = set()
        self.told: dict[tuple[int, ...], set[bool]] = {}
        self.taken: set[tuple[int, ...]] = set()
        self.held: list[SymbolicPath] = []
        self.filtered = 0  # exceptional paths left out
        self.policy_filtered = 0
        self.repeats = 0  # concolic samples that took a path already taken
        self.deferred = False
        # concolic mode: samples of a concrete call are no choice of the search, so two
        # that went on to make the same choices took the same path: one test
        self.sampled: set[tuple[tuple[int, ...], str]] = set()

    def take(self, engine: Engine, paths: Iterable[SymbolicPath], *, stream: bool,
             missed: Callable[[], None] | None = None, defer: bool = False) -> None:
        self.engine, self.deferred = engine, defer
        for path in paths:
            self.taken.add(tuple(path.choices))
            before = len(self.cases)
            if path.ext.get(CONCRETIZED):
                key = (tuple(path.choices), path.outcome.kind)
                if key in self.sampled:
                    self.repeats += 1
                    continue
                self.sampled.add(key)
            if not self.exceptions and path.outcome.kind == "raise":
                self.filtered += 1
                continue
            kept = _satisfy(engine, path, self.thresholds)
            if kept is None:
                self.policy_filtered += 1
            elif stream:
                self.write(Candidate(kept))
            else:
                self.held.append(kept)
            if missed is not None and len(self.cases) == before:
                missed()
        self.held.sort(key=lambda p: p.choices)
        for path, note in _select(engine, self.held, self.selections):
            self.write(Candidate(path, note))

    def interrupted(self) -> None:
        """The run was cut short: the tests held are written as they are
        (unless a selection policy was to choose among them)."""
        if not self.selections:
            for path in sorted(self.held, key=lambda p: p.choices):
                self.write(Candidate(path))

    def publish(self, cases: list[TestCase]) -> None:
        self.cases = cases
        if self.on_case is not None:
            for case in cases:
                self.on_case(case)

    def write(self, candidate: Candidate) -> bool:
        """Write the test of the candidate's path (or drop it, counted, if it
        cannot be stated); was it written?"""
        path = candidate.path
        kind = "_constructed" if self.plan else ""
        name = f"test_{self.qualname.replace('.', '_')}{kind}_{len(self.cases) + 1}"
        program, plan = self.program, self.plan
        if plan is not None:  # the target call's own trace term: where a wrapper's verdict is
            path = replace(path, trace=target_trace(path.trace, program.functions[plan.driver].entry,
                                                    program.functions[self.qualname].entry))
        broken = None
        if self.checked is not None:
            broken = verdict(self.checked, path.trace)
            path = replace(path, trace=unwrap(self.checked, path.trace))
        case = self._stated(path, name, candidate.note)
        if case is None:
            return False
        case = self._dressed(case, candidate, name, broken)
        self.cases.append(case)
        self.choices.append(tuple(path.choices))
        self.written.append(path)
        self.covered.update((name, _exact(value)) for name, value in case.inputs)
        if isinstance(case.value, bool) and case.kind == "return":
            self.told.setdefault(tuple(path.choices), set()).add(case.value)
        if self.on_case is not None and not self.deferred:
            self.on_case(case)
        return True

    def _canonical(self, path: SymbolicPath, inputs: list[Sym]) -> Any:
        return self.models.model(path.store, inputs, distinct_items=bool(path.ext.get(probes.PROBED)))

    def _stated(self, path: SymbolicPath, name: str, note: str | None) -> TestCase | None:
        """The test case of `path`, or None (counted) where a test cannot
        state it."""
        program = self.program
        reserved = (module_alias(program.module), "pytest", "result",
                    *(home.rpartition(".")[2] for home in program.class_homes.values()))
        if self.plan is not None and DRAINED in path.ext:  # its test would call the method on a built object
            self.stats.note_unsupported(Unsupported("a generator returned by a method of an object the test builds"))
            return None
        try:
            if self.plan is not None:
                case = concretize_constructed(path, self.plan, name, self._canonical, self.cost_names, note,
                                              reserved)
            else:
                case = concretize(path, name, self._canonical, self.cost_names, note, reserved=reserved)
        except Unsupported as problem:  # a value the test cannot state exactly: dropped, counted
            self.stats.note_unsupported(problem)
            return None
        if case.kind == "raise" and case.exc_type == "IndexError" and case.exc_message in _RANGE_MESSAGES \
                and _largest_int(case) >= _SSIZE:  # an index beyond a C ssize_t: CPython's message is another
            case = replace(case, exc_message=None)
        if _has_huge_int(case):  # Python reads no such literal (int_max_str_digits): dropped, counted
            self.stats.note_unsupported(Unsupported(f"a test with an int of more than {_INT_DIGITS} digits "
                                                    "(Python refuses a literal that long)"))
            return None
        named, tuples = _classes_named(case)
        hidden = sorted(named & program.hidden_classes - program.class_spellings.keys() - program.class_homes.keys()
                        | tuples & program.hidden_classes)  # a NamedTuple is written `mod.C(...)`, never homed
        spelled = {c: program.class_spellings[c] for c in sorted(named & program.class_spellings.keys())}
        for cls in sorted(named):  # a sibling module's class: named through that module
            spelling = spelled.get(cls, cls)
            home = program.class_homes.get(spelling.split(".")[0])
            if home is not None:
                spelled[cls] = homed(home, spelling)
        if spelled:  # `PositionalList._Node` for `_DoublyLinkedBase._Node`, a base's the module does not bind
            case = replace(case, extra={**case.extra, "spellings": spelled})
        based = {c: base for c in sorted(named) if c in program.classes and (base := program.builtin_base(c))}
        if based:  # built with the builtin's `__new__` (models/builtins)
            case = replace(case, extra={**case.extra, "builtin_bases": based})
        frozen = sorted(c for c in named if program.frozen(c))
        if frozen:  # its fields are set with `object.__setattr__` (its own `__setattr__` raises)
            case = replace(case, extra={**case.extra, "frozen": frozen})
        if hidden:  # the test would name it as an attribute of the tested module, which has none
            self.stats.note_unsupported(Unsupported(f"a test naming class {hidden[0]} of another module, "
                                                    "which the tested module does not import"))
            return None
        abstract = sorted(c for c in named if c in program.classes and program.classes[c].abstract)
        if abstract:  # object.__new__ refuses it: no value of the test could be one
            self.stats.note_unsupported(Unsupported(f"an instance of abstract class {abstract[0]}"))
            return None
        return case

    def _dressed(self, case: TestCase, candidate: Candidate, name: str, broken: str | None) -> TestCase:
        """The test named by what it checks, with what its writer needs to
        know of where it came from and how the function is called."""
        as_bool = candidate.as_bool
        if as_bool is not None:  # the parameter's 0 or 1 passed as False or True: returned as given
            case = replace(case, inputs=tuple((p, bool(v) if p == as_bool else v) for p, v in case.inputs),
                           value=bool(case.value))
        case = replace(case, name=f"{name}_{outcome_words(case)}")
        if candidate.probed is not None:
            case = replace(case, extra={**case.extra, "probe": candidate.probed})
        if candidate.edge is not None:
            case = replace(case, extra={**case.extra, "edge": candidate.edge})
        info = self.program.functions[self.qualname]
        if info.binding:  # a static or class method is called on the class; a property read
            case = replace(case, extra={**case.extra, "binding": info.binding})
        if info.varargs is not None:  # its items are spread in the call: `f(a, 1, 2)`
            case = replace(case, extra={**case.extra, "varargs": info.varargs})
        if info.positional_only:  # passed by position: `f(1, b=2)`
            case = replace(case, extra={**case.extra, "positional_only": list(info.positional_only)})
        if info.kwargs is not None:  # its dict spread last: `f(a, **kwargs)`
            case = replace(case, extra={**case.extra, "kwargs": info.kwargs})
        if info.keyword_only:  # passed by keyword, also where the rest goes by position (`bisect(a, x, key=k)`)
            case = replace(case, extra={**case.extra, "keyword_only": list(info.keyword_only)})
        warned = candidate.path.ext.get(ISSUED)
        if isinstance(warned, tuple) and warned:  # stated with `pytest.warns` around the call
            case = replace(case, extra={**case.extra, "warnings": [list(w) for w in warned]})
        if info.generator or DRAINED in candidate.path.ext:  # the test consumes what it yields: `list(f(...))`
            case = replace(case, extra={**case.extra, "consumed": "list"})
        if self.checked is not None:
            case = replace(case, extra={**case.extra, "invariants": list(self.checked.invariants),
                                        **({"invariant": broken} if broken else {})})
        return case
# the out-of-range messages of an index CPython holds in a C ssize_t; one beyond it ("cannot fit 'int'
# into an index-sized integer") the model does not tell apart: with such an input, the type alone is asserted
_RANGE_MESSAGES = frozenset({"list index out of range", "list assignment index out of range",
                             "tuple index out of range", "string index out of range", "deque index out of range"})
_SSIZE = 2 ** 63


def _largest_int(case: TestCase) -> int:
    """The largest magnitude of an int the test's inputs hold."""
    return max((abs(n) for n in _ints(case.inputs, case.heap_in)), default=0)


def _ints(*values: Any) -> Iterator[int]:
    """The ints (not bools) in `values`, through dicts, lists and tuples."""
    todo: list[Any] = list(values)
    while todo:
        value = todo.pop()
        if isinstance(value, int) and not isinstance(value, bool):
            yield value
        elif isinstance(value, dict):
            todo.extend(value.values())
        elif isinstance(value, (list, tuple)):
            todo.extend(value)


def _has_huge_int(case: TestCase) -> bool:
    """Does the test state an int too long to write as a literal? (Read off
    its bit length: converting it to text is what fails.)"""
    bits = _INT_DIGITS * 3  # fewer than _INT_DIGITS decimal digits
    return any(n.bit_length() > bits for n in _ints(case.inputs, case.value, case.heap_in, case.heap_final,
                                                      case.cost_values))


def _exact(value: Any) -> Any:
    """A test input as a key of `covered`: an int, or its type and repr
    (`True` is not `1`; lists and objects are never the same value)."""
    return value if type(value) is int else (type(value).__name__, repr(value))


def _classes_named(case: TestCase) -> tuple[set[str], set[str]]:
    """The classes a test names: its objects' and its exception's; and the
    NamedTuple classes of the values it compares."""
    found = {case.exc_type} if case.exc_type else set()
    tuples: set[str] = set()
    pending: list[Any] = [dict(case.heap_in), dict(case.heap_final), case.value, [v for _, v in case.inputs]]
    while pending:
        item = pending.pop()
        if isinstance(item, NamedValue):
            tuples.add(item.cls)
        if isinstance(item, dict):
            if isinstance(item.get("class"), str) and "function" not in item and "made" not in item:
                # (a function is its lambda, a lock its constructor call)
                found.add(item["class"])
            if isinstance(item.get(ENUM_KEY), str):  # an enum member, named through its class
                found.add(item[ENUM_KEY])
            pending.extend(item.values())
        elif isinstance(item, (list, tuple)):
            pending.extend(item)
    return found, tuples


def _cost(path: SymbolicPath, name: str) -> Any:
    return normalize(path.costs.get(name), bounds_of(path.store))


def _satisfy(engine: Engine, path: SymbolicPath, thresholds: list[Threshold]) -> SymbolicPath | None:
    """`path` narrowed so that every threshold policy holds, or None."""
    for policy in thresholds:
        condition = policy.condition(_cost(path, policy.cost))
        if condition is True:
            continue
        if condition is False:
            return None
        narrowed = engine.brancher.narrow(path.store, path.model, condition)
        if narrowed is None:
            return None
        path = replace(path, store=narrowed[0], model=narrowed[1])
    return path


def _select(engine: Engine, paths: list[SymbolicPath],
            selections: Sequence[Policy]) -> list[tuple[SymbolicPath, str | None]]:
    """Apply worst:/top: policies (in order) to the paths kept so far."""
    chosen: list[tuple[SymbolicPath, str | None]] = [(p, None) for p in paths]
    for policy in selections:
        if isinstance(policy, Top):
            ranked = sorted(chosen, key=lambda item: -int(evaluate(_cost(item[0], policy.cost), item[0].model)))
            chosen = ranked[: policy.n]
        elif isinstance(policy, Worst):
            chosen = _worst(engine, [p for p, _ in chosen], policy.cost)
    return chosen


def _worst(engine: Engine, paths: list[SymbolicPath], cost: str) -> list[tuple[SymbolicPath, str | None]]:
    constants = [int(_cost(p, cost)) for p in paths if is_const(_cost(p, cost))]
    top = max(constants) if constants else None
    winners: list[tuple[SymbolicPath, str | None]] = []
    for path in paths:
        value = _cost(path, cost)
        if is_const(value) or top is None:
            continue
        condition = T.relation("gt", value, top)
        narrowed = engine.brancher.narrow(path.store, path.model, condition)
        if narrowed is not None:
            winners.append((replace(path, store=narrowed[0], model=narrowed[1]),
                            f"worst {cost} when {exceed_condition(value, top)}"))
    if winners:
        return winners
    if top is None:  # only symbolic costs, none comparable: keep them all
        return [(p, None) for p in paths]
    return [(p, f"worst {cost}: {top}") for p in paths
            if is_const(_cost(p, cost)) and int(_cost(p, cost)) == top]


def outcome_words(case: TestCase) -> str:
    """`returns_20`, `returns_minus_1`, `returns_none`, `raises_value_error`,
    `returns_vector`, `returns_tuple`: test names that say what the test checks."""
    import re

    if case.kind == "raise":
        words = re.sub(r"(?<!^)(?=[A-Z])", "_", (case.exc_type or "exception").rpartition(".")[2]).lower()
        return f"raises_{words}"
    value = case.value
    if isinstance(value, dict) and ENUM_KEY in value:  # `returns_red`
        return f"returns_{value['member'].lower()}"
    if isinstance(value, dict):
        target = case.heap_final.get(value["$ref"], {}) or case.heap_in.get(value["$ref"], {})
        kind = target.get("class", next((k for k in ("dict", "set", "deque") if k in target), "list")) \
            if target else "object"
        if "made" in target:  # a lock: named by its kind (`threading.RLock()`: `returns_lock`)
            kind = "lock"
        return f"returns_{re.sub(r'(?<!^)(?=[A-Z])', '_', kind.rpartition('.')[2]).lower()}"  # `Outer.Inner`
    if value is None or isinstance(value, bool):
        return f"returns_{str(value).lower()}"
    if isinstance(value, tuple):
        return "returns_tuple"
    if isinstance(value, int):
        return f"returns_{'minus_' if value < 0 else ''}{abs(value)}" if abs(value) < 10**6 else "returns_int"
    return "returns"
