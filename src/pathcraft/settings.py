"""Every option of `pathcraft gen`, declared once.

A declaration is a field of `SettingValues` (what `[tool.pathcraft]` and the
command line both set) or of `RunFlags` (the command line only): its name,
type (a `Literal` where it is a choice) and default are the field's; its
help text, flags, bounds and README row are the `Declaration` in the field's
metadata. Everything else is read off these two classes: the command's
parameters (`cliparams.py`), the keys pyproject.toml may hold and their
checks (`config.py`), `--help`, the README's table (`readme_table`), and the
in-process defaults of `GenerateOptions` and `EngineOptions` (`LIBRARY`).

This module imports nothing of pathcraft, so the engine can take its
defaults from here without a cycle.
"""

from __future__ import annotations

from dataclasses import MISSING, Field, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Literal, TypeVar, get_args, get_origin, get_type_hints

Format = Literal["pytest", "json"]
Search = Literal["dfs", "bfs"]
Heap = Literal["symbolic", "lazy", "lazy-noalias"]
Objects = Literal["free", "constructed"]
ItemSearch = Literal["guided", "paths"]
Compose = Literal["off", "on-demand", "bottom-up"]
Suite = Literal["all", "compact"]
Comments = Literal["auto", "full", "path", "none"]

T = TypeVar("T")
_SAME: Any = object()  # the in-process default is the command line's


@dataclass(frozen=True)
class Declaration:
    """What a field's type and default do not say about an option."""

    help: str  # --help, without the default and the final period
    flags: tuple[str, ...] = ()  # () for a pyproject-only setting
    shown: str | None = None  # the default as --help and the README say it (None: derived)
    least: int | None = None  # the smallest value allowed
    positive: bool = False  # a number of seconds: more than 0
    metavar: str | None = None
    what: str = ""  # a choice's name in the message for an unknown value ("heap model")
    cumulative: bool = False  # command-line and file values add up
    usage: str | None = None  # the README's word after the flag (None: derived)
    readme: str = ""  # the README's meaning cell; '{default}' is replaced
    # the in-process default (`GenerateOptions()`, `EngineOptions()`) where it
    # differs from the command line's: the library's defaults are the plain
    # search, with no budget and no extra tests, so a test of the engine
    # states exactly what it asks for
    library: Any = _SAME
    follows: str | None = None  # RunFlags: the option it comes after in --help (None: first)
    panel: str = ""  # its group in --help (one of PANELS; "" for a pyproject-only setting)


def declare(default: T, *flags: str, help: str, **more: Any) -> T:
    """A field holding its declaration (typed as its value, for mypy)."""
    found: Any = field(default=default, metadata={"declaration": Declaration(help, flags, **more)})
    return found  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Option:
    """One declared option, its field and declaration together."""

    name: str
    type: Any  # the resolved annotation
    default: Any
    declaration: Declaration

    @property
    def choices(self) -> tuple[str, ...]:
        return get_args(self.type) if get_origin(self.type) is Literal else ()

    @property
    def cli_default(self) -> str | None:
        """The default as `[default: X]` says it; None: not said."""
        d = self.declaration
        if d.shown is not None:
            return d.shown or None
        if self.type is bool:
            return self.spelling(self.default) if "/" in d.flags[0] else None
        if self.default is None or self.default in ("", ()):
            return None
        if isinstance(self.default, float) and self.default.is_integer():
            return str(int(self.default))
        return str(self.default)

    def spelling(self, value: bool) -> str:
        """A pair of switches: the one that gives `value`, without dashes."""
        on, off = self.declaration.flags[0].split("/")
        return (on if value else off).lstrip("-")

    def check(self, value: Any) -> str | None:
        """What is wrong with a value (None: nothing), as the message says it."""
        d = self.declaration
        if self.choices and value not in self.choices:
            joined = ", ".join(self.choices) if len(self.choices) > 2 else " or ".join(self.choices)
            return f"unknown {d.what} '{value}' ({joined})"
        if value is None or isinstance(value, bool):
            return None
        if d.positive and not (isinstance(value, (int, float)) and value > 0):
            return f"{self.name} must be a positive number of seconds, not {value}"
        if d.least is not None and isinstance(value, (int, float)) and value < d.least:
            return f"{self.name} must be at least {d.least}, not {value}"
        return None

    def file_types(self) -> tuple[type, ...]:
        """The Python types a `[tool.pathcraft]` value may have (TOML's)."""
        base = _base(self.type)
        if base is float:
            return (int, float)
        if get_origin(base) is tuple:
            return (list,)
        return (str,) if self.choices else (base,)


