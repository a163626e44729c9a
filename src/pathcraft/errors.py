"""User-facing errors. Every message a user can see is built here.

A `PathcraftError` carries an optional source location and renders as one
line, `file:line:col: message`, the way compilers and linters report. The
CLI prints it and exits with status 2; it never shows a traceback.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    path: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


class PathcraftError(Exception):
    """Bad input: the user can fix it, we explain it."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        if self.location is None:
            return self.message
        return f"{self.location}: {self.message}"


class Unsupported(Exception):
    """Raised during the search: a value or heap shape the engine cannot
    model exactly. The path is dropped and counted (never guessed)."""


class UnsupportedError(PathcraftError):
    """A construct outside the analysed subset of Python."""


class TargetError(PathcraftError):
    """The target file or name cannot be found or read."""


def at(path: str, node: ast.AST) -> Location:
    # ast columns are 0-based; editors and compilers count from 1.
    return Location(path, getattr(node, "lineno", 0), getattr(node, "col_offset", -1) + 1)


def unsupported(path: str, node: ast.AST, what: str) -> UnsupportedError:
    return UnsupportedError(f"unsupported {what}", at(path, node))


def unknown_name(path: str, node: ast.AST, name: str) -> UnsupportedError:
    return UnsupportedError(f"unknown name '{name}'", at(path, node))


# ast node class -> what to call it in "unsupported ..." messages
CONSTRUCT_NAMES: dict[str, str] = {
    "Lambda": "lambda",
    "Dict": "dict",
    "DictComp": "dict comprehension",
    "Set": "set",
    "SetComp": "set comprehension",
    "ListComp": "list comprehension",
    "GeneratorExp": "generator expression",
    "Yield": "generator (yield)",
    "YieldFrom": "generator (yield from)",
    "Await": "await",
    "AsyncFunctionDef": "async function",
    "AsyncFor": "async for",
    "AsyncWith": "async with",
    "With": "with statement",
    "FunctionDef": "nested function",
    "ClassDef": "nested class",
    "Global": "global statement",
    "Nonlocal": "nonlocal statement",
    "Delete": "del statement",
    "Import": "import inside a function",
    "ImportFrom": "import inside a function",
    "Match": "match statement",
    "Starred": "starred expression",
    "JoinedStr": "f-string",
    "Subscript": "subscript",
    "Attribute": "attribute access",
    "List": "list",
    "Tuple": "tuple",
    "NamedExpr": "assignment expression (:=)",
    "Slice": "slice",
    "TryStar": "try/except*",
}


def construct_name(node: ast.AST) -> str:
    name = type(node).__name__
    if name == "Constant":
        value = getattr(node, "value", None)
        return f"{type(value).__name__} constant"
    return CONSTRUCT_NAMES.get(name, name)
