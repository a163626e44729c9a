"""The heap models side by side, in the style of Table 1 of paper 003.

    python bench/heap.py [--repeat 3] [--timeout 60] [--out bench/results/heap-DATE.md]

For each method, under `lazy-noalias` (1), `lazy` (2) and `symbolic` (3):
N = test cases, T = time in ms (best of --repeat), U = derivation steps.
A run that exceeds --timeout seconds shows T as "-" and N/U as found by
then. Then the multiples rows of the resource-aware paper (loop-1..4, no
exceptions) under the same three models.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import time
from pathlib import Path
from typing import Any

from pathcraft.engine.criteria import parse_criterion
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "examples"
LINKED = REPO / "tests" / "fixtures" / "linked.py"
PQ = REPO / "tests" / "fixtures" / "pq.py"

TABLE: list[tuple[Path, str, str, bool]] = [
    (SHARED / "aliasing.py", "m", "loop-1", True),
    (LINKED, "DList.append", "loop-1", True),
    (LINKED, "DList.unlink", "loop-1", True),
    (PQ, "SortedPQ.insert", "loop-1", True),
    (PQ, "SortedPQ.remove_min", "loop-1", True),
    (PQ, "Tree.find", "loop-1", True),
    (PQ, "Tree.remove", "loop-1", True),
    (LINKED, "BST.insert", "loop-1", True),
    (PQ, "HeapPQ.insert", "loop-1", True),
    (PQ, "HeapPQ.remove_min", "loop-1", True),
    (LINKED, "SList.remove_first", "loop-2", True),
    (SHARED / "rational.py", "simp", "loop-2", True),
    *[(SHARED / "vector.py", "multiples", f"loop-{k}", False) for k in (1, 2, 3, 4)],
]
MODELS = ("lazy-noalias", "lazy", "symbolic")


def measure(path: Path, name: str, criterion: str, exceptions: bool, heap: str, repeat: int,
            timeout: float) -> dict[str, Any]:
    best: dict[str, Any] | None = None
    for _ in range(repeat):
        program = translate(str(path), [name]).program
        options = GenerateOptions.of(criterion=parse_criterion(criterion), exceptions=exceptions, heap=heap,
                                  timeout=timeout)
        started = time.perf_counter()
        run = generate(program, name, options)
        elapsed = time.perf_counter() - started
        stats = dict(run.stats, wall=elapsed, timed_out=run.stopped == "time budget reached")
        if best is None or elapsed < best["wall"]:
            best = stats
        if stats["timed_out"]:
            break
    assert best is not None
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--out", type=Path, help="also write the table (markdown) here")
    args = parser.parse_args(argv)
    lines = [
        f"Heap models, {datetime.date.today()}: N tests, T ms (best of {args.repeat}), U derivation steps; "
        "1 = lazy-noalias, 2 = lazy, 3 = symbolic.",
        "",
        "| method | criterion | N1 | T1 | U1 | N2 | T2 | U2 | N3 | T3 | U3 | T2/T3 |",
        "|" + "---|" * 12,
    ]
    print("\n".join(lines), flush=True)
    for path, name, criterion, exceptions in TABLE:
        if not path.exists():
            print(f"missing {path}", file=sys.stderr)
            continue
        cells: list[str] = []
        results = [measure(path, name, criterion, exceptions, m, args.repeat, args.timeout) for m in MODELS]
        for r in results:
            t = "-" if r["timed_out"] else f"{1000 * r['wall']:.0f}"
            cells += [str(r["tests"]), t, str(r["derivation_steps"])]
        ratio = results[1]["wall"] / max(results[2]["wall"], 1e-9)
        label = f"{path.stem}::{name}" + ("" if exceptions else " (no exceptions)")
        line = f"| {label} | {criterion} | " + " | ".join(cells) + f" | {ratio:.1f}x |"
        lines.append(line)
        print(line, flush=True)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
