"""Names of the predicates that stand for builtin methods and functions
written in the prelude (`frontend/prelude`): the frontend emits calls to
them and the engine dispatches to them, so both read the names here."""

from __future__ import annotations

PREFIX = "$"

# Methods the frontend calls for syntax and builtins (`x in c`, `c[a:b]`,
# `list(c)`), dispatched on the receiver's kind. A class would define
# `__contains__` itself; the other two no class defines. Where a receiver
# has none, Python raises TypeError (None, an int) or uses a protocol the
# model does not follow (an object's `__iter__`/`__getitem__`).
CONTAINS = "__contains__"
SLICE_PROTOCOL = "__getslice__"
LIST_PROTOCOL = "__list__"
PROTOCOLS = (CONTAINS, SLICE_PROTOCOL, LIST_PROTOCOL)


def method_predicate(kind: str, method: str) -> str:
    """The entry predicate of method `method` of builtin type `kind`
    (`$list.index`); it may not exist."""
    return f"{PREFIX}{kind}.{method}"


def function_predicate(name: str) -> str:
    """The entry predicate of the prelude's builtin function `name` (`$any`)."""
    return f"{PREFIX}{name}"
