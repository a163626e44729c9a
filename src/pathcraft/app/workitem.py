"""Work items: the units a package run hands to its workers (issue: whole
packages, many cores, many machines).

An item is a plain dict and so is its result, so the same item runs on a
local worker process (pathcraft/app/pool.py, JSON lines over a pipe) or on a
Dask cluster (pathcraft/app/cluster.py) and nothing but the source's path, the
settings and test text crosses a process or a machine:

* `plan` (a module): translate it; its functions, the header of its test
  file, and the functions refused with why;
* `function` (one function of a module): its tests, each as the text the
  module's writer gives it (the `format` setting, testcase/writers.py), and
  what the command line would say of it;
* `observe` (`--execute`, a function the plan refused): its observed tests,
  from a search of the real code in a sandboxed worker (pathcraft/execute/). A module's file is its plan's
  header followed by its functions' tests in order and the format's end,
  which is the file `pathcraft gen MODULE` writes.

Also home to the pieces the command line shares with the workers: which
of a module's targets can run, and what is said of a function's run.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping
from dataclasses import asdict, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pathcraft.config import Settings, settings_of
from pathcraft.depth import too_deep
from pathcraft.strategies.split import BelowPrefix, Frontier
from pathcraft.errors import PathcraftError, TargetError
from pathcraft.frontend import TranslationResult, translate
from pathcraft.generate import FunctionRun, GenerateOptions, generate
from pathcraft.heap.assumptions import parse_assumptions
from pathcraft.suite.compact import compact_suite, compaction_line
from pathcraft.testcase.emit_pytest import PytestText
from pathcraft.testcase.model import TestCase
from pathcraft.testcase.stream import Writer
from pathcraft.testcase.writers import Destination, output_format

if TYPE_CHECKING:
    from pathcraft.execute.sandbox import Sandbox

NOTHING_TO_TEST = "no functions or methods to test"  # what `gen` says of a module without any


def criterion_label(options: GenerateOptions) -> str:
    return ",".join(filter(None, (options.select, str(options.engine.criterion))))


def runnable_targets(result: TranslationResult, name: str | None,
                     options: GenerateOptions) -> tuple[list[str], list[str]]:
    """The targets that translated, and what to say first (types inferred,
    functions skipped, objects built freely); checks every heap assumption
    and counted call before any search starts (PathcraftError)."""
    program = result.program
    runnable = [t for t in result.targets if t in program.functions]
    said: list[str] = []
    for qualname in runnable:
        inferred = program.functions[qualname].inferred
        if inferred:
            said.append(f"pathcraft: {qualname}: types inferred from use: {', '.join(inferred)}")
    for qualname in runnable:
        info = program.functions[qualname]
        parse_assumptions(list(options.assume) + list(info.assumptions), info.params)
    counted = [c.partition(":")[2] for c in (*options.costs, *(p.cost for p in options.policies))
               if c.startswith("calls:")]
    known = set(program.functions) | set(result.targets)
    for function in counted:
        if function not in known:
            raise PathcraftError(f"calls:{function} counts calls of '{function}', which is no function or "
                                 f"method of {program.path}")
    for qualname, error in result.errors.items():
        if qualname in result.targets:
            located = error.location is not None or not isinstance(error, TargetError)  # file:line:col first
            said.append(("" if located else "pathcraft: ") + f"{error}" + ("" if name else f"  (skipped {qualname})"))
    for qualname, why in result.free_objects.items():
        if qualname in runnable:
            said.append(f"pathcraft: {qualname}: objects built freely: {why}")
    return runnable, said


def all_paths_cut(run: FunctionRun) -> str | None:
    """Why a function has no test when every path the search followed was
    cut by its bounds (and none was dropped or stopped for another reason)."""
    cut = run.stats.get("pruned_paths", 0)
    if run.cases or run.stopped or run.notes or not cut:
        return None
    paths = "the one path followed was" if cut == 1 else f"each of the {cut} paths followed was"
    return f"{paths} cut by a bound of the search (the loop bound of --criterion, --max-call-depth or a cost " \
           "budget) before it ended"


def dropped_reasons(run: FunctionRun, tested: bool) -> list[str]:
    """Why paths of the function were dropped, and why it has no test where the bounds cut every path."""
    cut = None if tested else all_paths_cut(run)
    return [f"unsupported {note}" for note in run.notes] + ([cut] if cut else [])


def function_messages(run: FunctionRun) -> list[str]:
    """What the command line says of a function after its search."""
    said: list[str] = []
    qualname = run.qualname
    if run.stopped and run.stopped != "interrupted":
        # a smaller loop bound helps only where the bounds cut paths (a function of 40 ifs has none to cut)
        smaller = ", or a smaller --criterion (loop-1)," if run.stats.get("pruned_paths") else ""
        advice = f"; a larger --max-paths or --timeout{smaller} changes that" \
            if run.stopped in ("path limit reached", "time budget reached") else ""
        said.append(f"pathcraft: {qualname}: {run.stopped}; kept {len(run.cases)} tests{advice}")
    broken = sum(1 for case in run.cases if case.extra.get("invariant"))
    if broken:
        names = ", ".join(run.cases[0].extra.get("invariants", ()))
        said.append(f"pathcraft: {qualname}: {broken} of {len(run.cases)} tests leave the invariant "
                    f"{names} false or raising (each test says so)")
    cut = all_paths_cut(run)
    if cut:
        said.append(f"pathcraft: {qualname}: no test: {cut}; a loop that never ends, or one that a larger "
                    "--criterion goes past")
    said += [f"pathcraft: {qualname}: some paths dropped: unsupported {note}" for note in run.notes]
    said += [f"pathcraft: {warning}" for warning in run.warnings]
    return said


class _Translated:
    """A module translated under some settings, kept by a worker for the
    module's other items."""

    def __init__(self, source: str, settings: Settings) -> None:
        self.options = settings.generate_options()
        self.result = translate(source, None, self.options.invariants, objects=self.options.objects,
                                setup_calls=self.options.setup_calls, natives=settings.native_summaries)
        self.runnable, self.said = runnable_targets(self.result, None, self.options)
        self.format = settings.format
        self.compact = settings.suite == "compact" and output_format(settings.format).runs
        self.comments = settings.resolved_comments()

    def writer(self, source: str) -> Writer:
        """The module's text in the run's format (its `target` is the source)."""
        where = Destination(self.result.program, source, source, tuple(self.runnable), criterion_label(self.options),
                            comments=self.comments)
        return output_format(self.format).writer(where)


