"""Upper bounds on costs as a search control: costs never decrease along a
path, so a state whose cost already exceeds a bound on every input of its
path can be pruned soundly (`--policy 'steps<=200'`)."""

from __future__ import annotations

from pathcraft.engine.branch import Brancher
from pathcraft.engine.control import SearchControl
from pathcraft.engine.state import State
from pathcraft.solver import terms as T


class CostBound(SearchControl):
    name = "cost-bound"

    def __init__(self, bounds: tuple[tuple[str, str, int], ...], brancher: Brancher) -> None:
        self.bounds = bounds  # (cost name, relation, bound): ("steps", "le", 200)
        self.brancher = brancher

    def charged(self, state: State) -> State | None:
        for name, op, bound in self.bounds:
            holds = T.relation(op, state.costs.get(name), bound)
            if holds is True:
                continue
            if holds is False or not self.brancher.feasible(state, holds):
                return None
        return state
