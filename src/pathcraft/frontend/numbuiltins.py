"""Lowering rules for the numeric builtins and conversions: `divmod`,
`pow`, `abs`, `min`/`max` of several values, `round`, `int`, `float`,
`bool`, `str`/`ord`/`chr`/`bin`/`oct`/`hex`, `format(x, spec)`.

Why: each may raise or branch on its operands (a float's `nan`, a zero
divisor, a base out of range), so a rule emits a builtin predicate into
a temporary, or a pure IR expression where nothing can fail; listed by
name in `builtincalls.py`, tried after a call's keywords were refused.
"""

from __future__ import annotations

import ast

from pathcraft.frontend import arith, classrefs, powers, strformat
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.ir.builtin_names import function_predicate
from pathcraft.ir.nodes import Binary, Call, CallMethod, Const, Expr, NewList, Unary, Var


def conversion(ex: ExprLowering, name: str, node: ast.Call) -> Expr:
    """`str(x)`, `int(x)`, `ord(x)`, `chr(x)`: dispatched on the type of
    `x` at run time (`models/str/lowering.py`)."""
    arg = ex.expr(node.args[0])
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, function_predicate(name), (arg,), node.lineno))
    return Var(tmp)


STR_RESULT = function_predicate("str_result")  # models/str/lowering.py


