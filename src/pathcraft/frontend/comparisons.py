"""Comparisons: `==`, `<`, `in`, `is`, and `type(a) is type(b)`.

Why: which comparison Python runs depends on what is compared (a list's
`__eq__`, a class's ordering methods, a container's `__contains__`); this
module decides from the operands' syntax and the module's classes which
instruction stands for it, or a pure IR comparison when no code can run.
"""

from __future__ import annotations

import ast

from pathcraft.frontend import arith, classrefs
from pathcraft.frontend.arith import OPERATOR_TEXT
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.ir.builtin_names import CONTAINS, EQ, OBJECT_EQ, OBJECT_ORDER, ORDERINGS
from pathcraft.ir.nodes import Binary, CallMethod, Const, Expr, Text, Unary, Var

_COMPARE = {
    ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge",
    ast.Is: "is", ast.IsNot: "isnot",
}
# builtin types `type(x) is T` may name, as the engine's `typeof` names them
_TYPE_NAMES = {name: f"builtins.{name}" for name in ("int", "bool", "float", "str", "list", "tuple", "dict", "set")}


def is_type_comparison(ex: ExprLowering, node: ast.Compare) -> bool:
    """`type(a) is type(b)`, `type(x) is C`, chains and `is not` too."""
    operands = [node.left, *node.comparators]
    return all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops) \
        and any(type_call(ex, o) is not None for o in operands)


def type_comparison(ex: ExprLowering, node: ast.Compare) -> Expr | None:
    """`type(a) is type(b) is C`: each side named (the engine's `typeof`
    of a value, a class's or builtin type's name), compared pairwise as
    names; each operand evaluated once, left to right. None: not one."""
    if not is_type_comparison(ex, node):
        return None
    named: list[Expr] = []
    for operand in [node.left, *node.comparators]:
        inner = type_call(ex, operand)
        if inner is not None:
            value = ex.blocks.stable(ex.expr(inner), node.lineno)
            named.append(ex.blocks.stable(Unary("typeof", value), node.lineno))
            continue
        cls = operand.id if isinstance(operand, ast.Name) and operand.id not in ex.local_names \
            and operand.id in ex.module.class_infos else classrefs.nested_class(ex, operand)
        if cls is not None:
            named.append(Const(Text(cls)))
        elif isinstance(operand, ast.Name) and operand.id in _TYPE_NAMES and operand.id not in ex.local_names \
                and operand.id not in ex.module.classes:
            named.append(Const(Text(_TYPE_NAMES[operand.id])))
        else:
            raise ex.error(operand, "type() compared with something other than type() or a class")
    result: Expr | None = None
    for op, left, right in zip(node.ops, named, named[1:]):
        pair = Binary("eq" if isinstance(op, ast.Is) else "ne", left, right)
        result = pair if result is None else Binary("and", result, pair)
    assert result is not None
    return result


