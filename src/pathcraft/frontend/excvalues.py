"""Exceptions as the engine has them: a type and a message (`ExcValue`),
made by `raise E(...)` and by `E(...)` in any expression (`err =
KeyError(k)`, `return ValueError(msg)`, `raise self._invalid(msg)`).

What the call makes of its arguments is read from the class's chain
(frontend/usererrors.py): the message is claimed where CPython's text is
certain (a builtin's or a plain subclass's one argument, a KeyError's
repr of a literal), else the type alone; the arguments are evaluated
first, as CPython does, for what they may raise.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from pathcraft.frontend import usererrors
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.frontend.source import builtin_exception
from pathcraft.ir.builtin_names import NEW_EXCEPTION_OP, UNSUPPORTED
from pathcraft.ir.nodes import Assign, Const, Expr, Text, Unary, Var
from pathcraft.ir.values import exception_is_a


@dataclass(frozen=True)
class Made:
    """An exception a call makes: its type, and its message as a constant
    or as the variable holding the evaluated argument (None: not claimed)."""

    exc_type: str
    message: str | None = None
    message_var: str | None = None


def made_exception(ex: ExprLowering, name: str, call: ast.Call | None, line: int) -> Made:
    """`name(...)` (`call`; None for the bare class) of exception class `name`."""
    args = list(call.args) if call is not None else []
    try:
        plan = usererrors.construction(ex.module, name, call)
    except usererrors.NotModelled as why:  # only the paths that make it are dropped
        evaluate_arguments(ex, args)  # what they raise comes first, and is kept
        return Made(UNSUPPORTED, str(why))
    if call is not None and call.keywords:
        if not plan.keywords:
            raise ex.error(call, "keyword arguments to an exception")
        for keyword in call.keywords:  # evaluated for what they may raise; stored on the object only
            ex.blocks.stable(ex.expr(keyword.value), line)
    if not plan.message_kept:  # its __init__ or __str__ makes the message: the type alone is claimed
        evaluate_arguments(ex, args)
        return Made(name)
    keyish = exception_is_a(name, "KeyError", ex.module.exception_bases)  # str(KeyError("k")) is "'k'"
    if len(args) == 1 and isinstance(args[0], ast.Constant) and isinstance(args[0].value, str):
        return Made(name, repr(args[0].value) if keyish else args[0].value)
    if len(args) == 1 and isinstance(args[0], ast.Name) and args[0].id in ex.local_names:
        return Made(name, None, None if keyish else args[0].id)
    if len(args) == 1 and not isinstance(args[0], (ast.Starred, ast.JoinedStr)):
        # `"bad value %d" % x`, `"expected " + name`: evaluated as Python would; the message is claimed
        # when the engine knows the text exactly (a concrete str), else the type alone (engine/flow.py)
        text = ex.blocks.temp("msg")
        ex.blocks.emit(Assign(text, ex.expr(args[0]), line))
        return Made(name, None, None if keyish else text)
    if args and not all(plain_message(a) for a in args):
        raise ex.error(args[0], "exception argument other than a string or an f-string")
    return Made(name)


def exception_value(ex: ExprLowering, name: str, call: ast.Call) -> Expr:
    """`E(...)` as a value (an `ExcValue` the engine makes: `NEW_EXCEPTION_OP`)."""
    made = made_exception(ex, name, call, call.lineno)
    message: Expr = Var(made.message_var) if made.message_var is not None else \
        Const(Text(made.message)) if made.message is not None else Const(None)
    return Unary(NEW_EXCEPTION_OP + made.exc_type, message)


def is_exception_class(ex: ExprLowering, name: str) -> bool:
    """Is `name` a known exception class (the module's own, merged, or a
    builtin), not shadowed by a local or a function? An imported name is
    none here: `raise`/`except` take an imported capitalized name as an
    exception class (module.is_exception), which a value built from it
    (`Counter(xs)`) need not be."""
    if name in ex.local_names or name in ex.functions or name in ex.module.imported:
        return False
    return name in ex.module.exception_bases or builtin_exception(name)


def evaluate_arguments(ex: ExprLowering, args: list[ast.expr]) -> None:
    """An exception's arguments evaluated for what they may raise, their
    values not needed (a literal, an f-string or a name raises nothing)."""
    for arg in args:
        if isinstance(arg, ast.Starred):
            raise ex.error(arg, "*args in a call")
        if not plain_message(arg):
            ex.blocks.stable(ex.expr(arg), arg.lineno)


def plain_message(node: ast.expr) -> bool:
    """A message we need not evaluate: a literal, an f-string or a variable
    (the test then checks the exception type only)."""
    return isinstance(node, (ast.Constant, ast.JoinedStr, ast.Name))
