"""The engine's data: states (resolvents), paths, options and statistics.

A state is immutable: frames, path constraints, events and heap are
persistent structures shared between the children of a choice point.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from pathcraft.cost.models import Costs, SizeModel
from pathcraft.engine.criteria import Criterion
from pathcraft.engine.values import Value
from pathcraft.heap.assumptions import Assumptions
from pathcraft.heap.cells import Heap
from pathcraft.ir.nodes import FunctionInfo, Predicate, Rule
from pathcraft.ir.trace import TraceTerm
from pathcraft.solver.chain import SolverOptions
from pathcraft.solver.path import PathNode, constraints, program_constraints
from pathcraft.solver.terms import Sym, Term

# Signature events: ("line", function, line) | ("call", function) | ("return", function)
Event = tuple


@dataclass(frozen=True, slots=True)
class Frame:
    pred: Predicate
    rule: Rule
    pc: int
    env: Mapping[str, Value]
    children: tuple[TraceTerm, ...]
    via_tail: bool
    loops: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Stack:
    top: Frame
    rest: Stack | None


@dataclass(frozen=True, slots=True)
class EventNode:
    event: Event
    prev: EventNode | None


@dataclass(frozen=True, slots=True)
class State:
    stack: Stack | None
    path: PathNode | None
    model: Mapping[str, int | bool]
    events: EventNode | None
    steps: int
    visits: Mapping[str, int]
    heap: Heap = field(default_factory=Heap)
    costs: Costs = field(default_factory=Costs)


@dataclass(frozen=True)
class Outcome:
    """How a path ends: a returned value or a raised exception."""

    kind: str  # "return" | "raise"
    value: Value


@dataclass(frozen=True)
class Path:
    """A successful branch of the tree: the raw material of a test case."""

    function: FunctionInfo
    inputs: tuple[Sym, ...]
    outcome: Outcome
    trace: TraceTerm
    path: PathNode | None
    model: Mapping[str, int | bool]
    events: tuple[Event, ...]
    steps: int
    heap: Heap = field(default_factory=Heap)
    roots: tuple[tuple[str, object], ...] = ()
    costs: Costs = field(default_factory=Costs)

    @property
    def constraints(self) -> list[Term]:
        return constraints(self.path)

    @property
    def program_constraints(self) -> list[Term]:
        return program_constraints(self.path)


@dataclass
class EngineStats:
    steps: int = 0
    paths: int = 0
    pruned: int = 0
    infeasible: int = 0
    unknown: int = 0
    unsupported: int = 0
    seconds: float = 0.0
    stopped: str | None = None
    notes: list[str] = field(default_factory=list)


@dataclass
class EngineOptions:
    criterion: Criterion = field(default_factory=lambda: Criterion("loop", 2))
    search: str = "dfs"
    solver: SolverOptions = field(default_factory=SolverOptions)
    deadline: float | None = None  # time.monotonic() value
    max_paths: int | None = None
    heap: str = "symbolic"
    max_list_length: int = 3
    size_model: SizeModel = field(default_factory=SizeModel)
    # upper bounds on costs, e.g. ("steps", "le", 200): a path whose cost
    # already exceeds one is pruned (costs never decrease along a path)
    cost_bounds: tuple[tuple[str, str, int], ...] = ()
    # run on these inputs only (a concrete run of the CLP program): the
    # inputs and the heap snapshot of a test case
    concrete: tuple[Mapping[str, object], Mapping[str, object]] | None = None
    assumptions: Assumptions | None = None  # heap assumptions on the inputs
