"""Where a sweep's time goes: stages of translation and generation, profiled.

    python bench/sweep_profile.py [--targets FILE] [--timeout 2] [--top 10] [--json FILE]

Runs every function of the modules listed in `--targets` (default:
TheAlgorithms' SAMPLE40, paths relative to the list's folder) in this
process as a package run's worker does (`app/workitem.py`: translation once
a module, then each function's search and the text of its tests), under
one cProfile profiler, and prints

* a table of stages: the seconds each spent in all, inclusive (a stage
  holds the ones indented below it), and their share of the whole;
* the functions that took longest, with their tests and why they stopped.

A stage is the cumulative time of the functions that enter it (cProfile
counts a recursive function's outermost calls only), so the stages nest as
the code does: each part of generation within it. The search is a
generator resumed test by test, whose time cProfile sums over its
resumptions a little differently from the calls made within them, so the
solver chain is shown beside the search rather than within it; Z3's
checks are listed apart, as both the chain and the canonical models make
them.
The profiler slows Python code more than Z3's: the shares are what to
compare, before and after a change, on the same machine. (Not named
`profile.py`: cProfile imports the standard library's `profile`, which a
script of that name in its own folder would shadow.)
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pathcraft.app.workitem import plan_module, run_function, settings_dict
from pathcraft.config import Settings
from pathcraft.depth import run_deep

REPO = Path(__file__).resolve().parent.parent
DEFAULT_TARGETS = REPO.parent / "shared" / "corpus" / "thealgorithms-python" / "SAMPLE40.txt"


@dataclass(frozen=True)
class Stage:
    """A stage of the work: the functions (file suffix, name) whose
    cumulative time is its time, and how deep it is shown."""

    name: str
    entries: tuple[tuple[str, str], ...]
    depth: int


STAGES = (
    Stage("translation (parse, link, lower)", (("pathcraft/frontend/__init__.py", "translate"),), 0),
    Stage("generation (each function)", (("pathcraft/generate.py", "generate"),), 0),
    Stage("search: the engine's steps", (("pathcraft/engine/engine.py", "explore"),), 1),
    Stage("solver chain (Python layers and Z3)", (("pathcraft/solver/chain.py", "check"),), 1),
    Stage("canonical models of the tests", (("pathcraft/solver/canonical.py", "model"),), 1),
    Stage("probes", (("pathcraft/strategies/all_paths.py", "long_probes"),), 1),
    Stage("edge tests", (("pathcraft/strategies/edgetests.py", "edge_tests"),), 1),
    Stage("Z3 checks (of the chain and of canonical models)", (("pathcraft/solver/z3backend.py", "check"),), 1),
    Stage("test text (pytest)", (("pathcraft/testcase/emit_pytest.py", "test"),), 0),
)


def stage_seconds(stats: pstats.Stats, stage: Stage) -> float:
    """The stage's inclusive time: the cumulative time of its entry
    functions (the largest, where one name has several definitions in a
    file: the chain's top `check` holds its layers')."""
    total = 0.0
    table: dict[tuple[str, int, str], tuple[Any, ...]] = stats.stats  # type: ignore[attr-defined]
    for suffix, name in stage.entries:
        found = [row[3] for (file, _, function), row in table.items()
                 if function == name and file.replace("\\", "/").endswith(suffix)]
        total += max(found, default=0.0)
    return total


def read_targets(path: Path) -> list[Path]:
    root = path.parent
    return [root / line.split()[0] for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def profile(paths: list[Path], settings: dict[str, Any],
            progress: Callable[[str], None]) -> tuple[pstats.Stats, list[dict[str, Any]], float]:
    """Run everything under one profiler (on the deep stack, as the CLI runs)."""
    profiler = cProfile.Profile()
    rows: list[dict[str, Any]] = []

    def work() -> float:
        started = time.perf_counter()
        profiler.enable()
        try:
            for path in paths:
                plan = plan_module(str(path), settings)
                for qualname in plan.get("functions", []):
                    began = time.perf_counter()
                    result = run_function(str(path), qualname, settings)
                    rows.append({"module": path.name, "function": qualname, "tests": len(result["tests"]),
                                 "stopped": result.get("stopped") or result.get("skipped") or "",
                                 "seconds": time.perf_counter() - began})
                progress(f"{path.name}: {len(plan.get('functions', []))} functions")
        finally:
            profiler.disable()
        return time.perf_counter() - started

    wall = run_deep(work)
    return pstats.Stats(profiler), rows, wall


def stage_table(stats: pstats.Stats, wall: float) -> tuple[list[str], dict[str, float]]:
    seconds = {stage.name: stage_seconds(stats, stage) for stage in STAGES}
    lines = ["| stage | seconds | share |", "|---|---|---|"]
    for stage in STAGES:
        shown = "&nbsp;&nbsp;" * stage.depth + stage.name
        lines.append(f"| {shown} | {seconds[stage.name]:.1f} | {seconds[stage.name] / wall:.0%} |")
    lines.append(f"| **all (profiled wall)** | {wall:.1f} | 100% |")
    return lines, seconds


def slowest(rows: list[dict[str, Any]], top: int) -> list[str]:
    lines = ["| function | seconds | tests | stopped |", "|---|---|---|---|"]
    for row in sorted(rows, key=lambda r: -r["seconds"])[:top]:
        lines.append(f"| {row['module']}::{row['function']} | {row['seconds']:.1f} | {row['tests']} | "
                     f"{row['stopped'][:60]} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--targets", type=Path, default=DEFAULT_TARGETS,
                        help="a list of module paths, relative to its folder (default: SAMPLE40)")
    parser.add_argument("--timeout", type=float, default=2.0, help="each function's budget, as `pathcraft gen`")
    parser.add_argument("--top", type=int, default=10, help="the slowest functions listed")
    parser.add_argument("--json", type=Path, help="write the stages and each function's row here")
    args = parser.parse_args(argv)
    if not args.targets.is_file():
        print(f"sweep_profile: no target list at {args.targets}", file=sys.stderr)
        return 2
    settings = settings_dict(Settings(timeout=args.timeout))
    stats, rows, wall = profile(read_targets(args.targets), settings, lambda s: print(s, file=sys.stderr))
    table, seconds = stage_table(stats, wall)
    stopped = sum(1 for r in rows if r["stopped"])
    print("\n".join(table))
    print(f"\n{len(rows)} functions, {sum(r['tests'] for r in rows)} tests, {stopped} stopped by a budget "
          f"({stopped / max(1, len(rows)):.1%})\n")
    print("\n".join(slowest(rows, args.top)))
    if args.json is not None:
        args.json.write_text(json.dumps({"wall": wall, "stages": seconds, "functions": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