def type_call(ex: ExprLowering, node: ast.expr) -> ast.expr | None:
    """The argument of `type(x)` (the builtin, one argument), if `node` is one."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type" \
            and len(node.args) == 1 and not node.keywords and not isinstance(node.args[0], ast.Starred) \
            and "type" not in ex.local_names and "type" not in ex.functions \
            and "type" not in ex.module.classes:
        return node.args[0]
    return None


def compare(ex: ExprLowering, op: ast.cmpop, left: Expr, right: Expr, node: ast.AST) -> Expr:
    """`left OP right`; `x in c` is `c.__contains__(x)`, dispatched on
    the container (a list's is in the prelude, a class may define its own)."""
    if isinstance(op, (ast.In, ast.NotIn)):
        item = ex.blocks.stable(left, getattr(node, "lineno", 0))
        container = ex.blocks.stable(right, getattr(node, "lineno", 0))
        tmp = ex.blocks.temp()
        ex.calls.methods_called.add(CONTAINS)
        ex.blocks.emit(CallMethod(tmp, container, CONTAINS, (item,), getattr(node, "lineno", 0)))
        found = Unary("truth", Var(tmp))
        return found if isinstance(op, ast.In) else Unary("not", found)
    if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(node, ast.Compare) and len(node.ops) == 1 \
            and (arith.sequence(ex, node.left, tuples=False) or arith.sequence(ex, node.comparators[0], tuples=False)):
        return sequence_equality(ex, op, left, right, node)
    if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(node, ast.Compare) and len(node.ops) == 1 \
            and ex.module.value_equality and not scalar_literal(node.left) \
            and not scalar_literal(node.comparators[0]):
        return object_equality(ex, op, left, right, node)
    if isinstance(op, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) and isinstance(node, ast.Compare) \
            and len(node.ops) == 1 and ex.module.value_ordering and not scalar_literal(node.left) \
            and not scalar_literal(node.comparators[0]):
        return object_order(ex, op, left, right, node)
    return Binary(compare_op(ex, op, node), left, right)


def object_order(ex: ExprLowering, op: ast.cmpop, left: Expr, right: Expr, node: ast.Compare) -> Expr:
    """`a < b` where a class of the module orders its instances: the
    engine dispatches to the method Python would call (engine/objorder.py)."""
    receiver = ex.blocks.stable(left, node.lineno)
    other = ex.blocks.stable(right, node.lineno)
    ex.calls.methods_called.update(("__lt__", "__le__", "__gt__", "__ge__"))
    tmp = ex.blocks.temp()
    which = ORDERINGS.index(compare_op(ex, op, node))
    ex.blocks.emit(CallMethod(tmp, receiver, OBJECT_ORDER, (other, Const(which)), node.lineno))
    return Unary("truth", Var(tmp))


def object_equality(ex: ExprLowering, op: ast.cmpop, left: Expr, right: Expr, node: ast.Compare) -> Expr:
    """`a == b` where a class of the module compares by value: the
    engine dispatches to the `__eq__` Python would call (engine/objeq.py)."""
    receiver = ex.blocks.stable(left, node.lineno)
    other = ex.blocks.stable(right, node.lineno)
    ex.calls.methods_called.add(EQ)
    tmp = ex.blocks.temp()
    negated = isinstance(op, ast.NotEq)
    ex.blocks.emit(CallMethod(tmp, receiver, OBJECT_EQ, (other, Const(negated)), node.lineno))
    same = Unary("truth", Var(tmp))
    return Unary("not", same) if negated else same


def sequence_equality(ex: ExprLowering, op: ast.cmpop, left: Expr, right: Expr, node: ast.Compare) -> Expr:
    """`a == b` where one side is surely a list: `a.__eq__(b)`, item by
    item in the prelude (`!=` is its negation, as list's `__ne__` is)."""
    receiver = ex.blocks.stable(left, node.lineno)
    other = ex.blocks.stable(right, node.lineno)
    ex.calls.methods_called.add(EQ)
    tmp = ex.blocks.temp()
    ex.blocks.emit(CallMethod(tmp, receiver, EQ, (other,), node.lineno))
    same = Unary("truth", Var(tmp))
    return same if isinstance(op, ast.Eq) else Unary("not", same)


def compare_op(ex: ExprLowering, op: ast.cmpop, node: ast.AST) -> str:
    if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(node, ast.Compare):
        operands = [node.left, *node.comparators]
        if any(isinstance(o, ast.Constant) and o.value is not None and type(o.value) is not bool
               for o in operands):
            word = "is" if isinstance(op, ast.Is) else "is not"
            raise ex.error(node, f"operator '{word}' with a literal (identity of ints)")
    name = _COMPARE.get(type(op))
    if name is None:
        raise ex.error(node, OPERATOR_TEXT.get(type(op), "comparison operator"))
    return name


def scalar_literal(node: ast.expr) -> bool:
    """A number, bool or str literal: `==` with it never calls a class's
    `__eq__` the engine could not see (None can: `x == None` calls it)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and node.value is not None
