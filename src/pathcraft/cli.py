"""The command line. Nothing else imports this module.

Exit status: 0 done, 1 verification failed, 2 bad input (or nothing could
be analysed), 130 interrupted (the tests found so far are kept).
"""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import time
from dataclasses import replace
from enum import Enum
from pathlib import Path
from typing import Any, TextIO

import typer
from rich.console import Console
from rich.status import Status
from rich.table import Table

from pathcraft import __version__
from pathcraft.batch import Pool, report_json, run_package
from pathcraft.cluster import DaskPool
from pathcraft.htmlreport import FunctionReport, ModuleReport, write_html
from pathcraft.pool import WorkerPool
from pathcraft.progress import PackageDisplay
from pathcraft.config import Settings, load_config, settings_from
from pathcraft.depth import run_deep, too_deep
from pathcraft.errors import PathcraftError
from pathcraft.files import open_for_writing, output_problem
from pathcraft.frontend import TranslationResult, translate
from pathcraft.strategies.points import parse_points
from pathcraft.generate import FunctionRun, GenerateOptions, generate, parse_target, trace_guide
from pathcraft.ir.nodes import Program
from pathcraft.ir.pattern import parse_pattern
from pathcraft.strategies.tracegen import refined_text
from pathcraft.ir.printer import program_text
from pathcraft.testcase.emit_json import JsonWriter
from pathcraft.testcase.emit_pytest import PytestWriter
from pathcraft.testcase.model import TestCase
from pathcraft.testcase.verify import VerifyReport, coverage_percent, verify
from pathcraft.workitem import (NOTHING_TO_TEST, case_data, criterion_label, function_messages, pytest_writer,
                                runnable_targets, settings_dict)

app = typer.Typer(
    name="pathcraft",
    help="Generate pytest tests for typed Python functions by symbolic execution: "
    "one test per execution path, with concrete inputs and expected results.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
err = Console(stderr=True, highlight=False, soft_wrap=True)  # a message is one line, never wrapped
DEFAULTS = Settings()


class Format(str, Enum):
    pytest = "pytest"
    json = "json"


class Search(str, Enum):
    dfs = "dfs"
    bfs = "bfs"


class Objects(str, Enum):
    free = "free"
    constructed = "constructed"


class ItemSearch(str, Enum):
    guided = "guided"
    paths = "paths"


class Compose(str, Enum):
    off = "off"
    on_demand = "on-demand"
    bottom_up = "bottom-up"


class HeapKind(str, Enum):
    symbolic = "symbolic"
    lazy = "lazy"
    lazy_noalias = "lazy-noalias"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"pathcraft {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Show the version and exit."),
) -> None:
    """pathcraft: tests for every execution path."""


def _error(line: str) -> None:
    """One line on stderr, never wrapped (editors jump to file:line:col)."""
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def fail(error: PathcraftError | str, code: int = 2) -> typer.Exit:
    _error(f"pathcraft: {error}")
    return typer.Exit(code)