def text_of_object(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`str(obj)` where the class of `obj` is known here (`self` in a
    method, a parameter annotated with a class of the module, neither
    rebound) and it or a base defines `__str__`: that method, dispatched
    at run time (a subclass's own wins, as in CPython), then CPython's
    TypeError when it gives no str. Anything else: None (the rule for
    builtin values)."""
    if len(node.args) != 1 or node.keywords or not isinstance(node.args[0], ast.Name):
        return None
    subject = node.args[0].id
    if subject not in ex.info.params or subject in ex.reassigned or subject in ex.opaque:
        return None
    index = ex.info.params.index(subject)
    declared = ex.info.param_types[index]
    cls = ex.owner if index == 0 and ex.owner is not None and ex.info.binding in ("", "property") \
        else declared.cls if declared.kind == "obj" and not declared.optional else None
    if cls is None or classrefs.method_of(ex, cls, "__str__") is None:
        return None
    ex.calls.methods_called.add("__str__")
    made, checked = ex.blocks.temp(), ex.blocks.temp()
    ex.blocks.emit(CallMethod(made, Var(subject), "__str__", (), node.lineno))
    ex.blocks.emit(Call(checked, STR_RESULT, (Var(made),), node.lineno))
    return Var(checked)


def int_base(ex: ExprLowering, node: ast.Call) -> Expr:
    """`int(s, b)`: the base's check, the argument's, then the digits'
    loop (`frontend/powers.py`)."""
    value = ex.blocks.stable(ex.expr(node.args[0]), node.lineno)
    given = ex.blocks.stable(ex.expr(node.args[1]), node.lineno)
    base, text, out = ex.blocks.temp(), ex.blocks.temp(), ex.blocks.temp()
    if isinstance(given, Const) and type(given.value) is int and 2 <= given.value <= 36:
        base_value: Expr = given
    else:
        ex.blocks.emit(Call(base, powers.INT_BASE_RADIX, (given,), node.lineno))
        base_value = Var(base)
    ex.blocks.emit(Call(text, powers.INT_BASE_ARG, (value,), node.lineno))
    ex.blocks.emit(Call(out, powers.INT_BASE, (Var(text), base_value), node.lineno))
    return Var(out)


def divmod_pair(ex: ExprLowering, node: ast.Call) -> Expr:
    """`divmod(a, b)`: `(a // b, a % b)`, ZeroDivisionError as `//`'s on
    ints and with divmod's own message on floats."""
    a, b = (ex.blocks.stable(ex.expr(arg), node.lineno) for arg in node.args)
    quotient = ex.blocks.temp()
    ex.blocks.emit(Call(quotient, "int_divmod", (a, b), node.lineno))
    remainder = ex.blocks.stable(Binary("mod", a, b), node.lineno)  # b != 0 from here on
    tmp = ex.blocks.temp()
    ex.blocks.emit(NewList(tmp, (Var(quotient), remainder), None, node.lineno, is_tuple=True))
    return Var(tmp)


def divmod_rule(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    return divmod_pair(ex, node) if len(node.args) == 2 else None


def power(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`pow(a, b)` is `a ** b`; `pow(a, b, m)` a builtin predicate."""
    if len(node.args) == 2:
        return arith.binop(ex, ast.Pow(), ex.blocks.stable(ex.expr(node.args[0]), node.lineno), node.args[1], node)
    if len(node.args) == 3:
        tmp = ex.blocks.temp()
        args3 = tuple(ex.blocks.stable(ex.expr(a), node.lineno) for a in node.args)
        ex.blocks.emit(Call(tmp, powers.POW_MOD, args3, node.lineno))
        return Var(tmp)
    return None


def absolute(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    if len(node.args) != 1:
        return None
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, "abs", (ex.expr(node.args[0]),), node.lineno))
    return Var(tmp)


def extreme(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`min(a, b, c)`: pairwise, left to right."""
    if len(node.args) < 2:
        return None
    values = [ex.expr(a) for a in node.args]
    acc = values[0]
    for value in values[1:]:
        tmp = ex.blocks.temp()
        ex.blocks.emit(Call(tmp, name, (acc, value), node.lineno))
        acc = Var(tmp)
    return acc


def round_digits(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`round(x, n)`: pure for a small literal `n`, else a rule per small count."""
    if len(node.args) != 2:
        return None
    digits = _int_literal(node.args[1])
    value = ex.expr(node.args[0])
    if digits is not None and -20 <= digits <= 20:
        return Binary("round_digits", value, Const(digits))
    if digits is not None:
        raise ex.error(node, "round() to digits other than a small int")
    tmp = ex.blocks.temp()  # a digit count known at run time: a rule per small count
    ex.blocks.emit(Call(tmp, "round_digits", (value, ex.expr(node.args[1])), node.lineno))
    return Var(tmp)


def int_of_base(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    if len(node.args) == 2 and not any(isinstance(a, ast.Starred) for a in node.args):
        return int_base(ex, node)
    return None


def int_conversion(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`int(x)` of what may be a str, or a float (the engine sends it to float_to_int)."""
    if len(node.args) == 1 and not _surely_number(node.args[0]):
        return conversion(ex, name, node)
    return None


def to_int(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`int(x)`, `round(x)` on a number: may raise on a float (nan, inf)."""
    if len(node.args) != 1:
        return None
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, "to_int" if name == "int" else "round", (ex.expr(node.args[0]),), node.lineno))
    return Var(tmp)


def float_literal(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`float("inf")`: a literal, converted now exactly as Python would."""
    if len(node.args) != 1 or not isinstance(node.args[0], ast.Constant) \
            or not isinstance(node.args[0].value, str) or "float" in ex.local_names:
        return None
    try:
        return Const(float(node.args[0].value))
    except ValueError:
        raise ex.error(node, "float() of a string that is no number") from None


def float_or_bool(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    if len(node.args) != 1:
        return None
    return Unary(name if name == "float" else "truth", ex.expr(node.args[0]))


def converted(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`str(x)`, `ord(x)`, `chr(x)`, `bin(x)`...: dispatched at run time."""
    return conversion(ex, name, node) if len(node.args) == 1 else None


def formatted(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`format(n, "b")` (and "o", "x"): the digits' loop of models/int/lowering.py;
    a spec with a width (`format(s, ">8")`): as an f-string's field (strformat.field_text)."""
    if len(node.args) != 2 or node.keywords or not isinstance(node.args[1], ast.Constant) \
            or not isinstance(node.args[1].value, str) or not node.args[1].value \
            or not strformat.computed_spec(None, node.args[1].value):
        return None
    return strformat.field_text(ex, ex.expr(node.args[0]), None, node.args[1].value, node.lineno)


def _int_literal(node: ast.expr) -> int | None:
    """The value of an int literal (`2`, `-1`), or None."""
    negative = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
    inner = node.operand if isinstance(node, ast.UnaryOp) and negative else node
    if isinstance(inner, ast.Constant) and type(inner.value) is int:
        return -inner.value if negative else inner.value
    return None


def _surely_number(node: ast.expr) -> bool:
    """Is `node` an int or bool whatever the types of the names in it (a
    literal, arithmetic, a comparison)? Then `int(node)` needs no dispatch."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int)
    return isinstance(node, (ast.BinOp, ast.Compare)) and not isinstance(getattr(node, "op", None), ast.Add) \
        or isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not))
