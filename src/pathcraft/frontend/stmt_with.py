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
`Nothing`).

Any other manager is an object of a class with `__enter__` and `__exit__`:

    with m as x:             # line L
        body

is lowered as

    <line L>
    manager = m
    x = $enter(manager)      # TypeError unless its class has both methods
    try:
        body
    finally:
        <line L>
        $exit(manager)       # manager.__exit__(None, None, None)

which is what CPython does when the class's `__exit__` never reads the
exception it is given and never returns a true value (it cannot swallow
one): the case of locks, timers and resources released on the way out
(`ClassInfo.quiet_exit`). Another `__exit__` drops the paths that reach
it, as the model has no exception type, value and traceback to give it.
"""

from __future__ import annotations

import ast

from pathcraft.frontend.stmt_assign import store
from pathcraft.frontend.stmthost import StatementLowering
from pathcraft.ir.builtin_names import ENTER_PROTOCOL, EXIT_PROTOCOL
from pathcraft.ir.nodes import Assign, CallMethod, Mark, Var


class WithLine(ast.Pass):
    """The `with` statement's line event (on entry, and at `__exit__`)."""


class Nothing(ast.Pass):
    """A handler that does nothing and reports no line."""


class ExitCall(ast.Pass):
    """`manager.__exit__(None, None, None)` of the manager in temporary `manager`."""

    def __init__(self, manager: str) -> None:
        super().__init__()
        self.manager = manager


def with_statement(lw: StatementLowering, s: ast.With) -> None:
    if len(s.items) != 1:
        raise lw.error(s, "with statement of several managers")
    if not _suppressing(lw, s.items[0]):
        _managed(lw, s)
        return
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


def _managed(lw: StatementLowering, s: ast.With) -> None:
    """`with m as x:` over an object of a class with `__enter__` and `__exit__`."""
    item = s.items[0]
    line = s.lineno
    lw.blocks.emit(Mark(line))
    manager = Var(lw.blocks.temp("manager"))  # held for `$exit`, whatever the expression (`with None:` too)
    lw.blocks.emit(Assign(manager.name, lw.expressions.expr(item.context_expr), line))
    lw.calls.methods_called.update(("__enter__", "__exit__"))
    entered = lw.blocks.temp()
    lw.blocks.emit(CallMethod(entered, manager, ENTER_PROTOCOL, (), line))
    if item.optional_vars is not None:
        store(lw, item.optional_vars, Var(entered), line)
    exiting: list[ast.stmt] = [ast.copy_location(WithLine(), s), ast.copy_location(ExitCall(manager.name), s)]
    lw.statements([ast.copy_location(ast.Try(body=list(s.body), handlers=[], orelse=[], finalbody=exiting), s)])


def exit_call(lw: StatementLowering, s: ExitCall) -> None:
    lw.blocks.emit(CallMethod(None, Var(s.manager), EXIT_PROTOCOL, (), s.lineno))


def with_line(lw: StatementLowering, s: WithLine) -> None:
    lw.blocks.emit(Mark(s.lineno))


def nothing(lw: StatementLowering, s: Nothing) -> None:
    return None
