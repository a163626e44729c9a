"""What a call leaves behind in the analysed package's modules (in the worker).

An observed test runs under pytest beside the other tests of the package,
in one process. A call that changes a module's state -- registers a scheme
in a module-level table, rebinds a global, sets a class attribute -- would
change the outcome of the tests that run after its test: the search runs
each function in a worker of its own and would never see it. So a call
whose footprint differs before and after is no observation.

The random module's shared generator is part of the footprint too: a call
that draws from it returns what the generator's state gives, which
pytest's process does not fix (a fresh worker may agree by chance: one
time in six for two items drawn from four).

The footprint of a module is, for each of its globals and for each
attribute of the classes it defines, the identity of the value and, for a
dict, list, set or bytearray, the identities of what it holds (so a key
added, a value replaced, an item appended show). What it does not see: a
change inside a container held by a container, a change to an object's
attributes other than a class's, a cache inside a function object (such
as `functools.lru_cache`'s, which changes no outcome).
"""

from __future__ import annotations

import os
import random
import sys
from types import ModuleType
from typing import Any

MAX_HELD = 10_000  # items of one container compared one by one (a larger one by its length)


def package_files(module: ModuleType) -> str:
    """The folder (or, for a module outside a package, the file) whose
    modules count as the analysed package's."""
    top = sys.modules.get(module.__name__.partition(".")[0], module)
    where = getattr(top, "__file__", None) or getattr(module, "__file__", None) or ""
    return os.path.dirname(where) + os.sep if os.path.basename(where) == "__init__.py" else where


def footprint(files: str) -> dict[str, Any]:
    """The footprint of each module loaded from `files`, and the random
    module's generator (see the module docstring)."""
    out: dict[str, Any] = {"random": {"the shared generator": random.getstate()}}
    for name, module in list(sys.modules.items()):
        where = getattr(module, "__file__", None)
        if not files or not isinstance(where, str) or not where.startswith(files):
            continue
        try:
            out[name] = _of_namespace(vars(module), module.__name__)
        except Exception:  # noqa: BLE001  (a module whose namespace cannot be read: not watched)
            continue
    return out


def changed(before: dict[str, Any], after: dict[str, Any]) -> str | None:
    """`module.name` of the first thing that differs, or None."""
    for module, state in after.items():
        old = before.get(module)
        if old is None or old == state:
            continue
        for name in sorted(set(old) | set(state)):
            if old.get(name) != state.get(name):
                return f"{module}.{name}"
    return None


def _of_namespace(namespace: dict[str, Any], module: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in list(namespace.items()):
        if name.startswith("__") and name.endswith("__"):
            continue
        out[name] = (id(value), _held(value))
        if isinstance(value, type) and getattr(value, "__module__", None) == module:
            for attribute, held in list(vars(value).items()):
                if not (attribute.startswith("__") and attribute.endswith("__")):
                    out[f"{name}.{attribute}"] = (id(held), _held(held))
    return out


def _held(value: object) -> Any:
    """The identities of what a mutable container holds (None for anything else)."""
    if isinstance(value, dict):
        return len(value) if len(value) > MAX_HELD else tuple((id(k), id(v)) for k, v in list(value.items()))
    if isinstance(value, (list, bytearray)):
        return len(value) if len(value) > MAX_HELD else (tuple(map(id, value)) if isinstance(value, list)
                                                          else bytes(value))
    if isinstance(value, set):
        return len(value) if len(value) > MAX_HELD else frozenset(map(id, value))
    return None
