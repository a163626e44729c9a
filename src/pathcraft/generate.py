"""One generation run: translate, explore, concretize, hand each test case on.

This is the seam the CLI, the benchmarks and the tests share. Test cases are
passed to `on_case` the moment they exist, so an interruption or a time
budget never loses what was already found.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path as FsPath
from typing import Any, Callable

from pathcraft.engine.criteria import Criterion
from pathcraft.engine.engine import Engine, EngineOptions, Path
from pathcraft.errors import PathcraftError, TargetError
from pathcraft.ir.nodes import Program
from pathcraft.solver.chain import SolverOptions
from pathcraft.solver.terms import Sym
from pathcraft.testcase.model import SMALL, TestCase, concretize


@dataclass
class GenerateOptions:
    criterion: Criterion = field(default_factory=lambda: Criterion("loop", 2))
    exceptions: bool = True
    search: str = "dfs"
    timeout: float | None = None
    max_paths: int | None = None
    solver: SolverOptions = field(default_factory=SolverOptions)
    heap: str = "lazy"
    max_list_length: int = 3


@dataclass
class FunctionRun:
    qualname: str
    cases: list[TestCase] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    stopped: str | None = None
    notes: list[str] = field(default_factory=list)


def parse_target(text: str) -> tuple[str, str | None]:
    """`path/to/mod.py::Name` or `path/to/mod.py`."""
    path, sep, name = text.partition("::")
    if not path.endswith(".py"):
        raise TargetError(f"bad target '{text}': expected path/to/module.py or path/to/module.py::name")
    if sep and not name:
        raise TargetError(f"bad target '{text}': nothing after '::'")
    if not FsPath(path).is_file():
        raise TargetError(f"{path}: no such file")
    return path, (name or None)


def engine_stats(engine: Engine, filtered: int) -> dict[str, Any]:
    chain = engine.solver
    answered = chain.answered_by()
    queries = chain.queries
    without = queries - answered.get("z3", 0)
    return {
        "paths": engine.stats.paths,
        "tests": engine.stats.paths - filtered,
        "exception_paths_filtered": filtered,
        "derivation_steps": engine.stats.steps,
        "pruned_paths": engine.stats.pruned,
        "infeasible_rules": engine.stats.infeasible,
        "unknown_paths": engine.stats.unknown,
        "unsupported_paths": engine.stats.unsupported,
        "branch_queries": queries,
        "answered_without_z3": without,
        "answered_by": answered,
        "z3_calls": chain.z3_calls,
        "z3_seconds": round(chain.z3_seconds, 4),
        "seconds": round(engine.stats.seconds, 4),
    }


def generate(
    program: Program,
    qualname: str,
    options: GenerateOptions,
    on_case: Callable[[TestCase], None] | None = None,
) -> FunctionRun:
    if qualname not in program.functions:
        raise PathcraftError(f"{program.path}: '{qualname}' was not translated")
    deadline = None if options.timeout is None else time.monotonic() + options.timeout
    engine = Engine(program, EngineOptions(
        criterion=options.criterion, search=options.search, solver=options.solver,
        deadline=deadline, max_paths=options.max_paths, heap=options.heap,
        max_list_length=options.max_list_length,
    ))
    run = FunctionRun(qualname)
    filtered = 0

    def small_model(path: Path, inputs: list[Sym]) -> Any:
        return engine.solver.z3.small_model(path.path, inputs, SMALL)

    try:
        for path in engine.explore(qualname):
            if not options.exceptions and path.outcome.kind == "raise":
                filtered += 1
                continue
            name = f"test_{qualname.replace('.', '_')}_{len(run.cases) + 1}"
            case = concretize(path, name, small_model)
            run.cases.append(case)
            if on_case is not None:
                on_case(case)
    except KeyboardInterrupt:
        run.stopped = "interrupted"
        raise
    finally:
        run.stopped = run.stopped or engine.stats.stopped
        run.stats = engine_stats(engine, filtered)
        run.notes = list(engine.stats.notes)
    return run
