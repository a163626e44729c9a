"""Reach sweep: how much of a body of real code pathcraft analyses.

For every module under a folder (by default the corpus's
`thealgorithms-python/`, 603 modules), under the running Python: does it
parse, which of its functions and methods translate, and how many tests
each gets within a per-function budget. Prints a table and the constructs
most often refused; run it under each Python to compare (3.12 added syntax
that some modules use):

    python bench/reach.py                       # the whole corpus
    python bench/reach.py --limit 50 --json out.json
    ~/.pyenv/versions/3.13.0/bin/python bench/reach.py

With `--run DIR`, each module's tests are written to DIR as a user would
write them (`pathcraft gen MODULE -o ...`) and run with pytest; the table
then says, per top-level folder, how many functions have a test on a real
path (one that checks a value, a mutation or an exception other than an
AttributeError, and passes) and how many tests fail (the aim: none):

    python bench/reach.py --run /tmp/reach-tests

With `--run DIR --jobs N`, each top-level folder is one package run on N
workers (`pathcraft gen FOLDER --jobs N`: one process, its workers reused),
its tests run with pytest on N workers; the table adds, per folder, the
functions a budget stopped and the seconds of generation and of pytest.
`--compare OLD` then lists the test files not byte-identical to an earlier
sweep's in OLD (the same options give the same files under any load):

    python bench/reach.py --run /tmp/sweep-a --jobs 2
    python bench/reach.py --run /tmp/sweep-b --jobs 2 --compare /tmp/sweep-a
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))

from pathcraft.engine.criteria import parse_criterion  # noqa: E402
from pathcraft.errors import PathcraftError  # noqa: E402
from pathcraft.frontend import translate  # noqa: E402
from pathcraft.generate import GenerateOptions, generate  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from package_sweep import COLUMNS, different_files, sweep_package  # noqa: E402
from stdlib import sweep_module as run_module  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus" / "thealgorithms-python"


def construct(message: str) -> str:
    """`file:1:2: unsupported while/else` -> `while/else` (the kind of refusal)."""
    text = re.sub(r"^.*?:\d+:\d+: ", "", message)
    text = re.sub(r"^(calls \S+\(\), which cannot be analysed: )+", "", text)  # the callee's own reason
    text = re.sub(r"'[^']*'", "'…'", text)
    return text[:72]


def folder_table(rows: list[dict[str, Any]], corpus: Path) -> None:
    """Per top-level folder: functions, those with a passing test on a real
    path (and their share), tests, failing tests, files not collected."""
    groups: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for row in rows:
        parts = Path(row["module"]).relative_to(corpus).parts
        for group in (parts[0] if len(parts) > 1 else ".", "all"):
            for key in ("functions", "translated", "real", "tests", "failed", "not collected"):
                groups[group][key] += row.get(key, 0)
    print("| folder | functions | translated | with a test on a real path | share | tests | failed "
          "| not collected |")
    print("|---|---|---|---|---|---|---|---|")
    for group in sorted(groups, key=lambda g: (g == "all", g)):
        c = groups[group]
        share = 100 * c["real"] / c["functions"] if c["functions"] else 0
        name = f"**{group}**" if group == "all" else group
        print(f"| {name} | {c['functions']} | {c['translated']} | {c['real']} | {share:.0f}% | {c['tests']} "
              f"| {c['failed']} | {c['not collected']} |")


def sweep_module(path: Path, options: GenerateOptions, generating: bool = True) -> dict[str, Any]:
    """Parse and translate a module; with `generating`, also generate its
    tests in process (without: `--run` generates them as a user would)."""
    row: dict[str, Any] = {"module": str(path), "parsed": True, "functions": 0, "translated": 0,
                           "with_tests": 0, "tests": 0, "refusals": [], "internal": []}
    try:
        result = translate(str(path))
    except PathcraftError as exc:
        row["parsed"] = "syntax error" not in str(exc)
        row["refusals"].append(construct(str(exc)))
        return row
    except Exception as exc:  # noqa: BLE001 - a sweep reports internal errors, it does not stop on them
        row["internal"].append(f"translate: {type(exc).__name__}: {exc}")
        return row
    row["functions"] = len(result.targets)
    row["refusals"] = [construct(str(e)) for q, e in result.errors.items() if q in result.targets]
    for qualname in result.targets:
        if qualname not in result.program.functions:
            continue
        row["translated"] += 1
        if not generating:
            continue
        try:
            cases = generate(result.program, qualname, options).cases
        except Exception as exc:  # noqa: BLE001
            row["internal"].append(f"{qualname}: {type(exc).__name__}: {exc}")
            continue
        row["tests"] += len(cases)
        row["with_tests"] += bool(cases)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per function [2]")
    parser.add_argument("--max-paths", type=int, default=200, help="paths per function [200]")
    parser.add_argument("--limit", type=int, help="only the first N modules (sorted by path)")
    parser.add_argument("--json", type=Path, help="also write the per-module rows here")
    parser.add_argument("--run", type=Path, metavar="DIR",
                        help="write each module's tests to DIR and run them with pytest (per-folder table)")
    parser.add_argument("--gen", action="append", default=[], metavar="OPTION",
                        help="with --run, an option for `pathcraft gen` (repeat; `--gen=--compose --gen=on-demand`)")
    parser.add_argument("--jobs", type=int, default=0, metavar="N",
                        help="with --run, each top-level folder as one package run on N workers")
    parser.add_argument("--compare", type=Path, metavar="OLD",
                        help="with --run and --jobs, list the test files that differ from OLD's")
    args = parser.parse_args(argv)
    if args.run is not None and args.jobs:
        return sweep_packages(args.corpus, args.run, args.jobs, args.timeout, tuple(args.gen), args.compare)
    modules = sorted(p for p in args.corpus.rglob("*.py") if p.name != "__init__.py")
    if args.limit:
        modules = modules[: args.limit]
    options = GenerateOptions.of(criterion=parse_criterion("loop-2"), timeout=args.timeout, max_paths=args.max_paths)
    started = time.perf_counter()
    rows = []
    for index, path in enumerate(modules, 1):
        row = sweep_module(path, options, generating=args.run is None)
        if args.run is not None:
            args.run.mkdir(parents=True, exist_ok=True)
            ran = run_module(path, args.run, args.timeout, args.corpus, tuple(args.gen))
            row.update(tests=ran["tests"], failed=ran["failed"], real=ran["... that passes"],
                       with_tests=ran["functions with a telling test"],
                       **{"not collected": ran["not collected"]})
        rows.append(row)
        if index % 50 == 0:
            print(f"  {index}/{len(modules)} modules, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    elapsed = time.perf_counter() - started
    total = collections.Counter()
    for row in rows:
        total["modules"] += 1
        total["parsed"] += bool(row["parsed"])
        total["modules with tests"] += row["with_tests"] > 0
        for key in ("functions", "translated", "with_tests", "tests"):
            total[key] += row[key]
        total["internal errors"] += len(row["internal"])
    version = f"{sys.version_info.major}.{sys.version_info.minor}.{sys.version_info.micro}"
    print(f"reach sweep of {args.corpus.name} under Python {version} "
          f"(loop-2, {args.timeout:g} s and {args.max_paths} paths per function)\n")
    print("| modules | parsed | with tests | functions | translated | with tests | tests | internal errors | time s |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(f"| {total['modules']} | {total['parsed']} | {total['modules with tests']} | {total['functions']} | "
          f"{total['translated']} | {total['with_tests']} | {total['tests']} | {total['internal errors']} | "
          f"{elapsed:.0f} |")
    if args.run is not None:
        print()
        folder_table(rows, args.corpus)
    refusals = collections.Counter(r for row in rows for r in row["refusals"])
    print("\nmost frequent refusals (the first construct that stops each function):")
    for text, count in refusals.most_common(20):
        print(f"  {count:5}  {text}")
    for row in rows:
        for problem in row["internal"][:1]:
            print(f"internal: {row['module']}: {problem}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps({"python": version, "rows": rows}, indent=1))
    return 0


def sweep_packages(corpus: Path, out: Path, jobs: int, timeout: float, extra: tuple[str, ...],
                   compare: Path | None) -> int:
    """Each top-level folder of `corpus` as a package run (`--run --jobs`):
    a row per folder, the total, the wall time, and the refusals."""
    folders = sorted(p for p in corpus.iterdir() if p.is_dir() and any(p.rglob("*.py")))
    columns = (*COLUMNS, "gen s", "pytest s")
    print(f"package sweep of {corpus.name} under Python {sys.version.split()[0]} (--jobs {jobs} --timeout {timeout:g}"
          f"{' ' + ' '.join(extra) if extra else ''})\n")
    print("| folder | " + " | ".join(columns) + " | share |")
    print("|---" * (len(columns) + 2) + "|")
    started = time.perf_counter()
    total: collections.Counter[str] = collections.Counter()
    refusals: collections.Counter[str] = collections.Counter()
    for folder in folders:
        row, report = sweep_package(folder, corpus, out, jobs, timeout, extra)
        refusals.update(construct(why) for module in report["per module"] for why in module.get("skipped", {}).values())
        total.update({key: row[key] for key in columns})
        share = 100 * row["with a real test"] / row["functions"] if row["functions"] else 0
        print(f"| {folder.name} | " + " | ".join(str(row[k]) for k in columns) + f" | {share:.0f}% |", flush=True)
    share = 100 * total["with a real test"] / total["functions"] if total["functions"] else 0
    print("| **all** | " + " | ".join(f"{total[k]:g}" if isinstance(total[k], float) else str(total[k])
                                      for k in columns) + f" | {share:.1f}% |")
    stopped = 100 * total["stopped by budget"] / total["functions"] if total["functions"] else 0
    print(f"\n{time.perf_counter() - started:.0f} s in all; {stopped:.1f}% of the functions stopped by a budget")
    if compare is not None:
        differing = different_files(out, compare)
        print(f"\ntest files not byte-identical to {compare}'s: {len(differing)}")
        for name in differing[:20]:
            print(f"  {name}")
    print("\nmost frequent refusals (the first construct that stops each function):")
    for text, count in refusals.most_common(20):
        print(f"  {count:5}  {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
