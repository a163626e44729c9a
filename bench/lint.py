"""Lint the test files a sweep generated, as a project that keeps them would.

Runs ``ruff check --isolated --select E,F,W,I --line-length 100`` over
every ``test_*.py`` under each folder given, from the import root of the
analysed code (so that ruff's import sorting sees the tested modules as
the project's own, as in the project the tests would be kept in), and
prints a table: files, files with findings, findings by rule.

    python bench/lint.py OUT/ --root ../shared/corpus/thealgorithms-python
    python bench/lint.py LIBS_OUT/boltons --root ../shared/corpus/libs/boltons

Exit status 1 when any file has a finding.
"""

from __future__ import annotations

import argparse
import collections
import json
import shutil
import subprocess
import sys
from pathlib import Path

RULES = "E,F,W,I"
LINE_LENGTH = 100


def ruff() -> str:
    found = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    if not Path(found).exists():
        raise SystemExit("ruff is needed: pip install ruff (a development dependency of pathcraft)")
    return found


def lint(folder: Path, root: Path) -> tuple[int, collections.Counter[str], dict[str, int]]:
    """The number of files, the findings by rule, and findings per file."""
    files = sorted(str(p.resolve()) for p in folder.rglob("test_*.py"))
    by_rule: collections.Counter[str] = collections.Counter()
    by_file: dict[str, int] = {}
    for start in range(0, len(files), 200):  # command lines of bounded length
        done = subprocess.run([ruff(), "check", "--no-cache", "--isolated", "--select", RULES, "--line-length",
                               str(LINE_LENGTH), "--output-format", "json", *files[start:start + 200]],
                              capture_output=True, text=True, cwd=root)
        for finding in json.loads(done.stdout or "[]"):
            by_rule[finding["code"] or "syntax"] += 1
            by_file[finding["filename"]] = by_file.get(finding["filename"], 0) + 1
    return len(files), by_rule, by_file


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", type=Path, nargs="+", help="folders of generated tests")
    parser.add_argument("--root", type=Path, required=True, help="the import root of the analysed code")
    args = parser.parse_args()
    print("| folder | files | files with findings | findings |")
    print("|---|---|---|---|")
    bad = 0
    for folder in args.folders:
        count, by_rule, by_file = lint(folder, args.root.resolve())
        rules = ", ".join(f"{rule} {n}" for rule, n in by_rule.most_common()) or "none"
        print(f"| {folder} | {count} | {len(by_file)} | {rules} |")
        bad += len(by_file)
        for name, n in sorted(by_file.items())[:5]:
            print(f"  {name}: {n}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
