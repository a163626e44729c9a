"""Arithmetic on values: binary operators, `+` on sequences, indices and
`range(...)` bounds.

Why a module of its own: an operator decides between a pure IR expression
(exact, cannot fail) and an instruction into a temporary (may raise, may
branch) from the operands alone, and the statement lowerer's `x op= y`
asks the same question.
"""

from __future__ import annotations

import ast

from pathcraft.frontend import powers
from pathcraft.models.bits import lowering as bitops
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.ir.builtin_names import function_predicate
from pathcraft.ir.nodes import Binary, Call, CallMethod, Const, Expr, Text, Unary, Var

_ARITH = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul"}
_DIVISION = {ast.FloorDiv: ("floordiv", "int_floordiv"), ast.Mod: ("mod", "int_mod"), ast.Div: ("truediv", "truediv")}
OPERATOR_TEXT = {
    ast.MatMult: "operator '@'",
    ast.In: "operator 'in'",
    ast.NotIn: "operator 'not in'",
}


def binop(ex: ExprLowering, op: ast.operator, left: Expr, right_node: ast.expr, node: ast.expr | ast.stmt,
          left_node: ast.expr | None = None, inplace: bool = False) -> Expr:
    if isinstance(op, ast.Add) and (sequence(ex, right_node) or left_node is not None
                                    and sequence(ex, left_node)):
        return concatenation(ex, left, right_node, node, inplace)
    right = ex.expr(right_node)
    if type(op) in _ARITH:
        return Binary(_ARITH[type(op)], left, right)
    if isinstance(op, ast.Pow):
        if isinstance(right, Const) and type(right.value) is int and 0 <= right.value <= 8:
            return Binary("pow", left, right)  # x ** 3 is x * x * x on ints (the evaluator)
        tmp = ex.blocks.temp()
        if isinstance(left, Const) and type(left.value) is int and left.value == 2:  # 1 << n: no loop
            ex.blocks.emit(Call(tmp, powers.POW2, (right,), node.lineno))
            return Var(tmp)
        ex.blocks.emit(Call(tmp, "int_pow", (left, right), node.lineno))
        return Var(tmp)
    if isinstance(op, bitops.BIT_OPERATORS):
        return bitops.lower_binop(ex.blocks, op, left, right, node.lineno)
    if type(op) in _DIVISION:
        pure, predicate = _DIVISION[type(op)]
        formatting = isinstance(left, Const) and isinstance(left.value, Text)  # "%d items" % n
        if isinstance(right, Const) and isinstance(right.value, (int, float)) and right.value != 0 \
                and not formatting:
            return Binary(pure, left, right)
        tmp = ex.blocks.temp()
        ex.blocks.emit(Call(tmp, predicate, (left, right), node.lineno))
        return Var(tmp)
    raise ex.error(node, OPERATOR_TEXT.get(type(op), "operator"))


def concatenation(ex: ExprLowering, left: Expr, right_node: ast.expr, node: ast.expr | ast.stmt, inplace: bool) -> Expr:
    """`a + b` on sequences is `a.__add__(b)` (a new sequence; the
    prelude's for lists); `a += b` is `a.__iadd__(b)`, which extends a
    list in place and returns it."""
    line = getattr(node, "lineno", 0)
    receiver = ex.blocks.stable(left, line)
    right = ex.blocks.stable(ex.expr(right_node), line)
    method = "__iadd__" if inplace else "__add__"
    ex.calls.methods_called.add(method)
    tmp = ex.blocks.temp()
    ex.blocks.emit(CallMethod(tmp, receiver, method, (right,), line))
    return Var(tmp)


def sequence(ex: ExprLowering, node: ast.expr, tuples: bool = True) -> bool:
    """Is `node` surely a list or tuple (a display, a comprehension, a
    slice, `list()`/`sorted()`/`tuple()`, a parameter so annotated, a sum
    of these)? Then `+` is concatenation, a method of the sequence."""
    if isinstance(node, (ast.List, ast.ListComp)) or tuples and isinstance(node, ast.Tuple):
        return True
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        return sequence(ex, node.value, tuples)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in (("list", "sorted", "tuple") if tuples else ("list", "sorted")) \
            and node.func.id not in ex.local_names and node.func.id not in ex.functions:
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return sequence(ex, node.left, tuples) or sequence(ex, node.right, tuples)
    if isinstance(node, ast.Name) and node.id in ex.info.params and node.id not in ex.reassigned \
            and node.id not in ex.opaque:
        kind = ex.info.param_types[ex.info.params.index(node.id)]
        return kind.kind in (("list", "tuple") if tuples else ("list",)) and not kind.optional
    return False


def index(ex: ExprLowering, node: ast.expr) -> Expr:
    """A list index, evaluated once and now (`a[i] += x` uses it twice)."""
    if isinstance(node, ast.Slice):
        raise ex.error(node, "slice")
    return ex.blocks.stable(ex.expr(node), node.lineno)


def range_call(ex: ExprLowering, node: ast.expr) -> ast.Call | None:
    """`node` if it is a call of the builtin `range` with 1 to 3 arguments."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" \
            and node.func.id not in ex.local_names and node.func.id not in ex.functions \
            and not node.keywords and 1 <= len(node.args) <= 3 \
            and not any(isinstance(a, ast.Starred) for a in node.args):
        return node
    return None


def range_bounds(ex: ExprLowering, call: ast.Call, line: int) -> tuple[Expr, Expr, Expr]:
    """`range(...)`'s start, stop and step, each an int (a float raises
    TypeError, as range does), a zero step ValueError."""
    args = []
    for node in call.args:
        value = ex.expr(node)
        args.append(ex.blocks.stable(value if isinstance(value, Const) else Unary("index", value), line,
                                       across_statements=True))
    start, stop, step = (Const(0), args[0], Const(1)) if len(args) == 1 else \
        (args[0], args[1], Const(1)) if len(args) == 2 else (args[0], args[1], args[2])
    if not (isinstance(step, Const) and step.value):
        checked = ex.blocks.temp("step")
        ex.blocks.emit(Call(checked, "range_step", (step,), line))
        step = Var(checked)
    return start, stop, step


def reversed_range(ex: ExprLowering, node: ast.expr, line: int) -> list[Expr] | None:
    """`reversed(range(a, b))` (or of `range(b)`), the builtins: the bounds of
    `range(b - 1, a - 1, -1)`, the same numbers, evaluated and checked here as
    `range(a, b)`'s are; None for anything else (a step: not rewritten)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "reversed"
            and node.func.id not in ex.local_names and node.func.id not in ex.functions
            and len(node.args) == 1 and not node.keywords):
        return None
    inner = range_call(ex, node.args[0])
    if inner is None or len(inner.args) == 3:
        return None
    start, stop, _ = range_bounds(ex, inner, line)
    return [ex.blocks.stable(Binary("sub", bound, Const(1)), line) for bound in (stop, start)] + [Const(-1)]


def range_list(ex: ExprLowering, call: ast.Call, line: int) -> Expr:
    """`list(range(...))` (and `sorted` of one): the prelude's loop."""
    start, stop, step = range_bounds(ex, call, line)
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, function_predicate("range_list"), (start, stop, step), line))
    return Var(tmp)
