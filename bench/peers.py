"""Benchmark pathcraft against CrossHair and Pynguin on the shared corpus.

For every target (the corpus manifest plus the seed examples) every tool gets
the same time budget; its generated tests are then run in this environment
under coverage.py, with a timeout per test, and measured on the target
function alone. Writes ``bench/results/peers-<date>.{json,md}`` and prints the
markdown table. See ``bench/PEERS.md``.

    python bench/peers.py --budget 20
    python bench/peers.py --tools crosshair --targets lcm.py
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import re
import shlex
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peer_tools import adapters as adapters_mod
from peer_tools.adapters import AdapterOptions, Generation, ToolAdapter
from peer_tools.measure import base_env, range_coverage, run_tests, write_support_files
from peer_tools.report import markdown, summarize
from peer_tools.targets import Target, example_targets, filter_targets, load_manifest

REPO = Path(__file__).resolve().parent.parent
DEFAULT_MANIFEST = REPO.parent / "shared" / "corpus" / "MANIFEST.tsv"
DEFAULT_EXAMPLES = REPO.parent / "shared" / "examples"
LIBS_MANIFEST = REPO / "bench" / "libs_targets.tsv"  # sources relative to it: ../../shared/corpus/libs/<lib>
DEFAULT_CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "pathcraft-bench"

Progress = Callable[[str], None]


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[-120:]


def suite_dir(work_root: Path, tool: str, target_id: str) -> Path:
    """Where one tool's files for one target go (``out/`` its tests, ``tests/`` their run)."""
    return work_root / _safe(tool) / _safe(target_id)


def run_one(
    adapter: ToolAdapter,
    target: Target,
    budget: float,
    work_root: Path,
    test_timeout: float,
    all_outcomes: bool = False,
) -> dict[str, Any]:
    """Generate with one tool for one target and measure the tests.

    ``all_outcomes`` keeps every test's outcome by node id in ``outcomes``
    (the mutation benchmark reruns the passing ones); by default only the
    tests that did not pass are kept.
    """
    rec: dict[str, Any] = {
        "tool": adapter.name, "target": target.id, "file": str(target.file),
        "qualname": target.qualname, "module": target.module, "kind": target.kind,
        "status": "error", "error": None, "gen_wall": 0.0, "returncode": None, "command": [],
        "test_files": [], "tests": 0, "passed": 0, "failed": 0, "timed_out": 0,
        "imports": False, "coverage": None, "callees": [],
    }
    if target.error or target.range is None:
        rec["error"] = f"target not found: {target.error}"
        return rec
    workdir = suite_dir(work_root, adapter.name, target.id)
    workdir.mkdir(parents=True, exist_ok=True)
    shim = write_support_files(workdir)
    try:
        gen = adapter.generate(target, budget, workdir, base_env(target, shim))
    except Exception as exc:  # noqa: BLE001 -- an adapter bug must not stop the benchmark
        gen = Generation("error", error=f"adapter crashed: {exc!r}\n{traceback.format_exc(limit=3)}")
    rec.update(status=gen.status, error=gen.error, gen_wall=round(gen.wall, 3),
               returncode=gen.returncode, command=gen.command,
               test_files=[p.name for p in gen.test_files])
    if gen.test_files:
        run = run_tests(gen.test_files, target, workdir, test_timeout=test_timeout)
        data = run.as_dict()
        rec.update(tests=data["tests"], passed=data["passed"], failed=data["failed"],
                   timed_out=data["timed_out"], imports=data["imports"], skipped=data["skipped"],
                   xfailed=data["xfailed"],
                   # Only the tests that did not pass, by name (keeps the JSON small).
                   not_passed={k: v for k, v in data["outcomes"].items() if v not in ("passed", "xfailed")},
                   collect_errors=data["collect_errors"],
                   test_run_wall=data["wall"], test_run_restarts=data["restarts"],
                   coverage=data["coverage"], callees=data["callees"])
        if all_outcomes:
            rec["outcomes"] = data["outcomes"]
        problem = run.error or ("; ".join(run.collect_errors) if run.collect_errors else None)
        if problem and not rec["error"]:
            rec["error"] = problem
        elif problem:
            rec["error"] = f"{rec['error']}; tests: {problem}"
    else:
        rec["coverage"] = range_coverage(None, target.file, target.range).as_dict()
        rec["callees"] = [range_coverage(None, target.file, c).as_dict() for c in target.callees]
    return rec


