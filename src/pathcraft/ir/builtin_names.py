"""Names of the predicates that stand for builtin methods and functions
written in the prelude (`frontend/prelude`): the frontend emits calls to
them and the engine dispatches to them, so both read the names here."""

from __future__ import annotations

PREFIX = "$"


def method_predicate(kind: str, method: str) -> str:
    """The entry predicate of method `method` of builtin type `kind`
    (`$list.index`); it may not exist."""
    return f"{PREFIX}{kind}.{method}"


def function_predicate(name: str) -> str:
    """The entry predicate of the prelude's builtin function `name` (`$any`)."""
    return f"{PREFIX}{name}"