def _base(annotation: Any) -> Any:
    """`X | None` -> X."""
    args = [a for a in get_args(annotation) if a is not type(None)]
    return args[0] if get_origin(annotation) is not Literal and len(args) == 1 else annotation


def declarations(cls: type) -> tuple[Option, ...]:
    """The options a declaring dataclass holds, in field order."""
    hints = get_type_hints(cls)
    found: list[Option] = []
    for spec in fields(cls):
        assert isinstance(spec, Field) and spec.default is not MISSING, spec.name
        found.append(Option(spec.name, hints[spec.name], spec.default, spec.metadata["declaration"]))
    return tuple(found)


@dataclass(frozen=True)
class SettingValues:
    """The settings: `[tool.pathcraft]` keys, spelled with dashes on the
    command line; the order is that of `pathcraft gen --help`."""

    criterion: str = declare(
        "loop-2", "--criterion", "-c",
        panel="Search",
        help="Termination criterion: loop-K, block-K, depth-K or calls-K (call depth), several joined by commas; "
        "with all-local-paths, one test per feasible path through the function's own code, other code's paths "
        "left free; with statements or branches, few tests that reach every statement line or branch outcome of "
        "the function (see --item-search; bounded by loop-K)",
        usage="loop-K\\|block-K\\|depth-K\\|calls-K\\|all-local-paths\\|statements\\|branches",
        readme="termination criterion (default `{default}`: every loop entry runs its body at most K times, at "
        "most K recursive activations under the first); `calls-K` bounds the call depth; several combine: "
        "`loop-2,calls-4`. A selection criterion: `all-local-paths`, one test per path through the function's "
        "own code (guided generation, below), or `statements`/`branches`, few tests that reach every statement "
        "line / branch outcome (item coverage, below); combines with `loop-K` (`all-local-paths,loop-3`)")
    format: Format = declare(
        "pytest", "--format", "-f", panel="Target and output",
        help="Output format", what="format", readme="output format (default `{default}`)")
    suite: Suite = declare(
        "all", "--suite", panel="Target and output", what="suite",
        help="all: a test per path; compact: the fewest that keep every line, arc and killed mutant, "
        "as tables",
        readme="which tests to write (default `{default}`): `all`, one per path; `compact`, the fewest tests that "
        "keep the whole set's lines, arcs and killed mutants, as parametrized tables (see \"Keeping generated "
        "tests\")")
    comments: Comments = declare(
        "auto", "--comments", panel="Test text", what="comments",
        help="What each test's comment shows: full (path constraint, trace, costs), path (the constraint on one "
        "short line) or none; auto is full with --suite all and path with --suite compact",
        readme="each test's comment: `full` (constraint, trace, costs), `path` (the constraint, one short line) "
        "or `none` (default `{default}`: `full`, or `path` with `--suite compact`)")
    exceptions: bool = declare(
        True, "--no-exceptions", panel="Target and output", help="Keep only paths that return normally",
        readme="keep only paths that return normally")
    timeout: float | None = declare(
        60.0, "--timeout", positive=True, usage="S", library=None,
        panel="Search", help="Budget per function: S seconds of the reference machine's work, so the same tests "
        "under any load; what was found is kept",
        readme="budget per function (default {default}): the work the reference machine does in S seconds, so "
        "the same tests on any machine and under any load (the clock stops a run at 4×S + 2 s, and says "
        "so); what was found is kept")
    search: Search = declare(
        "dfs", "--search", panel="Search", help="Search strategy", what="search strategy",
        readme="search strategy (default `{default}`)")
    max_paths: int | None = declare(
        1000, "--max-paths", least=1, library=None, panel="Search", help="Stop after this many paths per function",
        readme="at most N paths per function (default {default}); when a budget stops a search, a line says so")
    heap: Heap = declare(
        "symbolic", "--heap", what="heap model",
        panel="Heap and objects",
        help="Heap model for object inputs: symbolic (the heap solver: aliasing as constraints, no branching on "
        "it), lazy (lazy initialization branching on aliasing) or lazy-noalias",
        readme="heap model for object inputs (default `{default}`): `symbolic`, the heap solver, keeps "
        "aliasing between inputs as constraints and branches only where the program compares references; "
        "`lazy` is lazy initialization that branches on every aliasing with objects already seen; "
        "`lazy-noalias` tries only `None` or a fresh object")
    assume: tuple[str, ...] = declare(
        (), "--assume", cumulative=True, usage="A",
        panel="Heap and objects",
        help="Heap assumption on the inputs (repeatable): non-aliasing(a,b), non-sharing(a,b), acyclic(a)",
        readme="heap assumption on the inputs, repeatable: `non-aliasing(a,b)`, `non-sharing(a,b)`, "
        "`acyclic(a)`; inputs violating it are never generated")
    max_list_length: int = declare(
        3, "--max-list-length", least=0, panel="Search", help="Longest input list of objects tried",
        readme="longest input list of objects tried (default {default}; lists of ints have a symbolic length)")
    # after max_list_length: the bounds are checked in this order
    solver_timeout_ms: int = declare(
        5000, least=1, help="Z3's time limit per query, in milliseconds (pyproject.toml only)")
    costs: str | None = declare(
        None, "--costs", usage="steps,memory,calls,calls:NAME",
        panel="Costs and policies",
        help="Costs to report per test, comma-separated: steps, memory, calls, calls:NAME; also prints the tests "
        "ordered by the first",
        readme="costs of each test (in its comment and in JSON `costs`), symbolic when they depend on an input "
        "(`4*icap + 12`); a table orders the tests by the first cost")
    policy: tuple[str, ...] = declare(
        (), "--policy", cumulative=True, usage="P",
        panel="Costs and policies",
        help="Resource policy (repeatable): COST OP N like 'memory>48' or 'steps<=200', worst:COST, top:N:COST",
        readme="resource policy, repeatable: `memory>48`, `steps<=200` (also prunes the search), "
        "`calls:Vector.realloc>=2`, `worst:steps`, `top:3:memory`")
    invariants: tuple[str, ...] = declare(
        (), "--invariant", cumulative=True, usage="Class.method",
        panel="Heap and objects",
        help="Class invariant (repeatable): Class.method, a method returning bool, assumed of self when a method "
        "of the class is tested and checked when it returns (like @invariant)",
        readme="class invariant, repeatable (or `@invariant` from `pathcraft.assume` on the method, or "
        "`invariants = [...]` in `[tool.pathcraft]`): a method returning bool, assumed of `self` when a method "
        "of the class is tested (no test starts from a state it excludes) and checked on return: a test whose "
        "path leaves it false asserts so, and a line names how many")
    size_model: str = declare(
        "", "--size-model", shown="4 bytes per slot, no headers", usage="slot=4,object_header=0,list_header=0",
        panel="Costs and policies", help="Memory size model, e.g. slot=4,object_header=0,list_header=0",
        readme="bytes per int/bool/reference slot and per object/list header for `memory` (default: "
        "{default})")
    objects: Objects = declare(
        "free", "--objects", what="objects mode",
        panel="Heap and objects",
        help="The object a method is called on: free (any state of its fields, built without __init__) or "
        "constructed (built by the constructor and public method calls only)",
        readme="the object a method is called on (default `{default}`): `free` materializes it with "
        "symbolic fields (any state, built in the test without `__init__`); `constructed` builds it only by "
        "calling the constructor and public methods with symbolic arguments, so every state is reachable "
        "through the class's API (see below)")
    setup_calls: int = declare(
        2, "--setup-calls", least=0,
        panel="Heap and objects",
        help="With --objects constructed: at most this many method calls after the constructor",
        readme="with `--objects constructed`: at most N method calls after the constructor (default {default})")
    refine: bool = declare(
        True, "--refine/--no-refine",
        panel="Guided search and coverage",
        help="Guided generation: generate traces from the abstraction refined by instantiation modes (the "
        "integers and fields the search would constrain, with their guards), so fewer are infeasible",
        readme="guided generation from the plain trace abstraction instead of the one refined by instantiation "
        "modes (to compare GT/UT; default `--{default}`)")
    item_search: ItemSearch = declare(
        "paths", "--item-search", what="item search",
        panel="Guided search and coverage",
        help="With -c statements or branches: paths (the standard search keeping each path that covers a new "
        "item, with Look-Ahead and Max-CallDepth, paper 004) or guided (a trace generator per item, paper 001)",
        readme="how `statements`/`branches` look for their items (default `{default}`): `paths` (the "
        "standard search keeping each path that covers a new item, with paper 004's pruning; see *Item coverage* "
        "below) or `guided` (a trace generator per item, paper 001)")
    look_ahead: bool = declare(
        True, "--look-ahead/--no-look-ahead",
        panel="Guided search and coverage",
        help="--item-search paths: abandon a path as soon as no uncovered item is reachable from it (never loses "
        "coverage)",
        readme="`--item-search paths` only: turn Look-Ahead off, to measure it (default `--{default}`)")
    unit: bool = declare(
        True, "--unit/--no-unit",
        panel="Guided search and coverage",
        help="With -c statements or branches: the items are the function's own (unit-testing mode), or also "
        "those of the module's functions it calls",
        readme="`--item-search paths` only: count the callees' items too (default `--{default}`)")
    max_call_depth: int | None = declare(
        None, "--max-call-depth", least=0,
        panel="Search",
        help="--item-search paths, unit mode: follow only the first feasible outcome of a choice more than N "
        "calls below the function (faster; may lose coverage, reported)",
        readme="`--item-search paths` only: run calls more than N below the function for their first answer")
    concolic: bool = declare(
        False, "--concolic/--no-concolic",
        panel="Running the code",
        help="Run the standard library's pure number functions the model lacks (math.log, math.isqrt, "
        "math.comb, ...) on the concrete values of each path, which then states them exactly; without it a path "
        "reaching such a call is dropped. Only that allow-list runs: never the analysed code",
        readme="run the standard library's pure number functions the model lacks (`math.log`, `math.isqrt`, "
        "...) on each path's concrete values; never the analysed code (default `--{default}`)")
    concolic_samples: int = declare(
        3, "--concolic-samples", least=1,
        panel="Running the code", help="--concolic: concrete runs per call and path, each with other argument values",
        readme="`--concolic`: concrete runs per call and path (default {default})")
    execute: bool = declare(
        False, "--execute/--no-execute",
        panel="Running the code",
        help="Import the module in a sandboxed worker process and, for each function the symbolic engine "
        "refuses, write tests observed by running it on inputs a coverage-guided search builds from its "
        "annotations (each re-run in a fresh worker before it is written). Off: the analysed code never runs",
        readme="import the module in a sandboxed worker and write observed tests for the functions the "
        "engine refuses (default `--{default}`; see \"Running the code\")")
    execute_seconds: float = declare(
        2.0, "--execute-seconds", positive=True, metavar="SECONDS",
        panel="Running the code", help="--execute: the search's budget per refused function",
        readme="`--execute`: search budget per refused function, in seconds (default {default})")
    execute_examples: int = declare(
        400, "--execute-examples", positive=True, metavar="N",
        panel="Running the code",
        help="--execute: the most inputs the search tries per refused function (with --execute-seconds, "
        "whichever ends first; a count alone gives the same tests on any machine)",
        readme="`--execute`: the most inputs tried per refused function (default {default})")
    # item search "paths": alternatives run on their model's values first (004 §5); the default
    # since bench/prune.py measured it (same coverage, fewer solver calls, less time)
    solve_first: bool = declare(
        True, "--solve-first/--no-solve-first", library=False,
        panel="Guided search and coverage",
        help="--item-search paths: at each choice point, run every alternative to its end on the values that "
        "solved it (no solver) before going deeper, so Look-Ahead can skip those whose items that run covered "
        "(paper 004's Solve-First)",
        readme="`--item-search paths` only: turn Solve-First off (default `--{default}`)")
    long_probes: int = declare(
        3, "--long-probes", least=0, library=0,
        panel="Guided search and coverage",
        help="All-paths search: add up to N tests whose paths run longer inputs than the loop bound reaches "
        "(lists of 2K+2 items, larger ints), found by running the model on fixed inputs, or for object inputs "
        "by a search one loop deeper; 0 turns them off",
        readme="all-paths search: up to N more tests (default {default}, `0` off) on paths through longer "
        "inputs than the criterion reaches (see *Long probes* below)")
    edge_tests: int = declare(
        3, "--edge-tests", least=0, library=0,
        panel="Guided search and coverage",
        help="All-paths search: add up to N tests that put an int parameter at or beside a constant a path "
        "compares it with (x = c - 1, c, c + 1 for x < c) where no test has that value, or pass a bool for an "
        "int returned as given, or give a found list item an equal neighbour; 0 turns them off",
        readme="all-paths search: up to N more tests (default {default}, `0` off) that put an int parameter at "
        "or beside a constant a path compares it with, where no test has that value, pass a bool where the int "
        "is returned as given, or give a found list item an equal neighbour (see *Edge tests* below)")
    compose: Compose = declare(
        "off", "--compose", what="compose mode",
        panel="Composition",
        help="Answer calls with the callee's summary (its paths from the most general context, paper 002) "
        "instead of running its code at every call: on-demand makes a summary at the first call, bottom-up "
        "makes the callees' summaries first, leaves of the call graph first; the tests are the same, only the "
        "time differs. Loop-K criteria only; a call a summary cannot stand for exactly (two objects, a callee "
        "that follows a reference or makes a list, a callee on the stack) runs the callee",
        readme="answer calls with the callee's summary (default `{default}`); the tests are the same, only the "
        "time differs")
    summaries: str = declare(
        ".pathcraft/summaries", "--summaries", metavar="DIR", library="",
        panel="Composition",
        help="With --compose: keep summaries in DIR (JSON, keyed by the code they depend on) and reuse them in "
        "later runs, each tested function's own tests included (an unchanged function is not searched again); "
        "'' keeps none",
        readme="with `--compose`: keep summaries in DIR and reuse them in later runs (default "
        "`{default}`; `''` keeps none)")
    native_summaries: tuple[str, ...] = declare(
        (), "--native-summaries", metavar="FILE", cumulative=True,
        panel="Running the code",
        help="A file of models of library functions pathcraft cannot read (C code, other packages), each "
        "marked @summary_of(\"module.function\"); repeatable, and added to native_summaries in "
        "\\[tool.pathcraft]",
        readme="a file of models of library functions pathcraft cannot read, repeatable")
    exclude: tuple[str, ...] = declare(
        (), "--exclude", metavar="PATTERN", cumulative=True,
        panel="Package runs",
        help="A package TARGET: skip the files and folders this pattern (relative to the package, fnmatch) "
        "matches; repeatable, added to exclude in \\[tool.pathcraft]",
        readme="a package TARGET: skip the files and folders PATTERN matches (fnmatch, from the package), "
        "repeatable")
    split_depth: int = declare(
        0, "--split-depth", metavar="D", least=0,
        panel="Package runs",
        help="A package TARGET: split each function's search D choices down into parts (trace prefixes) that "
        "run on several workers; the same paths, with inputs chosen per part, and without long probes and edge "
        "tests, which need the whole search; 0: no split",
        readme="a package TARGET: split each function's search D choices down into parts that run on several "
        "workers (default {default}: no split)")
    resource_driven: bool = declare(
        False, "--resource-driven",
        panel="Costs and policies",
        help="With --policy worst:steps or worst:calls[:NAME]: try the traces of the refined abstraction from "
        "the most to the least expensive and stop at the first feasible one, instead of exploring every path; "
        "with threshold policies (steps>200), try only the traces that may satisfy them (falls back, saying so, "
        "where a cost is not observable)",
        readme="with `--policy worst:steps` or `worst:calls[:NAME]`: try the traces of the refined abstraction "
        "from the most to the least expensive, stop at the first feasible one; with threshold policies "
        "(`steps>200`), try only the traces that may satisfy them")


