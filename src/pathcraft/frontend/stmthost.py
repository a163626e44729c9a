"""What the statement rules see of the function lowerer, and the control
context they share (the loops and `finally` bodies around a statement).

The rules (`statements.py` by AST node type, and the lowering of
comprehensions, generator expressions and key functions) are functions
of a `StatementLowering`: the function's facts, the blocks, the
expression lowerer, the control context, and the few operations that
need the whole lowerer (`statements`, `nested_function`). A protocol, not
an import of `lower.py`, keeps the rules below the class that owns them.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from pathcraft.frontend.closures import NestedFunction
from pathcraft.frontend.exprhost import CallsMade, ExprLowering
from pathcraft.frontend.sink import FunctionBlocks
from pathcraft.frontend.source import ModuleSource
from pathcraft.ir.nodes import Const, FunctionInfo, ListOp, Mark, Predicate, Var


@dataclass
class Loop:
    """A loop around the statement: where `continue` and `break` go."""

    header: str
    after: str
    line: int
    finally_depth: int
    iterator: str | None = None  # the iterator a `for` walks, closed where the loop stops early
    fresh: bool = False  # made by the `for` itself (a call): the loop holds the only reference


@dataclass
class Finally:
    """A `finally` body around the statement, copied onto each way out."""

    body: list[ast.stmt]
    handler: str | None
    handled: list[str]


def close(iterator: str, fresh: bool, line: int) -> ListOp:
    """Close what a loop left early walks: a generator only the loop refers
    to (`fresh`, or made for the loop by its object's `__iter__`)."""
    return ListOp("close", None, Var(iterator), (Const(fresh),), line)


def makes_fresh(iterable: ast.expr) -> bool:
    """Is the value a `for` walks made there (a call's result), so that
    nothing but the loop refers to it? A name, attribute or item may share it."""
    return not isinstance(iterable, (ast.Name, ast.Attribute, ast.Subscript))


class StatementLowering(Protocol):
    """The function lowerer as its rules use it (see `FunctionLowerer`)."""

    loops: list[Loop]
    finallies: list[Finally]
    handled: list[str]
    caught: list[str]

    @property
    def module(self) -> ModuleSource: ...

    @property
    def info(self) -> FunctionInfo: ...

    @property
    def locals(self) -> frozenset[str]: ...

    @property
    def signatures(self) -> Mapping[str, FunctionInfo]: ...

    @property
    def blocks(self) -> FunctionBlocks: ...

    @property
    def calls(self) -> CallsMade: ...

    @property
    def expressions(self) -> ExprLowering: ...

    @property
    def walks_iterators(self) -> bool: ...

    @property
    def try_yields(self) -> set[int]: ...

    @property
    def own(self) -> Mapping[str, NestedFunction]: ...

    @property
    def nested(self) -> dict[str, Predicate]: ...

    def error(self, node: ast.AST, what: str) -> Exception: ...

    def statements(self, stmts: list[ast.stmt]) -> None: ...

    def captures_of(self, names: set[str]) -> set[str]: ...

    def nested_function(self, fn: ast.FunctionDef, info: FunctionInfo, line: int, *, entry_mark: bool,
                        builtin: bool, handler: str | None = None, marks: bool = True,
                        helpers: Mapping[str, FunctionInfo] | None = None) -> Mark: ...
