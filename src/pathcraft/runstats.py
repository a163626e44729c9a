"""The statistics of one function's run, as a typed record: the engine's
work (from its counters and solver chains), what the strategy counted, and
the run's own filters. `as_dict` is what `--stats`, the JSON report and a
kept run's file show: the names and order of the keys are the format."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from pathcraft.engine.engine import Engine
from pathcraft.strategies.base import Outcome

# keys of the record renamed in its dictionary (the others are their field's name)
_RENAMED = {"abstraction_traces": "abstraction", "generated_traces": "generated",
            "infeasible_traces": "infeasible"}


@dataclass(frozen=True)
class RunStats:
    """Each None field is left out of the dictionary (not this run's)."""

    paths: int = 0
    tests: int = 0
    exception_paths_filtered: int = 0
    derivation_steps: int = 0
    pruned_paths: int = 0
    infeasible_rules: int = 0
    unknown_paths: int = 0
    unsupported_paths: int = 0
    concretized_calls: int = 0
    branch_queries: int = 0
    answered_without_z3: int = 0
    answered_by: Mapping[str, int] = field(default_factory=dict)
    z3_calls: int = 0
    z3_seconds: float = 0.0
    seconds: float = 0.0
    work: int | None = None  # the budget's units spent (budget.py): the same on any machine
    # composition (engine/summaries.py), when the search composed calls
    summaries_computed: int | None = None
    summaries_refused: int | None = None
    summaries_reused: int | None = None
    calls_composed: int | None = None
    calls_inlined: int | None = None
    # the guided schemes (strategies/base.py: TraceCounts)
    abstraction_traces: int | None = None
    generated_traces: int | None = None
    infeasible_traces: int | None = None
    gave_way: int | None = None
    gave_way_after: int | None = None
    probe_tests: int | None = None
    edge_tests: int | None = None
    concolic_repeats: int | None = None
    # an item search (strategies/items.py)
    completed_paths: int | None = None
    look_ahead_cut: int | None = None
    call_depth_cut: int | None = None
    concrete_runs: int | None = None
    concrete_kept: int | None = None
    points: Mapping[str, str | None] | None = None
    policy_filtered: int | None = None
    setup_raised: int | None = None
    run_reused: int | None = None
    # a kept run's keys in the order its file had them (then the rest)
    order: tuple[str, ...] = field(default=(), compare=False)

    def as_dict(self) -> dict[str, Any]:
        found = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "order"}
        shown = {name: value for name, value in found.items() if value is not None}
        if not self.order:
            return shown
        return {**{name: shown[name] for name in self.order if name in shown}, **shown}

    def reused(self) -> RunStats:
        """The statistics of a run read back from its file: its counts, none
        of the search's work."""
        return replace(self, derivation_steps=0, branch_queries=0, answered_without_z3=0, z3_calls=0,
                       z3_seconds=0.0, seconds=0.0, summaries_computed=0, summaries_refused=0,
                       summaries_reused=0, calls_composed=0, calls_inlined=0, answered_by={}, run_reused=1,
                       work=None if self.work is None else 0)

    @classmethod
    def from_dict(cls, stats: Mapping[str, Any]) -> RunStats:
        """The record a kept run's file holds (`as_dict`'s keys)."""
        names = {f.name for f in fields(cls)} - {"order"}
        return cls(**{k: v for k, v in stats.items() if k in names}, order=tuple(stats))


def engine_work(engine: Engine) -> dict[str, Any]:
    """The engine's counters and its solver chains' answers, by field."""
    chains = engine.solvers
    answered: dict[str, int] = {}
    for chain in chains:
        for layer, hits in chain.answered_by().items():
            answered[layer] = answered.get(layer, 0) + hits
    queries = sum(chain.queries for chain in chains)
    stats = engine.stats
    work: dict[str, Any] = dict(
        paths=stats.paths, derivation_steps=stats.steps, pruned_paths=stats.pruned,
        infeasible_rules=stats.infeasible, unknown_paths=stats.unknown, unsupported_paths=stats.unsupported,
        concretized_calls=stats.concretized, branch_queries=queries,
        answered_without_z3=queries - answered.get("z3", 0), answered_by=answered,
        z3_calls=sum(chain.z3_calls for chain in chains),
        z3_seconds=round(sum(chain.z3_seconds for chain in chains), 4), seconds=round(stats.seconds, 4))
    if engine.summaries is not None:
        counts = engine.summaries.stats
        work.update(summaries_computed=counts.computed, summaries_refused=counts.refused,
                    summaries_reused=counts.reused, calls_composed=counts.composed, calls_inlined=counts.inlined)
    return work


def outcome_counts(outcome: Outcome) -> dict[str, Any]:
    """What the strategy counted, by field."""
    counts: dict[str, Any] = {"probe_tests": outcome.probe_tests, "edge_tests": outcome.edge_tests,
                              "points": outcome.points}
    if outcome.traces is not None:
        counts.update({key: getattr(outcome.traces, name) for key, name in _RENAMED.items()},
                      gave_way=outcome.traces.gave_way, gave_way_after=outcome.traces.gave_way_after)
    if outcome.items is not None:
        items = outcome.items
        counts.update(completed_paths=items.completed_paths, look_ahead_cut=items.look_ahead_cut,
                      call_depth_cut=items.call_depth_cut, concrete_runs=items.concrete_runs,
                      concrete_kept=items.concrete_kept)
    return counts
