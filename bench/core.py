"""Benchmark of the core engine on the examples.

    python bench/core.py [--criterion loop-2] [--repeat 3] [--json FILE]

For each example function: paths, time, paths/s, derivation steps, branch
queries and the share answered without Z3, with the full solver chain and,
as the peer measured in the same run, with every layer in front of Z3
turned off ("z3 only"). Times are the best of --repeat runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from pathcraft.engine.criteria import parse_criterion
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.solver.chain import SolverOptions

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "examples"

TARGETS: list[tuple[Path, str]] = [
    (SHARED / "lcm.py", "lcm"),
    (SHARED / "lcm.py", "gcd"),
    *[(REPO / "examples" / "arith.py", n) for n in (
        "classify", "digit_sum", "first_multiple", "power", "safe_ratio", "clamp",
        "floor_pair", "gate", "spread", "count_down", "checked_mean")],
    *[(REPO / "tests" / "fixtures" / "control.py", n) for n in (
        "spin", "nested_finally", "range_forms", "mutual_even", "while_else")],
]

CONFIGS = {
    "chain": SolverOptions(),
    "z3 only": SolverOptions(use_implied=False, use_model=False, use_intervals=False, use_cache=False),
}


def measure(path: Path, name: str, criterion: str, solver: SolverOptions, repeat: int) -> dict[str, Any]:
    best: dict[str, Any] | None = None
    for _ in range(repeat):
        program = translate(str(path), [name]).program
        started = time.perf_counter()
        run = generate(program, name, GenerateOptions.of(criterion=parse_criterion(criterion), solver=solver))
        elapsed = time.perf_counter() - started
        stats = dict(run.stats, wall=elapsed)
        if best is None or elapsed < best["wall"]:
            best = stats
    assert best is not None
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--criterion", default="loop-2")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    args = parser.parse_args(argv)
    rows = []
    header = ("| target | paths | time ms | paths/s | steps | queries | without z3 | "
              "z3-only ms | z3-only calls | speed-up |")
    print(f"criterion {args.criterion}, best of {args.repeat}\n")
    print(header)
    print("|" + "---|" * 10)
    totals = {"chain": 0.0, "z3 only": 0.0}
    for path, name in TARGETS:
        if not path.exists():
            print(f"| {path.stem}::{name} | (missing: {path}) |", file=sys.stderr)
            continue
        chain = measure(path, name, args.criterion, CONFIGS["chain"], args.repeat)
        plain = measure(path, name, args.criterion, CONFIGS["z3 only"], args.repeat)
        assert chain["paths"] == plain["paths"], "solver layers must not change the paths found"
        totals["chain"] += chain["wall"]
        totals["z3 only"] += plain["wall"]
        share = chain["answered_without_z3"] / chain["branch_queries"] if chain["branch_queries"] else 1.0
        rows.append({"target": f"{path.stem}::{name}", "chain": chain, "z3_only": plain})
        print(
            f"| {path.stem}::{name} | {chain['paths']} | {1000 * chain['wall']:.1f} | "
            f"{chain['paths'] / chain['wall']:.0f} | {chain['derivation_steps']} | "
            f"{chain['branch_queries']} | {100 * share:.0f}% | {1000 * plain['wall']:.1f} | "
            f"{plain['z3_calls']} | {plain['wall'] / chain['wall']:.2f}x |"
        )
    print(f"\ntotal: chain {totals['chain']:.3f}s, z3 only {totals['z3 only']:.3f}s, "
          f"ratio {totals['z3 only'] / max(totals['chain'], 1e-9):.2f}x")
    if args.json:
        args.json.write_text(json.dumps({"criterion": args.criterion, "rows": rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
