"""Benchmark of the heap models on object and list code.

    python bench/heap.py [--repeat 3]

For each target and criterion, under `lazy-noalias` and `lazy`: paths
(test cases), time (best of --repeat) and derivation steps, and the ratio
of the two models' times measured in the same run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from pathcraft.engine.criteria import parse_criterion
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "examples"
FIXTURES = REPO / "tests" / "fixtures" / "linked.py"

ROWS: list[tuple[Path, str, str, bool]] = [
    *[(SHARED / "vector.py", "multiples", f"loop-{k}", False) for k in (1, 2, 3, 4)],
    (SHARED / "vector.py", "Vector.add", "loop-1", False),
    (SHARED / "arraypower.py", "arraypower", "loop-2", True),
    (SHARED / "aliasing.py", "m", "loop-2", True),
    (SHARED / "rational.py", "simp", "loop-2", True),
    *[(FIXTURES, name, "loop-2", True) for name in (
        "SList.insert_at", "SList.remove_first", "DList.unlink", "Queue.dequeue", "BST.insert",
        "BST.contains", "same_first", "firsts")],
]
MODELS = ("lazy-noalias", "lazy")


def measure(path: Path, name: str, criterion: str, exceptions: bool, heap: str, repeat: int) -> dict[str, Any]:
    best: dict[str, Any] | None = None
    for _ in range(repeat):
        program = translate(str(path), [name]).program
        options = GenerateOptions(criterion=parse_criterion(criterion), exceptions=exceptions, heap=heap)
        started = time.perf_counter()
        run = generate(program, name, options)
        elapsed = time.perf_counter() - started
        if best is None or elapsed < best["wall"]:
            best = dict(run.stats, wall=elapsed)
    assert best is not None
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    print("| target | criterion | exceptions | noalias tests | noalias ms | noalias steps "
          "| lazy tests | lazy ms | lazy steps | lazy/noalias time |")
    print("|" + "---|" * 10)
    for path, name, criterion, exceptions in ROWS:
        if not path.exists():
            print(f"| {path.stem}::{name} | missing {path} |", file=sys.stderr)
            continue
        cells = []
        results = [measure(path, name, criterion, exceptions, m, args.repeat) for m in MODELS]
        for r in results:
            cells += [str(r["tests"]), f"{1000 * r['wall']:.1f}", str(r["derivation_steps"])]
        ratio = results[1]["wall"] / max(results[0]["wall"], 1e-9)
        print(f"| {path.stem}::{name} | {criterion} | {'yes' if exceptions else 'no'} | "
              + " | ".join(cells) + f" | {ratio:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
