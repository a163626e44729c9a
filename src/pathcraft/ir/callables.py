"""Callable parameters (see `models/callables/classes.py`): the candidate
functions a test passes, by the model class that stands for each.

Each is a lambda, so that two inputs are two objects as the model has
them (`bool` itself would be one object for both), written in the test as
`SOURCES` gives and built for replays by `real`; a test checks the two
tables agree with `classes.py`.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

# the module a model's `STANDS_FOR` names, and the names a module with a callable parameter imports from it
MODEL_MODULE = "pathcraft.callables"
MODEL_NAMES = ("PathcraftCallable", "PathcraftPredicate", "PathcraftIdentity", "PathcraftTruth", "PathcraftNegation")
# the abstract classes a callable parameter is typed with
CALLABLE = "PathcraftCallable"
PREDICATE = "PathcraftPredicate"
ROOTS = frozenset({CALLABLE, PREDICATE})
# concrete candidates under each root, in the order their paths are tried
CANDIDATES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    CALLABLE: ("PathcraftIdentity", "PathcraftNegation"),  # the item itself, and a bool
    PREDICATE: ("PathcraftTruth", "PathcraftNegation"),
})
SOURCES: Mapping[str, str] = MappingProxyType({
    "PathcraftIdentity": "lambda x: x",
    "PathcraftTruth": "lambda x: bool(x)",
    "PathcraftNegation": "lambda x: not x",
})


_MADE: weakref.WeakKeyDictionary[Callable[[Any], Any], str] = weakref.WeakKeyDictionary()


def real(cls: str) -> Callable[[Any], Any]:
    """A fresh function for model class `cls` (a replay's input)."""
    made: Callable[[Any], Any]
    if cls == "PathcraftIdentity":
        made = lambda x: x  # noqa: E731
    elif cls == "PathcraftTruth":
        made = lambda x: bool(x)  # noqa: E731
    else:
        assert cls == "PathcraftNegation", cls
        made = lambda x: not x  # noqa: E731
    _MADE[made] = cls
    return made


def made_as(function: object) -> str | None:
    """The model class `real` made `function` for, if it made it (a
    replay's snapshot describes it as the engine does)."""
    if not callable(function):
        return None
    try:
        return _MADE.get(function)
    except TypeError:  # not weakly referable: made elsewhere
        return None