@dataclass(frozen=True)
class RunFlags:
    """The options that only the command line gives: where the tests go and
    what is printed; a package run's workers."""

    output: Path | None = declare(
        None, "-o", "--output", usage="FILE", panel="Target and output",
        help="Write the tests to this file (default: stdout)",
        readme="write the tests to FILE (default: stdout); tests are written as they are found")
    verify: bool = declare(
        False, "--verify", follows="exceptions",
        panel="Target and output",
        help="Run the generated tests; check each takes its claimed path; report branch coverage",
        readme="run the generated tests; check that each run takes the path its test claims; branch coverage "
        "(coverage.py) per function")
    stats: bool = declare(
        False, "--stats", follows="verify", panel="Target and output", help="Print search and solver statistics",
        readme="derivation steps, branch queries, queries answered without Z3 (by layer), Z3 calls and time, "
        "paths, pruned paths")
    trace: str | None = declare(
        None, "--trace", follows="setup_calls", usage="PATTERN",
        panel="Guided search and coverage",
        help="Only the paths whose trace term is an instance of this pattern, written as the tests' '# trace:' "
        "comments; '_' or a capitalized variable stands for any subterm, '[T1 | Rest]' for a longer list. Needs "
        "a target path/to/module.py::name",
        readme="only the paths whose trace term is an instance of PATTERN (below)")
    cover: str | None = declare(
        None, "--cover", follows="trace", usage="POINTS",
        panel="Guided search and coverage",
        help="Program points to reach, comma-separated: LINE, FILE:LINE or a function's name; as few tests as "
        "reach them all (guided generation), and each point reported as reached by a test or unreachable within "
        "the termination criterion. Needs a target path/to/module.py::name",
        readme="as few tests as reach each program point: `LINE`, `FILE:LINE` or a function's name, "
        "comma-separated; each point is reported as reached by a test or unreachable within the criterion")
    jobs: int | None = declare(
        None, "--jobs", "-j", least=1, follows="native_summaries", shown="the number of cores",
        panel="Package runs",
        help="A package TARGET: this many worker processes, each taking one function (or a module's plan) at a "
        "time", readme="a package TARGET: this many worker processes (default: {default})")
    incremental: bool = declare(
        True, "--incremental/--no-incremental", follows="jobs", shown="",
        panel="Package runs",
        help="A package TARGET: run again only the modules whose code, imported project modules or settings "
        "changed since the last run into the same folder (a manifest beside the tests)",
        readme="a package TARGET: run every module again, not only those whose code, imported project modules "
        "or settings changed since the last run (default `--{default}`)")
    report: Path | None = declare(
        None, "--report", metavar="FILE", follows="exclude",
        panel="Target and output",
        help="Also write a summary here: functions, tests, skipped functions and why, time (for a package: per "
        "module); as JSON, or as one static page for a FILE.html (source lines reached, object graphs, costs)",
        readme="also write a summary to FILE: JSON, or one static page for a FILE.html")
    quiet: bool = declare(
        False, "--quiet", "-q", follows="report",
        panel="Target and output", help="A package TARGET: no progress line per module, only the summary",
        readme="a package TARGET: no progress line per module, only the summary")
    scheduler: str | None = declare(
        None, "--scheduler", metavar="ADDRESS", follows="quiet",
        panel="Package runs",
        help="A package TARGET: run the work items on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://host:8786), or on a LocalCluster of --jobs workers started here with 'local'",
        readme="a package TARGET: run the work items on the Dask cluster at ADDRESS, or `local`")
    item_timeout: float | None = declare(
        None, "--item-timeout", metavar="SECONDS", least=1, follows="split_depth",
        shown="four times --timeout, plus a minute",
        panel="Package runs",
        help="A package TARGET: a function still running after this long stops its local worker and is "
        "reported as failed; the run goes on",
        readme="a package TARGET: a function still running after SECONDS stops its worker and is reported as "
        "failed (default: {default})")