@app.command()
def gen(
    target: str = typer.Argument(..., help="path/to/module.py::name (a function or Class.method), "
                                 "or path/to/module.py for every supported function."),
    output: Path | None = typer.Option(None, "-o", "--output",
                                          help="Write the tests to this file (default: stdout)."),
    criterion: str | None = typer.Option(None, "--criterion", "-c",
                                            help="Termination criterion: loop-K, block-K, depth-K or "
                                            "calls-K (call depth), several joined by commas; with "
                                            "all-local-paths, one test per feasible path through the "
                                            "function's own code, other code's paths left free; with "
                                            "statements or branches, few tests that reach every "
                                            "statement line or branch outcome of the function (see "
                                            "--item-search; bounded by loop-K) \\[default: loop-2]."),
    fmt: Format | None = typer.Option(None, "--format", "-f", help="Output format \\[default: pytest]."),
    no_exceptions: bool = typer.Option(False, "--no-exceptions",
                                       help="Keep only paths that return normally."),
    do_verify: bool = typer.Option(False, "--verify",
                                   help="Run the generated tests; check each takes its claimed path; "
                                   "report branch coverage."),
    stats: bool = typer.Option(False, "--stats", help="Print search and solver statistics."),
    timeout: float | None = typer.Option(None, "--timeout",
                                            help="Time budget in seconds per function; "
                                            "the tests found in time are kept \\[default: 60]."),
    search: Search | None = typer.Option(None, "--search", help="Search strategy \\[default: dfs]."),
    max_paths: int | None = typer.Option(None, "--max-paths", min=1,
                                            help="Stop after this many paths per function "
                                            "\\[default: 1000]."),
    heap: HeapKind | None = typer.Option(None, "--heap",
                                            help="Heap model for object inputs: symbolic (the heap "
                                            "solver: aliasing as constraints, no branching on it), lazy "
                                            "(lazy initialization branching on aliasing) or lazy-noalias "
                                            "\\[default: symbolic]."),
    assume: list[str] | None = typer.Option(None, "--assume",
                                               help="Heap assumption on the inputs (repeatable): "
                                               "non-aliasing(a,b), non-sharing(a,b), acyclic(a)."),
    max_list_length: int | None = typer.Option(None, "--max-list-length", min=0,
                                                  help="Longest input list of objects tried "
                                                  "\\[default: 3]."),
    costs: str | None = typer.Option(None, "--costs",
                                        help="Costs to report per test, comma-separated: steps, memory, "
                                        "calls, calls:NAME; also prints the tests ordered by the first."),
    policy: list[str] | None = typer.Option(None, "--policy",
                                               help="Resource policy (repeatable): COST OP N like "
                                               "'memory>48' or 'steps<=200', worst:COST, top:N:COST."),
    invariant: list[str] | None = typer.Option(None, "--invariant",
                                                  help="Class invariant (repeatable): Class.method, a method "
                                                  "returning bool, assumed of self when a method of the class "
                                                  "is tested and checked when it returns (like @invariant)."),
    size_model: str | None = typer.Option(None, "--size-model",
                                             help="Memory size model, e.g. slot=4,object_header=0,"
                                             "list_header=0 \\[default: 4 bytes per slot, no headers]."),
    objects: Objects | None = typer.Option(None, "--objects",
                                           help="The object a method is called on: free (any state of "
                                           "its fields, built without __init__) or constructed (built "
                                           "by the constructor and public method calls only) "
                                           f"\\[default: {DEFAULTS.objects}]."),
    setup_calls: int | None = typer.Option(None, "--setup-calls", min=0,
                                           help="With --objects constructed: at most this many "
                                           f"method calls after the constructor \\[default: {DEFAULTS.setup_calls}]."),
    trace: str | None = typer.Option(None, "--trace",
                                        help="Only the paths whose trace term is an instance of this "
                                        "pattern, written as the tests' '# trace:' comments; '_' or a "
                                        "capitalized variable stands for any subterm, '[T1 | Rest]' for a "
                                        "longer list. Needs a target path/to/module.py::name."),
    cover: str | None = typer.Option(None, "--cover",
                                        help="Program points to reach, comma-separated: LINE, FILE:LINE or a "
                                        "function's name; as few tests as reach them all (guided generation), "
                                        "and each point reported as reached by a test or unreachable within "
                                        "the termination criterion. Needs a target path/to/module.py::name."),
    refine: bool | None = typer.Option(None, "--refine/--no-refine",
                                          help="Guided generation: generate traces from the abstraction refined by "
                                          "instantiation modes (the integers and fields the search would "
                                          "constrain, with their guards), so fewer are infeasible "
                                          "\\[default: refine]."),
    item_search: ItemSearch | None = typer.Option(None, "--item-search",
                                                   help="With -c statements or branches: paths (the standard "
                                                   "search keeping each path that covers a new item, with "
                                                   "Look-Ahead and Max-CallDepth, paper 004) or guided (a "
                                                   "trace generator per item, paper 001) "
                                                   f"\\[default: {DEFAULTS.item_search}]."),
    look_ahead: bool | None = typer.Option(None, "--look-ahead/--no-look-ahead",
                                              help="--item-search paths: abandon a path as soon as no uncovered "
                                              "item is reachable from it (never loses coverage) "
                                              "\\[default: look-ahead]."),
    unit: bool | None = typer.Option(None, "--unit/--no-unit",
                                        help="With -c statements or branches: the items are the function's "
                                        "own (unit-testing mode), or also those of the module's functions "
                                        "it calls \\[default: unit]."),
    max_call_depth: int | None = typer.Option(None, "--max-call-depth", min=0,
                                                 help="--item-search paths, unit mode: follow only the first "
                                                 "feasible outcome of a choice more than N calls below the "
                                                 "function (faster; may lose coverage, reported)."),
    concolic: bool | None = typer.Option(None, "--concolic/--no-concolic",
                                            help="Run the standard library's pure number functions the model "
                                            "lacks (math.log, math.isqrt, math.comb, ...) on the concrete "
                                            "values of each path, which then states them exactly; without it "
                                            "a path reaching such a call is dropped. Only that allow-list "
                                            "runs: never the analysed code \\[default: no-concolic]."),
    concolic_samples: int | None = typer.Option(None, "--concolic-samples", min=1,
                                                   help="--concolic: concrete runs per call and path, each "
                                                   "with other argument values "
                                                   f"\\[default: {DEFAULTS.concolic_samples}]."),
    solve_first: bool | None = typer.Option(None, "--solve-first/--no-solve-first",
                                               help="--item-search paths: at each choice point, run every "
                                               "alternative to its end on the values that solved it (no "
                                               "solver) before going deeper, so Look-Ahead can skip those "
                                               "whose items that run covered (paper 004's Solve-First) "
                                               "\\[default: solve-first]."),
    long_probes: int | None = typer.Option(None, "--long-probes", min=0,
                                           help="All-paths search: add up to N tests whose paths run "
                                           "longer inputs than the loop bound reaches (lists of 2K+2 "
                                           "items, larger ints), found by running the model on fixed "
                                           "inputs, or for object inputs by a search one loop deeper; "
                                           "0 turns them off "
                                           f"\\[default: {DEFAULTS.long_probes}]."),
    edge_tests: int | None = typer.Option(None, "--edge-tests", min=0,
                                          help="All-paths search: add up to N tests that put an int "
                                          "parameter at or beside a constant a path compares it with "
                                          "(x = c - 1, c, c + 1 for x < c) where no test has that value, or pass "
                                          "a bool for an int returned as given, or give a found list item an "
                                          "equal neighbour; "
                                          "0 turns them off "
                                          f"\\[default: {DEFAULTS.edge_tests}]."),
    compose: Compose | None = typer.Option(None, "--compose",
                                           help="Answer calls with the callee's summary (its paths from the "
                                           "most general context, paper 002) instead of running its code at "
                                           "every call: on-demand makes a summary at the first call, "
                                           "bottom-up makes the callees' summaries first, leaves of the call "
                                           "graph first; the tests are the same, only the time differs. "
                                           "Loop-K criteria only; a call a summary cannot stand for exactly "
                                           "(two objects, a callee that follows a reference or makes a list, "
                                           "a callee on the stack) runs the callee "
                                           f"\\[default: {DEFAULTS.compose}]."),
    summaries: str | None = typer.Option(None, "--summaries", metavar="DIR",
                                         help="With --compose: keep summaries in DIR (JSON, keyed by the "
                                         "code they depend on) and reuse them in later runs, each tested "
                                         "function's own tests included (an unchanged function is not "
                                         "searched again); '' keeps none "
                                         f"\\[default: {DEFAULTS.summaries}]."),
    native_summaries: list[str] | None = typer.Option(None, "--native-summaries", metavar="FILE",
                                                      help="A file of models of library functions pathcraft "
                                                      "cannot read (C code, other packages), each marked "
                                                      "@summary_of(\"module.function\"); repeatable, and added "
                                                      "to native_summaries in [tool.pathcraft]."),
    jobs: int | None = typer.Option(None, "--jobs", "-j", min=1,
                                    help="A package TARGET: this many worker processes, each taking one "
                                    "function (or a module's plan) at a time \\[default: the number of cores]."),
    incremental: bool = typer.Option(True, "--incremental/--no-incremental",
                                     help="A package TARGET: run again only the modules whose code, imported "
                                     "project modules or settings changed since the last run into the same "
                                     "folder (a manifest beside the tests)."),
    exclude: list[str] | None = typer.Option(None, "--exclude", metavar="PATTERN",
                                             help="A package TARGET: skip the files and folders this pattern "
                                             "(relative to the package, fnmatch) matches; repeatable, added to "
                                             "exclude in [tool.pathcraft]."),
    report: Path | None = typer.Option(None, "--report", metavar="FILE",
                                       help="Also write a summary here: functions, tests, skipped functions "
                                       "and why, time (for a package: per module); as JSON, or as one static "
                                       "page for a FILE.html (source lines reached, object graphs, costs)."),
    quiet: bool = typer.Option(False, "--quiet", "-q",
                               help="A package TARGET: no progress line per module, only the summary."),
    scheduler: str | None = typer.Option(None, "--scheduler", metavar="ADDRESS",
                                         help="A package TARGET: run the work items on the Dask cluster whose "
                                         "scheduler is at ADDRESS (tcp://host:8786), or on a LocalCluster "
                                         "of --jobs workers started here with 'local'."),
    split_depth: int | None = typer.Option(None, "--split-depth", metavar="D", min=0,
                                           help="A package TARGET: split each function's search D choices down "
                                           "into parts (trace prefixes) that run on several workers; the same "
                                           "paths, with inputs chosen per part, and without long probes and "
                                           "edge tests, which need the whole search; 0: no split "
                                           "\\[default: 0]."),
    item_timeout: float | None = typer.Option(None, "--item-timeout", metavar="SECONDS", min=1,
                                              help="A package TARGET: a function still running after this "
                                              "long stops its local worker and is reported as failed; the run "
                                              r"goes on \[default: four times --timeout, plus a minute]."),
    resource_driven: bool = typer.Option(False, "--resource-driven",
                                         help="With --policy worst:steps or worst:calls[:NAME]: try the traces "
                                         "of the refined abstraction from the most to the least expensive "
                                         "and stop at the first feasible one, instead of exploring every "
                                         "path; with threshold policies (steps>200), try only the traces "
                                         "that may satisfy them (falls back, saying so, where a cost is not "
                                         "observable)."),
) -> None:
    """Generate one test per execution path of TARGET."""
    try:
        settings = settings_from(load_config(), {
            "criterion": criterion, "format": fmt.value if fmt else None,
            "exceptions": False if no_exceptions else None, "timeout": timeout,
            "search": search.value if search else None, "max_paths": max_paths,
            "heap": heap.value if heap else None, "assume": tuple(assume or ()),
            "max_list_length": max_list_length, "costs": costs, "policy": tuple(policy or ()),
            "size_model": size_model, "invariants": tuple(invariant or ()),
            "objects": objects.value if objects else None, "setup_calls": setup_calls,
            "refine": refine, "resource_driven": True if resource_driven else None,
            "item_search": item_search.value if item_search else None, "look_ahead": look_ahead,
            "unit": unit, "max_call_depth": max_call_depth, "concolic": concolic,
            "concolic_samples": concolic_samples, "solve_first": solve_first,
            "long_probes": long_probes, "edge_tests": edge_tests,
            "compose": compose.value if compose else None, "summaries": summaries,
            "native_summaries": tuple(native_summaries or ()), "exclude": tuple(exclude or ()),
            "split_depth": split_depth,
        })
        options = settings.generate_options()
        if Path(target).is_dir() and (Path(target) / "__init__.py").is_file():
            _package(Path(target), output, settings, jobs, incremental, report, quiet, scheduler, item_timeout)
            return
        package_only = [flag for flag, value in (("--jobs", jobs), ("--scheduler", scheduler),
                                                  ("--split-depth", split_depth), ("--item-timeout", item_timeout))
                        if value is not None]
        if package_only:
            raise PathcraftError(f"{', '.join(package_only)}: for a package target (a folder with an "
                                 f"__init__.py); {target} is one module")
        path, name = parse_target(target)
        if options.objects == "constructed" and (trace is not None or cover is not None or options.select):
            raise PathcraftError("--trace, --cover and the selection criteria work on free objects only "
                                 "(--objects free); with constructed objects, not yet")
        if cover is not None:
            if name is None:
                raise PathcraftError("--cover guides one function: give the target as path/to/module.py::name")
            options = replace(options, cover=cover)
        if trace is not None:
            if name is None:
                raise PathcraftError("--trace guides one function: give the target as path/to/module.py::name")
            options = replace(options, trace=trace)
            parse_pattern(trace)  # a syntax error is reported before anything is translated
        _check_output(output, path, do_verify)
        result = translate(path, [name] if name else None, options.invariants, objects=options.objects,
                           setup_calls=options.setup_calls, natives=settings.native_summaries)
        runnable = _runnable(result, name, options)
        if trace is not None and runnable:
            trace_guide(result.program, runnable[0], trace)  # names checked before any search
        if cover is not None and runnable:
            parse_points(cover, result.program)  # points checked before any search
        if not runnable and not result.errors:
            raise PathcraftError(f"{path}: {NOTHING_TO_TEST}")
        stream, test_file, keep_open = _open_output(output, do_verify and settings.format == "pytest")
    except PathcraftError as exc:
        raise fail(exc)
    if not runnable:
        if report is not None:  # every function refused: the report says why (a package run lists them)
            _write_report(report, path, result, [], [], [], 0.0)
        raise typer.Exit(2)
    program = result.program
    label = criterion_label(options)
    writer: PytestWriter | JsonWriter
    try:
        if settings.format == "pytest":
            writer = pytest_writer(stream, program, path, runnable, label)
        else:
            writer = JsonWriter(stream, target, label)
        runs, all_cases, skipped_on_the_way, interrupted, elapsed = _run(program, runnable, options, writer)
    except BrokenPipeError:
        # the reader went away (`pathcraft gen m.py | head`): not an error;
        # stdout goes to /dev/null so that the last flush does not fail too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(0) from None
    finally:
        if not keep_open:
            stream.close()
    if interrupted:
        # counted by the writer: the interruption may come between writing a test and listing it
        err.print(f"pathcraft: interrupted; kept {writer.count} tests", markup=False)
        raise typer.Exit(130)
    if output is not None:
        skipped = sum(1 for q in result.errors if q in result.targets) + len(skipped_on_the_way)
        err.print(f"pathcraft: wrote {len(all_cases)} tests for {len(runs)} function"
                  f"{'' if len(runs) == 1 else 's'} to {output}"
                  f"{f' ({skipped} skipped)' if skipped else ''} in {elapsed:.1f} s", markup=False, soft_wrap=True)
    if stats:
        _print_stats(runs, elapsed)
    if options.costs:
        _print_costs(all_cases, list(options.costs))
    if report is not None:
        _write_report(report, path, result, runs, all_cases, skipped_on_the_way, elapsed)
    if do_verify:
        checked = _verify(path, settings.format, test_file, all_cases, program)
        _print_report(checked, program.functions)
        if not checked.ok:
            raise typer.Exit(1)
    if (result.errors or skipped_on_the_way) and name:
        raise typer.Exit(2)


