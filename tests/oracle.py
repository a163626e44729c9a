"""Independent oracles for the engine: the real code, run on concrete inputs.

* replay: every generated test case, run for real, gives the expected outcome
  and takes the path the test case claims;
* enumeration: run the real code on every small input, keep the paths that
  stay within loop-K, and demand that some generated test took each of them.
"""

from __future__ import annotations

import ast
import fcntl
import hashlib
import importlib.util
import inspect
import itertools
import json
import os
import sys
import typing
from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from heap_enum import FLOATS, Bounds, clean, enumerate_inputs

from pathcraft.engine.criteria import parse_criterion
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.testcase.heapdesc import build_inputs, real_snapshot, real_value
from pathcraft.testcase.model import TestCase
from pathcraft.testcase.stored import NotStorable, decode_cases, encode_cases
from pathcraft.testcase.replay import clear_caches, spelled_class
from pathcraft.testcase.pathsig import RealRun, loop_shapes, record, statement_lines, within_loop_bound

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
SHARED_EXAMPLES = REPO / "tests" / "fixtures" / "papers"  # the papers' examples, vendored
SHARED_RUNS = "PATHCRAFT_TEST_RUNS"  # environment: the folder where `generated` keeps its runs for the session


def load_module(path: Path) -> ModuleType:
    """Import a module from its file under a private name (a fresh copy);
    a module of a package as the tests import it (its relative imports
    need the package)."""
    if (path.parent / "__init__.py").is_file():
        from pathcraft.testcase.replay import load

        return load(str(path))  # type: ignore[no-any-return]
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
    return obj.fget if isinstance(obj, property) else obj  # a property: its getter, called with self


def generated(path: Path, qualname: str, criterion: str = "loop-2", exceptions: bool = True,
              heap: str = "symbolic", assumptions: tuple[str, ...] = ()) -> list[TestCase]:
    """The tests pathcraft generates for `qualname`, computed once per test
    session: the replay and the enumeration oracle of one function ask for
    the same run (conftest.py names a folder the xdist workers share)."""
    key = json.dumps([str(path), hashlib.sha256(path.read_bytes()).hexdigest(), qualname, criterion, exceptions,
                      heap, list(assumptions)])
    return shared_run(key, lambda: _generate(path, qualname, criterion, exceptions, heap, assumptions))


def _generate(path: Path, qualname: str, criterion: str, exceptions: bool, heap: str,
              assumptions: tuple[str, ...]) -> list[TestCase]:
    result = translate(str(path), [qualname])
    assert not result.errors, result.errors
    options = GenerateOptions.of(criterion=parse_criterion(criterion), exceptions=exceptions, heap=heap,
                              assume=assumptions)
    return generate(result.program, qualname, options).cases


