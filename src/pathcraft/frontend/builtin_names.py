"""Names of the predicates that stand for builtin methods and functions
(`$list.index`, `$str.startswith`, `$int`): shared by the prelude, the
str builtins and the expression lowerer without importing each other."""

from __future__ import annotations

PREFIX = "$"


def method_predicate(kind: str, method: str) -> str:
    """The entry predicate of `kind.method` (it may not exist)."""
    return f"{PREFIX}{kind}.{method}"


def function_predicate(name: str) -> str:
    """The entry predicate of the builtin function `name`."""
    return f"{PREFIX}{name}"
