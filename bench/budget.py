"""Work budgets against the clock: calibration and reproducibility.

    python bench/budget.py [--timeout 2] [--targets FILE] [--fit] [--load 2] [--json FILE]

Runs every function of the modules listed in `--targets` (default:
TheAlgorithms' SAMPLE40, paths relative to the list's folder) in this
process, as `pathcraft gen --timeout S` would, and prints per module the
functions, tests, wall time, the work spent (budget.py: reference
microseconds) and how many runs their work budget stopped and how many the
clock's safety net.

`--fit` fits the budget's weights (microseconds per step, per unit of Z3's
resource count, per candidate assignment, per term asserted to Z3) to the runs' wall times by least
squares and prints them beside the ones in force and how close each run's
work is to its time: run it on an idle machine to calibrate budget.py.

`--load N` runs everything twice, the second time with N processes
spinning on the CPU beside it, and compares the tests each function got
(their text, exactly): with a work budget they are the same, while the
run took longer.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pathcraft import budget as work
from pathcraft.config import Settings
from pathcraft.errors import PathcraftError
from pathcraft.frontend import translate
from pathcraft.generate import generate

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO.parent / "shared" / "corpus" / "thealgorithms-python" / "SAMPLE40.txt"


def run_module(path: Path, timeout: float) -> list[dict[str, Any]]:
    """Each function's run of the module at `path`: its counts and tests."""
    options = Settings(timeout=timeout).generate_options()
    try:
        result = translate(str(path), objects=options.objects)
    except (PathcraftError, SyntaxError, RecursionError) as error:
        print(f"  {path.name}: not translated ({str(error)[:80]})", file=sys.stderr)
        return []
    program = result.program
    rows = []
    for qualname in (t for t in result.targets if t in program.functions):
        started = time.perf_counter()
        try:
            run = generate(program, qualname, options)
        except PathcraftError:
            continue
        wall = time.perf_counter() - started
        spent = run.budget or work.Budget()
        rows.append({"module": path.name, "function": qualname, "wall": wall, "steps": spent.steps,
                     "z3": spent.z3, "candidates": spent.candidates, "assertions": spent.assertions,
                     "work": spent.spent,
                     "stopped": run.stopped, "tests": [repr(case) for case in run.cases]})
    return rows


def run_all(paths: list[Path], timeout: float) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for path in paths:
        rows.extend(run_module(path, timeout))
    return rows


def _spin(stop: Any) -> None:
    while not stop.is_set():
        sum(i * i for i in range(10_000))


@contextmanager
def load(processes: int) -> Iterator[None]:
    """`processes` busy processes for the length of the block."""
    stop = multiprocessing.Event()
    spinners = [multiprocessing.Process(target=_spin, args=(stop,), daemon=True) for _ in range(processes)]
    for p in spinners:
        p.start()
    try:
        yield
    finally:
        stop.set()
        for p in spinners:
            p.join(5)


WEIGHTS = ("steps", "z3", "candidates", "assertions")


