"""Conditions and the values that need control flow.

Why: short-circuit is control flow. `a and b`, `not`, chained comparisons
and `x if c else y` become branch chains between blocks, and a value that
may be an object asks its class's `__bool__`/`__len__` for its truth.
"""

from __future__ import annotations

import ast

from pathcraft.frontend import comparisons, exprlines
from pathcraft.frontend.blocks import BlockBuilder
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.ir.nodes import Assign, Binary, Const, Expr, ListOp, Unary, Var

# builtins whose result is never an object of the module's classes
_NO_OBJECTS = frozenset({"isinstance", "issubclass", "len", "bool", "int", "float", "str", "any", "all", "callable",
                         "hasattr", "abs", "round", "ord", "chr", "sorted", "list", "tuple",
                         "dict", "set", "divmod", "pow", "bin", "hex", "oct", "repr", "hash", "id"})


def condition(ex: ExprLowering, node: ast.expr, if_true: BlockBuilder, if_false: BlockBuilder) -> None:
    """Branch to `if_true`/`if_false` on the truth of `node`, short-circuit."""
    if isinstance(node, ast.BoolOp):
        for operand, following in zip(node.values, node.values[1:]):
            middle = ex.blocks.new_block("and" if isinstance(node.op, ast.And) else "or")
            if isinstance(node.op, ast.And):
                condition(ex, operand, middle, if_false)
            else:
                condition(ex, operand, if_true, middle)
            ex.blocks.resume(middle)
            if ex.blocks.current is None:
                return
            exprlines.next_operand_line(ex, operand, following)
        condition(ex, node.values[-1], if_true, if_false)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        condition(ex, node.operand, if_false, if_true)
    elif isinstance(node, ast.Compare) and len(node.ops) > 1 and not comparisons.is_type_comparison(ex, node):
        left = ex.expr(node.left)
        last = len(node.ops) - 1
        for i, (op, comparator) in enumerate(zip(node.ops, node.comparators)):
            right = ex.expr(comparator)
            if i < last:
                right = ex.blocks.stable(right, node.lineno)
                middle = ex.blocks.new_block("cmp")
                ex.blocks.branch(comparisons.compare(ex, op, left, right, node), middle, if_false)
                ex.blocks.resume(middle)
                if ex.blocks.current is None:
                    return
                left = right
            else:
                ex.blocks.branch(comparisons.compare(ex, op, left, right, node), if_true, if_false)
    else:
        ex.blocks.branch(_truth(truth_of(ex, node, ex.expr(node))), if_true, if_false)


def truth_of(ex: ExprLowering, node: ast.expr, value: Expr) -> Expr:
    """`if x:` where `x` may be an object of a class with `__bool__` or
    `__len__`: the engine calls it (`ListOp("truth")` gives a bool);
    any other value is tested as it is."""
    if not ex.module.value_truth or not isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
        return value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _NO_OBJECTS \
            and node.func.id not in ex.local_names and node.func.id not in ex.functions \
            and node.func.id not in ex.module.classes:
        return value  # `isinstance(...)`, `len(...)`: a bool or an int
    tmp = ex.blocks.temp()
    ex.calls.methods_called.update(("__bool__", "__len__"))
    ex.blocks.emit(ListOp("truth", tmp, ex.blocks.stable(value, node.lineno), (), node.lineno))
    return Var(tmp)


def branching_value(ex: ExprLowering, node: ast.expr) -> Expr:
    """A value that needs control flow: `a and b`, `x if c else y`, `a < b < c`."""
    result = ex.blocks.temp("v")
    join = ex.blocks.new_block("join")
    line = node.lineno
    if isinstance(node, ast.IfExp):
        yes, no = ex.blocks.new_block("then"), ex.blocks.new_block("else")
        condition(ex, node.test, yes, no)
        for block, branch_node in ((yes, node.body), (no, node.orelse)):
            ex.blocks.resume(block)
            if ex.blocks.current is not None:
                ex.blocks.emit(Assign(result, ex.expr(branch_node), line))
                ex.blocks.jump(join)
    elif isinstance(node, ast.Compare):
        yes, no = ex.blocks.new_block("then"), ex.blocks.new_block("else")
        condition(ex, node, yes, no)
        for block, outcome in ((yes, True), (no, False)):
            ex.blocks.resume(block)
            if ex.blocks.current is not None:
                ex.blocks.emit(Assign(result, Const(outcome), line))
                ex.blocks.jump(join)
    else:
        assert isinstance(node, ast.BoolOp)
        is_and = isinstance(node.op, ast.And)
        for value_node in node.values[:-1]:
            value = ex.blocks.stable(ex.expr(value_node), line)
            ex.blocks.emit(Assign(result, value, line))
            more, done = ex.blocks.new_block("and" if is_and else "or"), join
            truth = _truth(truth_of(ex, value_node, value))  # an object's `__bool__`/`__len__` too
            if is_and:
                ex.blocks.branch(truth, more, done)
            else:
                ex.blocks.branch(truth, done, more)
            ex.blocks.resume(more)
            if ex.blocks.current is None:
                break
        if ex.blocks.current is not None:
            ex.blocks.emit(Assign(result, ex.expr(node.values[-1]), line))
            ex.blocks.jump(join)
    ex.blocks.resume(join)
    if ex.blocks.current is None:
        raise ex.error(node, "expression that always raises")
    return Var(result)


def _truth(e: Expr) -> Expr:
    """`bool(e)` as a guard: comparisons and `not` already are truth values."""
    if isinstance(e, Binary) and e.op in ("eq", "ne", "lt", "le", "gt", "ge", "and", "or", "is", "isnot"):
        return e
    if isinstance(e, Unary) and e.op in ("not", "truth"):
        return e
    return Unary("truth", e)