def shared_run(key: str, run: Callable[[], list[TestCase]]) -> list[TestCase]:
    """`run()`, or the cases an earlier test of this session stored under
    `key` (as the summary store writes them: tagged JSON, never pickle).
    A lock per key makes a second worker wait for the first instead of
    running the same search beside it."""
    folder = os.environ.get(SHARED_RUNS)
    if not folder:
        return run()
    stem = Path(folder) / hashlib.sha256(key.encode()).hexdigest()
    with open(stem.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stored = stem.with_suffix(".json")
        if stored.exists():
            return decode_cases(json.loads(stored.read_text(encoding="utf-8")))[0]
        cases = run()
        try:
            document = encode_cases(cases, {})
        except NotStorable:
            return cases
        stored.write_text(json.dumps(document), encoding="utf-8")
        return cases


class RealCode:
    """The real function, traced the same way `--verify` traces it."""

    def __init__(self, path: Path, qualname: str) -> None:
        self.module = load_module(path)
        self.fn = resolve(self.module, qualname)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        self.lines = statement_lines(tree)
        self.shapes = loop_shapes(tree)
        self.filename = self.module.__file__
        code = getattr(self.fn, "__wrapped__", self.fn).__code__  # through a functools cache
        params = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
        hints = typing.get_type_hints(self.fn)
        if code.co_flags & inspect.CO_VARARGS:  # `*args`: a tuple of its items' type, after the positional ones
            star = code.co_varnames[code.co_argcount + code.co_kwonlyargcount]
            params = params[:code.co_argcount] + (star,) + params[code.co_argcount:]
            hints[star] = tuple[hints.get(star, int), ...]  # type: ignore[misc]  # unannotated: pathcraft's ints
        if code.co_flags & inspect.CO_VARKEYWORDS:  # `**kwargs`: a dict of str keys, last
            extra = code.co_varnames[code.co_argcount + code.co_kwonlyargcount
                                     + (1 if code.co_flags & inspect.CO_VARARGS else 0)]
            params = params + (extra,)
            hints[extra] = dict[str, hints.get(extra, int)]  # type: ignore[misc]  # unannotated: pathcraft's ints
        if inspect.ismethod(self.fn):  # a classmethod: `cls` is bound
            params = params[1:]
        self.params: tuple[str, ...] = tuple(params)
        owner = resolve(self.module, qualname.rpartition(".")[0]) if "." in qualname else None
        self.types = [(p, hints.get(p, owner)) for p in params]
        self.annotations = {p: self.fn.__annotations__.get(p) for p in params}

    def run(self, inputs: dict[str, Any], max_events: int | None = None) -> RealRun:
        clear_caches(self.module)
        return record(self.fn, inputs, self.filename, self.lines, max_events)

    def run_case(self, inputs: dict[str, Any], heap_in: dict[str, Any], max_events: int | None = None,
                 spellings: dict[str, str] | None = None) -> tuple[RealRun, Any, dict[str, Any]]:
        """Build the objects, run, and snapshot the result and final heap.
        `spellings`: classes the module reaches as another class's attribute."""
        spelled = spellings or {}
        def classes(name: str) -> Any:
            return spelled_class(self.module, spelled.get(name, name))

        objects = build_inputs(heap_in, classes)
        args = {k: real_value(v, objects, classes) for k, v in inputs.items()}  # objects by name, in tuples too
        run = self.run(args, max_events)
        value, final = real_snapshot(run.value if run.kind == "return" else None, objects)
        return run, value, final

    def heap_domain(self, bounds: Bounds) -> Iterable[tuple[dict[str, Any], dict[str, Any]]]:
        for inputs, heap in enumerate_inputs(self.types, bounds):
            yield inputs, clean(heap)

    def domain(self, low: int = -6, high: int = 6) -> Iterable[dict[str, Any]]:
        ranges = []
        for p in self.params:
            kind = self.annotations[p]
            if kind in (float, "float"):
                ranges.append(list(FLOATS))
                continue
            ranges.append([False, True] if kind in (bool, "bool") else range(low, high + 1))
        for values in itertools.product(*ranges):
            yield dict(zip(self.params, values))


def replay_mismatches(path: Path, qualname: str, cases: list[TestCase]) -> list[str]:
    """Test cases whose real run differs from what they claim."""
    real = RealCode(path, qualname)
    problems = []
    for case in cases:
        run, value, final = real.run_case(dict(case.inputs), dict(case.heap_in),
                                          spellings=dict(case.extra.get("spellings", {})))
        if _json(final) != _json(dict(case.heap_final)):
            problems.append(f"{case.name}: final heap {final} differs from the claimed {case.heap_final}")
        if case.kind == "return":
            if run.kind != "return" or _json(value) != _json(case.value):
                problems.append(f"{case.name}: expected {case.value!r}, got {run.kind} {value!r} {run.exc_type}")
        elif run.kind != "raise" or run.exc_type != case.exc_type or (
            case.exc_message is not None and run.exc_message != case.exc_message
        ):
            problems.append(f"{case.name}: expected {case.exc_type}({case.exc_message!r}), got {run}")
        if run.events != case.path:
            problems.append(f"{case.name}: claimed path differs from the real one")
    return problems


def real_paths(path: Path, qualname: str, cases: list[TestCase]) -> set[tuple[Any, ...]]:
    """The program paths (statement sequences) the tests take for real."""
    real = RealCode(path, qualname)
    return {real.run_case(dict(c.inputs), dict(c.heap_in))[0].events for c in cases}


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


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


def missed_heap_paths(path: Path, qualname: str, cases: list[TestCase], k: int = 2,
                      bounds: Bounds = Bounds()) -> tuple[list[dict[str, Any]], int]:
    """Like `missed_paths`, over all small object graphs and lists; also
    returns how many inputs were run."""
    real = RealCode(path, qualname)
    covered = {real.run_case(dict(c.inputs), dict(c.heap_in))[0].events for c in cases}
    missed: dict[tuple[Any, ...], dict[str, Any]] = {}
    count = 0
    for inputs, heap in real.heap_domain(bounds):
        count += 1
        run = real.run_case(inputs, heap, max_events=500)[0]
        if run.kind == "budget" or not within_loop_bound(run.events, real.shapes, k):
            continue
        if run.events not in covered:
            missed.setdefault(run.events, {"inputs": inputs, "heap": heap})
    return list(missed.values()), count


def oracle_tests(path: Path, names: list[str], bounds: Bounds,
                 criteria: tuple[str, ...] = ("loop-1", "loop-2")) -> tuple[Any, Any]:
    """The two oracle tests of a fixture module, parametrized over `names`:
    replay under each of `criteria`, and enumeration within `bounds` under
    loop-2. A test module binds them: `test_replay, test_enumeration = ...`."""
    import pytest

    @pytest.mark.parametrize("name", names)
    @pytest.mark.parametrize("criterion", list(criteria))
    def replay(name: str, criterion: str) -> None:
        cases = generated(path, name, criterion)
        assert cases
        assert replay_mismatches(path, name, cases) == []

    @pytest.mark.parametrize("name", names)
    def enumeration(name: str) -> None:
        cases = generated(path, name, "loop-2")
        missed, runs = missed_heap_paths(path, name, cases, k=2, bounds=bounds)
        assert runs > 0
        assert missed == []

    return replay, enumeration


def unread(path: Path, qualnames: Iterable[str]) -> dict[str, str]:
    """Why each function does not read some module-level name as a value:
    the translation's refusal of it, or, analysed, the notes of its run
    (a path reading such a name is dropped, frontend/calls.unread_name).
    Its cases must then replay (no path was guessed)."""
    wanted = list(qualnames)
    result = translate(str(path), wanted)
    out = {q: str(e) for q, e in result.errors.items() if q in wanted and "no function named" not in str(e)}
    for qualname in wanted:
        if qualname in out or qualname not in result.program.functions:
            continue
        run = generate(result.program, qualname, GenerateOptions.of())
        assert not run.cases or replay_mismatches(path, qualname, run.cases) == []
        out[qualname] = " ".join(run.notes)
    return out
