"""What one exploration is asked to do, and the search controls that do it.

The defaults that are also settings come from their declarations
(`settings.LIBRARY`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pathcraft.cost.models import SizeModel
from pathcraft.engine.bounds import CostBound
from pathcraft.engine.branch import Brancher
from pathcraft.engine.control import ControlStack, Deadline, PathLimit, SearchControl
from pathcraft.engine.criteria import Criterion, CriterionSpec
from pathcraft.engine.search import Searcher, make_searcher
from pathcraft.engine.state import State, SymbolicPath
from pathcraft.heap.assumptions import Assumptions
from pathcraft.settings import LIBRARY, Compose, Heap, Search
from pathcraft.solver.chain import SolverOptions


@dataclass(frozen=True)
class EngineOptions:
    criterion: CriterionSpec = Criterion("loop", 2)
    search: Search = LIBRARY.search
    solver: SolverOptions = field(default_factory=SolverOptions)
    deadline: float | None = None  # time.monotonic() value
    max_paths: int | None = LIBRARY.max_paths
    heap: Heap = LIBRARY.heap
    max_list_length: int = LIBRARY.max_list_length
    size_model: SizeModel = SizeModel()
    # upper bounds on costs, e.g. ("steps", "le", 200): a path whose cost
    # already exceeds one is pruned (costs never decrease along a path)
    cost_bounds: tuple[tuple[str, str, int], ...] = ()
    # run on these inputs only (a concrete run of the CLP program): the
    # inputs and the heap snapshot of a test case
    concrete: tuple[Mapping[str, object], Mapping[str, object]] | None = None
    # run allow-listed library calls the model lacks on the model's values
    # (engine/concretize.py): up to this many samples per call; 0 drops them
    concolic: int = 0
    # Solve-First (004 §5): at a choice point, each alternative the search
    # will come back to is first run to its end on its model's values (no
    # solver), and that path offered to the controls (an item search keeps
    # it if it covers something new, so Look-Ahead may skip the alternative)
    solve_first: bool = LIBRARY.solve_first  # off here, on for the command line (settings.py)
    assumptions: Assumptions | None = None  # heap assumptions on the inputs
    controls: tuple[SearchControl, ...] = ()  # extra search controls, after the built-in ones
    # calls answered by the callee's summary (engine/summaries.py): "off",
    # "on-demand" (a summary made at the first call) or "bottom-up" (the
    # callees' summaries made first, leaves of the call graph first)
    compose: Compose = LIBRARY.compose
    summary_store: str | None = None  # a folder: summaries kept across runs (engine/summarystore.py)


def build_controls(options: EngineOptions, brancher: Brancher) -> ControlStack:
    """The search controls the options ask for, in the order they are
    consulted: the termination criteria, the cost upper bounds, the limits
    on paths and time, then any extra controls; and the searcher."""
    controls: list[SearchControl] = [*options.criterion.controls()]
    if options.cost_bounds:
        controls.append(CostBound(options.cost_bounds, brancher))
    if options.max_paths:
        controls.append(PathLimit(options.max_paths))
    if options.deadline is not None:
        controls.append(Deadline(options.deadline))
    controls.extend(options.controls)
    controls.append(Strategy(options.search))
    return ControlStack(controls)


class Strategy(SearchControl):
    """The searcher named by `--search` (last: a guide's searcher wins)."""

    name = "search"

    def __init__(self, search: str) -> None:
        self.search = search

    def searcher(self) -> Searcher[State | SymbolicPath]:
        return make_searcher(self.search)
