"""Calls by name, `f(...)`: the order of questions Python's name lookup
answers, each a step: a nested function, a NamedTuple or class, a native
or `math` function, a loop's own step, a stdlib name, a builtin that
wins over the module's functions, the module's function, any other
builtin (`builtincalls.py`), else a refusal naming why.

Why: the same spelling (`len`, `sorted`, a class name) means different
things depending on what the module and the function bind, and the
answer must be the one Python would give.
"""

from __future__ import annotations

import ast
import builtins
import types

from pathcraft.errors import construct_name, unknown_name
from pathcraft.frontend import builtincalls, callables, callargs, excvalues, methodcalls
from pathcraft.models.math import lowering as mathmod
from pathcraft.models.re import lowering as regex_model
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.frontend.imports import unmerged_reason
from pathcraft.frontend.names import module_bindings
from pathcraft.frontend.own_class import DROP_CALL
from pathcraft.ir.builtin_names import LOOP_STEP, NEW_DEFAULTDICT
from pathcraft.ir.nodes import Assign, Call, Const, Expr, ListOp, NewList, Text, Var

STEP_CALLS = ("__pc_len", "__pc_item", "__pc_shut")  # frontend/generators.py: a loop's own steps and close
_FACTORIES = ("int", "bool", "list", "set", "dict")
# builtins refused by name when no rule took their arguments
_ARGUMENT_REFUSED = ("min", "max", "abs", "int", "bool", "float", "round", "len", "range")


def call(ex: ExprLowering, node: ast.Call, discard: bool) -> Expr:
    """`node`'s value (None when `discard` and the callee returns nothing used)."""
    func = node.func
    if is_defaultdict(ex, func):
        return defaultdict(ex, node)
    if isinstance(func, ast.Attribute):
        return methodcalls.method_call(ex, func, node, discard)
    if not isinstance(func, ast.Name):
        raise ex.error(func, "call of " + construct_name(func))
    name = func.id
    takes = callables.callable_parameter(ex, name)
    if takes is not None:  # `pred(item)`: the input's `__call__` (frontend/callables.py)
        if len(node.args) != takes or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
            raise ex.error(node, f"call of callable parameter '{name}' with other than "
                                 f"{callables.arguments_text(takes)}")
        method = ast.copy_location(ast.Attribute(func, "__call__", ast.Load()), func)
        return methodcalls.method_call(ex, method, ast.copy_location(ast.Call(method, node.args, []), node), discard)
    if name in ex.nested_calls:  # a nested function (frontend/closures.py)
        return nested_call(ex, name, node, discard)
    value = _special_call(ex, name, node)
    if value is None:
        value = builtincalls.before_functions(ex, name, node)
    if value is None and name in ex.functions:
        return function_call(ex, name, node, discard)
    if value is None:
        value = builtincalls.builtin_call(ex, name, node)
    if value is None and excvalues.is_exception_class(ex, name):  # `err = KeyError(k)`: an exception value
        value = excvalues.exception_value(ex, name, node)
    if value is None:
        refusal = _refusal(ex, func, name, node)
        if refusal is None:
            return unread_name(ex, func, name)
        raise refusal
    return value


