"""The one place where a condition meets a path: check it with the solver
chain, extend the path with it, and count the outcome.

Rule guards, heap-model constraints, cost bounds and resource policies all
go through `Brancher.narrow`; search controls see every feasible and
infeasible branch here.
"""

from __future__ import annotations

from dataclasses import replace

from pathcraft.engine.control import SearchControl
from pathcraft.engine.state import EngineStats, State
from pathcraft.solver.chain import SAT, UNKNOWN, Query, SolverChain
from pathcraft.solver.path import PathNode, extend
from pathcraft.solver.terms import Model, Term, evaluate

Narrowed = tuple[PathNode | None, Model]


class Brancher:
    def __init__(self, solver: SolverChain, stats: EngineStats, controls: SearchControl | None = None) -> None:
        self.solver = solver
        self.stats = stats
        self.controls = controls or SearchControl()

    def narrow(self, store: PathNode | None, model: Model, condition: Term,
               origin: str = "program") -> Narrowed | None:
        """The path constraints `store` with `condition` added, and a model
        of them; None if infeasible (or unknown). A condition the path
        already implies is not recorded again."""
        if condition is True:
            return store, model
        if condition is False:
            self.stats.infeasible += 1
            return None
        answer = self.solver.check(Query(store, model, condition))
        if answer.verdict == SAT:
            assert answer.model is not None
            return (store if answer.implied else extend(store, condition, origin)), answer.model
        if answer.verdict == UNKNOWN:
            self.stats.unknown += 1
        else:
            self.stats.infeasible += 1
        return None

    def constrain(self, state: State, condition: Term, origin: str = "program") -> State | None:
        """`state` with `condition` on its path, if feasible and no search
        control prunes it."""
        narrowed = self.narrow(state.store, state.model, condition, origin)
        if narrowed is None:
            self.controls.infeasible(state, condition)
            return None
        store, model = narrowed
        return self.controls.feasible(replace(state, store=store, model=model), condition)

    def settle(self, state: State) -> State | None:
        """Move the constraints the heap model produced into the path."""
        if not state.heap.pending:
            return state
        heap, pending = state.heap.drain()
        settled: State | None = replace(state, heap=heap)
        for condition in pending:
            assert settled is not None
            settled = self.constrain(settled, condition, origin="heap")
            if settled is None:
                return None
        return settled

    def feasible(self, state: State, condition: Term) -> bool:
        """Is `condition` possible on `state`'s path? (The path is not extended.)"""
        return self.narrow(state.store, state.model, condition) is not None


class ModelBrancher(Brancher):
    """A brancher that follows the state's model and never solves: a
    condition the model satisfies extends the path, any other is not
    taken. Running a state with it is a concrete run on the model's values
    (a symbol the model leaves free takes its default, 0, everywhere alike,
    so the path stays satisfiable). Solve-First's concrete runs use it."""

    def narrow(self, store: PathNode | None, model: Model, condition: Term,
               origin: str = "program") -> Narrowed | None:
        if condition is True:
            return store, model
        if condition is False:
            return None
        try:
            holds = bool(evaluate(condition, model))
        except (ArithmeticError, ValueError, TypeError):  # TypeError: a value of another sort (a union
            return None  # parameter's int where this start binds a str): not this start's values
        return (extend(store, condition, origin), model) if holds else None
