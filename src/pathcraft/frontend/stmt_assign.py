"""Assignments: `x = v`, `a, b = v`, `x: T = v`, `x op= v`, `del d[k]`.

Why together: each stores into a target (a name, an attribute, an item,
a tuple of targets), and the target decides the instruction; the value
is evaluated first, in Python's order.
"""

from __future__ import annotations

import ast

from pathcraft.errors import construct_name
from pathcraft.frontend import arith, classrefs
from pathcraft.frontend.stmthost import StatementLowering
from pathcraft.ir.builtin_names import DELSLICE_PROTOCOL
from pathcraft.ir.nodes import Assign, CallMethod, CheckMethod, Const, Expr, GetField, ListOp, Mark, SetField, Var


def assign(lw: StatementLowering, s: ast.Assign) -> None:
    lw.blocks.emit(Mark(s.lineno))
    if s in lw.module.method_checks:  # `add = seen.add`, its calls inlined: only the lookup is left
        obj, method = lw.module.method_checks[s]
        lw.blocks.emit(CheckMethod(lw.expressions.expr(ast.copy_location(ast.Name(obj, ast.Load()), s)), method,
                                   s.lineno))
        return
    if len(s.targets) == 1 and isinstance(s.targets[0], ast.Tuple):
        tuple_assign(lw, s.targets[0], s.value, s)
        return
    if len(s.targets) == 1 and _whole_slice(s.targets[0]) and isinstance(s.value, (ast.List, ast.Tuple)):
        replace_items(lw, s.targets[0], s.value, s.lineno)  # type: ignore[arg-type]
        return
    value = lw.expressions.expr(s.value)
    if len(s.targets) > 1 and not isinstance(value, (Const, Var)):
        tmp = lw.blocks.temp()
        lw.blocks.emit(Assign(tmp, value, s.lineno))
        value = Var(tmp)
    for target in s.targets:
        store(lw, target, value, s.lineno)


def _whole_slice(target: ast.expr) -> bool:
    """`xs[:]`."""
    return isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Slice) \
        and target.slice.lower is None and target.slice.upper is None and target.slice.step is None


def replace_items(lw: StatementLowering, target: ast.Subscript, value: ast.List | ast.Tuple, line: int) -> None:
    """`xs[:] = [a, b]` (a display: nothing to iterate, no TypeError): the
    display, then `xs`, then its items replaced (`del xs[:]`, the list's
    prelude `__delslice__`, and `extend`); on another kind than a list
    the protocol drops the path."""
    items = lw.blocks.stable(lw.expressions.expr(value), line)
    obj = lw.blocks.stable(lw.expressions.expr(target.value), line)
    lw.calls.methods_called.add(DELSLICE_PROTOCOL)
    lw.blocks.emit(CallMethod(None, obj, DELSLICE_PROTOCOL, (Const(0), Const(False), Const(0), Const(False)), line))
    lw.blocks.emit(CallMethod(None, obj, "extend", (items,), line))


def store(lw: StatementLowering, target: ast.expr, value: Expr, line: int) -> None:
    """`target = value` for a name, an attribute or a list element."""
    if isinstance(target, ast.Attribute):
        obj = lw.expressions.expr(target.value)
        classrefs.note_attribute(lw.expressions, target.attr)
        lw.blocks.emit(SetField(obj, classrefs.attr(lw.expressions, target.attr), value, line))
    elif isinstance(target, ast.Subscript):
        lst = lw.expressions.expr(target.value)
        index = arith.index(lw.expressions, target.slice)
        lw.expressions.calls.methods_called.add("__setitem__")  # an object's own (engine/protocols.py)
        lw.blocks.emit(ListOp("set", None, lst, (index, value), line))
    elif isinstance(target, (ast.Tuple, ast.List)):
        unpack(lw, target, value, line)
    else:
        lw.blocks.emit(Assign(target_name(lw, target), value, line))


