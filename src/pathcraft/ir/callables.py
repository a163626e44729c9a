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
MODEL_NAMES = ("PathcraftCallable", "PathcraftPredicate", "PathcraftIdentity", "PathcraftTruth", "PathcraftNegation",
               "PathcraftCallable2", "PathcraftPredicate2", "PathcraftSum", "PathcraftSecond", "PathcraftLess",
               "PathcraftEqual", "PathcraftNewDict", "PathcraftNewList", "PathcraftNewSet")
# the abstract classes a callable parameter is typed with, by how many arguments its calls give
CALLABLE = "PathcraftCallable"
PREDICATE = "PathcraftPredicate"
CALLABLE2 = "PathcraftCallable2"
PREDICATE2 = "PathcraftPredicate2"
# a factory of no arguments whose default is a builtin container class (`factory=dict`): its own
# model, the one candidate (the default's behaviour)
FACTORIES: Mapping[str, str] = MappingProxyType({
    "dict": "PathcraftNewDict", "list": "PathcraftNewList", "set": "PathcraftNewSet"})
ROOTS: Mapping[str, int] = MappingProxyType({CALLABLE: 1, PREDICATE: 1, CALLABLE2: 2, PREDICATE2: 2,
                                             **{factory: 0 for factory in FACTORIES.values()}})
# concrete candidates under each root, in the order their paths are tried
CANDIDATES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    CALLABLE: ("PathcraftIdentity", "PathcraftNegation"),  # the item itself, and a bool
    PREDICATE: ("PathcraftTruth", "PathcraftNegation"),
    CALLABLE2: ("PathcraftSum", "PathcraftSecond"),  # a combination of both, and one of them
    PREDICATE2: ("PathcraftLess", "PathcraftEqual"),  # an order, and an equivalence
})
SOURCES: Mapping[str, str] = MappingProxyType({
    "PathcraftIdentity": "lambda x: x",
    "PathcraftTruth": "lambda x: bool(x)",
    "PathcraftNegation": "lambda x: not x",
    "PathcraftSum": "lambda x, y: x + y",
    "PathcraftSecond": "lambda x, y: y",
    "PathcraftLess": "lambda x, y: x < y",
    "PathcraftEqual": "lambda x, y: x == y",
    "PathcraftNewDict": "lambda: {}",
    "PathcraftNewList": "lambda: []",
    "PathcraftNewSet": "lambda: set()",
})


def root(arity: int, predicate: bool) -> str:
    """The model class of a callable parameter whose calls give `arity`
    arguments (1 or 2), and whose results are only tested for truth."""
    if arity == 2:
        return PREDICATE2 if predicate else CALLABLE2
    return PREDICATE if predicate else CALLABLE


_MADE: weakref.WeakKeyDictionary[Callable[..., Any], str] = weakref.WeakKeyDictionary()
_MAKERS: Mapping[str, Callable[[], Callable[..., Any]]] = MappingProxyType({
    "PathcraftIdentity": lambda: lambda x: x,
    "PathcraftTruth": lambda: lambda x: bool(x),
    "PathcraftNegation": lambda: lambda x: not x,
    "PathcraftSum": lambda: lambda x, y: x + y,
    "PathcraftSecond": lambda: lambda x, y: y,
    "PathcraftLess": lambda: lambda x, y: x < y,
    "PathcraftEqual": lambda: lambda x, y: x == y,
    "PathcraftNewDict": lambda: lambda: {},
    "PathcraftNewList": lambda: lambda: [],
    "PathcraftNewSet": lambda: lambda: set(),
})


def real(cls: str) -> Callable[..., Any]:
    """A fresh function for model class `cls` (a replay's input)."""
    made = _MAKERS[cls]()
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