def _write_report(report: Path, path: str, result: TranslationResult, runs: list[FunctionRun],
                  cases: list[TestCase], skipped_on_the_way: list[str], elapsed: float) -> None:
    """The summary of one module's run (`--report`): JSON, or the HTML page
    for a FILE.html."""
    skipped = {q: str(e) for q, e in result.errors.items() if q in result.targets}
    skipped.update({q: "too deep" for q in skipped_on_the_way})
    document = {"module": path, "functions": len(runs), "tests": len(cases), "seconds": round(elapsed, 2),
                "per function": {r.qualname: {"tests": len(r.cases), "stopped": r.stopped} for r in runs},
                "skipped": skipped}
    if _is_html(report):
        functions = [FunctionReport(r.qualname, [case_data(c) for c in r.cases]) for r in runs]
        module = ModuleReport(path, path, "written" if cases else "no tests", functions, skipped)
        _write_page(report, f"pathcraft: {path}", [module], document)
    else:
        _write_json(report, document)


def _is_html(report: Path) -> bool:
    return report.suffix.lower() in (".html", ".htm")


def _write_page(report: Path, title: str, modules: list[ModuleReport], summary: dict[str, Any]) -> None:
    facts = {k: v for k, v in summary.items() if not isinstance(v, (dict, list))}
    try:
        write_html(report, title, modules, facts)
    except OSError as exc:
        raise fail(f"{report}: cannot write the report ({exc.strerror})") from None


