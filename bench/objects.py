"""Free objects against objects constructed through the API (issue 10).

    python bench/objects.py [--timeout 30] [--setup-calls 2] [--out bench/results/objects-DATE.md]

For every method of a data-structure class -- the corpus manifest's `heap`
rows, the classes of the examples (shared/examples, examples/), and, as a
third group, the classes of tests/fixtures -- pathcraft generates tests
under `--objects free` and `--objects constructed`; the tests are then run
with pytest under coverage.py (bench/peer_tools/measure.py, as the peers
benchmark does) and measured on the target alone. Columns, free / constructed:

* tests: test functions written; pass: of them, passing;
* branches: branch arcs of the target covered / possible (statements when
  it has no branch); callees: branch arcs of the functions of its module it
  calls (transitively, by name: a syntactic approximation);
* time: translation and generation, seconds (the budget is --timeout);
* AttrErr: share of the tests that assert an AttributeError;
* mode: what constructed mode did: `api` (a driver built the object) or
  `free` with the reason it fell back, or the translation error.

A manifest row that is a function (no object of its own) is measured the
same way: both modes give the same tests for it.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peer_tools.measure import run_tests
from peer_tools.targets import Target, load_manifest, make_target

from pathcraft.config import Settings
from pathcraft.frontend import translate
from pathcraft.generate import generate
from pathcraft.testcase.emit_pytest import PytestWriter

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
MANIFEST = SHARED / "corpus" / "MANIFEST.tsv"
EXAMPLE_FILES = (SHARED / "examples", REPO / "examples")
FIXTURE_FILES = (REPO / "tests" / "fixtures" / "linked.py", REPO / "tests" / "fixtures" / "pq.py",
                 REPO / "tests" / "fixtures" / "objects.py")
MODES = ("free", "constructed")


@dataclass
class Outcome:
    """One target under one mode."""

    tests: int = 0
    passed: int = 0
    attribute_errors: int = 0
    branches_hit: int = 0
    branches_total: int = 0
    lines_hit: int = 0
    lines_total: int = 0
    callee_hit: int = 0  # branch arcs of its same-module callees
    callee_total: int = 0
    seconds: float = 0.0
    mode: str = ""  # constructed: "api", or why the objects stayed free
    error: str | None = None
    setup_raised: int = 0
    failing: list[str] = field(default_factory=list)  # test functions that did not pass


@dataclass
class Row:
    group: str
    target: str
    modes: dict[str, Outcome] = field(default_factory=dict)


def class_methods(file: Path) -> list[str]:
    """`Class.method` for every method (not a dunder) of a class with methods."""
    tree = ast.parse(file.read_text(encoding="utf-8"))
    out = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            out += [f"{node.name}.{item.name}" for item in node.body
                    if isinstance(item, ast.FunctionDef) and not item.name.startswith("__")]
    return out


def targets() -> list[tuple[str, Target]]:
    out = [("corpus", t) for t in load_manifest(MANIFEST) if t.kind == "heap"]
    for folder in EXAMPLE_FILES:
        for file in sorted(folder.glob("*.py")):
            out += [("examples", make_target(file, q, f"examples/{file.name}::{q}")) for q in class_methods(file)]
    for file in FIXTURE_FILES:
        out += [("fixtures", make_target(file, q, f"fixtures/{file.name}::{q}")) for q in class_methods(file)]
    return out


def generate_tests(target: Target, mode: str, settings: Settings, out: Path) -> Outcome:
    """Generate the tests of `target` under `mode` into `out` (in process)."""
    outcome = Outcome()
    settings = replace(settings, objects=mode)
    options = settings.generate_options()
    started = time.perf_counter()
    result = translate(str(target.file), [target.qualname], objects=mode, setup_calls=settings.setup_calls)
    program = result.program
    if target.qualname not in program.functions:
        error = result.errors.get(target.qualname)
        outcome.error = str(error.message if error else "not translated")
        outcome.mode = "error"
        return outcome
    outcome.mode = "api" if target.qualname in program.drivers else \
        result.free_objects.get(target.qualname, "function") if mode == "constructed" else "free"
    with open(out, "w", encoding="utf-8") as stream:
        writer = PytestWriter(stream, program.module, str(target.file), [target.qualname], str(settings.criterion),
                              frozenset(program.exception_bases), frozenset(program.classes),
                              frozenset(q for q in [target.qualname] if not program.takes_keywords(q)))
        run = generate(program, target.qualname, options, writer.add)
        writer.close()
    outcome.seconds = time.perf_counter() - started
    outcome.tests = len(run.cases)
    outcome.attribute_errors = sum(1 for c in run.cases if c.kind == "raise" and c.exc_type == "AttributeError")
    outcome.setup_raised = int(run.stats.get("setup_raised", 0))
    return outcome


def measure(target: Target, mode: str, settings: Settings, work: Path) -> Outcome:
    folder = work / f"{target.qualname}-{mode}"
    folder.mkdir(parents=True, exist_ok=True)
    test_file = folder / f"test_{target.qualname.replace('.', '_')}_{mode}.py"
    outcome = generate_tests(target, mode, settings, test_file)
    if outcome.error is not None or target.range is None:
        return outcome
    run = run_tests([test_file], target, folder / "run", test_timeout=10.0)
    outcome.passed = run.passed
    outcome.failing = [node.rpartition("::")[2] for node, result in run.outcomes.items()
                       if result not in ("passed", "xfailed")]
    if run.target is not None:
        outcome.branches_hit, outcome.branches_total = run.target.branches_hit, run.target.branches_total
        outcome.lines_hit, outcome.lines_total = run.target.lines_hit, run.target.lines_total
    outcome.callee_hit = sum(c.branches_hit for c in run.callees)
    outcome.callee_total = sum(c.branches_total for c in run.callees)
    if run.collect_errors:
        outcome.error = "the tests do not import: " + run.collect_errors[0].splitlines()[-1][-200:]
    elif run.error:
        outcome.error = run.error
    return outcome


def _cover(o: Outcome) -> str:
    if o.branches_total:
        return f"{o.branches_hit}/{o.branches_total}"
    return f"{o.lines_hit}/{o.lines_total} st" if o.lines_total else "-"


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def table(rows: list[Row]) -> list[str]:
    lines = [
        "| group | target | tests F/C | pass F/C | branches F/C | callees F/C | time s F/C | AttrErr F/C "
        "| constructed mode |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        f, c = row.modes["free"], row.modes["constructed"]
        if f.mode == "error":
            lines.append(f"| {row.group} | {row.target} | - | - | - | - | - | - | not translated: {f.error} |")
            continue
        passed = "no import" if f.error and c.error and "import" in f.error else f"{f.passed} / {c.passed}"
        lines.append(
            f"| {row.group} | {row.target} | {f.tests} / {c.tests} | {passed} | "
            f"{_cover(f)} / {_cover(c)} | {f.callee_hit}/{f.callee_total} / {c.callee_hit}/{c.callee_total} | "
            f"{f.seconds:.2f} / {c.seconds:.2f} | "
            f"{_share(f.attribute_errors, f.tests)} / {_share(c.attribute_errors, c.tests)} | {c.mode} |")
    return lines


def summary(rows: list[Row]) -> list[str]:
    """Per group, over the targets pathcraft translated: sums, and the same
    restricted to the targets whose objects constructed mode built (`api`)."""
    lines = [
        "| group | targets | tests F/C | pass F/C | branches F/C | callees F/C | time s F/C | AttrErr F/C |",
        "|---|---|---|---|---|---|---|---|",
    ]
    groups = list(dict.fromkeys(r.group for r in rows))
    for label, keep in (("", lambda r: True), (" (api)", lambda r: r.modes["constructed"].mode == "api")):
        for group in [*groups, "all"]:
            chosen = [r for r in rows if (group == "all" or r.group == group) and r.modes["free"].mode != "error"
                      and keep(r)]
            if not chosen:
                continue
            cells = []
            for attr in ("tests", "passed"):
                cells.append(" / ".join(str(sum(getattr(r.modes[m], attr) for r in chosen)) for m in MODES))
            for hit_name, total_name in (("branches_hit", "branches_total"), ("callee_hit", "callee_total")):
                cover = []
                for m in MODES:
                    hit = sum(getattr(r.modes[m], hit_name) for r in chosen)
                    total = sum(getattr(r.modes[m], total_name) for r in chosen)
                    cover.append(f"{hit}/{total} ({_share(hit, total)})")
                cells.append(" / ".join(cover))
            cells.append(" / ".join(f"{sum(r.modes[m].seconds for r in chosen):.1f}" for m in MODES))
            cells.append(" / ".join(_share(sum(r.modes[m].attribute_errors for r in chosen),
                                           sum(r.modes[m].tests for r in chosen)) for m in MODES))
            lines.append(f"| {group}{label} | {len(chosen)} | " + " | ".join(cells) + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timeout", type=float, default=30.0, help="generation budget per target and mode (s)")
    parser.add_argument("--setup-calls", type=int, default=2)
    parser.add_argument("--targets", nargs="*", default=[], help="only targets whose id contains one of these")
    parser.add_argument("--out", type=Path, help="also write the tables (markdown) here, and the rows as JSON")
    args = parser.parse_args(argv)
    settings = Settings(timeout=args.timeout, setup_calls=args.setup_calls)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="pathcraft-objects-") as tmp:
        for group, target in targets():
            if args.targets and not any(p in target.id for p in args.targets):
                continue
            row = Row(group, target.id.removeprefix("thealgorithms-python/").removeprefix("goodrich-dsap-python/"))
            for mode in MODES:
                if target.error:
                    row.modes[mode] = Outcome(mode="error", error=target.error)
                    continue
                row.modes[mode] = measure(target, mode, settings, Path(tmp))
            rows.append(row)
            print(table([row])[-1], flush=True)
    header = [f"Objects, free (F) against constructed (C), {datetime.date.today()}: --timeout {args.timeout:g}, "
              f"--setup-calls {args.setup_calls}, loop-2, symbolic heap; Python {sys.version.split()[0]}.", ""]
    text = "\n".join([*header, *table(rows), "", *summary(rows)]) + "\n"
    print()
    print("\n".join(summary(rows)))
    if args.out:
        args.out.write_text(text, encoding="utf-8")
        args.out.with_suffix(".json").write_text(
            json.dumps([{"group": r.group, "target": r.target, **{m: asdict(o) for m, o in r.modes.items()}}
                        for r in rows], indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
