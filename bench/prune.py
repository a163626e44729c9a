"""Item coverage with less search (paper 004, Tables 2, 4 and 5).

For every target (the seed examples, the fixtures' data-structure methods
and the corpus manifest), pathcraft covers the function's branches
(`--criterion branches`, loop-2 underneath, unit-testing mode) in these
ways:

* BP: the standard search keeps each path that covers a new branch or
  line and stops when all are covered (`--item-search paths
  --no-look-ahead --no-solve-first`);
* BP+LA: the same with Look-Ahead (`--no-solve-first`); its sets are
  computed once and consulted at every predicate entry, so its overhead is
  in its time: the summary gives it, as 004 Table 3 does, on the targets
  where it abandoned no path (pure overhead there);
* BP+MCD1, BP+MCD2: Max-CallDepth 1 and 2 (`--max-call-depth N`, no
  Look-Ahead, as 004 Table 5 measures it alone);
* BP+LA+SF: Look-Ahead and Solve-First (the default): at each choice
  point the alternatives are run to their end on the values that solved
  them, without the solver, before the search goes deeper (004 §5);
* guided: one trace generator per item (paper 001, `--item-search guided`).

Each run's tests are measured as the peer benchmark measures a tool
(`bench/peer_tools`: coverage.py's branch coverage of the function's own
lines, tests run in a fresh folder). Columns: tests written (passing),
completed paths (explored to the end), paths Look-Ahead abandoned, branch
queries the solver chain answered, solver calls (the queries that reached
Z3), the search's seconds (`--stats`), and branch coverage. Prints markdown; `--json` keeps the records.

    python bench/prune.py
    python bench/prune.py --targets lcm,linked --budget 20
    python bench/prune.py --modes BP,BP+LA --bound loop-3
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from guided import FIXTURE_TARGETS, _stderr, stat  # noqa: E402
from peer_tools.adapters import AdapterOptions, pathcraft_variant  # noqa: E402
from peer_tools.targets import example_targets, filter_targets, load_manifest, make_target  # noqa: E402
from peers import run_one, suite_dir  # noqa: E402

REPO = HERE.parent
SHARED = REPO.parent / "shared"

MODES = {
    "BP": "--item-search paths --no-look-ahead --no-solve-first",
    "BP+LA": "--item-search paths --no-solve-first",
    "BP+MCD1": "--item-search paths --no-look-ahead --no-solve-first --max-call-depth 1",
    "BP+MCD2": "--item-search paths --no-look-ahead --no-solve-first --max-call-depth 2",
    "BP+LA+SF": "--item-search paths --solve-first",
    "guided": "--item-search guided",
}
STATS = {"paths": "completed paths", "cut": "look ahead cut", "depth_cut": "call depth cut",
         "queries": "branch queries", "z3": "z3 calls", "seconds": "seconds"}


def targets(patterns: list[str]) -> list[Any]:
    chosen = example_targets(SHARED / "examples")
    chosen += [make_target(path, qualname, f"fixtures/{path.name}::{qualname}", "fixture")
               for path, qualname in FIXTURE_TARGETS]
    chosen += load_manifest(SHARED / "corpus" / "MANIFEST.tsv")
    chosen = [t for t in chosen if t.range is not None and not t.error]
    return filter_targets(chosen, patterns) if patterns else chosen


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    options = AdapterOptions(Path(args.work) / "cache", args.grace, sys.executable, [], 0)
    records: list[dict[str, Any]] = []
    for target in targets(args.targets):
        for mode in args.modes:
            _, factory = pathcraft_variant(f"--criterion branches,{args.bound} --stats {MODES[mode]}")
            adapter = factory(options)
            if adapter.prepare() is not None:
                raise SystemExit(f"pathcraft is not importable by {sys.executable}")
            work = Path(args.work) / re.sub(r"\W", "_", f"{mode}-{args.bound}")
            rec = run_one(adapter, target, args.budget, work, args.test_timeout)
            stderr = _stderr(suite_dir(work, adapter.name, target.id))
            found = {key: stat(stderr, row) for key, row in STATS.items()}
            cov = rec["coverage"]["percent"] if rec.get("coverage") else 0.0
            stopped = re.search(r"(time budget|path limit) reached", stderr)
            records.append({"target": target.id, "mode": mode, "bound": args.bound,
                            "stopped": stopped.group(0) if stopped else None,
                            "tests": rec["tests"], "passed": rec["passed"],
                            "coverage": round(cov, 1), "status": rec["status"], "error": rec.get("error"),
                            **{k: (v if v is not None else 0) for k, v in found.items()}})
            print(f"{target.id} {mode}: {rec['tests']} tests, {cov:.0f}%, {found['paths']} paths, "
                  f"{found['queries']} queries in {found['seconds']} s", file=sys.stderr, flush=True)
    return records


def table(records: list[dict[str, Any]], modes: list[str]) -> str:
    by: dict[str, dict[str, dict[str, Any]]] = {}
    for rec in records:
        by.setdefault(rec["target"], {})[rec["mode"]] = rec
    head = ["target"] + [f"{m} {col}" for m in modes for col in ("N", "P", "Q", "Z", "T s", "CC %")]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for tid, per in by.items():
        row = [f"`{tid}`"]
        for m in modes:
            rec = per.get(m)
            row += ["–"] * 6 if rec is None else [
                str(rec["passed"]), str(int(rec["paths"])) + (f" (−{int(rec['cut'])})" if rec["cut"] else ""),
                str(int(rec["queries"])), str(int(rec.get("z3", 0))),
                f"{rec['seconds']:.2f}" + ("*" if rec.get("stopped") else ""),
                f"{rec['coverage']:.0f}"]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "N tests passing, P completed paths (paths Look-Ahead abandoned), Q branch queries, "
              "Z solver calls (queries that reached Z3), "
              "T the search's seconds (* stopped by the budget or the path cap), CC branch coverage of the "
              "function's lines.", ""]
    lines += summary(by, modes)
    return "\n".join(lines)


def summary(by: dict[str, dict[str, dict[str, Any]]], modes: list[str]) -> list[str]:
    """Totals per mode, over all targets and over those where BP completes
    more than 50 paths (004 measures its gains there) and no run was
    stopped by the budget (its time says nothing then)."""
    big = [t for t, per in by.items() if "BP" in per and per["BP"]["paths"] > 50 and not per["BP"].get("stopped")]
    out = ["| mode | targets | tests | paths | queries | solver calls | time s | mean CC % "
           "| on BP > 50 paths, none stopped: time s | mean time vs BP | coverage lost vs BP |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for m in modes:
        recs = [per[m] for per in by.values() if m in per]
        if not recs:
            continue
        n = len(recs)
        # times compare only where both runs ended by themselves
        big_recs = [(by[t][m], by[t]["BP"]) for t in big if m in by[t] and not by[t][m].get("stopped")]
        ratio = (sum(r["seconds"] / max(b["seconds"], 1e-6) for r, b in big_recs) / len(big_recs)) \
            if big_recs else None
        lost = sum(1 for per in by.values() if m in per and "BP" in per
                   and per[m]["coverage"] < per["BP"]["coverage"])
        out.append(f"| {m} | {n} | {sum(r['passed'] for r in recs)} | {int(sum(r['paths'] for r in recs))} "
                   f"| {int(sum(r['queries'] for r in recs))} | {int(sum(r.get('z3', 0) for r in recs))} "
                   f"| {sum(r['seconds'] for r in recs):.2f} "
                   f"| {sum(r['coverage'] for r in recs) / n:.1f} "
                   f"| {sum(r['seconds'] for r, _ in big_recs):.2f} ({len(big_recs)} targets) "
                   f"| {'–' if ratio is None else f'{ratio:.2f}'} | {lost} |")
    out += solve_first(by)
    overhead = [(per["BP+LA"]["seconds"], per["BP"]["seconds"]) for per in by.values()
                if "BP" in per and "BP+LA" in per and not per["BP+LA"]["cut"] and per["BP"]["seconds"] >= 0.05]
    if overhead:  # 004 Table 3: the look-ahead computed and consulted, but abandoning nothing
        out += ["", f"Look-Ahead overhead where it abandoned no path (BP ≥ 0.05 s, {len(overhead)} targets): "
                f"BP+LA took {sum(a for a, _ in overhead):.2f} s against BP's {sum(b for _, b in overhead):.2f} s "
                f"({sum(a for a, _ in overhead) / max(sum(b for _, b in overhead), 1e-6):.2f}x)."]
    return out


def solve_first(by: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    """004 §5's claim: Solve-First reaches the final coverage with fewer
    solver calls; compared with BP and BP+LA where neither run was stopped."""
    out: list[str] = []
    for base in ("BP", "BP+LA"):
        pairs = [(per["BP+LA+SF"], per[base]) for per in by.values() if base in per and "BP+LA+SF" in per
                 and not per[base].get("stopped") and not per["BP+LA+SF"].get("stopped")]
        if not pairs:
            continue
        fewer = sum(1 for sf, b in pairs if sf["z3"] < b["z3"])
        more = sum(1 for sf, b in pairs if sf["z3"] > b["z3"])
        same_cov = sum(1 for sf, b in pairs if sf["coverage"] >= b["coverage"])
        out += ["", f"BP+LA+SF against {base} ({len(pairs)} targets, neither stopped): solver calls "
                f"{int(sum(sf['z3'] for sf, _ in pairs))} against {int(sum(b['z3'] for _, b in pairs))} "
                f"(fewer on {fewer}, more on {more}); branch queries {int(sum(sf['queries'] for sf, _ in pairs))} "
                f"against {int(sum(b['queries'] for _, b in pairs))}; coverage at least {base}'s on "
                f"{same_cov} of {len(pairs)}."]
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--targets", action="append", default=[], help="keep targets whose id contains this")
    p.add_argument("--modes", default=",".join(MODES), help=f"modes to run [{','.join(MODES)}]")
    p.add_argument("--budget", type=float, default=20.0, help="seconds per (mode, target) [20]")
    p.add_argument("--bound", default="loop-2", help="termination criterion under the item criterion [loop-2]")
    p.add_argument("--grace", type=float, default=40.0)
    p.add_argument("--test-timeout", type=float, default=10.0)
    p.add_argument("--work", default="/tmp/pathcraft-prune", help="folder for the generated tests")
    p.add_argument("--json", type=Path, default=None, help="also write the records here")
    args = p.parse_args(argv)
    args.targets = [t for item in args.targets for t in item.split(",") if t]
    args.modes = [m for m in args.modes.split(",") if m]
    unknown = [m for m in args.modes if m not in MODES]
    if unknown:
        p.error(f"unknown mode {unknown[0]} ({', '.join(MODES)})")
    records = run(args)
    if args.json is not None:
        args.json.write_text(json.dumps(records, indent=1))
    print(table(records, args.modes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
