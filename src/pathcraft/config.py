"""Settings, layered: the command line over `[tool.pathcraft]` in the
nearest pyproject.toml over the defaults.

The settings are declared in settings.py (name, type, default, checks);
this module reads `[tool.pathcraft]` against those declarations,
`settings_from` layers the sources, and `Settings.generate_options` parses
the strings into the structured options a run uses.
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
from pathcraft.engine.summaries import compositional
from pathcraft.errors import PathcraftError
from pathcraft.generate import SELECTIONS, GenerateOptions
from pathcraft.settings import DEFAULTS, SETTINGS, SettingValues
from pathcraft.solver.chain import SolverOptions
from pathcraft.testcase.writers import FORMATS as WRITERS

FORMATS = tuple(WRITERS)  # the output formats by name (testcase/writers.py); settings.Format lists the same

class Settings(SettingValues):
    """The settings (declared in settings.py), and how a run reads them.

    The parsing lives here, not beside the declarations: it needs the
    engine, and the engine takes its defaults from the declarations."""

    def resolved_comments(self) -> str:
        """`--comments auto`: full with `--suite all`, path with `--suite compact`."""
        if self.comments != "auto":
            return self.comments
        return "path" if self.suite == "compact" else "full"

    def generate_options(self) -> GenerateOptions:
        """Parse and check every setting (bad ones raise PathcraftError)."""
        _check(self)
        parts = [p.strip() for p in self.criterion.split(",")]
        selections = [p for p in parts if p in SELECTIONS]
        if len(selections) > 1:
            raise PathcraftError(f"bad criterion '{self.criterion}': one selection criterion at a time")
        bounds = ",".join(p for p in parts if p not in SELECTIONS) or DEFAULTS.criterion
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


def _check(settings: SettingValues) -> None:
    """Each value against its declaration: the choices first, then the
    bounds, then the invariants' spelling."""
    for option in sorted(SETTINGS, key=lambda o: not o.choices):
        problem = option.check(getattr(settings, option.name))
        if problem is not None:
            raise PathcraftError(problem)
    for invariant in settings.invariants:
        owner, dot, method = invariant.partition(".")
        if not (dot and owner.isidentifier() and method.isidentifier()):
            raise PathcraftError(f"invariant '{invariant}': expected Class.method")


# settings the file may hold, and the Python types their values may have
FILE_KEYS: dict[str, tuple[type, ...]] = {o.name: o.file_types() for o in SETTINGS}
# settings whose command-line and file values add up instead of overriding
_CUMULATIVE = tuple(o.name for o in SETTINGS if o.declaration.cumulative)


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
