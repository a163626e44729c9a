"""Guided generation against standard generation (paper 001, Tables 1-2).

For each data-structure method (the fixtures' linked lists and the corpus
manifest's data structures), pathcraft runs three ways under loop-2:

* standard: every path (the default);
* all-local-paths: one test per feasible path through the method's own code;
* branches: as few tests as reach every branch outcome the method has.

Each run's tests are measured the way the peer benchmark measures a tool
(``bench/peer_tools``: coverage.py's branch coverage of the method's lines,
tests run in a fresh folder); the guided runs also report the traces their
trace generator produced and how many of them were infeasible (GT/UT).
Times are the search's own (the `seconds` of `--stats`: translation and
process start-up left out, as the paper's T leaves out Tt). Prints a
markdown table; ``--json`` keeps the records.

    python bench/guided.py
    python bench/guided.py --targets linked,heap --budget 30
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

from peer_tools.adapters import AdapterOptions, pathcraft_variant  # noqa: E402
from peer_tools.targets import filter_targets, load_manifest, make_target  # noqa: E402
from peers import run_one, suite_dir  # noqa: E402

REPO = HERE.parent
SHARED = REPO.parent / "shared"
FIXTURES = REPO / "tests" / "fixtures"

# the fixtures' data-structure methods (a singly linked list, a priority queue)
FIXTURE_TARGETS = [
    (FIXTURES / "linked.py", "SList.insert_at"),
    (FIXTURES / "linked.py", "SList.remove_first"),
    (FIXTURES / "linked.py", "SList.find"),
    (FIXTURES / "pq.py", "SortedPQ.insert"),
    (FIXTURES / "pq.py", "SortedPQ.remove_min"),
    (FIXTURES / "pq.py", "HeapPQ.insert"),
    (FIXTURES / "pq.py", "HeapPQ.remove_min"),
    (FIXTURES / "pq.py", "Tree.remove"),
]
MODES = {"standard": "", "all-local-paths": "--criterion all-local-paths", "branches": "--criterion branches"}


def targets(patterns: list[str]) -> list[Any]:
    chosen = [make_target(path, qualname, f"fixtures/{path.name}::{qualname}", "fixture")
              for path, qualname in FIXTURE_TARGETS]
    manifest = load_manifest(SHARED / "corpus" / "MANIFEST.tsv")
    chosen += [t for t in manifest if "data_structures" in str(t.file) or "goodrich" in str(t.file)]
    chosen = [t for t in chosen if t.range is not None and not t.error]
    return filter_targets(chosen, patterns) if patterns else chosen


def stat(stderr: str, name: str) -> float | None:
    """One row of the `--stats` table pathcraft printed."""
    match = re.search(r"^\W*" + name + r"\W+([\d.]+)", stderr, re.MULTILINE)
    return float(match.group(1)) if match else None


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    options = AdapterOptions(Path(args.work) / "cache", args.grace, sys.executable, [], 0)
    records: list[dict[str, Any]] = []
    for target in targets(args.targets):
        for mode, extra in MODES.items():
            label, factory = pathcraft_variant(f"{extra} --stats")
            adapter = factory(options)
            if adapter.prepare() is not None:
                raise SystemExit(f"pathcraft is not importable by {sys.executable}")
            work = Path(args.work) / mode.replace("-", "_")
            rec = run_one(adapter, target, args.budget, work, args.test_timeout)
            stderr = _stderr(suite_dir(work, adapter.name, target.id))
            gt, ut = (stat(stderr, "generated traces"), stat(stderr, "infeasible traces")) if mode != "standard" \
                else (None, None)
            cov = rec["coverage"]["percent"] if rec.get("coverage") else 0.0
            records.append({"target": target.id, "mode": mode, "wall": rec["gen_wall"],
                            "seconds": stat(stderr, "seconds") or 0.0, "tests": rec["tests"],
                            "passed": rec["passed"], "coverage": round(cov, 1),
                            "generated_traces": None if gt is None else int(gt),
                            "infeasible_traces": None if ut is None else int(ut),
                            "status": rec["status"], "error": rec.get("error")})
            print(f"{target.id} {mode}: {rec['tests']} tests, {cov:.0f}% in {records[-1]['seconds']:.2f} s"
                  + (f", GT/UT {gt}/{ut}" if gt is not None else ""), file=sys.stderr, flush=True)
    return records


def _stderr(folder: Path) -> str:
    for candidate in (folder / "tool.stdout.stderr", folder / "tool.stderr"):
        if candidate.is_file():
            return candidate.read_text(errors="replace")
    return ""


def table(records: list[dict[str, Any]]) -> str:
    by: dict[str, dict[str, dict[str, Any]]] = {}
    for rec in records:
        by.setdefault(rec["target"], {})[rec["mode"]] = rec
    lines = [
        "| method | T s | N | CC % | Tg s | Ng | CCg % | GT/UT | Tb s | Nb | CCb % | GT/UT |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]

    def cells(rec: dict[str, Any] | None, traces: bool) -> list[str]:
        if rec is None:
            return ["–"] * (4 if traces else 3)
        out = [f"{rec['seconds']:.2f}", str(rec["passed"]), f"{rec['coverage']:.0f}"]
        if traces:
            gt, ut = rec["generated_traces"], rec["infeasible_traces"]
            out.append(f"{gt}/{ut}" if gt is not None else "–")
        return out

    sums: dict[str, list[float]] = {m: [0.0, 0.0, 0.0] for m in MODES}
    for tid, modes in by.items():
        row = [f"`{tid}`", *cells(modes.get("standard"), False), *cells(modes.get("all-local-paths"), True),
               *cells(modes.get("branches"), True)]
        lines.append("| " + " | ".join(row) + " |")
        for mode, rec in modes.items():
            sums[mode][0] += rec["seconds"]
            sums[mode][1] += rec["passed"]
            sums[mode][2] += rec["coverage"]
    n = max(len(by), 1)
    lines.append("")
    lines.append("| mode | total time s | tests (passing) | mean branch coverage % |")
    lines.append("|---|---|---|---|")
    for mode, (seconds, tests, coverage) in sums.items():
        lines.append(f"| {mode} | {seconds:.2f} | {int(tests)} | {coverage / n:.1f} |")
    return "\n".join(lines)


def bench_parser(description: str | None, work: str) -> argparse.ArgumentParser:
    """The options every peer-harness benchmark of pathcraft modes takes."""
    p = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--targets", action="append", default=[], help="keep targets whose id contains this")
    p.add_argument("--budget", type=float, default=20.0, help="seconds per (mode, target) [20]")
    p.add_argument("--grace", type=float, default=40.0)
    p.add_argument("--test-timeout", type=float, default=10.0)
    p.add_argument("--work", default=work, help="folder for the generated tests")
    p.add_argument("--json", type=Path, default=None, help="also write the records here")
    return p


def main(argv: list[str] | None = None) -> int:
    args = bench_parser(__doc__, "/tmp/pathcraft-guided").parse_args(argv)
    args.targets = [t for item in args.targets for t in item.split(",") if t]
    records = run(args)
    if args.json is not None:
        args.json.write_text(json.dumps(records, indent=1))
    print(table(records))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
