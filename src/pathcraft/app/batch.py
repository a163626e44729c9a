"""Package runs: every module of a package, on several cores or machines,
again only where something changed (issue: whole packages, many cores).

`pathcraft gen src/mypkg -o tests/generated/` walks the package (folders
with an `__init__.py`, tests and `exclude` patterns skipped) and writes one
test file per module under a mirrored tree, in the `format` setting's
format (testcase/writers.py: `test_mod.py`, or `test_mod.json`). The work items
(pathcraft/app/workitem.py) are a plan per module (translate it: its functions
and its file's header) and then each of its functions; they run on a pool
of local worker processes (pathcraft/app/pool.py) or on a Dask cluster
(pathcraft/app/cluster.py). A module's file grows as its functions come back,
in their order, so it is the file `pathcraft gen MODULE` writes whatever
the number of workers, and an interrupted run keeps every test received.

A manifest beside the tests (`.pathcraft-manifest.json`) keeps, per
module, the hash of its source, of the project modules it imports
(transitively), of the settings and of pathcraft's version: a module whose
hash and test file are unchanged is not run again.
"""

from __future__ import annotations

import ast
import fnmatch
import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from pathcraft import __version__
from pathcraft.depth import interrupted
from pathcraft.fingerprint import fingerprint
from pathcraft.frontend.packages import resolve
from pathcraft.report.htmlreport import FunctionReport, ModuleReport
from pathcraft.app.workitem import merged_split
from pathcraft.testcase.writers import OutputFormat, output_format

MANIFEST = ".pathcraft-manifest.json"
_SKIPPED_FOLDERS = {"tests", "test", "__pycache__", "build", "dist"}


@dataclass(frozen=True)
class ModuleOutcome:
    """What one module's work item did."""

    module: str  # relative to the package's parent
    output: str
    status: str  # "written", "unchanged", "no tests", "failed", "interrupted"
    tests: int = 0
    functions: int = 0
    skipped: dict[str, str] = field(default_factory=dict)  # function -> why
    seconds: float = 0.0  # the work of its items (on several workers, more than the wall clock)
    message: str = ""
    failed: dict[str, str] = field(default_factory=dict)  # function -> why it has no result (hung, crashed)
    # each function that ran: its tests, and why paths of it were dropped (the notes a one-module run prints)
    per_function: dict[str, dict[str, Any]] = field(default_factory=dict)
    # `--execute`: each refused function's observed tests, and what became of its search
    observed: dict[str, dict[str, Any]] = field(default_factory=dict)


def package_modules(root: Path, exclude: Sequence[str] = ()) -> list[Path]:
    """The modules of the package at `root`, sorted: its files and those of
    its subpackages (folders with an `__init__.py`), without tests
    (`test_*.py`, `*_test.py`, `conftest.py`, `tests/`) and without what an
    `exclude` pattern (relative to `root`, fnmatch) matches."""
    out: list[Path] = []
    todo = [root]
    while todo:
        folder = todo.pop()
        for entry in sorted(folder.iterdir()):
            relative = entry.relative_to(root).as_posix()
            if entry.name.startswith(".") or any(fnmatch.fnmatch(relative, p) for p in exclude):
                continue
            if entry.is_dir():
                if entry.name not in _SKIPPED_FOLDERS and (entry / "__init__.py").is_file():
                    todo.append(entry)
            elif entry.suffix == ".py" and not (entry.name.startswith("test_") or entry.name.endswith("_test.py")
                                                or entry.name == "conftest.py"):
                out.append(entry)
    return sorted(out)


def test_file_for(module: Path, root: Path, out: Path, suffix: str = ".py") -> Path:
    """`root/sub/mod.py` -> `out/sub/test_sub__mod.py`: the tree mirrored,
    and a base name no other module's file has (pytest needs that);
    `suffix`: the format's."""
    relative = module.relative_to(root).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    name = "__".join(parts) or root.name
    return out.joinpath(*relative.parts[:-1], f"test_{name}{suffix}")