_translated: dict[tuple[str, str, str], _Translated] = {}  # (source, its hash, settings) -> translation


def _translation(source: str, settings: Mapping[str, Any]) -> _Translated:
    text = json.dumps(settings, sort_keys=True)
    digest = hashlib.sha256(Path(source).read_bytes()).hexdigest()
    key = (source, digest, text)
    if key not in _translated:
        _translated.clear()  # one module at a time: a worker's items come module by module
        _translated[key] = _Translated(source, settings_of(settings))
    return _translated[key]


def plan_module(source: str, settings: Mapping[str, Any]) -> dict[str, Any]:
    """A `plan` item: the module's functions, its test file's header, and
    the functions refused (with why)."""
    try:
        found = _translation(source, settings)
    except PathcraftError as exc:
        return {"error": str(exc)}
    if not found.runnable and not found.result.errors:
        return {"nothing": True, "functions": [], "header": "", "skipped": {}, "messages": found.said}
    skipped = {q: str(e) for q, e in found.result.errors.items() if q in found.result.targets}
    return {"functions": found.runnable, "header": found.writer(source).head(), "skipped": skipped,
            "messages": found.said}


def run_function(source: str, qualname: str, settings: Mapping[str, Any], frontier: int | None = None,
                 prefix: list[int] | None = None, data: bool = False) -> dict[str, Any]:
    """A `function` item: the text of each test of `qualname`, in order.
    With `frontier` or `prefix`, one part of its search split below trace
    prefixes (strategies/split.py): then also each test's choices, and for the
    frontier the prefixes below it; probes and edge tests need the whole
    search, so a split function has none. `data`: also each test as
    `TestCase.to_json()` with its cost values (for the HTML report)."""
    started = time.perf_counter()
    try:
        found = _translation(source, settings)
    except PathcraftError as exc:
        return {"qualname": qualname, "tests": [], "error": str(exc), "messages": []}
    options = found.options
    control: Frontier | BelowPrefix | None = None
    if frontier is not None or prefix is not None:
        control = Frontier(frontier) if frontier is not None else BelowPrefix(prefix or [])
        options = replace(options, long_probes=0, edge_tests=0,
                          engine=replace(options.engine, controls=(*options.engine.controls, control)))
    writer = found.writer(source)  # its head is the plan's
    texts: list[str] = []
    cases: list[dict[str, Any]] = []
    found_cases: list[TestCase] = []

    def on_case(case: TestCase) -> None:
        texts.append(writer.test(case))
        found_cases.append(case)
        if data:
            cases.append(case_data(case))

    try:
        run = generate(found.result.program, qualname, options, on_case)
    except PathcraftError as exc:
        return {"qualname": qualname, "tests": texts, "error": None, "skipped": str(exc),
                "messages": [f"pathcraft: {qualname}: {exc}"], "seconds": time.perf_counter() - started}
    except RecursionError as exc:
        kept = f" (the {len(texts)} tests found before are kept)" if texts else ""
        return {"qualname": qualname, "tests": texts, "error": None, "skipped": "too deep",
                "messages": [f"pathcraft: {qualname}: {too_deep(exc)}; skipped{kept}"],
                "seconds": time.perf_counter() - started}
    messages = function_messages(run)
    observed: dict[str, Any] | None = None
    if control is None:  # a whole search: its compact suite, or observed tests where every path was dropped
        texts, said, observed = _whole_search_texts(found, writer, source, qualname, settings, found_cases, texts)
        messages += said
    result: dict[str, Any] = {
        "qualname": qualname, "tests": texts, "error": None, "skipped": None, "stopped": run.stopped,
        "messages": messages, "seconds": round(time.perf_counter() - started, 3),
        "stats": run.stats, "dropped": dropped_reasons(run, bool(texts)),
        **({"observed": observed} if observed is not None else {}),
    }
    if data:
        result["cases"] = cases
    if control is not None:
        result["choices"] = [list(c) for c in run.choices]
        result["names"] = [case.name for case in found_cases]
    if isinstance(control, Frontier):
        result["prefixes"] = [list(p) for p in control.prefixes]
    return result


