"""Program points (`--cover`), or statement/branch coverage with
`--item-search guided`: a path to each point still uncovered, found by a
trace generator through the point where it is local (paper 001), else by
the standard search (strategies/points.py)."""

from __future__ import annotations

from pathcraft.strategies.base import Job, Outcome, RunOptions, Sink, TraceCounts, has_loop_bound, loop_bound
from pathcraft.strategies.first_path import FirstPath
from pathcraft.strategies.item_paths import ITEM_SELECTIONS
from pathcraft.strategies.points import covering, criterion_points, parse_points, report


class PointPaths:
    """`points`: --cover, or an item criterion searched by guided traces."""

    name = "points"

    def applies(self, options: RunOptions) -> bool:
        return options.cover is not None or options.select in ITEM_SELECTIONS

    def run(self, job: Job, sink: Sink) -> Outcome:
        options = job.options
        if options.cover is not None:
            points = parse_points(options.cover, job.program)
        else:
            assert options.select is not None
            points = criterion_points(options.select, job.program, job.qualname)
        if not points:
            return FirstPath().run(job, sink)
        criterion = job.engine.options.criterion
        k = loop_bound(criterion) if has_loop_bound(criterion) else None
        counts = TraceCounts()
        sink.take(job.engine, covering(job.engine, job.program, job.qualname, job.target, points, k, counts),
                  stream=False)
        return Outcome(job.engine, traces=counts, points=report(points, sink.cases))