def run_benchmark(
    targets: list[Target],
    tools: list[ToolAdapter],
    *,
    budget: float,
    work_root: Path,
    test_timeout: float = 10.0,
    jobs: int = 1,
    progress: Progress | None = None,
) -> tuple[list[dict[str, Any]], dict[str, str], dict[str, str]]:
    """Run every tool on every target; (records, versions, unavailable reasons)."""
    say = progress or (lambda line: None)
    versions: dict[str, str] = {}
    unavailable: dict[str, str] = {}
    ready = []
    for tool in tools:
        try:
            reason = tool.prepare()
        except Exception as exc:  # noqa: BLE001 -- reported as unavailable
            reason = f"setup failed: {exc!r}"
        versions[tool.name] = tool.version
        if reason:
            unavailable[tool.name] = reason
            say(f"{tool.name}: unavailable: {reason}")
        else:
            ready.append(tool)
    records: list[dict[str, Any]] = []
    for tool in tools:
        if tool.name in unavailable:
            for target in targets:
                records.append({"tool": tool.name, "target": target.id, "status": "unavailable",
                                "error": unavailable[tool.name], "gen_wall": 0.0, "tests": 0,
                                "passed": 0, "failed": 0, "imports": False, "coverage": None,
                                "callees": [], "test_files": []})
    pairs = [(tool, target) for target in targets for tool in ready]
    lock = threading.Lock()
    done = [0]

    def work(pair: tuple[ToolAdapter, Target]) -> dict[str, Any]:
        tool, target = pair
        rec = run_one(tool, target, budget, work_root, test_timeout)
        with lock:
            done[0] += 1
            cov = rec["coverage"]["percent"] if rec.get("coverage") else 0.0
            say(f"[{done[0]}/{len(pairs)}] {tool.name} {target.id}: {rec['status']}"
                f" cov {cov:.0f}% tests {rec['tests']} pass {rec['passed']}"
                f" gen {rec['gen_wall']:.1f}s" + (f" ({str(rec['error']).splitlines()[0][:100]})"
                                                  if rec.get("error") else ""))
        return rec

    if jobs <= 1:
        records += [work(p) for p in pairs]
    else:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            records += list(pool.map(work, pairs))
    return records, versions, unavailable


def merge_reused(
    path: Path,
    records: list[dict[str, Any]],
    tool_names: list[str],
    target_ids: list[str],
    versions: dict[str, str],
    unavailable: dict[str, str],
) -> tuple[list[str], dict[str, dict[str, Any]]]:
    """Add to ``records`` the earlier records of tools not run now.

    Returns the tool order (the earlier file's, then new tools) and, per
    reused tool, where its records come from (shown in the markdown).
    """
    old = json.loads(path.read_text())
    meta = old["meta"]
    reused: dict[str, dict[str, Any]] = {}
    by = {(r["tool"], r["target"]): r for r in old["records"]}
    for tool in meta["tools"]:
        if tool in tool_names:
            continue
        reused[tool] = {"file": path.name, "date": meta["date"], "budget": meta["budget"]}
        versions[tool] = meta["versions"].get(tool, "")
        if tool in meta.get("unavailable", {}):
            unavailable[tool] = meta["unavailable"][tool]
        for target in target_ids:
            rec = by.get((tool, target))
            if rec is None:
                rec = {"tool": tool, "target": target, "status": "missing", "gen_wall": 0.0,
                       "error": f"not in {path.name}", "tests": 0, "passed": 0, "failed": 0,
                       "imports": False, "coverage": None, "callees": [], "test_files": []}
            records.append(rec)
    order = [t for t in meta["tools"] if t in tool_names or t in reused]
    order += [t for t in tool_names if t not in order]
    return order, reused


def build_tools(names: list[str], options: AdapterOptions, extras: dict[str, list[str]],
                pathcraft_extra: list[str]) -> list[ToolAdapter]:
    tools: list[ToolAdapter] = []
    for name in names:
        if name not in adapters_mod.REGISTRY:
            raise SystemExit(f"unknown tool {name!r}; known: {', '.join(adapters_mod.REGISTRY)}")
        opts = AdapterOptions(options.cache_dir, options.grace, options.python,
                              extras.get(name, []), options.seed)
        tools.append(adapters_mod.REGISTRY[name](opts))
        if name == "pathcraft":
            for extra in pathcraft_extra:
                _label, factory = adapters_mod.pathcraft_variant(extra)
                tools.append(factory(options))
    return tools