def _whole_search_texts(found: _Translated, writer: Writer, source: str, qualname: str,
                        settings: Mapping[str, Any], cases: list[TestCase], texts: list[str]
                        ) -> tuple[list[str], list[str], dict[str, Any] | None]:
    """The tests a whole search writes (`--suite compact`: its compact
    suite; `--execute`: observed tests where every path was dropped), what
    to say of them, and the observed tests' counts."""
    if found.compact and isinstance(writer, PytestText) and cases:
        texts, said = _compacted(writer, source, cases, found.result.program.cached_functions(), texts)
        return texts, said, None
    if not texts and settings.get("execute"):
        return observed_texts(writer, source, qualname, float(settings["execute_seconds"]),
                              int(settings.get("execute_examples", 400)))
    return texts, [], None


def _compacted(writer: PytestText, source: str, cases: list[TestCase], cached: tuple[str, ...],
               texts: list[str]) -> tuple[list[str], list[str]]:
    """`--suite compact`: the function's compact suite (suite/compact.py),
    and what to say of it; all its tests when it cannot be made."""
    try:
        suite = compact_suite(writer, Path(source), cases, cached)
    except (OSError, RuntimeError, SyntaxError) as exc:
        return texts, [f"pathcraft: the compact suite was not made ({type(exc).__name__}: {exc}); "
                       "every test found is written"]
    return list(suite.texts), [compaction_line(c) for c in suite.functions]


def observe_function(source: str, qualname: str, settings: Mapping[str, Any], refused: str) -> dict[str, Any]:
    """An `observe` item (`--execute`): the observed tests of a function the
    symbolic engine refused (`refused`: why), from a search of the real code
    in a sandboxed worker (pathcraft/execute/)."""
    started = time.perf_counter()
    try:
        found = _translation(source, settings)
    except PathcraftError as exc:
        return {"qualname": qualname, "tests": [], "error": str(exc), "messages": []}
    texts, said, outcome = observed_texts(found.writer(source), source, qualname, float(settings["execute_seconds"]),
                                          int(settings.get("execute_examples", 400)))
    return {"qualname": qualname, "tests": texts, "error": None, "skipped": refused, "observed": outcome,
            "messages": said, "seconds": round(time.perf_counter() - started, 3)}


