"""What an instruction handler may ask of the running machine.

Handlers (`engine/dispatch.py` and the modules it names, the models of
`pathcraft.models`, generators, summaries) see a `Machine`, never the
`Run` that implements it: so they import this module and not
`engine/engine.py`, and the run's own bookkeeping (searchers, Solve-First,
probes) stays out of their reach. `Explorer` is the part of an `Engine`
that composition (`engine/summaries.py`) needs to run a callee alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Protocol

from pathcraft.engine.branch import Brancher
from pathcraft.engine.concretize import Concretizer
from pathcraft.engine.control import SearchControl
from pathcraft.engine.evaluate import Evaluator
from pathcraft.engine.heapstep import Effect, HeapExecutor
from pathcraft.engine.options import EngineOptions
from pathcraft.engine.state import EngineStats, Frame, Outcome, State, SymbolicPath
from pathcraft.engine.values import Value
from pathcraft.heap.base import HeapModel
from pathcraft.heap.cells import Heap
from pathcraft.ir.nodes import Predicate, Program
from pathcraft.ir.values import ExcValue

# what one step of a state leads to: open states and completed paths
Successors = list[State | SymbolicPath]


class Composer(Protocol):
    """Stands for a call by a summary of the callee (`engine/summaries.py`)."""

    def compose(self, machine: Machine, state: State, frame: Frame, target: str | None, callee: Predicate,
                args: Sequence[object]) -> Successors | None: ...


class Machine(Protocol):
    """The collaborators of one run and the moves a handler makes with them."""

    @property
    def program(self) -> Program: ...
    @property
    def evaluator(self) -> Evaluator: ...
    @property
    def heap(self) -> HeapExecutor: ...
    @property
    def heap_model(self) -> HeapModel: ...
    @property
    def brancher(self) -> Brancher: ...
    @property
    def controls(self) -> SearchControl: ...
    @property
    def stats(self) -> EngineStats: ...
    @property
    def summaries(self) -> Composer | None: ...
    @property
    def concretizer(self) -> Concretizer | None: ...

    def enter(self, state: State, pred: Predicate, env: Mapping[str, Value], via_tail: bool,
              loops: Mapping[str, int]) -> list[State]:
        """Push `pred`: one child per feasible rule."""
    def invoke(self, state: State, predicate: str, env: dict[str, Value]) -> list[State]:
        """Enter a function or builtin predicate from a non-tail call site."""
    def calling(self, state: State, callee: Predicate) -> State | None:
        """`state` at a call of `callee`, before its entry (None: pruned)."""
    def throw(self, state: State, exc: ExcValue) -> Successors:
        """An exception raised by the top frame's own instruction."""
    def finish(self, state: State, outcome: Outcome) -> Successors:
        """The top frame ends with `outcome`."""
    def effects(self, frame: Frame, target: str | None, effects: list[Effect]) -> Successors:
        """Step past a heap instruction once per outcome (or throw)."""
    def within_domain(self, state: State) -> State | None:
        """`state` with the domain conditions just evaluated on its path."""


class Explorer(Protocol):
    """What composition asks of the engine: the program, its options and
    heap model, and a callee's paths run alone."""

    @property
    def program(self) -> Program: ...
    @property
    def options(self) -> EngineOptions: ...
    @property
    def heap_model(self) -> HeapModel: ...

    def subtree(self, callee: Predicate, env: Mapping[str, Value], stats: EngineStats,
                summaries: Composer, heap: Heap | None = None) -> Iterator[SymbolicPath]:
        """The paths of `callee` entered with `env` on an empty stack."""
