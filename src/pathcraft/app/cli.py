"""The command line. Nothing else imports this module.

Exit status: 0 done, 1 verification failed, 2 bad input (or nothing could
be analysed), 130 interrupted (the tests found so far are kept).
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from collections.abc import Callable
from typing import Any, TextIO

import typer
from rich.console import Console
from rich.status import Status
from rich.table import Table

from pathcraft import __version__
from pathcraft.app.batch import Pool, report_json, run_package, without_a_test
from pathcraft.app.cluster import DaskPool
from pathcraft.report.htmlreport import FunctionReport, ModuleReport, write_html
from pathcraft.app.pool import WorkerPool
from pathcraft.app.progress import PackageDisplay
from pathcraft.app.cliparams import given_flags, given_settings, show_every_option, with_options
from pathcraft.config import Settings, load_config, settings_from
from pathcraft.depth import interrupted as interrupted_now
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
from pathcraft.settings import RunFlags
from pathcraft.suite.compact import compact_suite, compaction_line
from pathcraft.testcase.emit_pytest import LAYOUT, PytestText
from pathcraft.testcase.model import TestCase
from pathcraft.testcase.stream import TestStream
from pathcraft.testcase.verify import VerifyReport, coverage_percent, verify
from pathcraft.app.workitem import (NOTHING_TO_TEST, case_data, criterion_label, dropped_reasons, function_messages,
                                    observed_texts, runnable_targets, settings_dict)
from pathcraft.testcase.writers import Destination, output_format, pytest_writer

app = typer.Typer(
    name="pathcraft",
    help="Generate pytest tests for typed Python functions by symbolic execution: "
    "one test per execution path, with concrete inputs and expected results.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
err = Console(stderr=True, highlight=False, soft_wrap=True)  # a message is one line, never wrapped
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


_TARGET = typer.Argument(..., help="path/to/module.py::name (a function or Class.method), path/to/module.py for "
                         "every supported function, or a package folder (a test file per module).")
_HELP_ALL = typer.Option(False, "--help-all", is_eager=True, callback=show_every_option,
                         help="Show every option, in its group, and exit.")


@app.command()
@with_options
def gen(target: str = _TARGET, help_all: bool = _HELP_ALL, **given: Any) -> None:
    """Generate one test per execution path of TARGET.

    The common options are below. --help-all shows every option, grouped:
    package runs (--jobs), heap and objects, costs and policies, guided search
    and coverage, running the code (--execute), composition, test text.
    """
    flags = given_flags(given)
    output, report = flags.output, flags.report
    try:
        settings = settings_from(load_config(), given_settings(given))
        options = settings.generate_options()
        if Path(target).is_dir() and (Path(target) / "__init__.py").is_file():
            _package(Path(target), output, settings, flags.jobs, flags.incremental, report, flags.quiet,
                     flags.scheduler, flags.item_timeout)
            return
        path, name, options = _one_module(target, options, flags, given["split_depth"])  # the command line's
        _check_output(output, path, flags.verify)
        result = translate(path, [name] if name else None, options.invariants, objects=options.objects,
                           setup_calls=options.setup_calls, natives=settings.native_summaries)
        runnable = _runnable(result, name, options)
        if options.trace is not None and runnable:
            trace_guide(result.program, runnable[0], options.trace)  # names checked before any search
        if options.cover is not None and runnable:
            parse_points(options.cover, result.program)  # points checked before any search
        if not runnable and not result.errors:
            raise PathcraftError(f"{path}: {NOTHING_TO_TEST}")
        stream, test_file, keep_open = _open_output(output, flags.verify and output_format(settings.format).runs)
    except PathcraftError as exc:
        raise fail(exc)
    refused = [q for q in result.targets if q in result.errors] if settings.execute else []
    if not runnable and not refused:
        if report is not None:  # every function refused: the report says why (a package run lists them)
            _write_report(report, path, result, [], [], [], 0.0)
        raise typer.Exit(2)
    program = result.program
    # --suite compact: the whole set staged, until the compact suite replaces it
    staging = io.StringIO() if settings.suite == "compact" and output_format(settings.format).runs else None
    try:
        writer = output_format(settings.format).open(
            staging or stream, Destination(program, path, target, tuple(runnable), criterion_label(options),
                                           comments=settings.resolved_comments()))
        runs, all_cases, skipped_on_the_way, interrupted, elapsed = _run(
            program, runnable, options, writer,
            lambda done: _observe(writer, path, refused + [r.qualname for r in done if not r.cases]
                                  if settings.execute else [], settings.execute_seconds,
                                  settings.execute_examples))
        written = _write_compact(stream, staging, writer, path, program, all_cases, interrupted) if staging else None
    except BrokenPipeError:
        # the reader went away (`pathcraft gen m.py | head`): no error; stdout to /dev/null for the last flush
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(0) from None
    finally:
        if not keep_open:
            stream.close()
    if interrupted:  # counted by the writer: the interruption may come between writing a test and listing it
        err.print(f"pathcraft: interrupted; kept {writer.count} tests", markup=False)
        raise typer.Exit(130)
    _after_run(flags, path, name, settings.format, options, result, runs, all_cases, skipped_on_the_way,
               elapsed, test_file, observed=len(writer.texts_added), executed=settings.execute, written=written)


def _write_compact(stream: TextIO, staging: io.StringIO, writer: TestStream, path: str, program: Program,
                   cases: list[TestCase], interrupted: bool) -> list[TestCase] | None:
    """`--suite compact`: the compact suite of the run's tests to `stream`
    (suite/compact.py), and its tests as pytest names them; the whole set
    found, as staged, when the run was interrupted or the compaction fails."""
    text = writer.writer
    if interrupted or not cases or not isinstance(text, PytestText):
        stream.write(staging.getvalue())
        return None
    try:
        suite = compact_suite(text, Path(path), cases, program.cached_functions())
    except (OSError, RuntimeError, SyntaxError, KeyboardInterrupt) as exc:
        why = "interrupted" if isinstance(exc, KeyboardInterrupt) else f"{type(exc).__name__}: {exc}"
        err.print(f"pathcraft: the compact suite was not made ({why}); every test found is written", markup=False)
        stream.write(staging.getvalue())
        return None
    for compaction in suite.functions:
        err.print(compaction_line(compaction), markup=False)
    pieces = list(suite.texts) + writer.texts_added
    stream.write(text.head() + LAYOUT.between.join(pieces) + LAYOUT.end(len(pieces), {})
                 + ("" if pieces else text.without_tests()))
    return list(suite.written)


def _one_module(target: str, options: GenerateOptions, flags: RunFlags,
                split_depth: int | None) -> tuple[str, str | None, GenerateOptions]:
    """A module target's checks (no option meant for a package; --trace and
    --cover for one function), and the options with its --trace or --cover."""
    package_only = [flag for flag, value in (("--jobs", flags.jobs), ("--scheduler", flags.scheduler),
                                              ("--split-depth", split_depth), ("--item-timeout", flags.item_timeout))
                    if value is not None]
    if package_only:
        raise PathcraftError(f"{', '.join(package_only)}: for a package target (a folder with an "
                             f"__init__.py); {target} is one module")
    path, name = parse_target(target)
    trace, cover = flags.trace, flags.cover
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
    return path, name, options


HINT = "; --execute would run them"  # what a run without it says of the functions the engine refused
SKIPPED = " by the engine"  # with it: they got observed tests, where the search found any


def _after_run(flags: RunFlags, path: str, name: str | None, out_format: str, options: GenerateOptions,
               result: TranslationResult, runs: list[FunctionRun], all_cases: list[TestCase],
               skipped_on_the_way: list[str], elapsed: float, test_file: str | None, observed: int = 0,
               executed: bool = False, written: list[TestCase] | None = None) -> None:
    """What a finished module run prints and writes besides its tests, and
    its exit status (`observed`: the observed tests of `--execute`;
    `executed`: whether it was on; `written`: the path tests written, when
    not every one found: a compact suite's, named as pytest runs them)."""
    output = flags.output
    shown = all_cases if written is None else written
    if output is not None:
        skipped = sum(1 for q in result.errors if q in result.targets) + len(skipped_on_the_way)
        also = f" and {observed} observed tests (--execute)" if observed else ""
        of = "" if written is None else f" (a compact suite of the {len(all_cases)} paths' tests)"
        err.print(f"pathcraft: wrote {len(shown)} tests{of} for {len(runs)} function"
                  f"{'' if len(runs) == 1 else 's'}{also} to {output}"
                  f"{f' ({skipped} skipped{HINT if not executed else SKIPPED})' if skipped else ''} in {elapsed:.1f} s",
                  markup=False, soft_wrap=True)
    if flags.stats:
        _print_stats(runs, elapsed)
    if options.costs:
        _print_costs(all_cases, list(options.costs))
    if flags.report is not None:
        _write_report(flags.report, path, result, runs, all_cases, skipped_on_the_way, elapsed)
    if flags.verify:
        checked = _verify(path, out_format, test_file, shown, result.program)
        _print_report(checked, result.program.functions)
        if not checked.ok:
            raise typer.Exit(1)
    if (result.errors or skipped_on_the_way) and name and not observed:  # refused, and --execute found nothing
        raise typer.Exit(2)


def _write_report(report: Path, path: str, result: TranslationResult, runs: list[FunctionRun],
                  cases: list[TestCase], skipped_on_the_way: list[str], elapsed: float) -> None:
    """The summary of one module's run (`--report`): JSON, or the HTML page
    for a FILE.html."""
    skipped = {q: str(e) for q, e in result.errors.items() if q in result.targets}
    skipped.update({q: "too deep" for q in skipped_on_the_way})
    document = {"module": path, "functions": len(runs), "tests": len(cases), "seconds": round(elapsed, 2),
                "per function": {r.qualname: {"tests": len(r.cases), "stopped": r.stopped,
                                              "dropped": dropped_reasons(r, bool(r.cases))} for r in runs},
                "skipped": skipped}
    if _is_html(report):
        functions = [FunctionReport(r.qualname, [case_data(c) for c in r.cases],
                                    [*dropped_reasons(r, bool(r.cases)), *([r.stopped] if r.stopped else [])])
                     for r in runs]
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


def _item_timeout(settings: Settings, given: float | None) -> float | None:
    """A package run's limit per work item: as given, or from the budget per
    function, with an observe item's searches and replays (`--execute`)."""
    if given is not None or settings.timeout is None:
        return given
    limit = 4 * settings.timeout + 60
    if settings.execute:  # each search and replay has a timeout of its own
        from pathcraft.execute.observed import worst_seconds

        limit += worst_seconds(settings.execute_seconds)
    return limit


def _package(root: Path, output: Path | None, settings: Settings, jobs: int | None, incremental: bool,
             report: Path | None, quiet: bool, scheduler: str | None, item_timeout: float | None) -> None:
    """A package TARGET (pathcraft/app/batch.py): a test file per module under
    `output`, progress as it goes, a table at the end, a JSON report on
    request."""
    if output is None:
        raise fail(f"{root} is a package: give the folder for its tests with -o")
    if output.exists() and not output.is_dir():
        raise fail(f"{output}: a package's tests go in a folder, and this is a file")
    if not output.parent.is_dir():
        raise fail(f"{output}: folder '{output.parent}' does not exist")
    workers = jobs or os.cpu_count() or 1
    item_timeout = _item_timeout(settings, item_timeout)
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
    for column in ("module", "status", "functions", "tests", "skipped", "no test", "seconds"):
        table.add_column(column, justify="left" if column in ("module", "status") else "right")
    for o in outcomes:
        table.add_row(o.module, o.status, str(o.functions), str(o.tests), str(len(o.skipped)),
                      str(len(without_a_test(o))), f"{o.seconds:.1f}")
    err.print(table)
    for o in outcomes:
        for function, why in o.failed.items():
            err.print(f"pathcraft: {o.module}: {function + ': ' if function else ''}{why}", markup=False)
    summary = report_json(root, outcomes, elapsed)
    where = f"a Dask cluster ({scheduler})" if scheduler else f"{workers} worker{'s' if workers != 1 else ''}"
    err.print(f"pathcraft: {summary['modules']} modules ({summary['unchanged modules']} unchanged, "
              f"{summary['failed modules']} failed), {summary['tests']} tests for {summary['functions']} "
              f"functions ({summary['skipped functions']} skipped"
              f"{(HINT if not settings.execute else SKIPPED) if summary['skipped functions'] else ''}; "
              f"{summary['functions without a test']} without a test) in {output} in {elapsed:.1f} s "
              f"on {where}" + (f"; {done.retried} items retried after their worker died" if done.retried else ""),
              markup=False, soft_wrap=True)
    if summary["top reasons"]:
        err.print("pathcraft: most common reasons for no test: " + "; ".join(
            f"{r['reason']} ({r['functions']})" for r in summary["top reasons"][:3]), markup=False, soft_wrap=True)
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


def _run(program: Program, runnable: list[str], options: GenerateOptions, writer: TestStream,
         then: Callable[[list[FunctionRun]], None] = lambda runs: None
         ) -> tuple[list[FunctionRun], list[TestCase], list[str], bool, float]:
    """Explore each function in turn, writing tests as they come, then give
    the runs to `then` (the observed tests of `--execute`); an interruption
    keeps what was found. Also returns the functions skipped on the way."""
    runs: list[FunctionRun] = []
    all_cases: list[TestCase] = []
    skipped: list[str] = []
    interrupted = False
    started = time.perf_counter()
    try:
        for qualname in runnable:
            if interrupted_now():  # a Ctrl-C the work's thread did not receive (see depth.interrupted)
                raise KeyboardInterrupt
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
        then(runs)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        writer.close({r.qualname: r.stats for r in runs})
    return runs, all_cases, skipped, interrupted, time.perf_counter() - started


def _observe(stream: TestStream, path: str, refused: list[str], seconds: float, examples: int) -> None:
    """`--execute`: the observed tests of each function the engine refused,
    written after the path tests (pathcraft/execute/); one worker searches
    them all (it imports the module once)."""
    from pathcraft.execute.sandbox import Sandbox
    from pathcraft.frontend.packages import import_name

    if not refused:
        return
    with Sandbox(import_name(Path(path))[1]) as searcher:
        for qualname in refused:
            texts, said, _ = observed_texts(stream.writer, path, qualname, seconds, examples, searcher)
            for line in said:
                err.print(line, markup=False)
            for text in texts:
                stream.add_text(text)


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


def _test_name(stem: str) -> str:
    """`stem` as a test module's name: what is not a letter, digit or underscore becomes one."""
    name = re.sub(r"\W", "_", stem)
    return name if name.startswith("test_") else f"test_{name.lstrip('_')}"


def _check_output(output: Path | None, source: str, verify: bool) -> None:
    """Refuse an output path that cannot work before any search starts."""
    if output is None:
        return
    problem = output_problem(output)
    if problem is not None:
        raise PathcraftError(f"{output}: {problem}")
    if output.suffix == ".py" and "." in output.stem:
        raise PathcraftError(f"{output}: pytest imports a test file as the module its name gives, and the dot in "
                             f"'{output.stem}' names a package; choose a name such as {_test_name(output.stem)}.py")
    if output.exists() and output.resolve() == Path(source).resolve():
        raise PathcraftError(f"{output}: is the input file; choose another output file")
    if not output.parent.is_dir():
        raise PathcraftError(f"{output}: folder '{output.parent}' does not exist")
    if verify and not (output.is_file() or not output.exists()):
        raise PathcraftError(f"{output}: --verify reads the tests back, so it needs a regular file")
    if verify and output.suffix != ".py":
        raise PathcraftError(f"{output}: --verify runs the tests under pytest, which collects only files named *.py; "
                             f"choose a name such as {_test_name(output.stem)}.py")


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


def _explore(program: Program, qualname: str, options: GenerateOptions, writer: TestStream,
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
    if not output_format(out_format).runs or test_file is None:
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
    observed = report.tests - len(report.cases)  # --execute's tests claim no path
    err.print(f"verify: {report.passed}/{report.tests} tests pass; "
              f"{report.paths_ok}/{len(report.cases)} took their claimed path"
              + (f" ({observed} observed tests claim none)" if observed > 0 else ""), markup=False)
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
