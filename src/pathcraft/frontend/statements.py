"""Statements, dispatched by AST node type to their lowering rule.

Why a table: the function lowerer looks a statement's type up here
instead of a method per type on itself; each rule is a function of the
lowerer (as a `StatementLowering`) and the statement, in the module of
its kind (assignments, loops, `try`, branches, plain statements), and a
statement with no row is refused with its location.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from pathcraft.frontend import stmt_assign, stmt_flow, stmt_loops, stmt_simple, stmt_try, stmt_with
from pathcraft.frontend.stmthost import StatementLowering

StatementRule = Callable[[StatementLowering, Any], None]

STATEMENTS: dict[type[ast.stmt], StatementRule] = {
    ast.Pass: stmt_simple.pass_statement,
    ast.Expr: stmt_simple.expression_statement,
    ast.FunctionDef: stmt_simple.function_def,
    ast.Assign: stmt_assign.assign,
    ast.AnnAssign: stmt_assign.ann_assign,
    ast.AugAssign: stmt_assign.aug_assign,
    ast.Delete: stmt_assign.delete,
    ast.Return: stmt_flow.return_statement,
    ast.Raise: stmt_flow.raise_statement,
    ast.Assert: stmt_flow.assert_statement,
    ast.If: stmt_flow.if_statement,
    ast.While: stmt_loops.while_loop,
    ast.For: stmt_loops.for_loop,
    ast.Break: stmt_loops.break_loop,
    ast.Continue: stmt_loops.continue_loop,
    ast.Try: stmt_try.try_statement,
    ast.With: stmt_with.with_statement,
    stmt_with.WithLine: stmt_with.with_line,
    stmt_with.Nothing: stmt_with.nothing,
    stmt_with.ExitCall: stmt_with.exit_call,
}