def fit(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Least-squares weights (µs per step, per Z3 unit, per candidate, per
    term asserted) of the runs' wall times, through the origin; a weight
    fitted below 0 is taken as 0 and the others fitted again."""
    active = list(WEIGHTS)
    while True:
        n = len(active)
        a = [[sum(r[i] * r[j] for r in rows) for j in active] for i in active]
        b = [sum(r[i] * r["wall"] * 1e6 for r in rows) for i in active]
        weights = _solve(a, b) if n else []
        negative = [name for name, w in zip(active, weights) if w < 0]
        if not negative:
            found = dict(zip(active, weights))
            return {name: found.get(name, 0.0) for name in WEIGHTS}
        active.remove(negative[0])


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a singular column: 0)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-12:
            continue
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def module_table(rows: list[dict[str, Any]], other: list[dict[str, Any]] | None = None) -> str:
    head = "| module | functions | tests | wall s | work s | stopped by work | by the clock |"
    lines = [head + (" wall s under load | same tests |" if other is not None else ""),
             "|" + " --- |" * (7 + (2 if other is not None else 0))]
    by_module: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_module.setdefault(r["module"], []).append(r)
    loaded = {(r["module"], r["function"]): r for r in other or []}
    total_same = 0
    for module, mine in by_module.items():
        line = (f"| {module} | {len(mine)} | {sum(len(r['tests']) for r in mine)} | "
                f"{sum(r['wall'] for r in mine):.1f} | {sum(r['work'] for r in mine) / 1e6:.1f} | "
                f"{sum(r['stopped'] == work.WORK_REACHED for r in mine)} | "
                f"{sum(r['stopped'] == work.CLOCK_REACHED for r in mine)} |")
        if other is not None:
            theirs = [loaded.get((module, r["function"])) for r in mine]
            same = sum(t is not None and t["tests"] == r["tests"] for r, t in zip(mine, theirs))
            total_same += same
            line += f" {sum(t['wall'] for t in theirs if t):.1f} | {same}/{len(mine)} |"
        lines.append(line)
    total = (f"| all | {len(rows)} | {sum(len(r['tests']) for r in rows)} | {sum(r['wall'] for r in rows):.1f} | "
             f"{sum(r['work'] for r in rows) / 1e6:.1f} | {sum(r['stopped'] == work.WORK_REACHED for r in rows)} | "
             f"{sum(r['stopped'] == work.CLOCK_REACHED for r in rows)} |")
    if other is not None:
        total += f" {sum(r['wall'] for r in other):.1f} | {total_same}/{len(rows)} |"
    lines.append(total)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--targets", type=Path, default=SAMPLE)
    parser.add_argument("--fit", action="store_true", help="fit the budget's weights to the wall times")
    parser.add_argument("--load", type=int, default=0, metavar="N",
                        help="run again beside N busy processes and compare the tests")
    parser.add_argument("--json", type=Path, help="write the runs here")
    args = parser.parse_args(argv)
    listed = [line.strip() for line in args.targets.read_text().splitlines() if line.strip()]
    paths = [args.targets.parent / name for name in listed]
    sys.setrecursionlimit(10_000)
    rows = run_all(paths, args.timeout)
    loaded = None
    if args.load:
        with load(args.load):
            loaded = run_all(paths, args.timeout)
    print(f"--timeout {args.timeout}: a budget of {work.for_timeout(args.timeout).limit} units of work "
          f"(reference microseconds), the clock's safety net at {work.SAFETY_FACTOR:g}x plus "
          f"{work.SAFETY_SLACK:g} s\n")
    print(module_table(rows, loaded))
    if args.fit:
        fitted = fit(rows)
        print("\n| weight (µs) | in force | fitted |\n| --- | --- | --- |")
        print(f"| step | {work.STEP_WORK} | {fitted['steps']:.1f} |\n"
              f"| Z3 unit | {1 / work.Z3_PER_WORK:.2f} | {fitted['z3']:.2f} |\n"
              f"| candidate | {work.CANDIDATE_WORK} | {fitted['candidates']:.1f} |\n"
              f"| term asserted | {work.ASSERTION_WORK} | {fitted['assertions']:.1f} |")
        for label, chosen in (("runs of more than 0.2 s", [r for r in rows if r["wall"] > 0.2]),
                              ("runs their work stopped", [r for r in rows if r["stopped"] == work.WORK_REACHED])):
            ratios = sorted(r["work"] / 1e6 / r["wall"] for r in chosen)
            if not ratios:
                continue
            print(f"\nwork / wall over the {len(ratios)} {label}: median "
                  f"{ratios[len(ratios) // 2]:.2f}, tenth percentile {ratios[len(ratios) // 10]:.2f}, "
                  f"ninetieth {ratios[len(ratios) * 9 // 10]:.2f}")
    if args.json:
        args.json.write_text(json.dumps({"timeout": args.timeout, "runs": rows, "loaded": loaded}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
