"""Lowering expressions and conditions into a function's blocks.

Expressions become pure IR expressions; whatever can branch or fail
(division by a possibly-zero divisor, `abs`, `min`, `max`, `**`, user calls,
heap operations) is emitted as an instruction into a fresh temporary, in
Python's evaluation order. Conditions with `and`/`or`/`not` and chained
comparisons become branch chains: short-circuit is control flow.

`ExpressionLowerer` is a collaborator of the statement lowerer: it works
against the `BlockSink` interface only, and records what the code calls in
a `CallsMade` that its owner passes in. It holds the function's facts; the
rules are functions in their own modules, looked up in tables:
`exprtable.py` by AST node type, `calls.py` and `builtincalls.py` by the
callee, `conditions.py` for branches. They see it as an `ExprLowering`
(`exprhost.py`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

from pathcraft.errors import unsupported
from pathcraft.frontend import conditions, exprtable
from pathcraft.frontend.blocks import BlockBuilder
from pathcraft.frontend.exprhost import CALL_POSITION, CallsMade
from pathcraft.frontend.names import plainly_assigned
from pathcraft.frontend.sink import BlockSink
from pathcraft.frontend.source import ModuleSource
from pathcraft.frontend.stdlib import Stdlib
from pathcraft.ir.nodes import Expr, FunctionInfo
from pathcraft.models.namedtuple.lowering import NamedTupleInfo

__all__ = ["CALL_POSITION", "CallsMade", "ExpressionLowerer"]


class ExpressionLowerer:
    """Lowers the expressions and conditions of one function into `blocks`.

    `signatures` are those of the module's functions and methods (`C.m`):
    a call by name resolves to a function, `C(...)` to `C.__init__`.
    `local_names` are the function's locals (parameters included): any
    other name must be a module constant. `owner` is the class of a method
    (private attribute names are mangled with it). Calls are recorded in
    `calls`, which the caller owns."""

    def __init__(self, blocks: BlockSink, *, module: ModuleSource, fn: ast.FunctionDef, info: FunctionInfo,
                 signatures: Mapping[str, FunctionInfo], local_names: frozenset[str], owner: str | None,
                 calls: CallsMade) -> None:
        self.blocks = blocks
        self.module = module
        self.info = info
        self.signatures = signatures
        self.functions = {q: f for q, f in signatures.items() if "." not in q}
        self.local_names = local_names
        self.owner = owner
        self.calls = calls
        self.reassigned = plainly_assigned(fn)
        # lowers a list comprehension (the statement lowerer's job: it is a loop)
        self.comprehension: Callable[[ast.ListComp | ast.DictComp | ast.SetComp], Expr] | None = None
        # lowers `sum(... for ...)` and the like (a consumer of a generator expression)
        self.generator: Callable[[str, ast.GeneratorExp], Expr] | None = None
        # `sorted(xs, key=f)` and kin (frontend/keyed.py): consumer, items, key, reverse, the call
        self.keyed: Callable[[str, ast.expr, ast.expr, bool, ast.Call], Expr] | None = None
        self.generator_value: Callable[[ast.GeneratorExp], Expr] | None = None  # a genexpr as a value
        self.reduce: Callable[[ast.Call], Expr | None] | None = None  # `functools.reduce(f, xs)` (frontend/reduces.py)
        # `C._make(xs)` of a NamedTuple class (frontend/namedtuple_make.py)
        self.namedtuple_make: Callable[[NamedTupleInfo, ast.Call], Expr | None] | None = None
        # `map(f, xs)` and kin as values: a silent generator (frontend/iterators.py)
        self.iterator_value: Callable[[ast.GeneratorExp], Expr] | None = None
        # nested functions callable here by name: what a call binds, and the captures passed after
        self.nested_calls: Mapping[str, tuple[FunctionInfo, tuple[str, ...]]] = {}
        self.opaque: frozenset[str] = frozenset()  # parameters whose annotations decide nothing
        self.cells: Mapping[str, str] = {}  # cell -> its variable, filled around nested calls (closures.py)
        # a classmethod's `cls`: the class it names (frontend/decorators.py)
        self.class_alias: dict[str, str] = {}
        self.stdlib = Stdlib(self, fn)  # names imported from the standard library (frontend/stdlib.py)

    def error(self, node: ast.AST, what: str) -> Exception:
        return unsupported(self.module.path, node, what)

    def condition(self, node: ast.expr, if_true: BlockBuilder, if_false: BlockBuilder) -> None:
        """Branch to `if_true`/`if_false` on the truth of `node`, short-circuit."""
        conditions.condition(self, node, if_true, if_false)

    def expr(self, node: ast.expr, discard: bool = False) -> Expr:
        """`node` as an IR expression (its effects emitted first); by node type (exprtable.py)."""
        return exprtable.expr(self, node, discard)
