"""Library sweep: each typed library of the corpus (`../shared/corpus/libs/`)
run as a new user would run it, as a package (`pathcraft gen PKG -o DIR
--jobs J --timeout T --report R.json`), its tests then run with pytest (the
library's root on the import path). Prints, per library: functions and
methods, those with a passing test on a real path (one that checks a value,
a mutation or an exception other than AttributeError), tests, failing
tests, files that do not collect, internal errors, modules stopped past
their budget; then the refusals most often met (the first blocker of each
skipped function):

    python bench/libs.py --out /tmp/libs-sweep
    python bench/libs.py --out /tmp/libs-sweep --only boltons --timeout 5
    python bench/libs.py --out /tmp/libs-sweep --execute   # observed tests too
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
LIBS = REPO.parent / "shared" / "corpus" / "libs"
sys.path.insert(0, str(Path(__file__).resolve().parent))
from package_sweep import COLUMNS, sweep_package  # noqa: E402
from reach import construct  # noqa: E402


def package_of(library: Path) -> Path:
    """The importable package inside a library folder (`python_slugify/slugify`)."""
    found = [p for p in sorted(library.iterdir()) if (p / "__init__.py").is_file()]
    if not found:
        raise SystemExit(f"no package in {library}")
    return found[0]


def sweep_library(library: Path, out: Path, jobs: int, timeout: float,
                  execute: bool = False, extra: tuple[str, ...] = ()) -> tuple[dict[str, Any], list[str]]:
    """One library's row and the refusal reasons of its skipped functions
    (`extra`: more options of `pathcraft gen`)."""
    package = package_of(library)
    row, report = sweep_package(package, library, out / library.name, jobs, timeout,
                                (*(["--execute"] if execute else []), *extra))
    reasons = [construct(why) for module in report["per module"] for why in module.get("skipped", {}).values()]
    return row, reasons


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="folder for the generated tests and reports")
    parser.add_argument("--libs", type=Path, default=LIBS, help="folder of the libraries [the corpus's libs/]")
    parser.add_argument("--only", action="append", default=[], help="only this library (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, help="pathcraft workers per library [2]")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds per function [2]")
    parser.add_argument("--gen", action="append", default=[], metavar="OPTION",
                        help="one more option of pathcraft gen, e.g. --gen=--suite --gen=compact (repeatable; "
                             "'with a real test' counts tests of one path each, not a compact suite's tables)")
    parser.add_argument("--execute", action="store_true",
                        help="run pathcraft with --execute (observed tests for the functions it refuses)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    libraries = [p for p in sorted(args.libs.iterdir()) if p.is_dir() and (not args.only or p.name in args.only)]
    started = time.perf_counter()
    total = dict.fromkeys(COLUMNS, 0)
    reasons: collections.Counter[str] = collections.Counter()
    print(f"library sweep under Python {sys.version.split()[0]} (--jobs {args.jobs} --timeout {args.timeout:g}"
          f"{' --execute' if args.execute else ''})\n")
    print("| library | " + " | ".join(COLUMNS) + " | share |")
    print("|---" * (len(COLUMNS) + 2) + "|")
    for library in libraries:
        row, found = sweep_library(library, args.out, args.jobs, args.timeout, args.execute, tuple(args.gen))
        reasons.update(found)
        for key in COLUMNS:
            total[key] += row[key]
        share = 100 * row["with a real test"] / row["functions"] if row["functions"] else 0
        print(f"| {library.name} | " + " | ".join(str(row[k]) for k in COLUMNS) + f" | {share:.0f}% |", flush=True)
    share = 100 * total["with a real test"] / total["functions"] if total["functions"] else 0
    print("| **all** | " + " | ".join(str(total[k]) for k in COLUMNS) + f" | {share:.1f}% |")
    print(f"\n{time.perf_counter() - started:.0f} s\n")
    print("refusals most often met (first blocker of each skipped function):\n")
    print("| refusal | functions |\n|---|---|")
    for reason, count in reasons.most_common(25):
        print(f"| {reason.replace('|', '/')} | {count} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