def _special_call(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """A NamedTuple or class built, a native or `math` function, a loop's
    step, a name from the standard library; None: none of these."""
    if name in ex.module.namedtuples and name not in ex.local_names:
        return callargs.named_tuple(ex, ex.module.namedtuples[name], node)
    if name in ex.module.new_types and name not in ex.local_names and len(node.args) == 1 and not node.keywords \
            and not isinstance(node.args[0], ast.Starred):
        return ex.expr(node.args[0])  # `NormalizedName(text)`: a NewType's call returns its argument
    if name in ex.class_alias and name not in ex.local_names:
        return callargs.construct(ex, ex.class_alias[name], node)
    if name in ex.module.class_infos or name in ex.module.class_errors:
        return callargs.construct(ex, name, node)
    if ex.module.natives.entries and name not in ex.local_names and name not in ex.functions \
            and (native := ex.stdlib.native_call(node)) is not None:
        return native
    if name in ex.module.from_math and name not in ex.local_names and name not in ex.functions:
        return math_call(ex, ex.module.from_math[name], node)
    if name not in ex.functions and (matched := regex_model.bound_call(ex, name, node)) is not None:
        return matched  # `_find_unsafe(s)`, a pattern's bound `search` (models/re)
    if name in STEP_CALLS and name not in ex.functions:  # a loop's own step, in code the frontend writes
        return step_call(ex, name, node)
    if name == DROP_CALL and name not in ex.functions and node.args and isinstance(node.args[0], ast.Constant):
        return ex.stdlib.dropped(str(node.args[0].value), node)  # frontend/own_class.py
    if name not in ex.functions and name not in ex.module.class_infos:
        return ex.stdlib.call(node)
    return None


def nested_call(ex: ExprLowering, name: str, node: ast.Call, discard: bool) -> Expr:
    """A nested function: its arguments, then its captures; a nonlocal's
    cell is filled before the call and read back after it."""
    callee, captures = ex.nested_calls[name]
    args = callargs.call_arguments(ex, callee, node) + [Var(c) for c in captures]
    cells = [c for c in captures if c in ex.cells]
    for cell in cells:  # a nonlocal variable's cell, filled with it
        box = ex.blocks.temp()
        ex.blocks.emit(NewList(box, (Var(ex.cells[cell]),), None, node.lineno))
        ex.blocks.emit(Assign(cell, Var(box), node.lineno))
    target = None if discard else ex.blocks.temp()
    ex.blocks.emit(Call(target, callee.entry, tuple(args), node.lineno))
    for cell in cells:  # and what the call left in it
        ex.blocks.emit(ListOp("get", ex.cells[cell], Var(cell), (Const(0),), node.lineno))
    return Var(target) if target else Const(None)


def math_call(ex: ExprLowering, function: str, node: ast.Call) -> Expr:
    """`f(...)` imported from `math`: as far as the model goes, then run
    concretely or dropped."""
    args = [ex.blocks.stable(ex.expr(a), node.lineno) for a in node.args]
    lowered = None if node.keywords else mathmod.lower_call(function, args, ex.blocks.emit,
                                                            ex.blocks.temp, node.lineno)
    if lowered is None:  # evaluated as far as the model goes, then run concretely or dropped
        return ex.stdlib.concrete(f"math.{function}", args, f"math.{function}() with these arguments", node)
    return lowered


def step_call(ex: ExprLowering, name: str, node: ast.Call) -> Expr:
    """`__pc_len(x)`, `__pc_item(x, i)`, `__pc_shut(x, fresh)`: a loop's own
    steps in code the frontend writes (marked so as the loop's, not the user's)."""
    walked = ex.expr(node.args[0])
    tmp = ex.blocks.temp()
    if name == "__pc_shut":
        ex.blocks.emit(ListOp("close", None, walked, (ex.expr(node.args[1]),), node.lineno))
        return Const(None)
    if name == "__pc_len":
        ex.blocks.emit(ListOp("len", tmp, walked, (Const(Text(LOOP_STEP)),), node.lineno))
    else:
        index = ex.expr(node.args[1])
        ex.blocks.emit(ListOp("get", tmp, walked, (index, Const(Text(LOOP_STEP))), node.lineno))
    return Var(tmp)


def function_call(ex: ExprLowering, name: str, node: ast.Call, discard: bool) -> Expr:
    """A function of the module (a cached one only with its full argument list)."""
    if ex.functions[name].cached and (node.keywords or len(node.args) != len(ex.functions[name].params)):
        raise ex.error(node, f"call of cached {name}() with keywords or defaults (another cache key)")
    args = callargs.call_arguments(ex, ex.functions[name], node)
    target = None if discard else ex.blocks.temp()
    ex.calls.callees.add(name)
    ex.blocks.emit(Call(target, ex.functions[name].entry, tuple(args), node.lineno))
    return Var(target) if target else Const(None)


def _refusal(ex: ExprLowering, func: ast.Name, name: str, node: ast.Call) -> Exception | None:
    """Why `name(...)` is not lowered, most specific first (None: its
    name is unknown, `unread_name`)."""
    if name in ex.module.classes or ex.module.is_exception(name):
        return ex.error(node, f"call of class {name}")
    if name in _ARGUMENT_REFUSED:
        return ex.error(node, f"{name}() with these arguments")
    if isinstance(getattr(builtins, name, None), (type, types.BuiltinFunctionType)):
        return ex.error(node, f"call of builtin '{name}'")
    return None


def unread_name(ex: ExprLowering, node: ast.expr, name: str) -> Expr:
    """A name the model has no value for: a name the module binds some way
    not read (`MIN = Version("0")`, a `def` under `if`, a sibling's name not
    merged) drops the paths that read it; any other refuses the function."""
    if name in ex.local_names or name not in module_bindings(ex.module.tree):
        raise unknown_name(ex.module.path, node, name)
    plain = unknown_name(ex.module.path, node, name)
    error = unmerged_reason(ex.module, plain)
    why = error.message if error is not plain else f"{plain.message} (a module-level binding the model does not read)"
    return ex.stdlib.dropped(why, node)


def is_defaultdict(ex: ExprLowering, func: ast.expr) -> bool:
    """`defaultdict` imported from `collections`, or `collections.defaultdict`."""
    if isinstance(func, ast.Name) and func.id == "defaultdict" and func.id not in ex.local_names:
        return any(isinstance(n, ast.ImportFrom) and n.module == "collections" and n.level == 0
                   and any(a.name == "defaultdict" and (a.asname or a.name) == "defaultdict" for a in n.names)
                   for n in ex.module.tree.body)
    return isinstance(func, ast.Attribute) and func.attr == "defaultdict" and isinstance(func.value, ast.Name) \
        and func.value.id == "collections" and func.value.id not in ex.local_names and any(
            isinstance(n, ast.Import) and any(a.name == "collections" and a.asname is None for a in n.names)
            for n in ex.module.tree.body)


def defaultdict(ex: ExprLowering, node: ast.Call) -> Expr:
    """`defaultdict(int)` (or `list`, `set`, `dict`, `bool`)."""
    factory = node.args[0] if len(node.args) == 1 and not node.keywords else None
    args: tuple[Expr, ...]
    if isinstance(factory, ast.Name) and factory.id in _FACTORIES and factory.id not in ex.local_names:
        args = (Const(Text(factory.id)),)
    else:  # a lambda runs code of the module: its calls would be events of the path
        raise ex.error(node, "defaultdict() with a factory other than int, bool, list, set or dict")
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, NEW_DEFAULTDICT, args, node.lineno))
    return Var(tmp)