def imported_project_modules(module: Path) -> set[Path]:
    """The project modules `module` imports, transitively (their code is
    merged into its program, so a change there changes its tests)."""
    seen: set[Path] = set()
    todo = [module]
    while todo:
        current = todo.pop()
        try:
            tree = ast.parse(current.read_bytes())
        except (OSError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            names: list[tuple[str | None, int]] = []
            if isinstance(node, ast.Import):
                names = [(alias.name, 0) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [(node.module, node.level)]
                names += [(f"{node.module}.{a.name}" if node.module else a.name, node.level) for a in node.names]
            for name, level in names:
                found = resolve(current, name, level) if name else None
                if found is not None and found.resolve() not in seen and found.resolve() != module.resolve():
                    seen.add(found.resolve())
                    todo.append(found)
    return seen


def module_hash(module: Path, settings: str) -> str:
    digest = hashlib.sha256(f"{fingerprint()}\n{settings}\n".encode())
    for source in [module.resolve(), *sorted(imported_project_modules(module))]:
        try:
            digest.update(str(source).encode() + b"\n" + source.read_bytes())
        except OSError:
            digest.update(b"missing")
    return digest.hexdigest()


def _load_manifest(out: Path) -> dict[str, tuple[str, int, int]]:
    """module -> (hash, tests, functions) of the last run; {} if there is
    no manifest or it cannot be read (every module then runs)."""
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
        return {name: (str(entry["hash"]), int(entry["tests"]), int(entry["functions"]))
                for name, entry in data["modules"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _save_manifest(out: Path, entries: dict[str, tuple[str, int, int]]) -> None:
    partial = out / f"{MANIFEST}.{os.getpid()}.tmp"
    modules = {name: {"hash": h, "tests": t, "functions": f} for name, (h, t, f) in sorted(entries.items())}
    partial.write_text(json.dumps({"pathcraft": fingerprint(), "modules": modules}, indent=1), encoding="utf-8")
    os.replace(partial, out / MANIFEST)


class Progress:
    """What a package run tells as it goes (the command line draws it);
    this one says nothing."""

    def items_added(self, count: int) -> None:
        """`count` more work items are queued (a module's plan came back)."""

    def item_started(self, module: str, qualname: str | None, worker: int) -> None:
        """A local worker (its pid) took an item (`qualname` None: the plan)."""

    def item_done(self, module: str, qualname: str | None, tests: int) -> None:
        """An item came back with `tests` tests."""

    def module_done(self, outcome: ModuleOutcome, index: int, total: int) -> None:
        """A module's file is complete (or it failed)."""


class Pool(Protocol):
    def submit(self, item: dict[str, Any], priority: tuple[Any, ...] = ()) -> Future[dict[str, Any]]: ...

    def shutdown(self) -> None: ...


@dataclass
class _ModuleRun:
    """A module of the run: its plan, the results of its functions, and how
    much of its file is written (functions in order, as they complete)."""

    name: str
    source: Path
    output: Path
    index: int
    form: OutputFormat  # what goes between two tests and at the end of the file
    functions: list[str] = field(default_factory=list)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    written: int = 0
    tests: int = 0
    skipped: dict[str, str] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    started: bool = False
    data: bool = False  # its tests come back as data too (for the HTML report)

    def item(self, settings: dict[str, Any], qualname: str | None, **part: Any) -> dict[str, Any]:
        """The plan (`qualname` None), a function, or a part of a function's
        split search (`frontier=D` or `prefix=[...]`)."""
        if qualname is None:
            return {"kind": "plan", "source": str(self.source), "settings": settings, "module": self.name}
        if "observe" in part:  # `--execute`: a function the plan refused, and why
            return {"kind": "observe", "source": str(self.source), "qualname": qualname, "settings": settings,
                    "module": self.name, "refused": part["observe"]}
        return {"kind": "function", "source": str(self.source), "qualname": qualname, "settings": settings,
                "module": self.name, "data": self.data, **part}

    def begin(self, header: str) -> None:
        self.output.parent.mkdir(parents=True, exist_ok=True)
        self.output.write_text(header, encoding="utf-8")
        self.started = True

    def take(self, qualname: str, result: dict[str, Any]) -> None:
        self.results[qualname] = result
        self.seconds += float(result.get("seconds", 0.0))
        if result.get("error"):
            self.failed[qualname] = str(result["error"])
        elif result.get("skipped"):
            self.skipped[qualname] = str(result["skipped"])
        self._append(self._ready())

    def _ready(self) -> list[str]:
        """The functions now next in order with their results in."""
        ready = []
        while self.written < len(self.functions) and self.functions[self.written] in self.results:
            ready.append(self.functions[self.written])
            self.written += 1
        return ready

    def _append(self, functions: list[str]) -> None:
        """The tests of `functions` (next in order); the format's end once
        every function is in (a file with tests only)."""
        texts = [text for q in functions for text in self.results[q].get("tests", [])]
        count = self.tests + len(texts)
        end = self.form.layout.end(count, self._stats()) if self.complete and count else ""
        if texts or end:
            between = self.form.layout.between
            with open(self.output, "a", encoding="utf-8") as out:
                out.write((between if self.tests and texts else "") + between.join(texts) + end)
            self.tests = count

    def _stats(self) -> dict[str, Any]:
        """The statistics of the functions that ran (for a format that
        keeps them), in order."""
        return {q: self.results[q].get("stats", {}) for q in self.functions
                if q in self.results and not self.results[q].get("error") and not self.results[q].get("skipped")}

    @property
    def complete(self) -> bool:
        return self.written == len(self.functions)

    def keep_what_came(self) -> None:
        """An interrupted run: the tests of every function that came back,
        in order (those of a function still running are not there)."""
        if self.started and not self.complete:
            came = [q for q in self.functions[self.written:] if q in self.results]
            self.written = len(self.functions)
            self._append(came)

    def report(self, status: str) -> ModuleReport:
        """What the HTML report shows of the module (its tests as data)."""
        functions = [FunctionReport(q, list(r.get("cases", [])), [*r.get("dropped", ()), *(
                         [r["stopped"]] if r.get("stopped") else [])])
                     for q in self.functions if (r := self.results.get(q)) is not None and not r.get("error")
                     and not r.get("skipped")]
        refused = {**self.skipped, **self.failed}
        return ModuleReport(self.name, str(self.source), status, functions, refused)

    def outcome(self) -> ModuleOutcome:
        if self.tests == 0 and self.output.exists():
            self.output.unlink()  # no file for a module without tests
        functions = sum(1 for q in self.functions if q not in self.skipped and q not in self.failed)
        status = "failed" if self.failed else "written" if self.tests else "no tests"
        message = "; ".join(f"{q}: {why}" if q else why for q, why in self.failed.items())
        per_function = {q: {"tests": len(r.get("tests", [])), "dropped": list(r.get("dropped", [])),
                            **({"stopped": r["stopped"]} if r.get("stopped") else {})}
                        for q in self.functions if (r := self.results.get(q)) is not None
                        and not r.get("error") and not r.get("skipped")}
        observed = {q: dict(r["observed"]) for q in self.functions if (r := self.results.get(q)) is not None
                    and r.get("observed") is not None}
        return ModuleOutcome(self.name, str(self.output) if self.tests else "", status, self.tests, functions,
                             self.skipped, round(self.seconds, 2), message, self.failed, per_function, observed)


@dataclass(frozen=True)
class PackageRun:
    outcomes: list[ModuleOutcome]  # sorted by module
    interrupted: bool  # by Ctrl-C: the modules not finished are "interrupted", with the tests that came back
    retried: int  # items run again after their worker died
    reports: list[ModuleReport] = field(default_factory=list)  # with `data`: for the HTML report, by module


def run_package(root: Path, out: Path, settings: dict[str, Any], pool: Pool, incremental: bool,
                exclude: Sequence[str] = (), progress: Progress | None = None, data: bool = False) -> PackageRun:
    """Every module of the package at `root` into `out`, its plan and then
    each function a work item on `pool`. Ctrl-C keeps the files written
    (with every function that came back) and the manifest of the modules
    done; the pool is shut down at the end. `data`: also each module's
    tests as data (`PackageRun.reports`, for the HTML report)."""
    told = progress or Progress()
    modules = package_modules(root, exclude)
    out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(settings, sort_keys=True)
    form = output_format(str(settings.get("format", "pytest")))
    manifest = _load_manifest(out) if incremental else {}
    plan = _plan(root, out, modules, text, form, manifest, data)
    scheduler = _Scheduler(settings, pool, told, plan)
    interrupted = False
    try:
        scheduler.run()
    except KeyboardInterrupt:
        interrupted = True
        finished = {o.module for o in plan.outcomes}
        for run in plan.todo:
            if run.name not in finished:
                run.keep_what_came()
                plan.outcomes.append(replace(run.outcome(), status="interrupted"))
    finally:
        pool.shutdown()
        _save_manifest(out, plan.kept)
    reports = _reports(root, plan) if data else []
    return PackageRun(sorted(plan.outcomes, key=lambda o: o.module), interrupted, getattr(pool, "retried", 0),
                      reports)


@dataclass(frozen=True)
class _Plan:
    """The modules of a run: those unchanged since the manifest (their
    outcomes already), those to run, and the manifest's entries so far."""

    outcomes: list[ModuleOutcome]
    todo: list[_ModuleRun]
    kept: dict[str, tuple[str, int, int]]  # module -> (hash, tests, functions)
    hashes: dict[str, str]


def _plan(root: Path, out: Path, modules: list[Path], text: str, form: OutputFormat,
          manifest: dict[str, tuple[str, int, int]], data: bool) -> _Plan:
    """Which modules run again: those whose hash changed or whose test file
    is gone."""
    plan = _Plan([], [], {}, {})
    for module in modules:
        name = module.relative_to(root.parent).as_posix()
        plan.hashes[name] = module_hash(module, text)
        output = test_file_for(module, root, out, form.suffix)
        last = manifest.get(name)
        if last is not None and last[0] == plan.hashes[name] and (last[1] == 0 or output.exists()):
            plan.outcomes.append(ModuleOutcome(name, str(output) if last[1] else "", "unchanged", last[1], last[2]))
            plan.kept[name] = last
        else:
            plan.todo.append(_ModuleRun(name, module, output, len(plan.todo), form, data=data))
    return plan


def _reports(root: Path, plan: _Plan) -> list[ModuleReport]:
    """Each module's tests as data, by module (an unchanged one: none)."""
    statuses = {o.module: o.status for o in plan.outcomes}
    ran = {run.name: run for run in plan.todo}
    return [ran[m].report(statuses[m]) if m in ran else ModuleReport(m, str(root.parent / m), statuses[m], [])
            for m in sorted(statuses)]


WAKE_SECONDS = 0.2  # how soon a Ctrl-C reaches a scheduler waiting on its items


class _Scheduler:
    """Hands a run's work items to the pool and takes their results as
    they come: a module's plan submits its functions (or their split
    frontier, whose prefixes go out in turn), and a module is done once
    every function is in."""

    def __init__(self, settings: dict[str, Any], pool: Pool, told: Progress, plan: _Plan) -> None:
        self.settings = settings
        self.pool = pool
        self.told = told
        self.plan = plan
        # a submitted item -> (its module, its function, its part's kind)
        self.pending: dict[Future[dict[str, Any]], tuple[_ModuleRun, str | None, int]] = {}
        self.depth = int(settings.get("split_depth") or 0)
        # a split function's results so far (frontier first)
        self.parts: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self.waiting: dict[tuple[str, str], int] = {}  # how many of its parts are still out

    def run(self) -> None:
        for run in self.plan.todo:
            self.submit(run, None, (0, 0))
        self.told.items_added(len(self.plan.todo))
        while self.pending:
            # a wait that wakes up now and then: this runs on depth.run_deep's thread, where a Ctrl-C
            # arrives as an exception set from the main thread (raised only once Python code runs here,
            # and lost if it lands in a finalizer), and as the flag asked below
            done, _ = wait(self.pending, timeout=WAKE_SECONDS, return_when=FIRST_COMPLETED)
            if interrupted():
                raise KeyboardInterrupt
            for future in sorted(done, key=lambda f: self.pending[f][0].index):
                run, qualname, split = self.pending.pop(future)
                result = future.result()
                self.told.item_done(run.name, qualname, len(result.get("tests", [])))
                if qualname is None:
                    if result.get("error"):
                        run.failed = {"": str(result["error"])}
                    elif not result.get("nothing"):
                        self.planned(run, result)
                else:
                    whole = self.split_part(run, qualname, result, run.functions.index(qualname) + 1) if split \
                        else result
                    if whole is None:
                        continue
                    run.take(qualname, whole)
                if run.complete:
                    self.finish(run)

    def finish(self, run: _ModuleRun) -> None:
        outcome = run.outcome()
        outcomes = self.plan.outcomes
        outcomes.append(outcome)
        if outcome.status != "failed":
            self.plan.kept[outcome.module] = (self.plan.hashes[outcome.module], outcome.tests, outcome.functions)
        self.told.module_done(outcome, sum(o.status != "unchanged" for o in outcomes), len(self.plan.todo))

    def submit(self, run: _ModuleRun, qualname: str | None, rank: tuple[Any, ...], **part: Any) -> None:
        future = self.pool.submit(run.item(self.settings, qualname, **part), (run.index, *rank))
        self.pending[future] = (run, qualname, int("frontier" in part or "prefix" in part))

    def planned(self, run: _ModuleRun, result: dict[str, Any]) -> None:
        run.functions = list(result["functions"])
        run.skipped = dict(result["skipped"])
        run.begin(result["header"])
        for position, function in enumerate(run.functions, 1):
            self.submit(run, function, (1, position), **({"frontier": self.depth} if self.depth else {}))
        if self.settings.get("execute"):  # the refused functions get observed tests, after the others
            for position, function in enumerate(run.skipped, len(run.functions) + 1):
                run.functions.append(function)
                self.submit(run, function, (1, position), observe=run.skipped[function])
        self.told.items_added(len(run.functions))

    def split_part(self, run: _ModuleRun, qualname: str, result: dict[str, Any],
                   position: int) -> dict[str, Any] | None:
        """A part of a split function came back: the function's result once
        every part is in."""
        key = (run.name, qualname)
        if key not in self.parts:  # the frontier: its prefixes go out as items of their own
            self.parts[key] = [result]
            prefixes = [] if result.get("error") or result.get("skipped") else result.get("prefixes", [])
            for prefix in prefixes:
                self.submit(run, qualname, (1, position, *prefix), prefix=prefix)
            self.waiting[key] = len(prefixes)
            self.told.items_added(len(prefixes))
        else:
            self.parts[key].append(result)
            self.waiting[key] -= 1
        return merged_split(qualname, self.parts.pop(key)) if self.waiting[key] == 0 else None


def without_a_test(outcome: ModuleOutcome) -> dict[str, str]:
    """The module's functions that ran and got no test (path or observed), each with the first reason given."""
    out: dict[str, str] = {}
    for qualname, result in outcome.per_function.items():
        if result.get("tests") or outcome.observed.get(qualname, {}).get("tests"):
            continue
        reasons = [*result.get("dropped", ()), *([result["stopped"]] if result.get("stopped") else [])]
        out[qualname] = reasons[0] if reasons else "no feasible path found"
    return out


def _reason(message: str) -> str:
    """A reason without the place it was met (`file:line:col: `), so that the same reason counts once."""
    return re.sub(r"^\S+?:\d+:\d+: ", "", message).removeprefix("pathcraft: ")


def top_reasons(outcomes: list[ModuleOutcome], count: int = 3) -> list[tuple[str, int]]:
    """The reasons most often given for a function with no test: skipped, or every path dropped."""
    reasons = Counter(_reason(why) for o in outcomes for why in (*o.skipped.values(), *without_a_test(o).values()))
    return reasons.most_common(count)


def report_json(root: Path, outcomes: list[ModuleOutcome], seconds: float) -> dict[str, Any]:
    return {
        "package": str(root), "pathcraft": __version__, "seconds": round(seconds, 2),
        "modules": len(outcomes), "tests": sum(o.tests for o in outcomes),
        "functions": sum(o.functions for o in outcomes),
        "skipped functions": sum(len(o.skipped) for o in outcomes),
        "functions without a test": sum(len(without_a_test(o)) for o in outcomes),
        "top reasons": [{"reason": why, "functions": n} for why, n in top_reasons(outcomes, 10)],
        "observed functions": sum(1 for o in outcomes for r in o.observed.values() if r.get("tests")),
        "failed modules": sum(o.status == "failed" for o in outcomes),
        "failed functions": sum(len(o.failed) for o in outcomes),
        "unchanged modules": sum(o.status == "unchanged" for o in outcomes),
        "per module": [asdict(o) for o in outcomes],
    }
