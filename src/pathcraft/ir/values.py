"""Values every layer may hold: a raised exception.

It lives at the bottom of the layers because the heap models raise
Python's exceptions (`IndexError`, `AttributeError`) as well as the engine.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class ExcValue:
    """A raised exception: its class name and its message (None when the
    message is not certain, so the test does not assert it). Also an
    exception object as a value, and a regex match (type `re.Match`,
    models/re): objects the model tests only for truth and for None."""

    type: str
    message: str | None


# exceptions of standard-library modules a model raises: name -> (its module, its builtin base)
STDLIB_EXCEPTIONS = {"FrozenInstanceError": ("dataclasses", "AttributeError")}


def exception_is_a(name: str, base: str, user_bases: Mapping[str, tuple[str, ...]]) -> bool:
    """`issubclass(name, base)` for builtin, module-defined and
    `STDLIB_EXCEPTIONS` exception names."""
    if name == base:
        return True
    if name in user_bases:
        return any(exception_is_a(b, base, user_bases) for b in user_bases[name])
    if name in STDLIB_EXCEPTIONS:
        return exception_is_a(STDLIB_EXCEPTIONS[name][1], base, user_bases)
    cls, target = getattr(builtins, name, None), getattr(builtins, base, None)
    if isinstance(cls, type) and isinstance(target, type):
        return issubclass(cls, target)
    return False
