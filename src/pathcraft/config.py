"""Settings, layered: the command line over `[tool.pathcraft]` in the
nearest pyproject.toml over the defaults.

`Settings` is the one place the defaults live (taken from the engine's own
option defaults, so the two cannot drift apart); `settings_from` layers the
sources and `Settings.generate_options` parses the strings into the
structured options a run uses.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from pathcraft.cost.models import parse_cost_list, parse_size_model
from pathcraft.cost.policy import parse_policy
from pathcraft.engine.criteria import parse_criterion
from pathcraft.engine.options import EngineOptions
from pathcraft.engine.search import SEARCHERS
from pathcraft.engine.summaries import MODES as COMPOSE_MODES, compositional
from pathcraft.errors import PathcraftError
from pathcraft.generate import SELECTIONS, GenerateOptions
from pathcraft.heap.base import HEAP_MODELS
from pathcraft.solver.chain import SolverOptions
from pathcraft.testcase.writers import FORMATS as WRITERS

_ENGINE = EngineOptions()
_GENERATE = GenerateOptions()
FORMATS = tuple(WRITERS)  # the output formats by name (testcase/writers.py)
OBJECTS = ("free", "constructed")
ITEM_SEARCHES = ("guided", "paths")


@dataclass(frozen=True)
class Settings:
    """Every setting a user can give, with its default. The names are the
    `[tool.pathcraft]` keys; the command line spells them with dashes."""

    criterion: str = str(_ENGINE.criterion)
    format: str = "pytest"
    exceptions: bool = _GENERATE.exceptions
    timeout: float | None = 60.0  # seconds per function: a budget, not a limit on correctness
    search: str = _ENGINE.search
    solver_timeout_ms: int = SolverOptions().timeout_ms
    heap: str = _ENGINE.heap
    size_model: str = ""
    assume: tuple[str, ...] = ()
    max_list_length: int = _ENGINE.max_list_length
    max_paths: int | None = 1000  # paths per function (twelve independent ifs have 4,096)
    costs: str | None = None
    policy: tuple[str, ...] = ()
    invariants: tuple[str, ...] = ()  # `Class.method`: assumed of `self`, checked on return
    objects: str = _GENERATE.objects
    setup_calls: int = _GENERATE.setup_calls
    refine: bool = _GENERATE.refine  # trace generators use the refined abstraction (engine/refine.py)
    resource_driven: bool = _GENERATE.resource_driven  # worst:COST by resource-driven generation
    # statements/branches: how the items are searched for (engine/items.py, engine/points.py)
    item_search: str = _GENERATE.item_search
    look_ahead: bool = _GENERATE.look_ahead
    unit: bool = _GENERATE.unit
    max_call_depth: int | None = _GENERATE.max_call_depth
    # allow-listed library calls the model lacks run on concrete values (engine/concretize.py)
    concolic: bool = False
    concolic_samples: int = 3
    # item search "paths": alternatives run on their model's values first (004 §5); the default
    # since bench/prune.py measured it (same coverage, fewer solver calls, less time)
    solve_first: bool = True
    # extra tests from runs on longer inputs than the loop bound reaches (engine/probes.py)
    long_probes: int = 3
    # extra tests at and beside the constants int parameters are compared with (solver/boundaries.py)
    edge_tests: int = 3
    # calls answered by the callee's summary (engine/summaries.py): off, on-demand or bottom-up
    compose: str = _ENGINE.compose
    summaries: str = ".pathcraft/summaries"  # where composition keeps summaries across runs ("" for nowhere)
    # files of models of library functions pathcraft cannot read (frontend/natives.py)
    native_summaries: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()  # a package target: files and folders not to test (fnmatch, from its root)
    # a package target: each function's search split this many choices down, the parts on several workers
    split_depth: int = 0

    def generate_options(self) -> GenerateOptions:
        """Parse and check every setting (bad ones raise PathcraftError)."""
        if self.heap not in HEAP_MODELS:
            raise PathcraftError(f"unknown heap model '{self.heap}' ({', '.join(HEAP_MODELS)})")
        if self.search not in SEARCHERS:
            raise PathcraftError(f"unknown search strategy '{self.search}' ({' or '.join(SEARCHERS)})")
        if self.format not in FORMATS:
            raise PathcraftError(f"unknown format '{self.format}' ({' or '.join(FORMATS)})")
        if self.item_search not in ITEM_SEARCHES:
            raise PathcraftError(f"unknown item search '{self.item_search}' ({' or '.join(ITEM_SEARCHES)})")
        if self.compose not in COMPOSE_MODES:
            raise PathcraftError(f"unknown compose mode '{self.compose}' ({', '.join(COMPOSE_MODES)})")
        if self.objects not in OBJECTS:
            raise PathcraftError(f"unknown objects mode '{self.objects}' ({' or '.join(OBJECTS)})")
        for setting, value, least in (("timeout", self.timeout, None), ("max_paths", self.max_paths, 1),
                                      ("max_list_length", self.max_list_length, 0),
                                      ("solver_timeout_ms", self.solver_timeout_ms, 1),
                                      ("setup_calls", self.setup_calls, 0),
                                      ("max_call_depth", self.max_call_depth, 0),
                                      ("concolic_samples", self.concolic_samples, 1),
                                      ("long_probes", self.long_probes, 0),
                                      ("edge_tests", self.edge_tests, 0),
                                      ("split_depth", self.split_depth, 0)):
            if value is None:
                continue
            if least is None and not value > 0:
                raise PathcraftError(f"{setting} must be a positive number of seconds, not {value}")
            if least is not None and value < least:
                raise PathcraftError(f"{setting} must be at least {least}, not {value}")
        for invariant in self.invariants:
            owner, dot, method = invariant.partition(".")
            if not (dot and owner.isidentifier() and method.isidentifier()):
                raise PathcraftError(f"invariant '{invariant}': expected Class.method")
        parts = [p.strip() for p in self.criterion.split(",")]
        selections = [p for p in parts if p in SELECTIONS]
        if len(selections) > 1:
            raise PathcraftError(f"bad criterion '{self.criterion}': one selection criterion at a time")
        bounds = ",".join(p for p in parts if p not in SELECTIONS) or str(_ENGINE.criterion)
        if selections and not any(p.startswith("loop-") for p in bounds.split(",")):
            raise PathcraftError(f"bad criterion '{self.criterion}': {selections[0]} bounds the loops of its "
                                 "traces with loop-K (add loop-K, e.g. 'all-local-paths,loop-2')")
        if self.compose != "off" and not compositional(parse_criterion(bounds)):
            raise PathcraftError(f"compose {self.compose} needs loop-K criteria: block-K, depth-K and calls-K "
                                 "count along the whole path, so a callee's summary would not say what they "
                                 "say inside it (give --compose off)")
        by_items = bool(selections) and selections[0] in ("statements", "branches")
        if self.max_call_depth is not None and not (by_items and self.item_search == "paths" and self.unit):
            raise PathcraftError("max_call_depth prunes the paths item search in unit mode: give it with "
                                 "criterion statements or branches and item_search paths")
        engine = EngineOptions(
            criterion=parse_criterion(bounds),
            search=self.search,
            solver=SolverOptions(timeout_ms=self.solver_timeout_ms),
            max_paths=self.max_paths,
            heap=self.heap,
            max_list_length=self.max_list_length,
            size_model=parse_size_model(self.size_model),
            concolic=self.concolic_samples if self.concolic else 0,
            solve_first=self.solve_first,
            compose=self.compose,
            summary_store=self.summaries or None,
        )
        return GenerateOptions(
            engine=engine,
            exceptions=self.exceptions,
            timeout=self.timeout,
            assume=self.assume,
            costs=tuple(parse_cost_list(self.costs)) if self.costs else (),
            policies=tuple(parse_policy(p) for p in self.policy),
            invariants=self.invariants,
            objects=self.objects,
            setup_calls=self.setup_calls,
            select=selections[0] if selections else None,
            refine=self.refine,
            resource_driven=self.resource_driven,
            item_search=self.item_search,
            look_ahead=self.look_ahead,
            unit=self.unit,
            max_call_depth=self.max_call_depth,
            long_probes=self.long_probes,
            edge_tests=self.edge_tests,
        )


# settings the file may hold, and the Python types their values may have
FILE_KEYS: dict[str, tuple[type, ...]] = {
    "criterion": (str,), "format": (str,), "exceptions": (bool,), "timeout": (int, float),
    "search": (str,), "solver_timeout_ms": (int,), "heap": (str,), "size_model": (str,),
    "assume": (list,), "max_list_length": (int,), "max_paths": (int,), "costs": (str,), "policy": (list,),
    "invariants": (list,),
    "objects": (str,), "setup_calls": (int,), "refine": (bool,), "resource_driven": (bool,),
    "item_search": (str,), "look_ahead": (bool,), "unit": (bool,), "max_call_depth": (int,),
    "concolic": (bool,), "concolic_samples": (int,), "solve_first": (bool,),
    "long_probes": (int,), "edge_tests": (int,), "compose": (str,), "summaries": (str,),
    "native_summaries": (list,), "exclude": (list,), "split_depth": (int,),
}
# settings whose command-line and file values add up instead of overriding
_CUMULATIVE = ("assume", "policy", "invariants", "native_summaries", "exclude")


@dataclass(frozen=True)
class FileConfig:
    source: str | None
    values: dict[str, Any]

    def get(self, key: str, default: Any) -> Any:
        return self.values.get(key, default)


def find_pyproject(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_config(start: Path | None = None) -> FileConfig:
    path = find_pyproject((start or Path.cwd()).resolve())
    if path is None:
        return FileConfig(None, {})
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise PathcraftError(f"{path}: cannot read [tool.pathcraft]: {exc}") from None
    section = data.get("tool", {}).get("pathcraft", {})
    for key, value in section.items():
        if key not in FILE_KEYS:
            raise PathcraftError(f"{path}: unknown setting '{key}' in [tool.pathcraft]")
        allowed = FILE_KEYS[key]
        if not isinstance(value, allowed) or (bool not in allowed and isinstance(value, bool)):
            raise PathcraftError(f"{path}: setting '{key}' in [tool.pathcraft] has the wrong type")
    natives = section.get("native_summaries")
    if natives is not None:
        if not all(isinstance(n, str) for n in natives):
            raise PathcraftError(f"{path}: setting 'native_summaries' in [tool.pathcraft] is a list of file names")
        section = {**section, "native_summaries": [str(path.parent / n) for n in natives]}  # beside pyproject.toml
    return FileConfig(str(path), dict(section))


def settings_of(data: Mapping[str, Any]) -> Settings:
    """Settings back from their JSON form (lists were tuples); TypeError
    for a key that is no setting."""
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    return Settings(**values)


def settings_from(file: FileConfig, cli: Mapping[str, Any]) -> Settings:
    """Layer the sources: a command-line value (not None) wins over the
    file, the file over the default; `assume` and `policy` add up."""
    chosen: dict[str, Any] = {}
    for spec in fields(Settings):
        name = spec.name
        from_cli, from_file = cli.get(name), file.values.get(name)
        if name in _CUMULATIVE:
            combined = tuple(from_cli or ()) + tuple(from_file or ())
            if combined:
                chosen[name] = combined
        elif from_cli is not None:
            chosen[name] = from_cli
        elif from_file is not None:
            chosen[name] = from_file
    unknown = set(cli) - {f.name for f in fields(Settings)}
    assert not unknown, f"command-line settings without a default: {unknown}"
    return Settings(**chosen)


__all__ = ["FileConfig", "Settings", "load_config", "settings_from"]
