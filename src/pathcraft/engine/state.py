"""The engine's data: states (resolvents), completed paths, options and
statistics.

A state is immutable: frames, path constraints, events and heap are
persistent structures shared between the children of a choice point.
`State.ext` and `Frame.ext` are immutable mappings where search controls
keep their own data, keyed by the control's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from pathcraft.cost.models import Costs
from pathcraft.engine.values import Value
from pathcraft.heap.cells import Heap
from pathcraft.ir.nodes import FunctionInfo, Predicate, Rule
from pathcraft.ir.trace import Event, TraceTerm
from pathcraft.solver.path import PathNode, constraints, program_constraints
from pathcraft.solver.terms import Model, Sym, Term

Ext = Mapping[str, object]
_NO_EXT: Ext = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Frame:
    pred: Predicate
    rule: Rule
    pc: int
    env: Mapping[str, Value]
    children: tuple[TraceTerm, ...]
    via_tail: bool
    loops: Mapping[str, int]  # iterations so far of each loop this frame is inside
    ext: Ext = field(default_factory=lambda: _NO_EXT)


@dataclass(frozen=True, slots=True)
class Stack:
    top: Frame
    rest: Stack | None


@dataclass(frozen=True, slots=True)
class EventNode:
    event: Event
    prev: EventNode | None

    def sequence(self) -> tuple[Event, ...]:
        """The events from the first to this one."""
        out: list[Event] = []
        node: EventNode | None = self
        while node is not None:
            out.append(node.event)
            node = node.prev
        return tuple(reversed(out))


@dataclass(frozen=True, slots=True)
class ChoiceNode:
    """Which candidate (rule, heap outcome, input shape) a fork took; the
    sequence orders paths the way depth-first search finds them."""

    index: int
    prev: ChoiceNode | None

    def sequence(self) -> tuple[int, ...]:
        """The choices from the first fork to this one."""
        out: list[int] = []
        node: ChoiceNode | None = self
        while node is not None:
            out.append(node.index)
            node = node.prev
        return tuple(reversed(out))


@dataclass(frozen=True, slots=True)
class Entry:
    """A predicate about to be entered: what the criteria look at."""

    pred: Predicate
    loops: Mapping[str, int]  # including this entry's iteration
    via_tail: bool


@dataclass(frozen=True, slots=True)
class State:
    stack: Stack | None
    store: PathNode | None  # the path constraints
    model: Model  # a model of them
    events: EventNode | None
    steps: int  # rule applications so far (the derivation depth)
    heap: Heap = field(default_factory=Heap)
    costs: Costs = field(default_factory=Costs)
    choices: ChoiceNode | None = None
    ext: Ext = field(default_factory=lambda: _NO_EXT)

    def with_ext(self, key: str, value: object) -> State:
        """This state with a control's data for the rest of the path."""
        return replace(self, ext={**self.ext, key: value})

    def with_frame_ext(self, key: str, value: object) -> State:
        """This state with a control's data on the top frame only (gone
        when the frame ends)."""
        assert self.stack is not None
        top = self.stack.top
        return replace(self, stack=Stack(replace(top, ext={**top.ext, key: value}), self.stack.rest))

    def chose(self, index: int) -> State:
        return replace(self, choices=ChoiceNode(index, self.choices))


@dataclass(frozen=True)
class Outcome:
    """How a path ends: a returned value or a raised exception."""

    kind: str  # "return" | "raise"
    value: Value


@dataclass(frozen=True)
class SymbolicPath:
    """A completed branch of the tree: the raw material of a test case."""

    function: FunctionInfo
    inputs: tuple[Sym, ...]
    outcome: Outcome
    trace: TraceTerm
    store: PathNode | None
    model: Model
    events: tuple[Event, ...]
    steps: int
    heap: Heap = field(default_factory=Heap)
    roots: tuple[tuple[str, object], ...] = ()
    costs: Costs = field(default_factory=Costs)
    choices: tuple[int, ...] = ()  # depth-first order: sort by this for a canonical order
    ext: Ext = field(default_factory=lambda: _NO_EXT)  # the search controls' data at the end

    @property
    def constraints(self) -> list[Term]:
        return constraints(self.store)

    @property
    def program_constraints(self) -> list[Term]:
        return program_constraints(self.store)


@dataclass
class EngineStats:
    steps: int = 0
    paths: int = 0
    pruned: int = 0
    infeasible: int = 0
    unknown: int = 0
    unsupported: int = 0
    concretized: int = 0  # calls run on concrete values (concolic mode, engine/concretize.py)
    concrete_runs: int = 0  # Solve-First: alternatives run to their end on their model's values
    concrete_kept: int = 0  # those runs whose path a search control kept
    seconds: float = 0.0
    stopped: str | None = None
    notes: list[str] = field(default_factory=list)

    def note_unsupported(self, problem: Exception) -> None:
        self.unsupported += 1
        if len(self.notes) < 5 and str(problem) not in self.notes:
            self.notes.append(str(problem))


def step(state: State, frame: Frame, env: Mapping[str, Value] | None = None,
         events: EventNode | None = None) -> State:
    """`state` with its top frame moved to the next instruction."""
    assert state.stack is not None
    new_frame = replace(frame, pc=frame.pc + 1, env=frame.env if env is None else env)
    return replace(
        state,
        stack=Stack(new_frame, state.stack.rest),
        events=state.events if events is None else events,
    )