def _write_json(report: Path, document: dict[str, Any]) -> None:
    try:
        report.write_text(json.dumps(document, indent=1), encoding="utf-8")
    except OSError as exc:
        raise fail(f"{report}: cannot write the report ({exc.strerror})") from None


def _package(root: Path, output: Path | None, settings: Settings, jobs: int | None, incremental: bool,
             report: Path | None, quiet: bool, scheduler: str | None, item_timeout: float | None) -> None:
    """A package TARGET (pathcraft/batch.py): a test file per module under
    `output`, progress as it goes, a table at the end, a JSON report on
    request."""
    if output is None:
        raise fail(f"{root} is a package: give the folder for its tests with -o")
    if output.exists() and not output.is_dir():
        raise fail(f"{output}: a package's tests go in a folder, and this is a file")
    if not output.parent.is_dir():
        raise fail(f"{output}: folder '{output.parent}' does not exist")
    if settings.format != "pytest":
        raise fail("a package run writes pytest files; --format json works on one module")
    workers = jobs or os.cpu_count() or 1
    if item_timeout is None and settings.timeout is not None:
        item_timeout = 4 * settings.timeout + 60
    display = PackageDisplay(err, quiet)
    pool: Pool
    try:
        if scheduler is None:
            pool = WorkerPool(workers, item_timeout, on_start=lambda item, pid: display.item_started(
                str(item.get("module")), item.get("qualname"), pid))
        else:
            pool = DaskPool(scheduler, workers)
    except PathcraftError as exc:
        raise fail(exc) from None
    started = time.perf_counter()
    with display:
        done = run_package(root.resolve(), output, settings_dict(settings), pool, incremental, settings.exclude,
                           display, data=report is not None and _is_html(report))
    elapsed = time.perf_counter() - started
    outcomes = done.outcomes
    table = Table(title=None, box=None, show_edge=False, pad_edge=False)
    for column in ("module", "status", "functions", "tests", "skipped", "seconds"):
        table.add_column(column, justify="left" if column in ("module", "status") else "right")
    for o in outcomes:
        table.add_row(o.module, o.status, str(o.functions), str(o.tests), str(len(o.skipped)), f"{o.seconds:.1f}")
    err.print(table)
    for o in outcomes:
        for function, why in o.failed.items():
            err.print(f"pathcraft: {o.module}: {function + ': ' if function else ''}{why}", markup=False)
    summary = report_json(root, outcomes, elapsed)
    where = f"a Dask cluster ({scheduler})" if scheduler else f"{workers} worker{'s' if workers != 1 else ''}"
    err.print(f"pathcraft: {summary['modules']} modules ({summary['unchanged modules']} unchanged, "
              f"{summary['failed modules']} failed), {summary['tests']} tests for {summary['functions']} "
              f"functions ({summary['skipped functions']} skipped) in {output} in {elapsed:.1f} s "
              f"on {where}" + (f"; {done.retried} items retried after their worker died" if done.retried else ""),
              markup=False, soft_wrap=True)
    if report is not None and _is_html(report):
        _write_page(report, f"pathcraft: {root}", done.reports, summary)
    elif report is not None:
        _write_json(report, summary)
    if done.interrupted:
        err.print(f"pathcraft: interrupted; kept {summary['tests']} tests", markup=False)
        raise typer.Exit(130)
    if summary["failed modules"]:
        raise typer.Exit(1)


