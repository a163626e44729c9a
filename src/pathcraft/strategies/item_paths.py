"""Statement or branch coverage by the standard search (paper 004): the
search keeps a path only for an item no kept path reaches yet, pruned by
Look-Ahead and Max-CallDepth (strategies/items.py); the tests made
redundant by later ones are dropped before any is passed on."""

from __future__ import annotations

from dataclasses import replace

from pathcraft.strategies.base import ItemCounts, Job, Outcome, RunOptions, Sink
from pathcraft.strategies.first_path import FirstPath
from pathcraft.strategies.items import COMPLETE, ItemCoverage, objective
from pathcraft.strategies.points import parse_points, report, without_redundant
from pathcraft.testcase.model import TestCase

ITEM_SELECTIONS = ("statements", "branches")


class ItemPaths:
    """`items`: --criterion statements|branches with --item-search paths."""

    name = "items"

    def applies(self, options: RunOptions) -> bool:
        return options.select in ITEM_SELECTIONS and options.item_search == "paths"

    def run(self, job: Job, sink: Sink) -> Outcome:
        options = job.options
        assert options.select is not None
        points = parse_points(options.cover, job.program) if options.cover is not None else \
            objective(job.program, job.qualname, options.select, options.unit)
        if not points:
            return FirstPath().run(job, sink)
        # --max-paths caps the tests kept, not the paths completed (most are dropped)
        items = ItemCoverage(job.program, points, look_ahead=options.look_ahead,
                             max_call_depth=options.max_call_depth, exceptions=options.exceptions,
                             max_tests=job.engine.options.max_paths)
        engine = job.engine.sibling(replace(job.engine.options, max_paths=None,
                                            controls=job.engine.options.controls + (items,)))
        try:
            # kept paths are written at once: a path whose test cannot be written
            # gives its items back before the search goes on
            sink.take(engine, engine.explore(job.target), stream=True, missed=items.unclaim, defer=True)
        finally:
            if engine.stats.stopped == COMPLETE:
                engine.stats.stopped = None  # the objective met: the run ended, it was not cut short
            # the tests are written once the redundant ones are known
            sink.publish(renumbered(without_redundant(points, sink.cases), f"test_{job.qualname.replace('.', '_')}_"))
        solve_first = engine.options.solve_first
        counts = ItemCounts(items.completed, items.look_ahead_cut, items.depth_cut,
                            engine.stats.concrete_runs if solve_first else None,
                            engine.stats.concrete_kept if solve_first else None)
        return Outcome(engine, items=counts, points=report(points, sink.cases))


def renumbered(cases: list[TestCase], prefix: str) -> list[TestCase]:
    """Tests named `PREFIX<n>_...` numbered 1, 2, ... again in their order."""
    out = []
    for number, case in enumerate(cases, 1):
        rest = case.name[len(prefix):].partition("_")[2] if case.name.startswith(prefix) else ""
        out.append(replace(case, name=f"{prefix}{number}_{rest}" if rest else case.name))
    return out
