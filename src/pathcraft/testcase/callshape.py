"""Calling a real function with its arguments given by parameter name, as
a generated test calls it: by keyword, except positional-only parameters
and, when a `*args` parameter gets items, every parameter before it (by
position, then the items spread); a `**kwargs` dict is spread last. The replay oracles (`pathsig.record`)
and the pytest writer (`emit_pytest.call_text`) agree on it."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any


def call(fn: Callable[..., Any], args: Mapping[str, Any]) -> Any:
    try:
        parameters = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):  # a builtin without a signature
        return fn(**args)
    kinds = {p.name: p.kind for p in parameters}
    star = next((p.name for p in parameters if p.kind is inspect.Parameter.VAR_POSITIONAL), None)
    names = list(args)
    before = set(names[:names.index(star)]) if star is not None and args.get(star) else set()
    positional: list[Any] = []
    keywords: dict[str, Any] = {}
    for name, value in args.items():
        if kinds.get(name) is inspect.Parameter.VAR_KEYWORD:  # `**kwargs`: its dict spread
            keywords.update(value)
        elif name == star:
            positional.extend(value)
        elif kinds.get(name) is inspect.Parameter.POSITIONAL_ONLY or name in before:
            positional.append(value)
        else:
            keywords[name] = value
    return fn(*positional, **keywords)
