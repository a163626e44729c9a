"""Displays: list, tuple, dict and set literals, `[x] * n`, f-strings
and slices.

Why: a display builds a new container from parts evaluated in Python's
order; each kind has one way to be built (an instruction the engine
runs), and the parts are stabilised before the building instruction.
"""

from __future__ import annotations

import ast

from pathcraft.errors import UnsupportedError
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.frontend.strformat import computed_spec, field_text
from pathcraft.ir.builtin_names import NEW_DICT, NEW_SET, SLICE_PROTOCOL
from pathcraft.ir.nodes import Binary, Call, CallMethod, Const, Expr, ListOp, NewList, RepeatList, Text, Var


def dict_or_set(ex: ExprLowering, node: ast.Dict | ast.Set) -> Expr:
    """`{k: v, ...}` as `$dict(k, v, ...)`, `{a, ...}` as `$set(a, ...)`:
    built by the engine, keys and values evaluated in Python's order."""
    parts: list[ast.expr] = []
    if isinstance(node, ast.Dict):
        for key, value in zip(node.keys, node.values):
            if key is None:
                raise ex.error(value, "'**' in a dict literal")
            parts += [key, value]
    else:
        parts = list(node.elts)
    if any(isinstance(p, ast.Starred) for p in parts):
        raise ex.error(node, "'*' in a set literal")
    args = tuple(ex.blocks.stable(ex.expr(p), node.lineno) for p in parts)
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, NEW_DICT if isinstance(node, ast.Dict) else NEW_SET, args, node.lineno))
    return Var(tmp)


def fstring(ex: ExprLowering, node: ast.JoinedStr) -> Expr:
    """`f"..."`: literal parts and `{name}` fields (no conversion, or
    `!s`/`!r`; no format spec, a digits type `x`/`o`/`b`, or a width
    with its fill, alignment and type: strformat.field_text) concatenated,
    each field formatted by the engine (an int, bool, str or None has its
    text computed; anything else makes the whole string one whose text is
    not computed); a field with another conversion or spec makes the string not computed. Every
    field's expression runs, in order (it may raise: `{self.dist[u]}`)."""
    parts: list[Expr] = []
    computed = True
    for value in node.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            parts.append(Const(Text(value.value)))
        elif isinstance(value, ast.FormattedValue):
            try:
                field = ex.blocks.stable(ex.expr(value.value), node.lineno)
            except UnsupportedError as exc:  # the paths that get here are dropped, the function stays
                return ex.stdlib.dropped(f"an f-string field: {exc.message}", value.value)
            conversion = None if value.conversion == -1 else chr(value.conversion)
            spec = "" if value.format_spec is None else _constant_spec(value.format_spec)
            if spec is not None and computed_spec(conversion, spec):  # `{n}`, `{n:x}`, `{s!r:>8}`, `{n:04X}`
                parts.append(field_text(ex, field, conversion, spec, node.lineno))
            else:
                computed = False
        else:
            computed = False
    if not computed:
        return Const(Text(None))
    result: Expr = parts[0] if parts else Const(Text(""))
    for part in parts[1:]:
        result = Binary("add", result, part)
    return result


def _constant_spec(spec: ast.expr | None) -> str | None:
    """A field's format spec when it is written out (`{n:x}`), else None."""
    if isinstance(spec, ast.JoinedStr) and len(spec.values) == 1 and isinstance(spec.values[0], ast.Constant) \
            and isinstance(spec.values[0].value, str):
        return spec.values[0].value
    return None


def slice(ex: ExprLowering, node: ast.Subscript, part: ast.Slice) -> Expr:
    """`x[a:b:c]` read: `x.__getslice__(a, has_a, b, has_b, c)`, a
    prelude method per sequence kind (a flag for each bound left out)."""
    seq = ex.blocks.stable(ex.expr(node.value), node.lineno)
    args: list[Expr] = []
    for bound in (part.lower, part.upper):
        args += [Const(0), Const(False)] if bound is None else \
            [ex.blocks.stable(ex.expr(bound), node.lineno), Const(True)]
    args.append(Const(1) if part.step is None else ex.blocks.stable(ex.expr(part.step), node.lineno))
    tmp = ex.blocks.temp()
    ex.calls.methods_called.add(SLICE_PROTOCOL)
    ex.blocks.emit(CallMethod(tmp, seq, SLICE_PROTOCOL, tuple(args), node.lineno))
    return Var(tmp)


def starred_list(ex: ExprLowering, node: ast.List | ast.Tuple) -> Expr:
    """`[a, *b, c]` (and `(a, *b, c)`, then frozen): as CPython builds it,
    item by item: the items before the first star, then each star's items (`extend`, which takes any
    sequence) or each plain item (`append`) in order."""
    first = next(i for i, e in enumerate(node.elts) if isinstance(e, ast.Starred))
    items = tuple(ex.blocks.stable(ex.expr(e), node.lineno) for e in node.elts[:first])
    out = ex.blocks.temp()
    ex.blocks.emit(NewList(out, items, None, node.lineno))
    for element in node.elts[first:]:
        if isinstance(element, ast.Starred):
            value = ex.blocks.stable(ex.expr(element.value), node.lineno)
            ex.calls.methods_called.add("extend")
            ex.blocks.emit(CallMethod(None, Var(out), "extend", (value,), node.lineno))
        else:
            value = ex.blocks.stable(ex.expr(element), node.lineno)
            ex.blocks.emit(ListOp("append", None, Var(out), (value,), node.lineno))
    return Var(out)


def sequence_display(ex: ExprLowering, node: ast.List | ast.Tuple) -> Expr:
    """`[a, b]`, `(a, b)`: the items in order, then one new list (a tuple
    is a list marked as one); a starred item builds it step by step."""
    if any(isinstance(e, ast.Starred) for e in node.elts):
        built = starred_list(ex, node)
        if isinstance(node, ast.Tuple):  # `(*xs, x)`: the list CPython builds too, then frozen
            frozen = ex.blocks.temp()
            ex.blocks.emit(ListOp("freeze", frozen, built, (), node.lineno))
            return Var(frozen)
        return built
    items = tuple(ex.blocks.stable(ex.expr(e), node.lineno) for e in node.elts)
    tmp = ex.blocks.temp()
    ex.blocks.emit(NewList(tmp, items, None, node.lineno, is_tuple=isinstance(node, ast.Tuple)))
    return Var(tmp)


def single_item_list(node: ast.expr) -> bool:
    return isinstance(node, ast.List) and len(node.elts) == 1


def repeated_list(ex: ExprLowering, node: ast.BinOp) -> Expr | None:
    """`[x] * n` (or `n * [x]`): one instruction, not a loop. None: not one."""
    if not (isinstance(node.op, ast.Mult) and (single_item_list(node.left) or single_item_list(node.right))):
        return None
    listed, count = (node.left, node.right) if single_item_list(node.left) else (node.right, node.left)
    assert isinstance(listed, ast.List)
    value = ex.blocks.stable(ex.expr(listed.elts[0]), node.lineno)
    times = ex.blocks.stable(ex.expr(count), node.lineno)
    tmp = ex.blocks.temp()
    ex.blocks.emit(RepeatList(tmp, value, times, None, node.lineno))
    return Var(tmp)