def observed_texts(writer: Writer, source: str, qualname: str, seconds: float, examples: int = 400,
                   searcher: Sandbox | None = None) -> tuple[list[str], list[str], dict[str, Any]]:
    """The observed tests of `qualname` in `writer`'s format (pytest only),
    what the command line says of them, and their counts for the report
    (`searcher`: the worker that searches the module's functions)."""
    from pathcraft.execute import observed
    from pathcraft.frontend.packages import import_name
    from pathcraft.testcase.emit_pytest import PytestText

    if not isinstance(writer, PytestText):
        return [], [f"pathcraft: {qualname}: --execute writes observed tests in the pytest format only"], {}
    module, root = import_name(Path(source))
    run = observed.observe(root, module, qualname, seconds, examples, searcher)
    texts = [observed.test_text(writer.alias, module, qualname, n, o, run.positional, run.init_positional,
                                run.attribute, run.built_as)
             for n, o in enumerate(run.observations, 1)]
    said = []
    if run.refused:
        said.append(f"pathcraft: {qualname}: not observed: {run.refused}")
    if run.fault:
        said.append(f"pathcraft: {qualname}: the search's worker stopped: {run.fault}"
                    + (f" (the {len(texts)} observations before are kept)" if texts else ""))
    if run.crashed:
        said.append(f"pathcraft: {qualname}: {run.crashed} inputs killed the worker (each skipped after)")
    if run.unstable:
        said.append(f"pathcraft: {qualname}: {run.unstable} observations dropped: a fresh run did otherwise")
    if not texts and not run.refused and not run.fault and not run.unstable:
        why = max(run.skipped, key=lambda k: run.skipped[k]) if run.skipped else "no input a test can write"
        said.append(f"pathcraft: {qualname}: nothing observed in {run.tried} calls (most often: {why})")
    if texts:
        said.append(f"pathcraft: {qualname}: {len(texts)} observed tests (--execute)")
    counts = {"tests": len(texts), "unstable": run.unstable, "tried": run.tried, "crashed": run.crashed,
              **({"refused": run.refused} if run.refused else {}), **({"fault": run.fault} if run.fault else {})}
    return texts, said, counts


def case_data(case: TestCase) -> dict[str, Any]:
    """A test as the HTML report reads it (JSON-safe)."""
    return {**case.to_json(), "cost_values": dict(case.cost_values)}


def merged_split(qualname: str, parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The result of a split function from those of its frontier and its
    prefixes: the tests sorted by choices (the whole search's order) and
    numbered again in that order."""
    failed = [part for part in parts if part.get("error") or part.get("skipped")]
    if failed:
        return {**failed[0], "qualname": qualname, "tests": []}
    with_data = all("cases" in part for part in parts)
    tests = sorted(((tuple(c), text, name, part["cases"][i] if with_data else None) for part in parts
                    for i, (c, text, name) in enumerate(zip(part["choices"], part["tests"], part["names"]))),
                   key=lambda t: t[0])
    stem = f"test_{qualname.replace('.', '_')}_"
    texts, cases = [], []
    for number, (_, text, name, case) in enumerate(tests, 1):
        renamed = f"{stem}{number}{name[len(stem):].lstrip('0123456789')}"
        texts.append(text.replace(name, renamed, 1))  # a test's text names it first, in every format
        if case is not None:
            cases.append({**case, "name": renamed})
    messages = list(dict.fromkeys(m for part in parts for m in part.get("messages", [])))
    dropped = list(dict.fromkeys(note for part in parts for note in part.get("dropped", [])))
    stopped = next((part["stopped"] for part in parts if part.get("stopped")), None)
    return {"qualname": qualname, "tests": texts, "error": None, "skipped": None, "stopped": stopped,
            "messages": messages, "dropped": dropped,
            "seconds": round(sum(float(part.get("seconds", 0)) for part in parts), 3),
            "split": len(parts) - 1, **({"cases": cases} if with_data else {})}


def handle(item: Mapping[str, Any]) -> dict[str, Any]:
    """Run one item (a dict) and give its result (a dict)."""
    if item["kind"] == "plan":
        return plan_module(item["source"], item["settings"])
    if item["kind"] == "function":
        return run_function(item["source"], item["qualname"], item["settings"], item.get("frontier"),
                            item.get("prefix"), bool(item.get("data")))
    if item["kind"] == "observe":
        return observe_function(item["source"], item["qualname"], item["settings"], str(item.get("refused", "")))
    raise ValueError(f"unknown work item kind {item['kind']!r}")


def settings_dict(settings: Settings) -> dict[str, Any]:
    """Settings as items carry them (JSON-safe)."""
    data: dict[str, Any] = json.loads(json.dumps(asdict(settings)))
    return data


def run_json(text: str) -> str:
    """One item as JSON text in, its result as JSON text out: what a Dask
    worker runs (pathcraft/app/cluster.py), with the deep stack a search needs."""
    from pathcraft.depth import run_deep

    item = json.loads(text)
    return json.dumps(run_deep(lambda: handle(item)))