def add_run_arguments(p: argparse.ArgumentParser, *, budget: float, grace: float, test_timeout: float,
                      budget_help: str, test_timeout_help: str, venvs: str) -> None:
    """The options every benchmark over the peer targets shares (this
    script and bench/mutation.py), with each script's own defaults."""
    p.add_argument("--budget", type=float, default=budget, help=budget_help)
    p.add_argument("--grace", type=float, default=grace,
                   help=f"seconds past the budget before a tool is killed (default {grace:g})")
    p.add_argument("--test-timeout", type=float, default=test_timeout, help=test_timeout_help)
    p.add_argument("--targets", action="append", default=[],
                   help="keep targets whose id contains this substring (repeatable, comma-separated)")
    p.add_argument("--tools", default="pathcraft,crosshair,pynguin")
    p.add_argument("--group", choices=("corpus", "libs"), default="corpus",
                   help="corpus: the shared manifest and the seed examples; libs: functions and methods of the ten "
                        "typed libraries (bench/libs_targets.tsv), chosen by style")
    p.add_argument("--manifest", type=Path, default=DEFAULT_MANIFEST)
    p.add_argument("--examples", type=Path, default=DEFAULT_EXAMPLES,
                   help="folder of the seed examples ('' to leave them out)")
    p.add_argument("--out-dir", type=Path, default=REPO / "bench" / "results")
    p.add_argument("--cache-dir", type=Path, default=DEFAULT_CACHE,
                   help=f"{venvs} virtual environments go to CACHE/venvs/<tool>")
    p.add_argument("--venv-python", default=sys.executable,
                   help=f"interpreter that creates the {venvs} virtual environments")
    p.add_argument("--seed", type=int, default=1, help="Pynguin's random seed")
    p.add_argument("--date", default=dt.date.today().isoformat(), help="date in the output file names")


def chosen_targets(args: argparse.Namespace) -> list[Target]:
    """The manifest's targets and the examples' (or the libs group's),
    filtered by --targets."""
    if getattr(args, "group", "corpus") == "libs":
        return filter_targets(load_manifest(LIBS_MANIFEST), [s for arg in args.targets for s in arg.split(",") if s])
    targets = load_manifest(args.manifest) if str(args.manifest) not in ("", ".") else []
    if str(args.examples) not in ("", "."):
        targets += example_targets(args.examples)
    return filter_targets(targets, [s for arg in args.targets for s in arg.split(",") if s])


def exit_on_sigterm() -> None:
    """SIGTERM unwinds through the runners, which kill their tools."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_run_arguments(p, budget=60.0, grace=30.0, test_timeout=10.0,
                      budget_help="seconds per (tool, target) (default 60)",
                      test_timeout_help="timeout of one generated test, seconds (default 10)", venvs="peers'")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--pathcraft-extra", action="append", default=[],
                   help='a second pathcraft configuration, e.g. "--criterion loop-3" (repeatable)')
    p.add_argument("--crosshair-extra", default="", help="extra arguments for crosshair cover")
    p.add_argument("--pynguin-extra", default="", help="extra arguments for pynguin")
    p.add_argument("--reuse", type=Path, default=None,
                   help="take the records of the tools not run now from this earlier JSON "
                        "(e.g. rerun only pathcraft: --tools pathcraft --reuse bench/results/peers-D.json)")
    p.add_argument("--keep-work", type=Path, default=None, help="keep generated files in this folder")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    exit_on_sigterm()
    targets = chosen_targets(args)
    if not targets:
        print("no targets", file=sys.stderr)
        return 2
    options = AdapterOptions(args.cache_dir.expanduser(), args.grace, args.venv_python, [], args.seed)
    extras = {"crosshair": shlex.split(args.crosshair_extra), "pynguin": shlex.split(args.pynguin_extra)}
    names = [n.strip() for n in args.tools.split(",") if n.strip()]
    tools = build_tools(names, options, extras, args.pathcraft_extra)

    work_root = args.keep_work or Path(tempfile.mkdtemp(prefix="pathcraft-peers-"))
    work_root.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    try:
        records, versions, unavailable = run_benchmark(
            targets, tools, budget=args.budget, work_root=work_root,
            test_timeout=args.test_timeout, jobs=args.jobs,
            progress=lambda line: print(line, file=sys.stderr, flush=True))
    finally:
        if args.keep_work is None:
            shutil.rmtree(work_root, ignore_errors=True)
    tool_names = [t.name for t in tools]
    target_ids = [t.id for t in targets]
    reused: dict[str, dict[str, Any]] = {}
    if args.reuse is not None:
        tool_names, reused = merge_reused(args.reuse, records, tool_names, target_ids, versions, unavailable)
    data = {
        "meta": {
            "date": args.date,
            "command": "python bench/peers.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:])),
            "budget": args.budget, "grace": args.grace, "test_timeout": args.test_timeout,
            "python": platform.python_version(),
            "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores",
            "tools": tool_names, "targets": target_ids, "versions": versions,
            "unavailable": unavailable, "wall": round(time.monotonic() - started, 1),
            "jobs": args.jobs, "reused": reused,
        },
        "summary": summarize(records, tool_names, target_ids, unavailable),
        "records": sorted(
            records, key=lambda r: (target_ids.index(r["target"]), tool_names.index(r["tool"]))),
    }
    text = markdown(data)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / f"peers-{args.date}.json").write_text(json.dumps(data, indent=1) + "\n")
    (args.out_dir / f"peers-{args.date}.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
