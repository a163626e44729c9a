"""What the string operators of `ops.OPS` mean: in Python, and in Z3's
string theory.

Strings are sequences of code points in both. The character classes
(`isdigit`, `isupper`, ...) are stated over ASCII: the engine keeps every
string it reasons about ASCII (inputs are printable ASCII, a non-ASCII
constant meeting an operation drops the path, `chr` beyond 127 too), and
on ASCII text these definitions are CPython's. The Z3 column takes the
`z3` module as its first argument (see `ops`); constants are built code
point by code point, because `z3.StringVal` reads `\\u{..}` in its text as
an escape.
"""

from __future__ import annotations

import ctypes
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

# str.isspace() over ASCII: \t \n \v \f \r, the separators \x1c-\x1f, space
ASCII_SPACE = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f "
PRINTABLE = (" ", "~")  # the characters of a string input


def _only(s: str, lo: str, hi: str) -> bool:
    return all(lo <= c <= hi for c in s)


def _lower(c: str) -> bool:
    return "a" <= c <= "z"


def _upper(c: str) -> bool:
    return "A" <= c <= "Z"


def _digit(c: str) -> bool:
    return "0" <= c <= "9"


# ----------------------------------------------------------- Python meaning


def py_substr(s: str, start: int, length: int) -> str:
    """SMT-LIB `str.substr`: empty outside the string or for length <= 0."""
    if not 0 <= start < len(s) or length <= 0:
        return ""
    return s[start:start + length]


def py_find(s: str, sub: str) -> int:
    return s.find(sub)


def py_str_of_nat(n: int) -> str:
    """`str(n)` for n >= 0 (SMT-LIB `str.from_int`: empty below 0)."""
    return str(n) if n >= 0 else ""


def py_nat_of_str(s: str) -> int:
    """`int(s)` for a non-empty string of ASCII digits, else -1 (`str.to_int`)."""
    return int(s) if s and all(_digit(c) for c in s) else -1


def py_ord(s: str) -> int:
    """`ord(s)` for one character, else -1 (`str.to_code`)."""
    return ord(s) if len(s) == 1 else -1


def py_chr(n: int) -> str:
    """`chr(n)` within Z3's alphabet (0 .. 0x2FFFF), else empty (`str.from_code`)."""
    return chr(n) if 0 <= n <= 0x2FFFF else ""


CLASSES: Mapping[str, Any] = MappingProxyType({
    "isdigit": lambda s: bool(s) and all(_digit(c) for c in s),
    "isalpha": lambda s: bool(s) and all(_lower(c) or _upper(c) for c in s),
    "isalnum": lambda s: bool(s) and all(_lower(c) or _upper(c) or _digit(c) for c in s),
    "isspace": lambda s: bool(s) and all(c in ASCII_SPACE for c in s),
    "isupper": lambda s: any(_upper(c) for c in s) and not any(_lower(c) for c in s),
    "islower": lambda s: any(_lower(c) for c in s) and not any(_upper(c) for c in s),
    # the domain of a string input
    "printable": lambda s: _only(s, *PRINTABLE),
    # canonical models try these first: readable words, then with spaces
    "word": lambda s: _only(s, "a", "z"),
    "phrase": lambda s: all(_lower(c) or c == " " for c in s),
    # a superset of what int() accepts (spaces, a sign, digits and
    # underscores): a string outside it is certainly a ValueError
    "intlike": lambda s: _intlike(s),
})


def _intlike(s: str) -> bool:
    body = s.strip(ASCII_SPACE)
    if body[:1] in ("+", "-"):
        body = body[1:]
    return bool(body) and all(_digit(c) or c == "_" for c in body)


# --------------------------------------------------------------- Z3 meaning


def z3_string(z3: Any, value: str, ctx: Any) -> Any:
    """The Z3 constant of `value`, each code point escaped."""
    text = "".join("\\u{%x}" % ord(c) for c in value)
    return z3.SeqRef(z3.Z3_mk_string(ctx.ref(), text), ctx)


