"""The strategy registry (strategies/registry.py): which strategy the
options ask for, a strategy written outside the package run through the
same seam, and the run's typed statistics shown as the same dictionary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pathcraft.engine.criteria import parse_criterion
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.ir.nodes import Program
from pathcraft.runstats import RunStats
from pathcraft.strategies import registry
from pathcraft.strategies.base import Job, Outcome, RunOptions, Sink
from pathcraft.strategies.registry import STRATEGIES, strategy_for

SOURCE = '''
def f(a: int) -> int:
    if a > 0:
        return a
    return -a
'''


def program_of(tmp_path: Path) -> Program:
    path = tmp_path / "mod.py"
    path.write_text(SOURCE)
    return translate(str(path)).program


def test_the_registry_names_every_strategy_once() -> None:
    assert list(STRATEGIES) == ["items", "points", "local-paths", "resource-driven", "first-path", "all-paths"]


def test_the_options_pick_their_strategy() -> None:
    def picked(**settings: object) -> str:
        return strategy_for(GenerateOptions.of(**settings)).name

    assert picked() == "all-paths"
    assert picked(select="statements") == "items"
    assert picked(select="branches", item_search="guided") == "points"
    assert picked(cover="3") == "points"
    assert picked(select="all-local-paths") == "local-paths"
    assert picked(resource_driven=True) == "resource-driven"
    assert picked(select="all-local-paths", resource_driven=True) == "local-paths"


class FirstOnly:
    """A toy strategy: the first path of the search, written at once."""

    name = "first-only"

    def applies(self, options: RunOptions) -> bool:
        return True

    def run(self, job: Job, sink: Sink) -> Outcome:
        paths = job.engine.explore(job.target)
        sink.take(job.engine, [next(paths)], stream=True)
        paths.close()
        return Outcome(job.engine)


def test_a_new_strategy_runs_through_the_same_seam(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "STRATEGIES", {"first-only": FirstOnly(), **STRATEGIES})
    run = generate(program_of(tmp_path), "f", GenerateOptions.of(criterion=parse_criterion("loop-1")))
    assert [c.name for c in run.cases] == ["test_f_1_returns_1"]
    assert run.stats["paths"] == run.stats["tests"] == 1


def test_the_statistics_keep_their_keys_and_order(tmp_path: Path) -> None:
    run = generate(program_of(tmp_path), "f", GenerateOptions.of(criterion=parse_criterion("loop-1")))
    stats = run.stats
    assert list(stats)[:3] == ["paths", "tests", "exception_paths_filtered"]
    assert list(stats)[-1] == "policy_filtered"
    assert "probe_tests" not in stats and "points" not in stats
    back = RunStats.from_dict(json.loads(json.dumps(stats)))
    assert back.as_dict() == stats and list(back.as_dict()) == list(stats)
    reused = back.reused().as_dict()
    assert list(reused)[-1] == "run_reused" and reused["seconds"] == 0.0 and reused["paths"] == stats["paths"]
