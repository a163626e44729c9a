"""Concolic mode against the symbolic run on functions with an unmodelled
call (paper 004 §2's concretization; issue: item coverage with less search).

Targets: every function of the test fixture `tests/fixtures/concolic.py`
(one calls such a function through a helper), and every function or method of the corpus (thealgorithms and Goodrich)
whose own body calls an allow-listed `math` function the model has no
summary of (`ir/pure_calls.py`: `math.log`, `math.exp`, `math.isqrt`...).

Each target is generated twice, by the standard search at loop-2: plainly
(a path that reaches such a call is dropped) and with `--concolic` (the
call runs on the path model's values). The tests are measured as the peer
benchmark measures a tool (`bench/peer_tools`: run in a fresh folder,
coverage.py's branch coverage of the function's own lines). Columns: tests
passing / written, branch coverage, calls run concretely, the search's
seconds. Prints markdown; `--json` keeps the records.

    python bench/concolic.py
    python bench/concolic.py --targets fixture --budget 10
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "src"))

from guided import _stderr, bench_parser, stat  # noqa: E402
from peer_tools.adapters import AdapterOptions, pathcraft_variant  # noqa: E402
from peer_tools.targets import Target, filter_targets, make_target  # noqa: E402
from peers import run_one, suite_dir  # noqa: E402

from pathcraft.ir import pure_calls  # noqa: E402

REPO = HERE.parent
CORPUS = REPO.parent / "shared" / "corpus"
FIXTURE = REPO / "tests" / "fixtures" / "concolic.py"
MODES = {"symbolic": "", "concolic": "--concolic"}


def _calls_allow_listed(fn: ast.AST, from_math: dict[str, str]) -> bool:
    for node in ast.walk(fn):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "math" \
                and f"math.{func.attr}" in pure_calls.ARITIES:
            return True
        if isinstance(func, ast.Name) and f"math.{from_math.get(func.id, '')}" in pure_calls.ARITIES:
            return True
    return False


def functions_with_calls(path: Path) -> list[str]:
    """Qualnames of the functions and methods of `path` whose own body
    calls an allow-listed math function."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError):
        return []
    from_math = {a.asname or a.name: a.name for n in tree.body if isinstance(n, ast.ImportFrom)
                 and n.module == "math" for a in n.names}
    found = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and _calls_allow_listed(node, from_math):
            found.append(node.name)
        if isinstance(node, ast.ClassDef):
            found += [f"{node.name}.{m.name}" for m in node.body
                      if isinstance(m, ast.FunctionDef) and _calls_allow_listed(m, from_math)]
    return found


def targets(patterns: list[str]) -> list[Target]:
    fixture = [n.name for n in ast.parse(FIXTURE.read_text()).body if isinstance(n, ast.FunctionDef)]
    chosen = [make_target(FIXTURE, q, f"fixture/concolic.py::{q}", "fixture") for q in fixture]
    for folder in ("thealgorithms-python", "goodrich-dsap-python"):
        for path in sorted((CORPUS / folder).rglob("*.py")):
            if "test" in path.name:
                continue
            chosen += [make_target(path, q, f"{folder}/{path.relative_to(CORPUS / folder)}::{q}", "corpus")
                       for q in functions_with_calls(path)]
    chosen = [t for t in chosen if t.range is not None and not t.error]
    return filter_targets(chosen, patterns)


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    options = AdapterOptions(Path(args.work) / "cache", args.grace, sys.executable, [], 0)
    records: list[dict[str, Any]] = []
    for target in targets(args.targets):
        for mode, extra in MODES.items():
            _, factory = pathcraft_variant(f"--stats {extra}")
            adapter = factory(options)
            if adapter.prepare() is not None:
                raise SystemExit(f"pathcraft is not importable by {sys.executable}")
            work = Path(args.work) / mode
            rec = run_one(adapter, target, args.budget, work, args.test_timeout)
            stderr = _stderr(suite_dir(work, adapter.name, target.id))
            cov = rec["coverage"]["percent"] if rec.get("coverage") else 0.0
            records.append({"target": target.id, "mode": mode, "tests": rec["tests"], "passed": rec["passed"],
                            "coverage": round(cov, 1), "status": rec["status"], "error": rec.get("error"),
                            "concretized": stat(stderr, "concretized calls") or 0,
                            "seconds": stat(stderr, "seconds") or 0.0})
            print(f"{target.id} {mode}: {rec['passed']}/{rec['tests']} tests, {cov:.0f}%", file=sys.stderr,
                  flush=True)
    return records


def table(records: list[dict[str, Any]]) -> str:
    by: dict[str, dict[str, dict[str, Any]]] = {}
    for rec in records:
        by.setdefault(rec["target"], {})[rec["mode"]] = rec
    head = ["target"] + [f"{m} {c}" for m in MODES for c in ("tests", "CC %", "C", "T s")]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for tid, per in by.items():
        row = [f"`{tid}`"]
        for m in MODES:
            rec = per.get(m)
            row += ["–"] * 4 if rec is None else [f"{rec['passed']}/{rec['tests']}", f"{rec['coverage']:.0f}",
                                                  str(int(rec["concretized"])), f"{rec['seconds']:.2f}"]
        lines.append("| " + " | ".join(row) + " |")
    pairs = [(per["symbolic"], per["concolic"]) for per in by.values() if len(per) == 2]
    more = sum(1 for s, c in pairs if c["coverage"] > s["coverage"])
    less = sum(1 for s, c in pairs if c["coverage"] < s["coverage"])
    failing = sum(c["tests"] - c["passed"] for _, c in pairs)
    lines += ["", "tests: passing / written; CC branch coverage of the function's lines; C calls run "
              "concretely; T the search's seconds.", "",
              f"{len(pairs)} targets: concolic covers more on {more}, less on {less}; mean coverage "
              f"{sum(s['coverage'] for s, _ in pairs) / max(len(pairs), 1):.1f}% symbolic, "
              f"{sum(c['coverage'] for _, c in pairs) / max(len(pairs), 1):.1f}% concolic; "
              f"concolic tests failing: {failing}."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = bench_parser(__doc__, "/tmp/pathcraft-concolic")
    p.add_argument("--list", action="store_true", help="only list the targets")
    args = p.parse_args(argv)
    args.targets = [t for item in args.targets for t in item.split(",") if t]
    if args.list:
        for target in targets(args.targets):
            print(target.id)
        return 0
    records = run(args)
    if args.json is not None:
        args.json.write_text(json.dumps(records, indent=1))
    print(table(records))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
