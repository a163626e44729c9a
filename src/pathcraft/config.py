"""Settings from `[tool.pathcraft]` in the nearest pyproject.toml.

Command-line options win over the file; the file wins over defaults.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pathcraft.errors import PathcraftError

KNOWN = {
    "criterion": str,
    "format": str,
    "exceptions": bool,
    "timeout": (int, float),
    "search": str,
    "solver_timeout_ms": int,
    "heap": str,
    "size_model": str,
    "assume": list,
    "max_list_length": int,
}


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
        if key not in KNOWN:
            raise PathcraftError(f"{path}: unknown setting '{key}' in [tool.pathcraft]")
        if not isinstance(value, KNOWN[key]) or (KNOWN[key] is int and isinstance(value, bool)):
            raise PathcraftError(f"{path}: setting '{key}' in [tool.pathcraft] has the wrong type")
    return FileConfig(str(path), dict(section))
