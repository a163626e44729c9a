"""Load a package root whose folder's name is no identifier
(`goodrich-dsap-python`) by its path under an alias, so that its modules'
relative imports reach each other. Used where the analysed code is run:
the replay oracle in pathcraft's process and the sandboxed worker (the
generated tests carry the same steps as text, `frontend/packages.loader_lines`)."""

from __future__ import annotations

import importlib.util
import os
import sys


def register_root(alias: str, folder: str) -> None:
    """Import the root at `folder` as `alias` unless a module so named is loaded."""
    if alias in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(alias, os.path.join(folder, "__init__.py"),
                                                  submodule_search_locations=[folder])
    assert spec is not None and spec.loader is not None
    sys.modules[alias] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sys.modules[alias])
