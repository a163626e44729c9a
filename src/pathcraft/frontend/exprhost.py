"""What the expression rules see of the expression lowerer.

The rules (`exprtable.py` by AST node type, `calls.py` and
`builtincalls.py` by callee) are functions, not methods: each takes the
lowerer as an `ExprLowering`, the facts of the function being lowered
(its module, signature, locals, the block sink to emit into) and three
operations (`expr`, `condition`, `error`). A protocol, not an import of
`expressions.py`, keeps the rules below the class that owns them.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from pathcraft.frontend.blocks import BlockBuilder
from pathcraft.frontend.sink import BlockSink
from pathcraft.frontend.source import ModuleSource
from pathcraft.frontend.stdlib import Stdlib
from pathcraft.ir.nodes import Expr, FunctionInfo
from pathcraft.models.namedtuple.lowering import NamedTupleInfo

CALL_POSITION = "pathcraft_call_position"  # a call's place in the source, kept on copies (lower.py)


@dataclass
class CallsMade:
    """What one function's code calls: the frontend translates these next."""

    callees: set[str] = field(default_factory=set)  # module functions, by name
    methods_called: set[str] = field(default_factory=set)  # dispatched at run time
    classes_built: set[str] = field(default_factory=set)  # instantiated classes


class ExprLowering(Protocol):
    """The expression lowerer as its rules use it (see `ExpressionLowerer`)."""

    @property
    def blocks(self) -> BlockSink: ...

    @property
    def module(self) -> ModuleSource: ...

    @property
    def info(self) -> FunctionInfo: ...

    @property
    def signatures(self) -> Mapping[str, FunctionInfo]: ...

    @property
    def functions(self) -> Mapping[str, FunctionInfo]: ...

    @property
    def local_names(self) -> frozenset[str]: ...

    @property
    def owner(self) -> str | None: ...

    @property
    def calls(self) -> CallsMade: ...

    @property
    def reassigned(self) -> set[str]: ...

    @property
    def stdlib(self) -> Stdlib: ...

    @property
    def class_alias(self) -> Mapping[str, str]: ...

    @property
    def nested_calls(self) -> Mapping[str, tuple[FunctionInfo, tuple[str, ...]]]: ...

    @property
    def opaque(self) -> frozenset[str]: ...

    @property
    def cells(self) -> Mapping[str, str]: ...

    @property
    def comprehension(self) -> Callable[[ast.ListComp | ast.DictComp | ast.SetComp], Expr] | None: ...

    @property
    def generator(self) -> Callable[[str, ast.GeneratorExp], Expr] | None: ...

    @property
    def keyed(self) -> Callable[[str, ast.expr, ast.expr, bool, ast.Call], Expr] | None: ...

    @property
    def generator_value(self) -> Callable[[ast.GeneratorExp], Expr] | None: ...

    @property
    def iterator_value(self) -> Callable[[ast.GeneratorExp], Expr] | None: ...

    @property
    def reduce(self) -> Callable[[ast.Call], Expr | None] | None: ...

    @property
    def namedtuple_make(self) -> Callable[[NamedTupleInfo, ast.Call], Expr | None] | None: ...

    def expr(self, node: ast.expr, discard: bool = False) -> Expr: ...

    def condition(self, node: ast.expr, if_true: BlockBuilder, if_false: BlockBuilder) -> None: ...

    def error(self, node: ast.AST, what: str) -> Exception: ...
