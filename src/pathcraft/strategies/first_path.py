"""A selection criterion over a function with no item to cover: nothing
to choose between, so one path shows it all."""

from __future__ import annotations

import itertools

from pathcraft.strategies.base import Job, Outcome, RunOptions, Sink


class FirstPath:
    """`first-path`: the item strategies' answer when there are no items."""

    name = "first-path"

    def applies(self, options: RunOptions) -> bool:
        return False  # never asked for by itself

    def run(self, job: Job, sink: Sink) -> Outcome:
        sink.take(job.engine, itertools.islice(job.engine.explore(job.target), 1), stream=False)
        return Outcome(job.engine)