SETTINGS = declarations(SettingValues)
FLAGS = declarations(RunFlags)
DEFAULTS = SettingValues()
# the in-process defaults: see `Declaration.library`
LIBRARY = replace(DEFAULTS, **{o.name: o.declaration.library for o in SETTINGS if o.declaration.library is not _SAME})


# --help's groups of options (shown in the order of their first option); `pathcraft gen --help` shows BRIEF's and
# names the others, `--help-all` shows them all
PANELS = ("Target and output", "Search", "Package runs", "Heap and objects", "Costs and policies",
          "Guided search and coverage", "Running the code", "Composition", "Test text")
BRIEF = PANELS[:2]


def command_order() -> tuple[Option, ...]:
    """Settings and flags in the order of `pathcraft gen --help`."""
    placed = list(SETTINGS)
    for flag in FLAGS:
        after = flag.declaration.follows
        at = 0 if after is None else 1 + next(i for i, o in enumerate(placed) if o.name == after)
        placed.insert(at, flag)
    return tuple(placed)


def readme_table() -> str:
    """The README's table of `gen`'s options (a test keeps them equal)."""
    rows = ["| option | meaning |", "| --- | --- |"]
    for option in command_order():
        d = option.declaration
        if not d.flags:
            continue
        meaning = d.readme.replace("{default}", readme_default(option) or "")
        rows.append(f"| `{_usage(option)}` | {meaning} |")
    return "\n".join(rows) + "\n"


def readme_default(option: Option) -> str | None:
    """The default as the README says it: --help's, or for a pair of
    switches the one in force."""
    if option.type is bool and "/" in option.declaration.flags[0]:
        return option.spelling(option.default)
    return option.cli_default


def _usage(option: Option) -> str:
    d = option.declaration
    if option.type is bool:
        if "/" in d.flags[0]:
            return "--" + option.spelling(not option.default)
        return d.flags[0]
    word = d.usage or d.metavar or "\\|".join(option.choices) or ("N" if _base(option.type) is int else "TEXT")
    return f"{d.flags[0]} {word}"


__all__ = ["DEFAULTS", "FLAGS", "LIBRARY", "SETTINGS", "Declaration", "Option", "RunFlags", "SettingValues",
           "command_order", "declare", "readme_default", "readme_table"]