def _runnable(result: TranslationResult, name: str | None, options: GenerateOptions) -> list[str]:
    """The targets that translated; says what was inferred or skipped, and
    checks every heap assumption before any search starts."""
    runnable, said = runnable_targets(result, name, options)
    for line in said:
        _error(line)
    return runnable


def _run(program: Program, runnable: list[str], options: GenerateOptions,
         writer: PytestWriter | JsonWriter) -> tuple[list[FunctionRun], list[TestCase], list[str], bool, float]:
    """Explore each function in turn, writing tests as they come; an
    interruption keeps what was found. Also returns the functions skipped
    on the way."""
    runs: list[FunctionRun] = []
    all_cases: list[TestCase] = []
    skipped: list[str] = []
    interrupted = False
    started = time.perf_counter()
    try:
        for qualname in runnable:
            before = len(all_cases)
            try:
                run = _explore(program, qualname, options, writer, all_cases)
            except PathcraftError as exc:
                _error(f"pathcraft: {qualname}: {exc}")
                continue
            except RecursionError as exc:  # even the deep stack was not deep enough
                kept = len(all_cases) - before
                _error(f"pathcraft: {qualname}: {too_deep(exc)}; skipped"
                       + (f" (the {kept} tests found before are kept)" if kept else ""))
                skipped.append(qualname)
                continue
            runs.append(run)
            for line in function_messages(run):
                err.print(line, markup=False)
            _print_points(qualname, run, options)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if isinstance(writer, JsonWriter):
            writer.stats = {r.qualname: r.stats for r in runs}
        writer.close()
    return runs, all_cases, skipped, interrupted, time.perf_counter() - started


