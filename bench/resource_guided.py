"""Trace-abstraction refinement and resource-driven generation (papers 001
§6 and 000 §4), measured on the papers' examples and the fixtures.

Two tables:

1. **Refinement**: for each function, the paths the standard search finds
   under loop-K, and the traces each trace generator yields without and
   with the refinement by instantiation modes — whole runs (the oracle of
   resource-driven generation; 001 reports 497 -> 161 for the Java
   arraypower at loop-2) and local traces (all-local-paths), with the
   guided scheme's generated / infeasible traces (GT/UT).
2. **Worst case** (000 Fig. 7): `--policy worst:COST` by resource-aware
   generation (every path, then the most expensive) against resource-driven
   generation (the abstraction's traces from the most expensive down, the
   first feasible one kept), at loop-1..K: time, traces enumerated, traces
   tried, infeasible ones, and whether both found the same worst cost.

Times are in-process wall clock of `generate` (translation left out), the
best of `--repeat` runs. Prints markdown; `--json` keeps the records.

    python bench/resource_guided.py
    python bench/resource_guided.py --max-k 6 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from pathcraft.cost.policy import parse_policy
from pathcraft.engine.criteria import parse_criterion
from pathcraft.strategies.tracegen import LocalTraces, ProgramScope, TraceGenerator
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
EXAMPLES = REPO.parent / "shared" / "examples"
FIXTURES = REPO / "tests" / "fixtures"

REFINE_TARGETS = [
    (EXAMPLES / "arraypower.py", "arraypower"),
    (EXAMPLES / "arraypower.py", "power"),
    (EXAMPLES / "lcm.py", "lcm"),
    (EXAMPLES / "vector.py", "multiples"),
    (EXAMPLES / "vector.py", "Vector.add"),
    (EXAMPLES / "rational.py", "Rational.add"),
    (FIXTURES / "linked.py", "SList.insert_at"),
    (FIXTURES / "linked.py", "SList.find"),
    (FIXTURES / "pq.py", "SortedPQ.insert"),
    (FIXTURES / "pq.py", "HeapPQ.remove_min"),
    (FIXTURES / "control.py", "classify"),
]
WORST_TARGETS = [(EXAMPLES / "vector.py", "multiples"), (EXAMPLES / "lcm.py", "lcm"),
                 (EXAMPLES / "arraypower.py", "arraypower")]


def _count(make: Any, budget: float) -> int | str:
    started = time.perf_counter()
    n = 0
    for _ in make():
        n += 1
        if n % 500 == 0 and time.perf_counter() - started > budget:
            return f">{n}"
    return n


def refinement_rows(k: int, budget: float) -> list[dict[str, Any]]:
    rows = []
    for path, qualname in REFINE_TARGETS:
        if not path.exists():
            continue
        program = translate(str(path), [qualname]).program
        if qualname not in program.functions:
            continue
        criterion = parse_criterion(f"loop-{k}")
        row: dict[str, Any] = {"target": f"{path.name}::{qualname}", "k": k}
        row["paths"] = len(generate(program, qualname, GenerateOptions.of(criterion=criterion, timeout=budget)).cases)
        scope = ProgramScope(program, qualname)
        for refine in (False, True):
            tag = "refined" if refine else "plain"
            try:
                row[f"whole_{tag}"] = _count(lambda: TraceGenerator(program, qualname, k, scope, refine), budget)
                row[f"local_{tag}"] = _count(lambda: LocalTraces(program, qualname, k, refine), budget)
            except Exception as problem:  # a generator function: no trace generator for it
                row[f"whole_{tag}"] = row[f"local_{tag}"] = type(problem).__name__
                continue
            run = generate(program, qualname, GenerateOptions.of(criterion=criterion, timeout=budget,
                                                                 select="all-local-paths", refine=refine))
            row[f"gt_{tag}"] = run.stats.get("generated_traces")
            row[f"ut_{tag}"] = run.stats.get("infeasible_traces")
        rows.append(row)
    return rows


def worst_rows(max_k: int, repeat: int, cost: str, budget: float) -> list[dict[str, Any]]:
    rows = []
    for path, qualname in WORST_TARGETS:
        program = translate(str(path), [qualname]).program
        for k in range(1, max_k + 1):
            row: dict[str, Any] = {"target": f"{path.name}::{qualname}", "k": k}
            for driven in (False, True):
                tag = "driven" if driven else "aware"
                best = None
                for _ in range(repeat):
                    options = GenerateOptions.of(criterion=parse_criterion(f"loop-{k}"), costs=(cost,),
                                                 policies=(parse_policy(f"worst:{cost}"),), resource_driven=driven,
                                                 timeout=budget)
                    started = time.perf_counter()
                    run = generate(program, qualname, options)
                    seconds = time.perf_counter() - started
                    best = seconds if best is None else min(best, seconds)
                row[f"{tag}_s"] = round(best or 0.0, 3)
                row[f"{tag}_worst"] = max((c.costs.get(cost, 0) for c in run.cases), default=None)
                row[f"{tag}_stopped"] = run.stopped
                if driven:
                    row["enumerated"] = run.stats.get("abstraction_traces")
                    row["tried"] = run.stats.get("generated_traces")
                    row["infeasible"] = run.stats.get("infeasible_traces")
                    row["notes"] = run.notes
                else:
                    row["paths"] = run.stats.get("paths")
            rows.append(row)
    return rows


def _cell(value: Any) -> str:
    return "–" if value is None else str(value)


def refinement_table(rows: list[dict[str, Any]]) -> str:
    out = ["| target | paths (standard) | whole-run traces plain → refined | local traces plain → refined "
           "| all-local-paths GT/UT plain | GT/UT refined |",
           "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append(f"| {r['target']} | {r['paths']} | {r['whole_plain']} → {r['whole_refined']} "
                   f"| {r['local_plain']} → {r['local_refined']} | {_cell(r.get('gt_plain'))}/"
                   f"{_cell(r.get('ut_plain'))} | {_cell(r.get('gt_refined'))}/{_cell(r.get('ut_refined'))} |")
    return "\n".join(out)


def worst_table(rows: list[dict[str, Any]], cost: str) -> str:
    out = [f"| target | loop-K | resource-aware s (paths) | resource-driven s | driven/aware | traces enumerated "
           f"| tried | infeasible | same worst {cost} |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        ratio = r["driven_s"] / r["aware_s"] if r["aware_s"] else float("nan")
        same = "yes" if r["aware_worst"] == r["driven_worst"] and not r["aware_stopped"] and not r["driven_stopped"] \
            else f"no ({r['aware_worst']} vs {r['driven_worst']}; {r['aware_stopped'] or r['driven_stopped'] or ''})"
        out.append(f"| {r['target']} | {r['k']} | {r['aware_s']} ({_cell(r.get('paths'))}) | {r['driven_s']} "
                   f"| {ratio:.2f}× | {_cell(r.get('enumerated'))} | {_cell(r.get('tried'))} "
                   f"| {_cell(r.get('infeasible'))} | {same} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--k", type=int, default=2, help="loop-K of the refinement table [2]")
    p.add_argument("--max-k", type=int, default=6, help="worst-case table from loop-1 to loop-MAX_K [6]")
    p.add_argument("--cost", default="steps", help="the worst-case policy's cost [steps]")
    p.add_argument("--repeat", type=int, default=1, help="runs per measurement, the best kept [1]")
    p.add_argument("--budget", type=float, default=120.0, help="seconds per run [120]")
    p.add_argument("--json", type=Path, default=None, help="also write the records here")
    args = p.parse_args(argv)
    refined = refinement_rows(args.k, args.budget)
    print(f"## Refinement by instantiation modes (loop-{args.k})\n")
    print(refinement_table(refined))
    worst = worst_rows(args.max_k, args.repeat, args.cost, args.budget)
    print(f"\n## worst:{args.cost}: resource-aware vs resource-driven\n")
    print(worst_table(worst, args.cost))
    if args.json:
        args.json.write_text(json.dumps({"refinement": refined, "worst": worst}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
