"""`str.format` on a template the module spells out: `"{0!r} not in
list".format(value)`, `TEMPLATE.format(spec=spec)`.

Why: the template is known when the module is read, so its fields are too
(`string.Formatter.parse` is the parser CPython's `str.format` follows).
A spec `x`, `o` or `b` is an int's digits (`format(n, "x")`); a spec with a
width (`{:>8}`, `{:04X}`) pads the text (models/str/formatspec.py).
The call becomes what an f-string with the same fields is: every argument
evaluated in order, then literal parts and formatted fields concatenated
(`displays.fstring`'s parts). A template whose fields the model cannot
read exactly (an attribute or index in a field, a format spec, a field
naming no argument, numbering that mixes `{}` and `{0}`) is left to the
engine, which drops the path: CPython raises for several of these, and
the text is not guessed.
"""

from __future__ import annotations

import ast
import string

from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.ir import formatspecs as formatspec
from pathcraft.ir.builtin_names import function_predicate
from pathcraft.ir.nodes import Binary, Call, Const, Expr, Text, Unary, Var
from pathcraft.models.int import lowering as intformat

# the field conversions whose text the engine computes (`!s` is `format`'s
# for the values it computes; `!r` differs from it only for a str)
FIELD_TEXT = {None: "format", "s": "format", "r": "format_repr"}
# the format specs computed: an int's digits in base 2, 8 or 16 (`format(n, "x")`, models/int)
INT_SPECS = frozenset(intformat.SPECS)


def spec_text(ex: ExprLowering, value: Expr, spec: str, line: int) -> Expr:
    """The text of a field with one of INT_SPECS: `format(value, spec)`."""
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, function_predicate(intformat.SPECS[spec][0]), (value,), line))
    return Var(tmp)


def computed_spec(conversion: str | None, spec: str) -> bool:
    """Is the text of a field with this conversion and spec computed
    (`field_text` lowers it)? A conversion makes a str, which no digits
    type formats (Python's ValueError is left to the engine's unknown text)."""
    if not spec:
        return conversion in FIELD_TEXT
    if conversion is None and spec in INT_SPECS:
        return True
    parsed = formatspec.parse(spec)
    return parsed is not None and conversion in FIELD_TEXT and (
        conversion is None or parsed.kind not in formatspec.DIGIT_KINDS and parsed.kind != "d")


def field_text(ex: ExprLowering, value: Expr, conversion: str | None, spec: str, line: int) -> Expr:
    """The text of a field (`computed_spec` holds): the conversion's text,
    `format(value, "x")`'s digits, or the value (the digits, for a digits
    type) formatted under a spec with a width (models/str/formatspec.py)."""
    if not spec:
        return Unary(FIELD_TEXT[conversion], value)
    if conversion is None and spec in INT_SPECS:
        return spec_text(ex, value, spec, line)
    parsed = formatspec.parse(spec)
    assert parsed is not None
    if conversion is not None:
        value = Unary(FIELD_TEXT[conversion], value)
    elif parsed.kind in formatspec.DIGIT_KINDS:
        value = spec_text(ex, value, parsed.kind.lower(), line)
    # a call evaluated here, as CPython formats the field: it may raise (`{s:d}`) before the events that follow
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, function_predicate("format_spec"), (value, Const(Text(spec))), line))
    return Var(tmp)


def constant_template(ex: ExprLowering, receiver: ast.expr) -> str | None:
    """The text of a template written in the module: a string literal, or
    a module constant bound to one that the function does not shadow."""
    if isinstance(receiver, ast.Constant) and isinstance(receiver.value, str):
        return receiver.value
    if isinstance(receiver, ast.Name) and receiver.id not in ex.local_names:
        value = ex.module.constants.get(receiver.id)
        if isinstance(value, Text) and value.value is not None:
            return value.value
    return None


def format_call(ex: ExprLowering, template: str, node: ast.Call) -> Expr | None:
    """`template.format(...)` as the concatenation of its parts, or None
    when the template's fields are not all read exactly."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return None
    fields = _fields(template, len(node.args), {k.arg for k in node.keywords if k.arg is not None})
    if fields is None:
        return None
    positional = [ex.blocks.stable(ex.expr(a), node.lineno) for a in node.args]  # all of them, in order
    named = {k.arg: ex.blocks.stable(ex.expr(k.value), node.lineno) for k in node.keywords if k.arg is not None}
    parts: list[Expr] = []
    for literal, key, conversion, spec in fields:
        if literal:
            parts.append(Const(Text(literal)))
        if key is not None:
            value = positional[key] if isinstance(key, int) else named[key]
            parts.append(field_text(ex, value, conversion, spec, node.lineno))
    result: Expr = parts[0] if parts else Const(Text(""))
    for part in parts[1:]:
        result = Binary("add", result, part)
    return result


def _fields(template: str, given: int, names: set[str]
            ) -> list[tuple[str, int | str | None, str | None, str]] | None:
    """Each literal part and the argument (index or keyword) its field
    formats, with the field's conversion and spec (one whose text is
    computed, or none); None when not read exactly."""
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:  # `"{"`: CPython's ValueError, left to the engine
        return None
    out: list[tuple[str, int | str | None, str | None, str]] = []
    automatic: int | None = None
    for literal, field, spec, conversion in parsed:
        if field is None:
            out.append((literal, None, None, ""))
            continue
        if not computed_spec(conversion, spec or "") or "." in field or "[" in field:
            return None
        key: int | str
        if field == "":
            if automatic is None:
                automatic = 0
            elif automatic < 0:
                return None
            key, automatic = automatic, automatic + 1
        elif field.isascii() and field.isdigit():
            if automatic is not None and automatic >= 0:
                return None
            automatic, key = -1, int(field)
        else:
            key = field
        if isinstance(key, int) and key >= given or isinstance(key, str) and key not in names:
            return None  # CPython's IndexError or KeyError: not modelled
        out.append((literal, key, conversion, spec or ""))
    return out
