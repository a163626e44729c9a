"""Statements that only evaluate: `pass`, an expression statement (a
call, `yield`, `yield from`), a nested `def`.

Why: each is a line event and its expression's effects; none changes
the control context.
"""

from __future__ import annotations

import ast

from pathcraft.frontend import displays
from pathcraft.frontend.stmt_loops import STEP, iterate
from pathcraft.frontend.stmthost import StatementLowering
from pathcraft.ir.nodes import Assign, Binary, Const, ListOp, Mark, Var, Yield


def pass_statement(lw: StatementLowering, s: ast.Pass) -> None:
    lw.blocks.emit(Mark(s.lineno))


def expression_statement(lw: StatementLowering, s: ast.Expr) -> None:
    lw.blocks.emit(Mark(s.lineno))
    if isinstance(s.value, ast.Constant):
        return
    if isinstance(s.value, ast.Yield):
        value = lw.expressions.expr(s.value.value) if s.value.value is not None else Const(None)
        lw.blocks.emit(Yield(value, s.lineno, closable=s.lineno not in lw.try_yields))
        return
    if isinstance(s.value, ast.YieldFrom):
        yield_from(lw, s.value, s.lineno)
        return
    if not isinstance(s.value, ast.Call):
        raise lw.error(s.value, "expression statement (only calls)")
    lw.expressions.expr(s.value, discard=True)


def yield_from(lw: StatementLowering, node: ast.YieldFrom, line: int) -> None:
    """`yield from x`: each item of `x`'s iterator yielded in turn, with no
    line event of its own after the first (CPython stays on the line);
    a loop for loop-K. Closing the generator while it delegates is not
    modelled (its yields are not closable)."""
    source = lw.blocks.stable(lw.expressions.expr(node.value), line, across_statements=True)
    length = lw.blocks.temp("n")
    lw.blocks.emit(ListOp("iter", length, source, (), line))
    walked = iterate(lw, source, line)
    assert isinstance(walked, Var)
    counter = lw.blocks.temp("it")
    lw.blocks.emit(Assign(counter, Const(0), line))
    header = lw.blocks.new_block("loop")
    body = lw.blocks.new_block("body", iterates=header.name)
    after = lw.blocks.new_block("exit")
    lw.blocks.jump(header, enters_loop=header.name)
    lw.blocks.enter(header)
    lw.blocks.emit(ListOp("len", length, walked, (STEP,), line))
    lw.blocks.branch(Binary("lt", Var(counter), Var(length)), body, after)
    lw.blocks.resume(body)
    item = lw.blocks.temp()
    lw.blocks.emit(ListOp("get", item, walked, (Var(counter), STEP), line))
    lw.blocks.emit(Assign(counter, Binary("add", Var(counter), Const(1)), line))
    lw.blocks.emit(Yield(Var(item), line, closable=False))
    lw.blocks.jump(header)
    lw.blocks.resume(after)


def function_def(lw: StatementLowering, s: ast.FunctionDef) -> None:
    """A nested `def` makes the function object: a line event, no effect we model."""
    own = lw.own.get(s.name)
    if own is None or own.node is not s:
        raise lw.error(s, "nested function")
    if own.memo is None:
        lw.blocks.emit(Mark(s.lineno))
        return
    # `@cache`: the decorator's line, the def's, the decorator's call, the name's store
    decorator = s.decorator_list[0].lineno
    lw.blocks.emit(Mark(decorator))
    lw.blocks.emit(Mark(s.lineno))
    memo = displays.dict_or_set(lw.expressions, ast.Dict([], [], lineno=decorator))
    lw.blocks.emit(Assign(own.memo, memo, decorator))
    lw.blocks.emit(Mark(decorator))
    lw.blocks.emit(Mark(s.lineno))
