"""What a search strategy is, and what it is given and gives back.

A generation run picks one strategy by name (strategies/registry.py) and
runs it on a `Job`: the program, the target, the options, the engine set
up for them. The strategy searches and hands each path it finds to a
`Sink`, which filters it (exceptions, threshold policies), writes its test
at once or holds it for the selection policies, and passes the test on:
nothing found is lost when the run is cut short. What the strategy counted
comes back as an `Outcome`, a typed record the run's statistics are made
from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pathcraft.cost.policy import Policy
from pathcraft.engine.criteria import Criteria, Criterion, CriterionSpec
from pathcraft.engine.engine import Engine
from pathcraft.engine.state import SymbolicPath
from pathcraft.errors import PathcraftError
from pathcraft.ir.nodes import Program
from pathcraft.solver.canonical import CanonicalModels
from pathcraft.testcase.model import TestCase


class RunOptions(Protocol):
    """The options a strategy reads (`generate.GenerateOptions` has them):
    declared here so that strategies need not import the run above them."""

    @property
    def exceptions(self) -> bool: ...
    @property
    def policies(self) -> tuple[Policy, ...]: ...
    @property
    def trace(self) -> str | None: ...
    @property
    def select(self) -> str | None: ...
    @property
    def cover(self) -> str | None: ...
    @property
    def refine(self) -> bool: ...
    @property
    def resource_driven(self) -> bool: ...
    @property
    def item_search(self) -> str: ...
    @property
    def look_ahead(self) -> bool: ...
    @property
    def unit(self) -> bool: ...
    @property
    def max_call_depth(self) -> int | None: ...
    @property
    def long_probes(self) -> int: ...
    @property
    def edge_tests(self) -> int: ...


@dataclass(frozen=True)
class Candidate:
    """A path offered for a test, with what its test says about why it is
    there (each None for a path of the search itself)."""

    path: SymbolicPath
    note: str | None = None  # what a selection policy found (`worst steps when ...`)
    probed: str | None = None  # why a long probe's test is there (--long-probes)
    edge: str | None = None  # the value an edge test pins (--edge-tests)
    as_bool: str | None = None  # the parameter whose 0 or 1 the test passes as False or True


@dataclass(frozen=True)
class Job:
    """What a strategy works on. `in_order`: paths of the engine's search
    arrive in depth-first order and no selection policy reorders them (so
    their tests can be written as they come)."""

    program: Program
    qualname: str
    target: str  # the predicate the search starts from: the function, or its driver
    options: RunOptions
    engine: Engine
    models: CanonicalModels  # the canonical models the run's tests are solved with
    constructed: bool  # objects built by a driver (--objects constructed)
    in_order: bool


class Sink(Protocol):
    """Where a strategy's paths become tests."""

    def take(self, engine: Engine, paths: Iterable[SymbolicPath], *, stream: bool,
             missed: Callable[[], None] | None = None, defer: bool = False) -> None:
        """Each path of a search, filtered; written at once if `stream`, else
        held and written in depth-first order (after the selection
        policies) when the search ends. `missed` is told when a path gave no
        test; `defer`: the tests reach the run's caller only at `publish`."""

    def write(self, candidate: Candidate) -> bool:
        """Write the test of one path (a post-pass's): was it written?"""

    def publish(self, cases: list[TestCase]) -> None:
        """The run's tests are `cases`: passed on now (after `defer`)."""

    @property
    def cases(self) -> list[TestCase]: ...
    @property
    def written(self) -> list[SymbolicPath]:
        """The paths of the tests written, in order."""
    @property
    def taken(self) -> set[tuple[int, ...]]:
        """The choices of every path a search found."""
    @property
    def told(self) -> Mapping[tuple[int, ...], set[bool]]:
        """The bools the tests of a path assert it returns."""
    @property
    def covered(self) -> set[tuple[str, Any]]:
        """(parameter, value) of every test written."""


@dataclass
class TraceCounts:
    """GT/UT of a guided scheme: traces generated and those that were
    infeasible (both None until the scheme starts on its traces)."""

    generated: int | None = None
    infeasible: int | None = None
    abstraction: int | None = None  # resource-driven: the whole-run traces of the abstraction
    gave_way: int | None = None  # points: points handed to the standard search
    gave_way_after: int | None = None  # all-local-paths: traces tried before the standard search took over

    def start(self) -> None:
        self.generated = self.infeasible = 0

    def tried(self) -> None:
        self.generated = (self.generated or 0) + 1

    def failed(self) -> None:
        self.infeasible = (self.infeasible or 0) + 1


@dataclass(frozen=True)
class ItemCounts:
    """What an item search (strategies/items.py) did besides its tests."""

    completed_paths: int
    look_ahead_cut: int
    call_depth_cut: int
    concrete_runs: int | None = None  # with Solve-First only
    concrete_kept: int | None = None


@dataclass(frozen=True)
class Outcome:
    """What a strategy gives back: the engine whose solvers and options the
    statistics report (a strategy may run a sibling of the job's), and its
    own counts (None: not this strategy's)."""

    engine: Engine
    traces: TraceCounts | None = None
    probe_tests: int | None = None
    edge_tests: int | None = None
    items: ItemCounts | None = None
    points: dict[str, str | None] | None = None  # each program point: the first test reaching it
    notes: tuple[str, ...] = field(default=())


class Strategy(Protocol):
    """A way to search for the tests of a function, registered by `name`."""

    name: str

    def applies(self, options: RunOptions) -> bool:
        """Do these options ask for this strategy? (The registry tries its
        strategies in order: the first that applies runs.)"""

    def run(self, job: Job, sink: Sink) -> Outcome:
        """Search, handing every path found to `sink`."""


def criterion_parts(criterion: CriterionSpec) -> Sequence[Criterion]:
    return criterion.parts if isinstance(criterion, Criteria) else (criterion,)


def has_loop_bound(criterion: CriterionSpec) -> bool:
    return any(part.kind == "loop" for part in criterion_parts(criterion))


def loop_bound(criterion: CriterionSpec) -> int:
    """The K of the loop-K part of a criterion (a guided criterion's trace
    generator bounds the local loops with it)."""
    for part in criterion_parts(criterion):
        if part.kind == "loop":
            return part.k
    raise PathcraftError(f"a selection criterion needs loop-K as its termination criterion, not '{criterion}'")
