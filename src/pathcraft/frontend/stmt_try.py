"""`try`/`except`/`else`/`finally`, and running the `finally` bodies a
`return`, `break` or `continue` leaves through.

Why: handlers are blocks. Every block has a fixed exception handler (the
lexical `try` around it), so entering or leaving a `try` starts a new
block; a `finally` body is copied onto each way out, the exceptional one
raising again.
"""

from __future__ import annotations

import ast

from pathcraft.frontend.blocks import BlockBuilder
from pathcraft.frontend.stmthost import Finally, StatementLowering
from pathcraft.ir.nodes import Assign, BindException, CheckExceptionType, Raise, Var


def leave_finallies(lw: StatementLowering, depth: int) -> None:
    """Run the `finally` bodies above `depth`, innermost first."""
    for index in range(len(lw.finallies) - 1, depth - 1, -1):
        if lw.blocks.current is None:
            return
        inline_finally(lw, index)


def inline_finally(lw: StatementLowering, index: int) -> None:
    ctx = lw.finallies[index]
    saved = (lw.finallies, lw.blocks.handler, lw.handled)
    lw.finallies, lw.handled = lw.finallies[:index], ctx.handled
    if lw.blocks.handler != ctx.handler:
        lw.blocks.handler = ctx.handler
        lw.blocks.fall_into("finally")
    lw.statements(ctx.body)
    lw.finallies, lw.blocks.handler, lw.handled = saved
    if lw.blocks.current is not None and lw.blocks.current.handler != lw.blocks.handler:
        lw.blocks.fall_into("after_finally")


def try_statement(lw: StatementLowering, s: ast.Try) -> None:
    """Handlers are blocks: an exception in the body goes to the `except`
    dispatch block (without clauses, to `finally_exc`), one in a clause
    to `finally_exc` (if any); each normal way out runs its own copy of
    the `finally` body."""
    outer = lw.blocks.handler
    fin_block = lw.blocks.new_block_under("finally_exc", outer) if s.finalbody else None
    handlers_handler = fin_block.name if fin_block else outer
    dispatch = lw.blocks.new_block_under("except", handlers_handler) if s.handlers else None
    body_handler = dispatch.name if dispatch else (fin_block.name if fin_block else outer)
    if fin_block:
        lw.finallies.append(Finally(list(s.finalbody), outer, list(lw.handled)))
    after = lw.blocks.new_block_under("after_try", outer)
    lw.blocks.handler = body_handler
    lw.blocks.fall_into("try")
    lw.statements(s.body)
    lw.blocks.handler = handlers_handler
    if lw.blocks.current is not None:
        lw.blocks.fall_into("else" if s.orelse else "try_done")
        lw.statements(s.orelse)
        exit_try(lw, after, fin_block is not None)
    if dispatch is not None:
        except_clauses(lw, s, dispatch, after, fin_block is not None)
    if fin_block is not None:
        lw.finallies.pop()
        lw.blocks.handler = outer
        exceptional_finally(lw, s, fin_block)
    lw.blocks.handler = outer
    lw.blocks.resume(after)


def except_clauses(lw: StatementLowering, s: ast.Try, dispatch: BlockBuilder, after: BlockBuilder,
                   has_finally: bool) -> None:
    """At `dispatch`, the clauses are tried in order on the exception;
    when none matches it is raised again."""
    lw.blocks.enter(dispatch)
    exc = lw.blocks.temp("exc")
    lw.blocks.emit(BindException(exc))
    for h in s.handlers:
        types = exception_types(lw, h.type)
        matched, rest = lw.blocks.new_block("handler"), lw.blocks.new_block("except")
        lw.blocks.branch(CheckExceptionType(exc, types), matched, rest)
        lw.blocks.enter(matched)
        if h.name:
            lw.blocks.emit(Assign(h.name, Var(exc), h.lineno))
        lw.handled.append(exc)
        lw.caught.append(h.name or "")
        lw.statements(h.body)
        lw.caught.pop()
        lw.handled.pop()
        exit_try(lw, after, has_finally)
        lw.blocks.enter(rest)
    lw.blocks.close(Raise(None, None, s.lineno, reraise=exc))


def exceptional_finally(lw: StatementLowering, s: ast.Try, fin_block: BlockBuilder) -> None:
    """The `finally` body on the way out with an exception, which it
    raises again unless the body leaves by itself (return, break, ...)."""
    lw.blocks.enter(fin_block)
    exc = lw.blocks.temp("exc")
    lw.blocks.emit(BindException(exc))
    lw.handled.append(exc)
    lw.statements(s.finalbody)
    lw.handled.pop()
    if lw.blocks.current is not None:
        lw.blocks.close(Raise(None, None, s.lineno, reraise=exc))


def exit_try(lw: StatementLowering, after: BlockBuilder, has_finally: bool) -> None:
    """Normal completion of a try body, else or handler."""
    if lw.blocks.current is None:
        return
    if has_finally:
        inline_finally(lw, len(lw.finallies) - 1)
    lw.blocks.jump(after)


def exception_types(lw: StatementLowering, node: ast.expr | None) -> tuple[str, ...]:
    if node is None:
        return ("BaseException",)
    names = node.elts if isinstance(node, ast.Tuple) else [node]
    out = []
    for n in names:
        if not isinstance(n, ast.Name) or not lw.module.is_exception(n.id):
            raise lw.error(n, "except clause that names no exception class")
        out.append(n.id)
    return tuple(out)
