"""Independent oracles for the engine: the real code, run on concrete inputs.

* replay: every generated test case, run for real, gives the expected outcome
  and takes the path the test case claims;
* enumeration: run the real code on every small input, keep the paths that
  stay within loop-K, and demand that some generated test took each of them.
"""

from __future__ import annotations

import ast
import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable

from pathcraft.engine.criteria import parse_criterion
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.testcase.model import TestCase
from pathcraft.testcase.pathsig import RealRun, loop_shapes, record, statement_lines, within_loop_bound

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
SHARED_EXAMPLES = REPO.parent / "shared" / "examples"


def load_module(path: Path) -> ModuleType:
    """Import a module from its file under a private name (a fresh copy)."""
    name = f"_oracle_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def resolve(module: ModuleType, qualname: str) -> Any:
    obj: Any = module
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def generated(path: Path, qualname: str, criterion: str = "loop-2", exceptions: bool = True) -> list[TestCase]:
    result = translate(str(path), [qualname])
    assert not result.errors, result.errors
    options = GenerateOptions(criterion=parse_criterion(criterion), exceptions=exceptions)
    return generate(result.program, qualname, options).cases


class RealCode:
    """The real function, traced the same way `--verify` traces it."""

    def __init__(self, path: Path, qualname: str) -> None:
        self.module = load_module(path)
        self.fn = resolve(self.module, qualname)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        self.lines = statement_lines(tree)
        self.shapes = loop_shapes(tree)
        self.filename = self.module.__file__
        params = self.fn.__code__.co_varnames[: self.fn.__code__.co_argcount]
        self.params: tuple[str, ...] = tuple(params)
        self.annotations = {p: self.fn.__annotations__.get(p) for p in params}

    def run(self, inputs: dict[str, Any]) -> RealRun:
        return record(self.fn, inputs, self.filename, self.lines)

    def domain(self, low: int = -6, high: int = 6) -> Iterable[dict[str, Any]]:
        ranges = []
        for p in self.params:
            kind = self.annotations[p]
            ranges.append([False, True] if kind in (bool, "bool") else range(low, high + 1))
        for values in itertools.product(*ranges):
            yield dict(zip(self.params, values))


def replay_mismatches(path: Path, qualname: str, cases: list[TestCase]) -> list[str]:
    """Test cases whose real run differs from what they claim."""
    real = RealCode(path, qualname)
    problems = []
    for case in cases:
        run = real.run(dict(case.inputs))
        if case.kind == "return":
            if run.kind != "return" or run.value != case.value or type(run.value) is not type(case.value):
                problems.append(f"{case.name}: expected {case.value!r}, got {run.kind} {run.value!r} {run.exc_type}")
        elif run.kind != "raise" or run.exc_type != case.exc_type or (
            case.exc_message is not None and run.exc_message != case.exc_message
        ):
            problems.append(f"{case.name}: expected {case.exc_type}({case.exc_message!r}), got {run}")
        if run.events != case.path:
            problems.append(f"{case.name}: claimed path differs from the real one")
    return problems


def missed_paths(path: Path, qualname: str, cases: list[TestCase], k: int = 2,
                 low: int = -6, high: int = 6) -> list[dict[str, Any]]:
    """One input for each real path within loop-k that no test case took."""
    real = RealCode(path, qualname)
    covered = {real.run(dict(c.inputs)).events for c in cases}
    missed: dict[tuple[Any, ...], dict[str, Any]] = {}
    for inputs in real.domain(low, high):
        run = real.run(inputs)
        if not within_loop_bound(run.events, real.shapes, k):
            continue
        if run.events not in covered:
            missed.setdefault(run.events, inputs)
    return list(missed.values())
