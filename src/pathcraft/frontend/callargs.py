"""Calls into the module's own code: arguments bound to parameters,
objects constructed (`C(...)` runs `__init__`), NamedTuples built.

Why apart: binding by position, keyword and default is the one place a
call's arguments meet the callee's signature, and every kind of call of
user code (a function, a method, a constructor) goes through it.
"""

from __future__ import annotations

import ast

from pathcraft.models.namedtuple import lowering as namedtuples
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.ir.builtin_names import ENUM_LOOKUP, NEW_DICT, NEW_SET
from pathcraft.ir.nodes import (
    Call, CallMethod, Const, EnumMember, Expr, FreshContainer, FunctionInfo, ListOp, NewList, NewObject, Text, Var,
)


def call_arguments(ex: ExprLowering, callee: FunctionInfo, node: ast.Call, skip_self: bool = False) -> list[Expr]:
    params = callee.params[1:] if skip_self else callee.params
    if callee.kwargs is not None:  # `**kwargs` takes the keywords no other parameter does (packed below)
        params = params[:-1]
    positional = [p for p in params if p not in callee.keyword_only and p != callee.varargs]
    forwarded = _forwarded(ex, callee, node, len(positional))
    if forwarded is not None:  # `f(a, *args)`: the caller's own `*args` is the callee's
        node = ast.copy_location(ast.Call(node.func, node.args[:-1], node.keywords), node)
    elif any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        raise ex.error(node, "*args or **kwargs in a call")
    if len(node.args) > len(positional) and callee.varargs is None:  # Python's TypeError, refused here
        raise ex.error(node, f"too many arguments to {callee.name}()")
    given: dict[str, Expr] = {}
    for param, arg in zip(positional, node.args):
        given[param] = ex.blocks.stable(ex.expr(arg), node.lineno) if skip_self else ex.expr(arg)
    if forwarded is not None and callee.varargs is not None:
        given[callee.varargs] = forwarded
    elif callee.varargs is not None:  # the arguments left over, as a tuple
        rest = tuple(ex.blocks.stable(ex.expr(arg), node.lineno) for arg in node.args[len(positional):])
        packed = ex.blocks.temp("args")
        ex.blocks.emit(NewList(packed, rest, None, node.lineno, is_tuple=True))
        given[callee.varargs] = Var(packed)
    extra: list[Expr] = []  # `**kwargs`: each keyword no parameter takes, its name then its value
    for kw in node.keywords:
        assert kw.arg is not None
        named = kw.arg in params and kw.arg != callee.varargs and kw.arg not in callee.positional_only
        if callee.kwargs is not None and not named:
            extra += [Const(Text(kw.arg)), ex.blocks.stable(ex.expr(kw.value), node.lineno)]
            continue
        if not named or kw.arg in given:
            raise ex.error(kw.value, f"bad keyword argument '{kw.arg}' to {callee.name}()")
        given[kw.arg] = ex.blocks.stable(ex.expr(kw.value), node.lineno)
    defaults = dict(callee.defaults)
    out = []
    for param in params:
        if param in given:
            out.append(given[param])
        elif isinstance(defaults.get(param), tuple):  # a tuple of constants (the same object in CPython)
            made = ex.blocks.temp("default")
            items = tuple(Const(item) for item in defaults[param])  # type: ignore[union-attr, arg-type]
            ex.blocks.emit(NewList(made, items, None, node.lineno, is_tuple=True))
            out.append(Var(made))
        elif isinstance(defaults.get(param), FreshContainer):  # `field(default_factory=list)`: a new one each call
            out.append(_fresh(ex, defaults[param].kind, node.lineno))  # type: ignore[union-attr]
        elif param in defaults:
            out.append(Const(defaults[param]))  # type: ignore[arg-type]  # not a tuple
        else:
            if param in callee.unheld_defaults:
                raise ex.error(node, f"call of {callee.name}() without '{param}' (its default is not modelled)")
            raise ex.error(node, f"missing argument '{param}' to {callee.name}()")
    if callee.kwargs is not None:  # a new dict at each call
        made = ex.blocks.temp("kwargs")
        ex.blocks.emit(Call(made, NEW_DICT, tuple(extra), node.lineno))
        out.append(Var(made))
    return out


def _fresh(ex: ExprLowering, kind: str, line: int) -> Var:
    """A new empty list, dict, set or deque (a `FreshContainer` default)."""
    made = ex.blocks.temp("default")
    ex.blocks.emit(NewList(made, (), None, line) if kind in ("list", "deque") else
                   Call(made, NEW_DICT if kind == "dict" else NEW_SET, (), line))
    if kind != "deque":
        return Var(made)
    queue = ex.blocks.temp("default")
    ex.blocks.emit(ListOp("deque", queue, Var(made), (), line))
    return Var(queue)


def _forwarded(ex: ExprLowering, callee: FunctionInfo, node: ast.Call, positional: int) -> Expr | None:
    """`f(a, b, *args)` where `args` is the caller's own `*args` (never
    rebound), `f` has `*args` and `a, b` fill its positional parameters
    exactly: that tuple, handed on as `f`'s (CPython hands on the same
    items); None for any other call."""
    last = node.args[-1] if node.args else None
    if not isinstance(last, ast.Starred) or callee.varargs is None or len(node.args) - 1 != positional \
            or any(isinstance(a, ast.Starred) for a in node.args[:-1]) or any(k.arg is None for k in node.keywords) \
            or not (isinstance(last.value, ast.Name) and last.value.id == ex.info.varargs
                    and last.value.id not in ex.reassigned):
        return None
    return Var(last.value.id)


