"""Expressions, dispatched by AST node type to their lowering rule.

Why a table: the expression lowerer's one entry point (`expr`) looks the
node's type up here instead of walking a chain of `isinstance` tests;
each rule is a function of the lowerer (as an `ExprLowering`) and the
node, and a new construct is one more row. Calls go on to `calls.py`.
"""

from __future__ import annotations

import ast
import copy
import sys
from collections.abc import Callable
from typing import Any

from pathcraft.errors import construct_name
from pathcraft.frontend import arith, calls, classrefs, comparisons, conditions, displays, exprlines
from pathcraft.models.bits import lowering as bitops
from pathcraft.models.math import lowering as mathmod
from pathcraft.frontend.arith import OPERATOR_TEXT
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.frontend.frozen import Relocate
from pathcraft.models.math.lowering import is_math
from pathcraft.ir.builtin_names import function_predicate
from pathcraft.ir.nodes import Assign, Call, CompiledPattern, Const, Expr, GetField, ListOp, Mark, Text, Unary, Var


def attribute(ex: ExprLowering, node: ast.Attribute) -> Expr:
    """`math.pi`, `C.X`, `sys.maxsize`, a stdlib constant, or a field read."""
    if is_math(node.value, ex.module.imported, ex.local_names):
        if node.attr not in mathmod.CONSTANTS:
            raise ex.error(node, f"math.{node.attr}")
        return Const(mathmod.CONSTANTS[node.attr])
    if isinstance(node.value, ast.Name) and node.value.id not in ex.local_names \
            and (node.value.id in ex.class_alias or node.value.id in ex.module.class_infos):
        return classrefs.class_attribute(ex, ex.class_alias.get(node.value.id, node.value.id), node)
    if isinstance(node.value, ast.Name) and node.value.id == "sys" \
            and "sys" not in ex.local_names and node.attr == "maxsize" and "sys" in ex.module.imported:
        return Const(sys.maxsize)  # the running interpreter's, as the tests' is
    if (foreign := ex.stdlib.read(node)) is not None:
        return foreign
    named = _type_named(ex, node)
    if named is not None:  # `type(x).__name__`, `x.__class__.__name__`: the class's name, at run time
        return Unary(TYPE_NAME_OP, ex.expr(named))
    obj = ex.expr(node.value)
    classrefs.note_attribute(ex, node.attr)
    tmp = ex.blocks.temp()
    ex.blocks.emit(GetField(tmp, obj, classrefs.attr(ex, node.attr), node.lineno))
    if any(node.attr in c.properties for c in ex.module.class_infos.values()):
        again = exprlines.line_after_call(ex, node)  # a getter's frame may come in between (frontend/linetable.py)
        if again is not None and ex.blocks.current is not None:
            ex.blocks.emit(Mark(again, after_call=True))
    return Var(tmp)


TYPE_NAME_OP = "typename"


def _type_named(ex: ExprLowering, node: ast.Attribute) -> ast.expr | None:
    """The `x` of `type(x).__name__` or `x.__class__.__name__`, else None."""
    if node.attr != "__name__":
        return None
    inner = node.value
    if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "type" \
            and "type" not in ex.local_names and "type" not in ex.functions and len(inner.args) == 1 \
            and not inner.keywords and not isinstance(inner.args[0], ast.Starred):
        return inner.args[0]
    if isinstance(inner, ast.Attribute) and inner.attr == "__class__":
        return inner.value
    return None


def subscript(ex: ExprLowering, node: ast.Subscript) -> Expr:
    """`x[a:b]` (a slice) or `x[i]` (an item)."""
    if isinstance(node.slice, ast.Slice):
        return displays.slice(ex, node, node.slice)
    lst = ex.expr(node.value)
    index = arith.index(ex, node.slice)
    tmp = ex.blocks.temp()
    ex.calls.methods_called.add("__getitem__")  # an object's own (engine/protocols.py)
    ex.blocks.emit(ListOp("get", tmp, lst, (index,), node.lineno))
    return Var(tmp)


def constant(ex: ExprLowering, node: ast.Constant) -> Expr:
    if isinstance(node.value, (bool, int, float)) or node.value is None:
        return Const(node.value)
    if isinstance(node.value, str):
        return Const(Text(node.value))
    raise ex.error(node, construct_name(node))


def name(ex: ExprLowering, node: ast.Name) -> Expr:
    """A local, a module constant (math's too), a frozen container's fresh
    copy, or a name of the standard library."""
    if node.id in ex.local_names:
        return Var(node.id)
    if node.id in ex.class_alias:
        raise ex.error(node, f"the class '{node.id}' as a value")
    if ex.module.from_math.get(node.id) in mathmod.CONSTANTS:
        return Const(mathmod.CONSTANTS[ex.module.from_math[node.id]])
    if node.id in ex.module.constants:
        value = ex.module.constants[node.id]
        if isinstance(value, CompiledPattern) and value.method is not None:  # a bound `search` (models/re)
            raise ex.error(node, f"the pattern's {value.method} method '{node.id}' used other than by calling it")
        if isinstance(value, CompiledPattern):  # only its match methods are modelled (models/re)
            raise ex.error(node, f"the compiled pattern '{node.id}' used other than by calling match, "
                                 "fullmatch or search on it")
        return Const(value)
    if node.id in ex.module.frozen:  # a fresh copy of a container nothing changes
        if ex.module.star_import is not None or ex.info.qualname.split(".")[0] in ex.module.replaced_at_import:
            # PEP 399 makes a C accelerator compute what the Python code computes from its arguments, which is
            # why a function it replaces is analysed from its source; its tables are its own (`_stat.filemode`
            # writes '?' for a mode of no file type, where `stat.filemode`'s table gives '-')
            raise ex.error(node, f"the module table '{node.id}' read by a function the module may replace at "
                                 "import with its C version (which keeps tables of its own)")
        return ex.expr(Relocate(node).visit(copy.deepcopy(ex.module.frozen[node.id])))
    if (foreign := ex.stdlib.read(node)) is not None:
        return foreign
    if node.id in ex.module.class_errors:  # a class the model refused: why, rather than an unknown name
        raise ex.module.class_errors[node.id]
    return calls.unread_name(ex, node, node.id)



