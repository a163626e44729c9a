"""Test cases: a path of the symbolic execution made concrete.

Concretization picks input values from the model of the path constraints,
preferring small ones, and computes the expected outcome by evaluating the
path's symbolic result at those inputs: nothing of the analysed code runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pathcraft.engine.state import SymbolicPath
from pathcraft.ir.values import ExcValue
from pathcraft.ir.nodes import Sentinel
from pathcraft.solver.terms import App, Sym, Term, show, symbols
from pathcraft.testcase.heapdesc import SymbolicSnapshot, changed, json_value
from pathcraft.ir.trace import Event, TraceTerm
from pathcraft.testcase.pathsig import normalize

SMALL = 10


@dataclass(frozen=True)
class Construction:
    """How a test builds its object through the class's API (`--objects
    constructed`): `receiver = cls(**constructor)`, then each of `calls`
    (method, arguments) on it. `bindings` reach objects of the state before
    the target call from the receiver (attribute names and list indices),
    by the names the test's heap snapshots give them."""

    receiver: str
    cls: str
    constructor: tuple[tuple[str, Any], ...]
    calls: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]
    bindings: tuple[tuple[str, tuple[str | int, ...]], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "receiver": self.receiver,
            "class": self.cls,
            "constructor": dict(self.constructor),
            "calls": [[method, dict(args)] for method, args in self.calls],
            "bindings": {name: list(path) for name, path in self.bindings},
        }


@dataclass(frozen=True)
class TestCase:
    __test__: ClassVar[bool] = False  # not a pytest test class
    name: str
    qualname: str
    inputs: tuple[tuple[str, Any], ...]
    kind: str  # "return" | "raise"
    value: Any = None  # int, bool, None or {"$ref": name}
    exc_type: str | None = None
    exc_message: str | None = None
    trace: str = ""
    constraints: tuple[str, ...] = ()
    path: tuple[Event, ...] = ()
    steps: int = 0
    heap_in: Mapping[str, Any] = field(default_factory=dict)
    heap_final: Mapping[str, Any] = field(default_factory=dict)
    costs: Mapping[str, Any] = field(default_factory=dict)  # int, or the symbolic cost as text
    cost_values: Mapping[str, int] = field(default_factory=dict)  # at this test's inputs
    extra: Mapping[str, Any] = field(default_factory=dict)
    # the object built through the API; then `heap_in` is its state just
    # before the target call, and `inputs` the target's own arguments
    construction: Construction | None = None
    # the trace term itself (what `trace` prints, and which frames raised):
    # for guided criteria and oracles; never emitted
    term: TraceTerm | None = field(default=None, compare=False, repr=False)

    @property
    def heap_out(self) -> dict[str, Any]:
        """What the call changed: fields and items that differ, new objects."""
        return changed(self.heap_in, self.heap_final)

    def outcome_json(self) -> dict[str, Any]:
        if self.kind == "return":
            return {"kind": "return", "value": json_value(self.value)}
        return {"kind": "raise", "type": self.exc_type, "message": self.exc_message}

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "function": self.qualname,
            "inputs": {name: json_value(v) for name, v in self.inputs},
            "outcome": self.outcome_json(),
            "trace": self.trace,
            "constraints": list(self.constraints),
            "path": [list(e) for e in self.path],
            "steps": self.steps,
            "heap_in": json_value(dict(self.heap_in)),
            "heap_out": json_value(self.heap_out),
            "heap_final": json_value(dict(self.heap_final)),
            **({"costs": dict(self.costs)} if self.costs else {}),
            **({"note": self.extra["note"]} if "note" in self.extra else {}),
            **({"spellings": dict(self.extra["spellings"])} if "spellings" in self.extra else {}),
            **({"frozen": list(self.extra["frozen"])} if "frozen" in self.extra else {}),
            **({"builtin_bases": dict(self.extra["builtin_bases"])} if "builtin_bases" in self.extra else {}),
            **({"warnings": [list(w) for w in self.extra["warnings"]]} if "warnings" in self.extra else {}),
            **({"construction": self.construction.to_json()} if self.construction else {}),
        }


# A model of the path from its constraints alone (small ints preferred), so
# the same path gives the same test whatever search found it.
CanonicalModel = Callable[[SymbolicPath, list[Sym]], "Mapping[str, Any] | None"]


def input_symbols(path: SymbolicPath) -> list[Sym]:
    """The parameters' symbols and those the input heap holds (fields of
    input objects, contents of input lists), in name order."""
    from pathcraft.heap.cells import DictCell, ListCell, ObjectCell

    found = set(path.inputs) | {v for _, v in path.roots if isinstance(v, Sym)}  # a union parameter's member too
    for cell in path.heap.initial.values():
        held: list[object] = []
        if isinstance(cell, ObjectCell):
            held.extend(cell.fields.values())
        elif isinstance(cell, DictCell):
            held.extend([*cell.keys, *(cell.values or ())])
        elif isinstance(cell, ListCell):
            held.extend([*(cell.items or ()), cell.length, cell.data])
        for value in held:
            if isinstance(value, (Sym, App)):
                found |= symbols(value)
    return sorted(found, key=lambda s: (s.name, s.sort))


def concretize(path: SymbolicPath, name: str, canonical: CanonicalModel | None = None,
               cost_names: tuple[str, ...] = (), note: str | None = None,
               reserved: tuple[str, ...] = ()) -> TestCase:
    """The test case of `path`: inputs from the canonical model (the search's
    own model if Z3 gives none in its limits), expected outcome and heaps
    evaluated from the symbolic result, never by running the code."""
    model: Mapping[str, Any] = path.model
    if canonical is not None:
        fresh = canonical(path, input_symbols(path))
        if fresh is not None:
            model = fresh
    from pathcraft.heap.cells import Addr

    scalars = [p for p, v in path.roots if not isinstance(v, Addr)]
    # names the test file already uses (the module, pytest, `result`) are not given to objects
    snapshot = SymbolicSnapshot(path.heap, model, reserved=[*scalars, *reserved])
    # a parameter holding its sentinel default is left out of the call (a test cannot name the object)
    inputs = tuple((p, snapshot.value(v)) for p, v in path.roots if not isinstance(v, Sentinel))
    heap_in = snapshot.inputs()
    outcome = path.outcome
    result = outcome.value if outcome.kind == "return" else None
    value, final = snapshot.final(result)
    common = dict(
        name=name,
        qualname=path.function.qualname,
        inputs=inputs,
        trace=str(path.trace),
        term=path.trace,
        constraints=_constraint_texts(path),
        path=normalize(path.events),
        steps=path.steps,
        heap_in=heap_in,
        heap_final=final,
        extra={"note": note} if note else {},
        **_costs(path, model, cost_names),
    )
    if outcome.kind == "raise":
        exc = outcome.value
        assert isinstance(exc, ExcValue)
        return TestCase(kind="raise", exc_type=exc.type, exc_message=exc.message, **common)
    return TestCase(kind="return", value=value, **common)


def _costs(path: SymbolicPath, model: Mapping[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    from pathcraft.solver.simplify import normalize, text
    from pathcraft.solver.path import bounds_of
    from pathcraft.solver.terms import evaluate, is_const

    shown: dict[str, Any] = {}
    values: dict[str, int] = {}
    for cost in names:
        term = normalize(path.costs.get(cost), bounds_of(path.store))
        shown[cost] = term if is_const(term) else text(term)
        values[cost] = int(evaluate(term, model))
    return {"costs": shown, "cost_values": values}


def _constraint_texts(path: SymbolicPath) -> tuple[str, ...]:
    """The path constraint for a reader: inputs the path pins to one value
    first (`icap == 1`), then each program constraint simplified."""
    from pathcraft.solver.path import bounds_of

    bounds = bounds_of(path.store)
    mentioned = {s.name for c in path.program_constraints for s in symbols(c)}
    pinned = [f"{name} == {lo}" for name, (lo, hi) in sorted(bounds.items())
              if lo is not None and lo == hi and name in mentioned]
    rest = (_display(c, path) for c in path.program_constraints)
    return tuple(_unique([*pinned, *(t for t in rest if t != "True")]))


_FLIP = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le", "eq": "eq", "ne": "ne"}


def _display(constraint: Term, path: SymbolicPath) -> str:
    """A path constraint as a reader wants it: simplified under what the
    whole path knows, a constant on the right."""
    from pathcraft.solver.simplify import simplify
    from pathcraft.solver.path import bounds_of
    from pathcraft.solver.terms import App, is_const

    term = simplify(constraint, bounds_of(path.store))
    if isinstance(term, App) and term.op in _FLIP and is_const(term.args[0]) and not is_const(term.args[1]):
        term = App(_FLIP[term.op], (term.args[1], term.args[0]), term.sort)
    text = show(term, 2)  # joined by `and` with the others: a disjunction keeps its parentheses
    # identities of input objects (symbolic heap) read as `is`
    text = re.sub(r"id\(([^()]+)\) == id\(([^()]+)\)", r"\1 is \2", text)
    return re.sub(r"id\(([^()]+)\) != id\(([^()]+)\)", r"\1 is not \2", text)


def _unique(items: Any) -> list[str]:
    return list(dict.fromkeys(items))