def construct(ex: ExprLowering, cls: str, node: ast.Call) -> Expr:
    """`C(args)`: new_object, then `__init__` when the class has one; of
    an enum class, the member of that value (models/enum)."""
    info = ex.module.class_infos.get(cls)
    if info is not None and info.enum:
        if len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
            raise ex.error(node, f"call of enum class {cls} other than with one value")
        tmp = ex.blocks.temp()
        first = Const(EnumMember(cls, info.members[0][0]))  # the lookup is the class's, asked of a member
        ex.blocks.emit(CallMethod(tmp, first, ENUM_LOOKUP, (ex.expr(node.args[0]),), node.lineno))
        return Var(tmp)
    maker = _defines_new(ex, cls)
    if maker is not None:  # `SortedList(key=f)` may well be a SortedKeyList: what `__new__` makes is not followed
        raise ex.error(node, f"call of {cls}(), whose class {maker} defines __new__")
    ex.calls.classes_built.add(cls)
    init = None
    current = cls
    while info is not None:
        if "__init__" in info.methods:
            init = f"{current}.__init__"
            break
        current = info.base or ""
        info = ex.module.class_infos.get(current)
    tmp = ex.blocks.temp("obj")
    if init is None:
        if node.args or node.keywords:
            raise ex.error(node, f"arguments to {cls}() without __init__")
        ex.blocks.emit(NewObject(tmp, cls, node.lineno))
        return Var(tmp)
    full = ex.signatures.get(init)
    if full is None:
        raise ex.error(node, f"constructor {init}")
    if node.args and isinstance(node.args[-1], ast.Starred) and not node.keywords \
            and not any(isinstance(a, ast.Starred) for a in node.args[:-1]):
        # `C(a, *rest)`: bound by the engine, rest's items one argument each (engine/binding.py)
        given = tuple(ex.blocks.stable(ex.expr(a), node.lineno) for a in node.args[:-1])
        rest = ex.blocks.stable(ex.expr(node.args[-1].value), node.lineno)
        ex.blocks.emit(NewObject(tmp, cls, node.lineno))
        ex.calls.methods_called.add("__init__")
        ex.blocks.emit(CallMethod(None, Var(tmp), "__init__", given, node.lineno, written=True, spread=rest))
        return Var(tmp)
    args = call_arguments(ex, full, node, skip_self=True)
    ex.blocks.emit(NewObject(tmp, cls, node.lineno))
    ex.calls.methods_called.add("__init__")
    ex.blocks.emit(CallMethod(None, Var(tmp), "__init__", tuple(args), node.lineno))
    return Var(tmp)


def bare_new(ex: ExprLowering, func: ast.Attribute, node: ast.Call) -> Expr | None:
    """`object.__new__(cls)`, `C.__new__(C)`: an instance of the class
    without running its `__init__` (`from_parts`-style alternative
    constructors), when `__new__` is object's all along the way: no class
    of either chain defines one, none stands for a builtin or library base
    (whose `__new__` is its own), and the class is not abstract (there
    object's raises). None when the call is something else; refused when
    it is this call on such a class."""
    if func.attr != "__new__" or len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
        return None
    made = _class_named(ex, node.args[0])
    receiver = "object" if isinstance(func.value, ast.Name) and func.value.id == "object" \
        and "object" not in ex.local_names and "object" not in ex.module.class_infos \
        and "object" not in ex.functions else _class_named(ex, func.value)
    if made is None or receiver is None:
        return None
    for cls in {made, receiver} - {"object"}:
        why = _own_new(ex, cls)
        if why:
            raise ex.error(node, f"{ast.unparse(node)}: {why}")
    tmp = ex.blocks.temp("obj")
    ex.calls.classes_built.add(made)
    ex.blocks.emit(NewObject(tmp, made, node.lineno))
    return Var(tmp)


def _defines_new(ex: ExprLowering, cls: str) -> str | None:
    """The first class of `cls`'s chain whose own code defines `__new__`."""
    current: str | None = cls
    while current is not None and current in ex.module.class_infos:
        info = ex.module.class_infos[current]
        if "__new__" in info.methods and not info.library:
            return current
        current = info.base
    return None


def _class_named(ex: ExprLowering, node: ast.expr) -> str | None:
    """The class a name in the code stands for (`cls` in a classmethod)."""
    if not isinstance(node, ast.Name):
        return None
    if node.id in ex.class_alias:
        return ex.class_alias[node.id]
    return node.id if node.id in ex.module.class_infos and node.id not in ex.local_names else None


def _own_new(ex: ExprLowering, cls: str) -> str:
    """Why `cls.__new__` is not object's, or ''."""
    current: str | None = cls
    while current is not None:
        info = ex.module.class_infos.get(current)
        if info is None:
            return f"the base {current} is not analysed"
        if "__new__" in info.methods:
            return f"{current} defines __new__"
        if info.library or info.enum:
            return f"{current}'s __new__ is its base's"
        if current == cls and info.abstract:
            return f"{cls} is abstract (object.__new__ raises TypeError)"
        current = info.base
    return ""


def named_tuple(ex: ExprLowering, info: namedtuples.NamedTupleInfo, node: ast.Call) -> Expr:
    """`C(a, b=...)` of a NamedTuple class: a tuple tagged with its class."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        raise ex.error(node, "*args or **kwargs in a call")
    positional = [ex.blocks.stable(ex.expr(a), node.lineno) for a in node.args]
    keywords = [(str(k.arg), ex.blocks.stable(ex.expr(k.value), node.lineno)) for k in node.keywords]
    try:
        items = namedtuples.arguments(info, positional, keywords)
    except namedtuples.ArgumentError as exc:
        raise ex.error(node, str(exc)) from None
    tmp = ex.blocks.temp()
    ex.blocks.emit(NewList(tmp, items, None, node.lineno, is_tuple=True, named=info.tag))
    return Var(tmp)