def binary(ex: ExprLowering, node: ast.BinOp) -> Expr:
    repeated = displays.repeated_list(ex, node)
    if repeated is not None:
        return repeated
    if isinstance(node.op, ast.Mult) and any(isinstance(side, ast.Constant) and isinstance(side.value, str)
                                             for side in (node.left, node.right)):
        return _repeated_text(ex, node)
    return arith.binop(ex, node.op, ex.expr(node.left), node.right, node, left_node=node.left)


def _repeated_text(ex: ExprLowering, node: ast.BinOp) -> Expr:
    """`"-" * n` (or `n * "-"`): the prelude's loop (`str_repeat`), so a
    count not known on the path is a choice like any loop's; operands in
    Python's order."""
    left = ex.blocks.stable(ex.expr(node.left), node.lineno)
    right = ex.blocks.stable(ex.expr(node.right), node.lineno)
    text, count = (left, right) if isinstance(node.left, ast.Constant) and isinstance(node.left.value, str) \
        else (right, left)
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, function_predicate("str_repeat"), (text, count), node.lineno))
    return Var(tmp)


def unary(ex: ExprLowering, node: ast.UnaryOp) -> Expr:
    operand = ex.expr(node.operand)
    if isinstance(node.op, ast.USub):
        return Unary("neg", operand)
    if isinstance(node.op, ast.UAdd):
        return Unary("int", operand)
    if isinstance(node.op, ast.Not):
        return Unary("not", conditions.truth_of(ex, node.operand, operand))
    if isinstance(node.op, ast.Invert):
        return bitops.invert(operand)
    raise ex.error(node, OPERATOR_TEXT.get(type(node.op), "unary operator"))


def compare(ex: ExprLowering, node: ast.Compare) -> Expr:
    """`type(a) is C`, `a < b`; a chain (`a < b < c`) branches."""
    if comparisons.is_type_comparison(ex, node):
        compared = comparisons.type_comparison(ex, node)
        assert compared is not None
        return compared
    if len(node.ops) == 1:
        left = ex.expr(node.left)
        return comparisons.compare(ex, node.ops[0], left, ex.expr(node.comparators[0]), node)
    return conditions.branching_value(ex, node)


def call(ex: ExprLowering, node: ast.Call, discard: bool) -> Expr:
    value = calls.call(ex, node, discard)
    again = exprlines.line_after_call(ex, node)
    if again is not None and ex.blocks.current is not None:
        ex.blocks.emit(Mark(again, after_call=True))
    return value


def comprehension(ex: ExprLowering, node: ast.ListComp | ast.DictComp | ast.SetComp) -> Expr:
    if ex.comprehension is None:
        raise ex.error(node, construct_name(node))
    return ex.comprehension(node)


def generator_expression(ex: ExprLowering, node: ast.GeneratorExp) -> Expr:
    if ex.generator_value is None:
        raise ex.error(node, construct_name(node))
    return ex.generator_value(node)


def named_expression(ex: ExprLowering, node: ast.NamedExpr) -> Expr:
    """`(y := e)`: e's value, kept in a temporary (a later part of the same
    expression may bind y again) and assigned to the local y."""
    value = ex.blocks.temp()
    ex.blocks.emit(Assign(value, ex.expr(node.value), node.lineno))
    ex.blocks.emit(Assign(node.target.id, Var(value), node.lineno))
    return Var(value)


def _plain(rule: Callable[[ExprLowering, Any], Expr]) -> Callable[[ExprLowering, Any, bool], Expr]:
    """A rule for which `discard` (the value is not used) changes nothing."""
    return lambda ex, node, discard: rule(ex, node)


# AST node type -> rule(lowerer, node, discard)
EXPRESSIONS: dict[type[ast.expr], Callable[[ExprLowering, Any, bool], Expr]] = {
    ast.NamedExpr: _plain(named_expression),
    ast.Attribute: _plain(attribute),
    ast.Subscript: _plain(subscript),
    ast.List: _plain(displays.sequence_display),
    ast.Tuple: _plain(displays.sequence_display),
    ast.Dict: _plain(displays.dict_or_set),
    ast.Set: _plain(displays.dict_or_set),
    ast.Constant: _plain(constant),
    ast.JoinedStr: _plain(displays.fstring),
    ast.Name: _plain(name),
    ast.BinOp: _plain(binary),
    ast.UnaryOp: _plain(unary),
    ast.Compare: _plain(compare),
    ast.BoolOp: _plain(conditions.branching_value),
    ast.IfExp: _plain(conditions.branching_value),
    ast.Call: call,
    ast.ListComp: _plain(comprehension),
    ast.DictComp: _plain(comprehension),
    ast.SetComp: _plain(comprehension),
    ast.GeneratorExp: _plain(generator_expression),
}


def expr(ex: ExprLowering, node: ast.expr, discard: bool = False) -> Expr:
    """`node` as an IR expression, its effects emitted first in Python's order."""
    rule = EXPRESSIONS.get(type(node))
    if rule is None:
        raise ex.error(node, construct_name(node))
    return rule(ex, node, discard)