def _print_points(qualname: str, run: FunctionRun, options: GenerateOptions) -> None:
    """Where each program point was reached, or why not; for the statements
    and branches criteria, a count and the points not reached."""
    points: dict[str, str | None] = run.stats.get("points", {})
    why = "not reached: the search stopped early" if run.stopped else \
        f"not reached (Max-CallDepth cut {run.stats['call_depth_cut']} derivations that may reach them)" \
        if run.stats.get("call_depth_cut") else f"unreachable within {options.engine.criterion}"
    if options.select in ("statements", "branches"):
        missed = [p for p, test in points.items() if test is None]
        kind = "statement lines" if options.select == "statements" else "branches"
        err.print(f"pathcraft: {qualname}: {len(points) - len(missed)} of {len(points)} {kind} reached by "
                  f"{len(run.cases)} tests" + (f"; {why}: {', '.join(missed)}" if missed else ""), markup=False)
        return
    for point, test in points.items():
        err.print(f"pathcraft: {qualname}: point {point}: {f'reached by {test}' if test else why}", markup=False)


def _check_output(output: Path | None, source: str, verify: bool) -> None:
    """Refuse an output path that cannot work before any search starts."""
    if output is None:
        return
    problem = output_problem(output)
    if problem is not None:
        raise PathcraftError(f"{output}: {problem}")
    if output.exists() and output.resolve() == Path(source).resolve():
        raise PathcraftError(f"{output}: is the input file; choose another output file")
    if not output.parent.is_dir():
        raise PathcraftError(f"{output}: folder '{output.parent}' does not exist")
    if verify and not (output.is_file() or not output.exists()):
        raise PathcraftError(f"{output}: --verify reads the tests back, so it needs a regular file")


