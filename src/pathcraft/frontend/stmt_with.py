"""`with` statements: `contextlib.suppress(E, ...)`, written as the `try`
it equals.

CPython reports the `with` line when it enters the statement and again
when it calls the manager's `__exit__` (after the body, on a `return`,
`break` or `continue` out of it, or when an exception leaves it);
`suppress` is plain Python of another file (no events of the module)
that swallows the exceptions of the given classes. So

    with suppress(E):        # line L
        body

is lowered as

    <line L>
    try:
        try:
            body
        finally:
            <line L>         # __exit__
    except E:
        <nothing>

where the two markers are statements of this module's own (`WithLine`,
`Nothing`). Any other context manager is refused: its `__exit__` takes
the exception's type, value and traceback, which the model does not have.
"""

from __future__ import annotations

import ast

from pathcraft.frontend.stmthost import StatementLowering
from pathcraft.ir.nodes import Mark


class WithLine(ast.Pass):
    """The `with` statement's line event (on entry, and at `__exit__`)."""


class Nothing(ast.Pass):
    """A handler that does nothing and reports no line."""


def with_statement(lw: StatementLowering, s: ast.With) -> None:
    if len(s.items) != 1 or not _suppressing(lw, s.items[0]):
        raise lw.error(s, "with statement (only contextlib.suppress is modelled)")
    item = s.items[0]
    call = item.context_expr
    assert isinstance(call, ast.Call)
    line = s.lineno
    classes = ast.copy_location(ast.Tuple(list(call.args), ast.Load()), call)
    exiting = ast.copy_location(WithLine(), s)
    guarded = ast.copy_location(ast.Try(body=list(s.body), handlers=[], orelse=[], finalbody=[exiting]), s)
    handler = ast.copy_location(ast.ExceptHandler(type=classes, name=None, body=[ast.copy_location(Nothing(), s)]), s)
    lw.blocks.emit(Mark(line))
    lw.statements([ast.copy_location(ast.Try(body=[guarded], handlers=[handler], orelse=[], finalbody=[]), s)])


def _suppressing(lw: StatementLowering, item: ast.withitem) -> bool:
    """`suppress(A, B)` of `contextlib`, its arguments exception classes, no `as`."""
    call = item.context_expr
    return item.optional_vars is None and isinstance(call, ast.Call) and not call.keywords \
        and lw.expressions.stdlib.origin(call.func) == ("contextlib", "suppress") \
        and all(isinstance(a, ast.Name) for a in call.args)


def with_line(lw: StatementLowering, s: WithLine) -> None:
    lw.blocks.emit(Mark(s.lineno))


def nothing(lw: StatementLowering, s: Nothing) -> None:
    return None
