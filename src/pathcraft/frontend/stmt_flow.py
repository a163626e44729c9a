"""Statements that branch or leave: `if`/`elif`/`else`, `return`,
`raise`, `assert`.

Why together: each ends or splits the current block, and `return` runs
the `finally` bodies and closes the loops' iterators it leaves through.
"""

from __future__ import annotations

import ast

from pathcraft.frontend import excvalues
from pathcraft.frontend.blocks import BlockBuilder
from pathcraft.frontend.stmt_try import leave_finallies
from pathcraft.frontend.stmthost import StatementLowering, close
from pathcraft.ir.nodes import Assign, Const, Mark, Raise, Return, Var


def return_statement(lw: StatementLowering, s: ast.Return) -> None:
    lw.blocks.emit(Mark(s.lineno))
    value = lw.expressions.expr(s.value) if s.value is not None else Const(None)
    # the value first, then the loops' iterators, innermost first
    if any(loop.iterator is not None for loop in lw.loops) and not lw.finallies:
        value = lw.blocks.stable(value, s.lineno, across_statements=True)
        for loop in reversed(lw.loops):
            if loop.iterator is not None:
                lw.blocks.emit(close(loop.iterator, loop.fresh, s.lineno))
    if lw.finallies:
        tmp = lw.blocks.temp("ret")
        lw.blocks.emit(Assign(tmp, value, s.lineno))
        value = Var(tmp)
        leave_finallies(lw, 0)
        if lw.blocks.current is None:
            return
    lw.blocks.close(Return(value, s.lineno))


def raise_statement(lw: StatementLowering, s: ast.Raise) -> None:
    lw.blocks.emit(Mark(s.lineno))
    if s.cause is not None and not (isinstance(s.cause, ast.Constant) and s.cause.value is None
                                    or isinstance(s.cause, ast.Name) and s.cause.id in lw.caught
                                    and not _rebinds(lw, s.cause.id)):
        raise lw.error(s.cause, "raise ... from ... other than None or the exception being handled")
    lw.blocks.close(raise_of(lw, s.exc, s))  # the cause sets __cause__ only: no part of the claim


def raise_of(lw: StatementLowering, exc: ast.expr | None, s: ast.stmt) -> Raise:
    if exc is None:
        if not lw.handled:
            raise lw.error(s, "bare 'raise' outside an except block")
        return Raise(None, None, s.lineno, reraise=lw.handled[-1])
    if isinstance(exc, ast.Name) and exc.id in lw.locals:
        return Raise(None, None, s.lineno, reraise=exc.id)
    call = exc if isinstance(exc, ast.Call) else None
    name = exc.func if isinstance(exc, ast.Call) else exc
    if isinstance(name, ast.Name) and lw.module.is_exception(name.id):
        made = excvalues.made_exception(lw.expressions, name.id, call, s.lineno)
        return Raise(made.exc_type, made.message, s.lineno, message_var=made.message_var)
    if isinstance(exc, ast.Name):
        raise lw.error(exc, "raise of anything but an exception class")
    # `raise self._invalid(msg)`, `raise errors[0]`: the value raised, an exception made elsewhere
    value = lw.blocks.temp("exc")
    lw.blocks.emit(Assign(value, lw.expressions.expr(exc), s.lineno))
    return Raise(None, None, s.lineno, reraise=value)


def assert_statement(lw: StatementLowering, s: ast.Assert) -> None:
    lw.blocks.emit(Mark(s.lineno))
    message: str | None = None
    if s.msg is not None:
        if isinstance(s.msg, ast.Constant) and isinstance(s.msg.value, str):
            message = s.msg.value
        elif not excvalues.plain_message(s.msg):
            raise lw.error(s.msg, "assert message other than a string or an f-string")
    ok, fail = lw.blocks.new_block("assert_ok"), lw.blocks.new_block("assert_fail")
    lw.expressions.condition(s.test, ok, fail)
    lw.blocks.enter(fail)
    lw.blocks.close(Raise("AssertionError", message, s.lineno))
    lw.blocks.resume(ok)


def if_statement(lw: StatementLowering, s: ast.If) -> None:
    """`if/elif/else`. An `elif` is an `If` alone in the `orelse` of the
    one before, so a 1000-branch chain is 1000 nested nodes: it is
    walked in a loop, making the same blocks in the same order as
    lowering each `elif` as a statement of its `else` would."""
    joins: list[BlockBuilder] = []
    node: ast.If | None = s
    while node is not None:
        lw.blocks.emit(Mark(node.lineno))
        then = lw.blocks.new_block("then")
        join = lw.blocks.new_block("join")
        other = lw.blocks.new_block("else") if node.orelse else join
        lw.expressions.condition(node.test, then, other)
        lw.blocks.enter(then)
        lw.statements(node.body)
        lw.blocks.jump(join)
        joins.append(join)
        orelse, node = node.orelse, None
        if orelse:
            lw.blocks.resume(other)
            if len(orelse) == 1 and isinstance(orelse[0], ast.If):
                if lw.blocks.current is not None:  # else the elif is unreachable
                    node = orelse[0]
            else:
                lw.statements(orelse)
    for join in reversed(joins):
        lw.blocks.jump(join)
        lw.blocks.resume(join)


def _rebinds(lw: StatementLowering, name: str) -> bool:
    """Is `name` bound anywhere in the function but by `except ... as name`
    (then `raise ... from name` may be handed something else)?"""
    owner, _, own = lw.info.qualname.rpartition(".")
    fn = lw.module.method(owner, own) if owner else lw.module.functions.get(own)
    return fn is None or any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
                             for n in ast.walk(fn))