def _open_output(output: Path | None, need_file: bool) -> tuple[TextIO, str | None, bool]:
    if output is not None:
        return open_for_writing(output), str(output), False
    if need_file:
        return _Tee(sys.stdout), None, True
    return sys.stdout, None, True


class _Tee(io.StringIO):
    """Writes to stdout as it goes and keeps a copy (for --verify)."""

    def __init__(self, target: TextIO) -> None:
        super().__init__()
        self.target = target

    def write(self, text: str) -> int:
        self.target.write(text)
        return super().write(text)

    def flush(self) -> None:
        self.target.flush()


def _explore(program: Program, qualname: str, options: GenerateOptions, writer: PytestWriter | JsonWriter,
             all_cases: list[TestCase]) -> FunctionRun:
    """One function, with a live count of its tests on a terminal."""
    count = 0
    live: list[Status] = []  # the status line, on a terminal

    def on_case(case: TestCase) -> None:
        nonlocal count
        count += 1
        writer.add(case)
        all_cases.append(case)
        for status in live:
            status.update(f"[bold]{qualname}[/]: {count} tests")

    if not err.is_terminal:
        return generate(program, qualname, options, on_case)
    with err.status(f"[bold]{qualname}[/]: exploring") as status:
        live.append(status)
        return generate(program, qualname, options, on_case)


def _print_stats(runs: list[FunctionRun], elapsed: float) -> None:
    table = Table(title="pathcraft statistics", title_justify="left")
    table.add_column("statistic")
    for run in runs:
        table.add_column(run.qualname, justify="right")
    keys = ["tests", "paths", "completed_paths", "look_ahead_cut", "call_depth_cut", "concrete_runs",
            "concrete_kept",
            "abstraction_traces", "generated_traces", "infeasible_traces", "gave_way_after",
            "exception_paths_filtered", "pruned_paths",
            "unknown_paths",
            "unsupported_paths", "concretized_calls", "concolic_repeats", "probe_tests", "policy_filtered",
            "derivation_steps", "branch_queries", "answered_without_z3", "z3_calls", "z3_seconds",
            "seconds"]
    composition = ["summaries_computed", "summaries_reused", "summaries_refused", "calls_composed", "calls_inlined",
                   "run_reused"]
    keys += [key for key in composition if any(key in r.stats for r in runs)]  # with --compose only
    for key in keys:
        table.add_row(key.replace("_", " "), *[str(r.stats.get(key, "")) for r in runs])
    layers = list(runs[0].stats.get("answered_by", {})) if runs else []
    for layer in layers:
        table.add_row(f"  answered by {layer}", *[str(r.stats["answered_by"].get(layer, 0)) for r in runs])
    table.add_row("share without z3", *[
        f"{100 * r.stats['answered_without_z3'] / r.stats['branch_queries']:.0f}%"
        if r.stats.get("branch_queries") else "-" for r in runs
    ])
    err.print(table)
    err.print(f"total time {elapsed:.3f}s")


def _print_costs(cases: list[TestCase], names: list[str]) -> None:
    """Test cases ordered by the first cost, most expensive first (a
    symbolic cost is ranked by its value at the test's inputs)."""
    first = names[0]
    table = Table(title=f"test cases by {first} (symbolic costs ranked at the test's inputs)",
                  title_justify="left")
    table.add_column("test")
    for name in names:
        table.add_column(name, justify="right")
    for case in sorted(cases, key=lambda c: -c.cost_values.get(first, 0)):
        table.add_row(case.name, *[str(case.costs.get(n, "")) for n in names])
    err.print(table)