def read_string(z3: Any, value: Any) -> str:
    """A Z3 string value as Python text (code points, no escapes)."""
    n = z3.Z3_get_string_length(value.ctx_ref(), value.as_ast())
    buffer = (ctypes.c_uint * n)()
    z3.Z3_get_string_contents(value.ctx_ref(), value.as_ast(), n, buffer)
    return "".join(chr(c) for c in buffer)


def _range(z3: Any, ctx: Any, lo: str, hi: str) -> Any:
    return z3.Range(z3_string(z3, lo, ctx), z3_string(z3, hi, ctx))


def _union(z3: Any, ctx: Any, *ranges: tuple[str, str]) -> Any:
    parts = [_range(z3, ctx, lo, hi) for lo, hi in ranges]
    return parts[0] if len(parts) == 1 else z3.Union(*parts)


_LOWER, _UPPER, _DIGIT = ("a", "z"), ("A", "Z"), ("0", "9")
_SPACES = (("\t", "\r"), ("\x1c", " "))
_NOT_LOWER = (("\x00", "`"), ("{", "\U0002ffff"))
_NOT_UPPER = (("\x00", "@"), ("[", "\U0002ffff"))


def _regex(z3: Any, ctx: Any, name: str) -> Any:
    if name == "isdigit":
        return z3.Plus(_union(z3, ctx, _DIGIT))
    if name == "isalpha":
        return z3.Plus(_union(z3, ctx, _LOWER, _UPPER))
    if name == "isalnum":
        return z3.Plus(_union(z3, ctx, _LOWER, _UPPER, _DIGIT))
    if name == "isspace":
        return z3.Plus(_union(z3, ctx, *_SPACES))
    if name in ("isupper", "islower"):
        other = _NOT_LOWER if name == "isupper" else _NOT_UPPER
        cased = _UPPER if name == "isupper" else _LOWER
        rest = z3.Star(_union(z3, ctx, *other))
        return z3.Concat(rest, _union(z3, ctx, cased), rest)
    if name == "printable":
        return z3.Star(_union(z3, ctx, PRINTABLE))
    if name == "word":
        return z3.Star(_union(z3, ctx, _LOWER))
    if name == "phrase":
        return z3.Star(_union(z3, ctx, _LOWER, (" ", " ")))
    assert name == "intlike", name
    spaces = z3.Star(_union(z3, ctx, *_SPACES))
    sign = z3.Option(_union(z3, ctx, ("+", "+"), ("-", "-")))
    body = z3.Plus(_union(z3, ctx, _DIGIT, ("_", "_")))
    return z3.Concat(spaces, sign, body, spaces)


def z3_class(name: str) -> Any:
    """The Z3 builder of the character class `name` (a regex membership)."""
    return lambda z3, s: z3.InRe(s, _regex(z3, s.ctx, name))


# ------------------------------------------------------------------ case


def py_lower(s: str) -> str:
    """`s.lower()` on ASCII."""
    return "".join(chr(ord(c) + 32) if _upper(c) else c for c in s)


def py_upper(s: str) -> str:
    """`s.upper()` on ASCII."""
    return "".join(chr(ord(c) - 32) if _lower(c) else c for c in s)


def z3_case(shift: int) -> Any:
    """`lower` (shift 32, on A-Z) or `upper` (shift -32, on a-z): a map of
    the string's characters (`seq.map`)."""
    lo, hi = ("A", "Z") if shift > 0 else ("a", "z")

    def build(z3: Any, s: Any) -> Any:
        ctx = s.ctx
        c = z3.Const("c", z3.CharSort(ctx))
        bits = z3.CharToBv(c)
        inside = z3.And(z3.CharVal(lo, ctx) <= c, c <= z3.CharVal(hi, ctx))
        return z3.SeqMap(z3.Lambda([c], z3.If(inside, z3.CharFromBv(bits + shift), c)), s)
    return build
