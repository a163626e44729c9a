"""Statements that branch or leave: `if`/`elif`/`else`, `return`,
`raise`, `assert`.

Why together: each ends or splits the current block, and `return` runs
the `finally` bodies and closes the loops' iterators it leaves through.
"""

from __future__ import annotations

import ast

from pathcraft.frontend import usererrors
from pathcraft.frontend.blocks import BlockBuilder
from pathcraft.frontend.stmt_try import leave_finallies
from pathcraft.frontend.stmthost import StatementLowering, close
from pathcraft.ir.nodes import Assign, Const, Mark, Raise, Return, Var
from pathcraft.ir.values import exception_is_a


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
    call_args: list[ast.expr] = []
    call = exc if isinstance(exc, ast.Call) else None
    if isinstance(exc, ast.Call):
        call_args = list(exc.args)
        exc = exc.func
    if not isinstance(exc, ast.Name) or not lw.module.is_exception(exc.id):
        raise lw.error(exc, "raise of anything but an exception class")
    try:
        plan = usererrors.construction(lw.module, exc.id, call)
    except usererrors.NotModelled as why:  # only the paths that raise it are dropped
        _evaluate_arguments(lw, call_args, s)  # what they raise comes first, and is kept
        return Raise("$unsupported", str(why), s.lineno)
    if call is not None and call.keywords:
        if not plan.keywords:
            raise lw.error(call, "keyword arguments to an exception")
        for keyword in call.keywords:  # evaluated for what they may raise; stored on the object only
            lw.blocks.stable(lw.expressions.expr(keyword.value), s.lineno)
    if not plan.message_kept:  # its __init__ or __str__ makes the message: the type alone is claimed
        _evaluate_arguments(lw, call_args, s)
        return Raise(exc.id, None, s.lineno)
    message: str | None = None
    # str(KeyError("k")) is the repr of its argument: "'k'"
    keyish = exception_is_a(exc.id, "KeyError", lw.module.exception_bases)
    if len(call_args) == 1 and isinstance(call_args[0], ast.Constant) \
            and isinstance(call_args[0].value, str):
        message = repr(call_args[0].value) if keyish else call_args[0].value
    elif len(call_args) == 1 and isinstance(call_args[0], ast.Name) and call_args[0].id in lw.locals:
        return Raise(exc.id, None, s.lineno, message_var=None if keyish else call_args[0].id)
    elif len(call_args) == 1 and not isinstance(call_args[0], (ast.Starred, ast.JoinedStr)):
        # `"bad value %d" % x`, `"expected " + name`: evaluated as Python would; the message is claimed
        # when the engine knows the text exactly (a concrete str), else the type alone (engine/flow.py)
        text = lw.blocks.temp("msg")
        lw.blocks.emit(Assign(text, lw.expressions.expr(call_args[0]), s.lineno))
        return Raise(exc.id, None, s.lineno, message_var=None if keyish else text)
    elif call_args and not all(_plain_message(a) for a in call_args):
        raise lw.error(call_args[0], "exception argument other than a string or an f-string")
    return Raise(exc.id, message, s.lineno)


def assert_statement(lw: StatementLowering, s: ast.Assert) -> None:
    lw.blocks.emit(Mark(s.lineno))
    message: str | None = None
    if s.msg is not None:
        if isinstance(s.msg, ast.Constant) and isinstance(s.msg.value, str):
            message = s.msg.value
        elif not _plain_message(s.msg):
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


def _evaluate_arguments(lw: StatementLowering, args: list[ast.expr], s: ast.stmt) -> None:
    """An exception's arguments evaluated for what they may raise, their
    values not needed (a literal, an f-string or a name raises nothing)."""
    for arg in args:
        if isinstance(arg, ast.Starred):
            raise lw.error(arg, "*args in a call")
        if not _plain_message(arg):
            lw.blocks.stable(lw.expressions.expr(arg), s.lineno)


def _plain_message(node: ast.expr) -> bool:
    """A message we need not evaluate: a literal, an f-string or a variable
    (the test then checks the exception type only)."""
    return isinstance(node, (ast.Constant, ast.JoinedStr, ast.Name))
