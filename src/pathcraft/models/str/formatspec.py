"""Format specs with a width: `f"{n:04X}"`, `f"{name:<10}"`, `"{:>8}".format(s)`.

Why: libraries write fixed-width text (`f"U+{cp:04X}"`, `f"#{r:02x}{g:02x}{b:02x}"`,
columns of a table); a field with a spec used to make the whole string one
whose text is not computed, which drops a path that returns or compares it.

The part of Python's format-spec mini-language computed here is
`[[fill]align][0][width][type]`, `type` one of "", "d", "s", "x", "X", "o",
"b", `width` at most MAX_WIDTH: the text of the value (an int's or bool's
digits, a str itself) padded to the width with the fill, on the side the
alignment names, `=` (and `0` without an alignment, for numbers) putting
the padding after a minus sign. Pads are `ite` chains over the text's
length (one arm per shortfall): no fork, exact for a symbolic text. Python's
errors for the value's type are raised as CPython words them (`"d"` of a
str, `"s"` of an int, `=` of a str, any spec of None); a float's text is not computed (a spec
with a type drops the path: Python raises for some), and a value of
another kind (an object may define `__format__`) drops the path. A spec outside this part (a sign, `#`,
grouping, a precision, another type) is never lowered to this operator:
the frontend leaves that field's text not computed.

For the types "x", "X", "o", "b" the frontend computes the digits first
(`format(n, "x")`, models/int/lowering.py, which refuses what is no int)
and applies the spec to that text, marked as a number's.

The frontend writes a field so formatted as a call of the builtin
predicate `$format_spec(value, spec)` (models/str/lowering.py), which
the str model answers (`format_field`, registered in semantics.py).
"""

from __future__ import annotations

from pathcraft.errors import Unsupported
from pathcraft.ir.formatspecs import DIGIT_KINDS, Spec, parse
from pathcraft.ir.nodes import Text
from pathcraft.ir.values import ExcValue
from pathcraft.solver import floats
from pathcraft.solver import terms as T
from pathcraft.solver.terms import BOOL, INT, STR, App, Sym, Term

UNKNOWN_TEXT = Text(None)
class FormatError(Exception):
    """Python's exception for this spec on this value."""

    def __init__(self, exc: ExcValue) -> None:
        super().__init__(exc.message)
        self.exc = exc


def format_value(spec_text: str, value: object) -> Term | Text:
    """`format(value, spec_text)` (for a digits kind: `value` is the digits)."""
    spec = parse(spec_text)
    assert spec is not None, spec_text
    if isinstance(value, Text) and value.value is None:
        return value  # a text not computed stays so
    if spec.kind in DIGIT_KINDS:
        digits = _str_term(value)
        return _pad(T.apply("upper", digits) if spec.kind == "X" else digits, spec, numeric=True)
    if _is_str(value):
        if spec.kind == "d":
            raise FormatError(ExcValue("ValueError", "Unknown format code 'd' for object of type 'str'"))
        if spec.align == "=":
            raise FormatError(ExcValue("ValueError", "'=' alignment not allowed in string format specifier"))
        return _pad(_str_term(value), spec, numeric=False)
    if value is None:
        raise FormatError(ExcValue("TypeError", "unsupported format string passed to NoneType.__format__"))
    if _is_number(value):
        if spec.kind == "s":
            kind = "bool" if isinstance(value, bool) or isinstance(value, (Sym, App)) and value.sort == BOOL \
                else "int"
            raise FormatError(ExcValue("ValueError", f"Unknown format code 's' for object of type '{kind}'"))
        number = T.as_int(value)  # type: ignore[arg-type]  # a bool formats as its int under a spec
        digits = T.ite(T.ge(number, 0), T.apply("str_of_nat", number),
                       T.apply("concat", "-", T.apply("str_of_nat", T.neg(number))))
        return _pad(digits, spec, numeric=True)
    if floats.is_float(value) and spec.kind == "":
        return UNKNOWN_TEXT  # a float's digits are not computed; no spec of this kind raises for one
    raise Unsupported("a format spec applied to a float, list or object")


def _is_str(value: object) -> bool:
    return isinstance(value, (Text, str)) or isinstance(value, (Sym, App)) and value.sort == STR


def _is_number(value: object) -> bool:
    return isinstance(value, (bool, int)) or isinstance(value, (Sym, App)) and value.sort in (INT, BOOL)


def _str_term(value: object) -> Term:
    if isinstance(value, Text):
        assert value.value is not None
        if any(ord(c) > 0x2FFFF for c in value.value):
            raise Unsupported("a string beyond Z3's alphabet (code points above 0x2FFFF)")
        return value.value
    assert isinstance(value, (str, Sym, App)), value
    return value


def _pad(text: Term, spec: Spec, numeric: bool) -> Term:
    """`text` padded to the spec's width (see the module docstring)."""
    fill = spec.fill if spec.fill is not None else "0" if spec.zero else " "
    align = spec.align or ("=" if numeric and spec.zero else ">" if numeric else "<")
    if spec.width == 0:
        return text
    if align != "=":
        return _padded(text, spec.width, fill, align)
    negative = T.apply("prefixof", text, "-")
    body = T.apply("substr", text, 1, T.sub(T.apply("strlen", text), 1))
    signed = T.apply("concat", "-", _padded(body, spec.width - 1, fill, ">"))
    return T.ite(negative, signed, _padded(text, spec.width, fill, ">"))


def _padded(text: Term, width: int, fill: str, align: str) -> Term:
    """`text` with `width - len(text)` fills (none when it is as long)
    on the left (`>`), the right (`<`) or both (`^`: the extra one right)."""
    size = T.apply("strlen", text)
    out: Term = text  # as long as the width, or longer
    for short in range(1, width + 1):
        left = short if align == ">" else short // 2 if align == "^" else 0
        arm = T.apply("concat", T.apply("concat", fill * left, text), fill * (short - left))
        out = T.ite(T.eq(size, width - short), arm, out)
    return out
