"""Resource-driven generation (paper 000): a `worst:COST` policy, or
threshold policies, answered by guided searches along the whole-run traces
the cost may favour (strategies/resourcedriven.py); where it cannot answer,
the resource-aware standard search does, and a note says why."""

from __future__ import annotations

from dataclasses import replace

from pathcraft.cost.policy import Threshold, Worst
from pathcraft.ir.nodes import Program
from pathcraft.strategies.all_paths import AllPaths
from pathcraft.strategies.base import Job, Outcome, RunOptions, Sink, TraceCounts, loop_bound
from pathcraft.strategies.resourcedriven import DrivenPlan, observable, resource_driven, whole_run_gap


class DrivenPaths:
    """`resource-driven`: --resource-driven with its policies."""

    name = "resource-driven"

    def applies(self, options: RunOptions) -> bool:
        return options.resource_driven

    def run(self, job: Job, sink: Sink) -> Outcome:
        plan, problem = driven_plan(job.options, job.program, job.qualname, job.constructed)
        if plan is None:
            fallback = AllPaths().run(job, sink)
            return replace(fallback, notes=(problem, *fallback.notes))
        counts = TraceCounts()
        found = resource_driven(job.engine, job.qualname, plan, loop_bound(job.engine.options.criterion),
                                job.options.refine, job.options.exceptions, counts)
        sink.take(job.engine, found, stream=job.in_order)
        return Outcome(job.engine, traces=counts)


def driven_plan(options: RunOptions, program: Program, qualname: str,
                constructed: bool) -> tuple[DrivenPlan | None, str]:
    """What resource-driven generation answers (one worst:COST policy, or
    threshold policies), or None with a note saying why it falls back to
    resource-aware generation."""
    worst = [p for p in options.policies if isinstance(p, Worst)]
    thresholds = tuple(p for p in options.policies if isinstance(p, Threshold))
    if not (len(worst) == 1 and len(options.policies) == 1 or thresholds and len(thresholds) == len(options.policies)):
        return None, ("resource-driven generation answers one worst:COST policy alone, or threshold policies "
                      "(memory>48); resource-aware search used")
    costs = [worst[0].cost] if worst else [t.cost for t in thresholds]
    problem = next((f"{c} is not observable from traces (it depends on list lengths a trace does not carry)"
                    for c in costs if not observable(c)), None)
    if problem is None and (constructed or options.trace is not None):
        problem = "it works on free objects and without --trace"
    if problem is None:
        problem = whole_run_gap(program, qualname)
    if problem is not None:
        return None, f"resource-driven generation: {problem}; resource-aware search used"
    return DrivenPlan(worst[0].cost if worst else None, thresholds), ""