def _verify(path: str, out_format: str, test_file: str | None, cases: list[TestCase],
            program: Program) -> VerifyReport:
    if out_format == "json" or test_file is None:
        module = program.module
        functions = sorted({c.qualname for c in cases})
        with tempfile.TemporaryDirectory(prefix="pathcraft-") as tmp:
            temp_file = Path(tmp) / f"test_{module.replace('.', '_')}_pathcraft.py"
            with open(temp_file, "w", encoding="utf-8") as fh:
                writer = pytest_writer(fh, program, path, functions, "")
                for case in cases:
                    writer.add(case)
                writer.close()
            return verify(path, str(temp_file), cases)
    return verify(path, test_file, cases)


def _print_report(report: VerifyReport, functions: Any) -> None:
    if report.error:
        err.print(f"verify: error: {report.error}", markup=False)
    for check in report.cases:
        if not (check.outcome_ok and check.path_ok):
            err.print(f"verify: {check.name}: {check.detail}", markup=False)
    err.print(f"verify: {report.passed}/{report.tests} tests pass; "
              f"{report.paths_ok}/{len(report.cases)} took their claimed path", markup=False)
    table = Table(title="branch coverage (coverage.py)", title_justify="left")
    for col in ("function", "branches", "covered", "lines", "percent"):
        table.add_column(col, justify="left" if col == "function" else "right")
    for name, summary in report.coverage.items():
        if name not in functions:
            continue
        table.add_row(
            name, str(summary.get("num_branches", 0)), str(summary.get("covered_branches", 0)),
            f"{summary.get('covered_lines', 0)}/{summary.get('num_statements', 0)}",
            "-" if (percent := coverage_percent(summary)) is None else f"{percent:.0f}%",
        )
    err.print(table)
    err.print("verify: " + ("OK" if report.ok else "FAILED"), markup=False)


@app.command()
def clp(
    target: str = typer.Argument(..., help="path/to/module.py::name or path/to/module.py"),
    abstraction: bool = typer.Option(False, "--abstraction",
                                     help="Print the trace abstraction instead: each rule reduced to the "
                                     "calls of its body and its trace term (the control-flow graph as "
                                     "a generator of the traces --trace takes)."),
    refine: bool = typer.Option(False, "--refine",
                                help="With --abstraction and a function target: the abstraction refined by "
                                "instantiation modes, as the guided criteria use it (the static variables "
                                "of each predicate, the guards and arithmetic over them)."),
) -> None:
    """Print the CLP-translated program of TARGET (Prolog syntax)."""
    try:
        path, name = parse_target(target)
        result = translate(path, [name] if name else None)
    except PathcraftError as exc:
        raise fail(exc)
    for error in result.errors.values():
        _error(str(error))
    shown = [t for t in result.targets if t in result.program.functions]
    if shown:
        try:
            if refine:
                if not abstraction or name is None or name not in result.program.functions:
                    raise fail(PathcraftError("--refine prints the refined trace abstraction of one function: "
                                              "give --abstraction and a target path/to/module.py::name"))
                text = refined_text(result.program, name)
            else:
                text = program_text(result.program, list(result.program.functions), abstraction=abstraction)
        except RecursionError as exc:
            raise fail(too_deep(exc))
        sys.stdout.write(text)
    if result.errors:
        raise typer.Exit(2)


def main(argv: list[str] | None = None) -> int:
    """The command, on a thread deep enough for deeply nested code (see
    `pathcraft.depth`)."""
    return run_deep(lambda: _main(argv))


def _main(argv: list[str] | None) -> int:
    try:
        code = app(args=argv, standalone_mode=False)
    except typer.Exit as exit_:
        return exit_.exit_code
    except KeyboardInterrupt:
        _error("pathcraft: interrupted")
        return 130
    except Exception as exc:
        # Usage errors: typer may ship its own copy of click, so recognise
        # click's exceptions by what they can do rather than by class.
        if hasattr(exc, "show") and hasattr(exc, "exit_code"):
            exc.show()
            return int(exc.exit_code)
        if type(exc).__name__ == "Abort":
            return 130
        if isinstance(exc, RecursionError):  # past the deep stack, and not within one function
            _error(f"pathcraft: {too_deep(exc)}")
            return 2
        _error(f"pathcraft: internal error: {type(exc).__name__}: {exc}")
        _error("please report this with the command and the input file")
        return 2
    return code if isinstance(code, int) else 0
