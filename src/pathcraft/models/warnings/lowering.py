"""`warnings.warn(message, Category)` lowered: a recorded event of the
path, not a refusal.

The category is read off the call as written (a builtin warning class, or
a class of the module whose chain reaches one): `$warn(category,
message)` records it with the message on the path (models/warnings/
semantics.py), and the path's test states it with `pytest.warns`. A
category the model cannot name, `stacklevel` computed at run time, a
`Warning` instance as the message or other keywords drop the path.
"""

from __future__ import annotations

import ast
import builtins

from pathcraft.ir.builtin_names import UNSUPPORTED, function_predicate
from pathcraft.ir.nodes import Const, Predicate, Raise, Return, Rule

WARN = function_predicate("warn")
_KEYWORDS = ("message", "category", "stacklevel", "source", "skip_file_prefixes")


def builtin_category(name: str) -> bool:
    """Is `name` a builtin warning class (`DeprecationWarning`, `Warning`)?"""
    found = getattr(builtins, name, None)
    return isinstance(found, type) and issubclass(found, Warning)


def warn_arguments(node: ast.Call) -> tuple[ast.expr, ast.expr | None] | None:
    """The message and category of `warn(...)` as written (None for the
    category: `UserWarning`), or None for a form the model does not take."""
    if any(isinstance(a, ast.Starred) for a in node.args) or len(node.args) > 3 \
            or any(k.arg not in _KEYWORDS for k in node.keywords):
        return None
    given = dict(zip(_KEYWORDS, node.args)) | {str(k.arg): k.value for k in node.keywords}
    if "message" not in given or "source" in given or "skip_file_prefixes" in given:
        return None
    level = given.get("stacklevel")
    if level is not None and not (isinstance(level, ast.Constant) and type(level.value) is int):
        return None
    return given["message"], given.get("category")


def warning_predicates() -> dict[str, Predicate]:
    """`$warn(category, message)`: answered by the model; what it does not
    answer (a message that is no str) drops the path."""
    rule = Rule(1, None, (Raise(UNSUPPORTED, "warnings.warn() with a message that is no str", 0),
                          Return(Const(None), 0)))
    return {WARN: Predicate(WARN, WARN, ("category", "message"), (rule,), builtin=True)}
