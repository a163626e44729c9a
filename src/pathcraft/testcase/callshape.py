"""Calling a real function with its arguments given by parameter name, as
a generated test calls it: by keyword, except the parameters before a
`*args` parameter that gets items (by position, then the items spread).
The replay oracles (`pathsig.record`) and the pytest writer agree on it."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any


def call(fn: Callable[..., Any], args: Mapping[str, Any]) -> Any:
    star = _varargs(fn)
    if star is None or not args.get(star):
        return fn(**{k: v for k, v in args.items() if k != star})
    names = list(args)
    at = names.index(star)
    positional = [args[k] for k in names[:at]] + list(args[star])
    return fn(*positional, **{k: args[k] for k in names[at + 1:]})


def _varargs(fn: Callable[..., Any]) -> str | None:
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature
        return None
    return next((p.name for p in parameters if p.kind is inspect.Parameter.VAR_POSITIONAL), None)
