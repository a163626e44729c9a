"""The line events an expression causes inside its statement.

Why: CPython reports a statement's line again after a call returns into
it (and when an operand starts on another physical line); traces built
from marks are compared with real runs, so these marks must be exact.
"""

from __future__ import annotations

import ast

from pathcraft.frontend.exprhost import CALL_POSITION, ExprLowering
from pathcraft.frontend.linetable import lines_after_calls
from pathcraft.ir.nodes import Mark


def next_operand_line(ex: ExprLowering, operand: ast.expr, following: ast.expr) -> None:
    """`a or\\n b`: the frame moves to another physical line for `b`; the
    tracer reports the statement's line again if a call (a getter) ran
    since its last line event, and the repeat collapses otherwise."""
    if following.lineno != (operand.end_lineno or operand.lineno):
        line = ex.module.statement_lines.get(following.lineno)
        if line is not None and ex.blocks.current is not None:
            ex.blocks.emit(Mark(line, after_call=True))


def line_after_call(ex: ExprLowering, node: ast.Call | ast.Attribute) -> int | None:
    """The statement line CPython reports when `node` returns, if it
    reports one (see frontend/linetable.py)."""
    key = getattr(node, CALL_POSITION, None) or (node.lineno, node.col_offset, node.end_lineno or node.lineno,
                                                 node.end_col_offset or 0)
    following = lines_after_calls(ex.module.path).get(key)
    if following is None:
        return None
    return ex.module.statement_lines.get(following)  # None: a line the tracer does not report (`try:`)