def unpack(lw: StatementLowering, target: ast.Tuple | ast.List, value: Expr, line: int) -> None:
    """`a, b = value` for a tuple or list value: its length checked
    (ValueError), then the items read and stored left to right."""
    if any(isinstance(e, ast.Starred) for e in target.elts):
        raise lw.error(target, "starred assignment target")
    sequence = lw.blocks.stable(value, line)
    lw.blocks.emit(ListOp("unpack", None, sequence, (Const(len(target.elts)),), line))
    items = []
    for k in range(len(target.elts)):
        item = lw.blocks.temp()
        lw.blocks.emit(ListOp("get", item, sequence, (Const(k),), line))
        items.append(item)
    for name_node, item in zip(target.elts, items):
        store(lw, name_node, Var(item), line)


def tuple_assign(lw: StatementLowering, target: ast.Tuple, value: ast.expr, s: ast.stmt) -> None:
    if not isinstance(value, ast.Tuple) or len(value.elts) != len(target.elts) \
            or any(isinstance(e, ast.Starred) for e in value.elts):
        store(lw, target, lw.expressions.expr(value), s.lineno)
        return
    temps = []
    for elt in value.elts:
        tmp = lw.blocks.temp()
        lw.blocks.emit(Assign(tmp, lw.expressions.expr(elt), s.lineno))
        temps.append(tmp)
    for name_node, tmp in zip(target.elts, temps):
        store(lw, name_node, Var(tmp), s.lineno)


def ann_assign(lw: StatementLowering, s: ast.AnnAssign) -> None:
    if s.value is None:
        return
    lw.blocks.emit(Mark(s.lineno))
    store(lw, s.target, lw.expressions.expr(s.value), s.lineno)


def aug_assign(lw: StatementLowering, s: ast.AugAssign) -> None:
    lw.blocks.emit(Mark(s.lineno))
    target = s.target
    if isinstance(target, ast.Attribute):
        obj = lw.blocks.stable(lw.expressions.expr(target.value), s.lineno)
        old = lw.blocks.temp()
        name = classrefs.attr(lw.expressions, target.attr)
        classrefs.note_attribute(lw.expressions, target.attr)
        lw.blocks.emit(GetField(old, obj, name, s.lineno))
        lw.blocks.emit(SetField(obj, name, arith.binop(lw.expressions, s.op, Var(old), s.value, s, inplace=True),
                                  s.lineno))
    elif isinstance(target, ast.Subscript):
        lst = lw.blocks.stable(lw.expressions.expr(target.value), s.lineno)
        index = arith.index(lw.expressions, target.slice)
        old = lw.blocks.temp()
        lw.blocks.emit(ListOp("get", old, lst, (index,), s.lineno))
        new = arith.binop(lw.expressions, s.op, Var(old), s.value, s, inplace=True)
        lw.blocks.emit(ListOp("set", None, lst, (index, new), s.lineno))
    else:
        name = target_name(lw, target)
        new = arith.binop(lw.expressions, s.op, Var(name), s.value, s, left_node=target, inplace=True)
        lw.blocks.emit(Assign(name, new, s.lineno))


def target_name(lw: StatementLowering, node: ast.expr) -> str:
    if not isinstance(node, ast.Name):
        raise lw.error(node, f"assignment to {construct_name(node)}")
    return node.id


def delete(lw: StatementLowering, s: ast.Delete) -> None:
    """`del d[k]` (dicts; `del` of list items and names is refused or
    dropped), `del xs[a:b]` (a list's prelude `__delslice__`)."""
    lw.blocks.emit(Mark(s.lineno))
    for target in s.targets:
        if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Slice) and target.slice.step is None:
            obj = lw.blocks.stable(lw.expressions.expr(target.value), s.lineno)
            bounds: list[Expr] = []
            for bound in (target.slice.lower, target.slice.upper):
                bounds += [Const(0), Const(False)] if bound is None else \
                    [lw.blocks.stable(lw.expressions.expr(bound), s.lineno), Const(True)]
            lw.calls.methods_called.add(DELSLICE_PROTOCOL)
            lw.blocks.emit(CallMethod(None, obj, DELSLICE_PROTOCOL, tuple(bounds), s.lineno))
            continue
        if not isinstance(target, ast.Subscript) or isinstance(target.slice, ast.Slice):
            raise lw.error(target, f"del of {construct_name(target)}")
        obj = lw.blocks.stable(lw.expressions.expr(target.value), s.lineno)
        lw.blocks.emit(ListOp("del", None, obj, (arith.index(lw.expressions, target.slice),), s.lineno))
