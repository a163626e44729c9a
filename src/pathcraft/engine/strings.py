"""str values in the engine: terms of sort STR.

A string literal travels as `Text` (it may end up in a message or a
result untouched); where it meets an operation it becomes a constant term
of sort STR (`as_str`), so constants fold and symbolic strings (inputs,
what is computed from them) reach Z3's string theory. Character classes
and `lower`/`upper` are stated over ASCII (see `solver/strings.py`): a
non-ASCII literal reaching one drops the path. `Text(None)` (an f-string, `%` formatting: text
not computed) drops the path wherever an operation needs its text.
"""

from __future__ import annotations

import re

from pathcraft.errors import Unsupported
from pathcraft.heap.base import HeapResult
from pathcraft.heap.cells import Addr, Heap
from pathcraft.ir.nodes import Text
from pathcraft.ir.values import ExcValue
from pathcraft.solver import regex
from pathcraft.solver import terms as T
from pathcraft.solver.terms import BOOL, INT, STR, App, Sym, Term

STRING_INDEX = "string index out of range"

# operators of the table whose operands are all strings, and those that
# take an int (`chr`, `str_of_nat`)
_ON_STRINGS = frozenset({
    "concat", "strlen", "contains", "prefixof", "suffixof", "indexof", "nat_of_str", "ord",
    "isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "intlike", "lower", "upper", "printable",
})
_ON_INTS = frozenset({"chr", "str_of_nat"})
UNARY = _ON_STRINGS | _ON_INTS | {"isstr", "isbool", "isint", "format", "format_repr"}
UNKNOWN_TEXT = Text(None)
# stated over ASCII (solver/strings.py)
_ASCII = frozenset({"isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "intlike", "lower", "upper",
                    "nat_of_str"})


def is_str(value: object) -> bool:
    """A string: a literal (`Text`), a str constant or a term of sort STR."""
    return isinstance(value, (Text, str)) or isinstance(value, (Sym, App)) and value.sort == STR


def is_int(value: object) -> bool:
    """An int (not a bool) value: constant or term."""
    return isinstance(value, int) and not isinstance(value, bool) or \
        isinstance(value, (Sym, App)) and value.sort == INT


def is_bool(value: object) -> bool:
    return isinstance(value, bool) or isinstance(value, (Sym, App)) and value.sort == BOOL


def as_str(value: object) -> Term:
    """A string value as a term of sort STR. Code points above Z3's
    alphabet (0x2FFFF) drop the path."""
    if isinstance(value, Text):
        if value.value is None:
            raise Unsupported("operations on a string whose text is not computed (f-string, %)")
        value = value.value
    if isinstance(value, str):
        if any(ord(c) > 0x2FFFF for c in value):
            raise Unsupported("a string beyond Z3's alphabet (code points above 0x2FFFF)")
        return value
    assert isinstance(value, (Sym, App)) and value.sort == STR, value
    return value


def ascii_only(t: Term) -> Term:
    """`t`, after checking that no constant in it is outside ASCII: the
    character classes and `lower`/`upper` are stated over ASCII (inputs
    are; `chr` beyond 127 drops the path), so a non-ASCII literal that
    reaches one drops the path instead."""
    seen: set[int] = set()
    todo = [t]
    while todo:
        u = todo.pop()
        if isinstance(u, str):
            if not u.isascii():
                raise Unsupported("a non-ASCII string in a character class, lower() or upper()")
        elif isinstance(u, App) and id(u) not in seen:
            seen.add(id(u))
            todo.extend(u.args)
    return t


class Mismatch(Exception):
    """A string meeting an operand of another type: Python's TypeError
    (the evaluator raises it; the message names types: not asserted)."""


def _type_error(*values: object) -> Exception:
    """TypeError, unless an operand is an object or list (which may define
    the operator)."""
    if any(isinstance(v, Addr) for v in values):
        return Unsupported("operators between strings and lists or objects")
    return Mismatch()


def binary(op: str, left: object, right: object) -> Term | Text:
    """`left op right` where an operand is a string. Concatenating a string
    whose text is not computed gives another."""
    if op == "add" and is_str(left) and is_str(right) and UNKNOWN_TEXT in (left, right):
        return UNKNOWN_TEXT
    if op in ("eq", "ne"):
        if is_str(left) and is_str(right):
            return T.relation(op, as_str(left), as_str(right))
        if isinstance(left, Addr) or isinstance(right, Addr):
            raise Unsupported("'==' between a string and a list or object")
        return op == "ne"  # a string never equals a number or None
    if op in ("is", "isnot"):
        if left is None or right is None:
            return op == "isnot"
        raise Unsupported("'is' between strings (identity of strings)")
    if op == "mul":
        return _repeated(left, right)
    if op == "mod":  # "%d" % n: not modelled (a TypeError only for some operands)
        raise Unsupported("operator % on a string")
    if not (is_str(left) and is_str(right)):
        raise _type_error(left, right)  # "a" + 1, "a" < 1
    a, b = as_str(left), as_str(right)
    if op == "inre":  # does a pattern match (models/re); \d, \w, \s and IGNORECASE are stated over ASCII
        assert isinstance(b, str), b
        _mode, flags, pattern = regex.read_spec(b)
        return T.apply("inre", ascii_only(a) if regex.uses_classes(pattern, flags) else a, b)
    if op == "add":
        return T.apply("concat", a, b)
    if op in ("lt", "le", "gt", "ge"):
        return T.relation(op, a, b)
    if op in _ON_STRINGS:
        return T.apply(op, a, b)
    raise Unsupported(f"operator {op} on strings")


_REPEATS = 16  # the most copies of a symbolic string `s * n` concatenates


def _repeated(left: object, right: object) -> Term | Text:
    """`s * n` (or `n * s`) for a count known on the path: the string n
    times (empty for n <= 0); a symbolic count, or any other operand, is
    not modelled."""
    text, count = (left, right) if is_str(left) else (right, left)
    if not (is_str(text) and isinstance(count, int)):  # a bool counts as 0 or 1, as in CPython
        raise Unsupported("operator * on a string with a count not known on the path, or no int")
    n = int(count)
    if n <= 0:
        return Text("")
    if isinstance(text, Text):
        return UNKNOWN_TEXT if text.value is None else Text(text.value * n)
    if isinstance(text, str):
        return Text(text * n)
    if n > _REPEATS:
        raise Unsupported(f"a symbolic string repeated more than {_REPEATS} times")
    term = as_str(text)
    out = term
    for _ in range(n - 1):
        out = T.apply("concat", out, term)
    return out


def unary(op: str, value: object) -> Term | Text:
    """The string operator `op` (or a type test, or `format`: the text of
    an f-string field) applied to `value`."""
    if op == "format":
        return _format(value)
    if op == "format_repr":
        return _format_repr(value)
    if op == "isstr":
        return is_str(value)
    if op == "isbool":
        return is_bool(value)
    if op == "isint":
        return is_int(value)
    if op in _ON_INTS:
        if not (is_int(value) or is_bool(value)):
            raise Unsupported(f"{op} of a value other than an int")
        assert isinstance(value, (int, bool, Sym, App))
        return T.apply(op, T.as_int(value))
    if not is_str(value):
        raise Unsupported(f"{op} of a value other than a string")
    s = as_str(value)
    return T.apply(op, ascii_only(s) if op in _ASCII else s)


def _slice(heap: Heap, s: Term, n: Term, args: tuple[object, ...]) -> list[HeapResult]:
    """`s[a:b]` (args `a, has_a, b, has_b`, see `$str.__getslice__`): each
    bound left out is the end, a negative one counts from the end, then
    it is clamped into [0, len(s)] (an `ite` term: no fork)."""
    bounds = (args[0] if args[1] else None, args[2] if args[3] else None)
    if any(not (b is None or is_int(b) or is_bool(b)) for b in bounds):
        if any(isinstance(b, Addr) for b in bounds):
            raise Unsupported("a slice bound that is a list or object")
        return [HeapResult(heap, exc=ExcValue(
            "TypeError", "slice indices must be integers or None or have an __index__ method"))]

    def position(bound: object, default: Term) -> Term:
        if bound is None:
            return default
        assert isinstance(bound, (int, bool, Sym, App))
        x = T.as_int(bound)
        x = T.ite(T.lt(x, 0), T.add(x, n), x)
        return T.ite(T.lt(x, 0), 0, T.ite(T.gt(x, n), n, x))

    start, stop = position(bounds[0], 0), position(bounds[1], n)
    return [HeapResult(heap, T.apply("substr", s, start, T.sub(stop, start)))]


def _format(value: object) -> Term | Text:
    """`format(value, "")` for an int, bool, str or None (as an `ite` term:
    no fork); the text of anything else is not computed."""
    if is_str(value):
        return UNKNOWN_TEXT if value == UNKNOWN_TEXT else as_str(value)
    if value is None:
        return "None"
    if is_bool(value):
        assert isinstance(value, (bool, Sym, App))
        return T.ite(value, "True", "False")
    if is_int(value):
        assert isinstance(value, (int, Sym, App))
        digits = T.apply("str_of_nat", value)
        negative = T.apply("concat", "-", T.apply("str_of_nat", T.neg(value)))
        return T.ite(T.ge(value, 0), digits, negative)
    return UNKNOWN_TEXT


def _format_repr(value: object) -> Term | Text:
    """`repr(value)` in an f-string or `str.format` field (`{x!r}`): the
    text `format` computes, but a str's is its quoted repr, computed only
    for a known string."""
    if not is_str(value):
        return _format(value)
    known = value.value if isinstance(value, Text) else value if isinstance(value, str) else None
    return UNKNOWN_TEXT if known is None else repr(known)


# a conversion of printf-style formatting: flags, width, precision, length, type
_CONVERSION = re.compile(r"%(\(?)[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(.?)", re.DOTALL)
_NUMERIC = frozenset("diouxXeEfFgG")
_KINDS = _NUMERIC | frozenset("crsa%")


def percent_format(fmt: Text, arg: object) -> Term | Text:
    """`fmt % arg` for one argument that is not a list or object (tuples
    and dicts are outside the subset). One plain `%s`, `%d` or `%i` (and
    any `%%`) is computed; no conversion, or more than one, is Python's
    TypeError (`Mismatch`), as is a numeric conversion of a string or None;
    anything else gives a string whose text is not computed."""
    if fmt.value is None or isinstance(arg, Addr) or isinstance(arg, Text) and arg == UNKNOWN_TEXT:
        return UNKNOWN_TEXT
    found = _CONVERSION.findall(fmt.value)
    if any(mapping for mapping, _ in found):  # "%(key)s" takes a mapping
        return UNKNOWN_TEXT
    if any(kind == "" or kind not in _KINDS for _, kind in found):
        raise Unsupported("a format with an incomplete or unknown conversion (ValueError)")
    kinds = [kind for _, kind in found if kind != "%"]
    if len(kinds) != 1:
        raise Mismatch()  # not enough arguments, or not all converted
    kind = kinds[0]
    if kind == "c":  # OverflowError or ValueError for some ints
        raise Unsupported("a %c format")
    if kind in _NUMERIC and not (is_int(arg) or is_bool(arg)):
        raise Mismatch()  # "%d" % "a"
    plain = [m.group(0) for m in _CONVERSION.finditer(fmt.value) if m.group(0) != "%%"]
    if plain != ["%" + kind] or kind not in "sdi":
        return UNKNOWN_TEXT
    if kind in "di":
        assert isinstance(arg, (int, bool, Sym, App))
        arg = T.as_int(arg)
    text = _format(arg)
    if text == UNKNOWN_TEXT:
        return UNKNOWN_TEXT
    assert isinstance(text, (str, Sym, App))
    out: Term = ""
    for token in re.split(r"(%%|%[sdi])", fmt.value):
        out = T.apply("concat", out, "%" if token == "%%" else text if token.startswith("%") else token)
    return out


def sequence_op(heap: Heap, op: str, subject: object, args: tuple[object, ...]) -> list[HeapResult]:
    """`len(s)`, `s[i]` (negative indices count from the end), `for c in
    s`, and `s[i] = v` (a TypeError): the list operations a string has."""
    s = as_str(subject)
    n = T.apply("strlen", s)
    if op in ("len", "iter"):
        return [HeapResult(heap, n)]
    if op == "set":
        return [HeapResult(heap, exc=ExcValue("TypeError", "'str' object does not support item assignment"))]
    if op == "slice":
        return _slice(heap, s, n, args)
    if op != "get":
        raise Unsupported(f"{op} on a string")
    index = args[0]  # a loop's own get carries a flag after it (ir/builtin_names: LOOP_STEP)
    if not (is_int(index) or is_bool(index)):
        if is_str(index) or index is None:
            return [HeapResult(heap, exc=ExcValue("TypeError", "string indices must be integers, not "
                                                  f"'{'str' if is_str(index) else 'NoneType'}'"))]
        raise Unsupported("a string indexed by a list or object")
    assert isinstance(index, (int, bool, Sym, App))
    i = T.as_int(index)
    return [
        HeapResult(heap, T.apply("substr", s, i, 1), T.and_(T.ge(i, 0), T.lt(i, n))),
        HeapResult(heap, T.apply("substr", s, T.add(n, i), 1), T.and_(T.lt(i, 0), T.ge(i, T.neg(n)))),
        HeapResult(heap, exc=ExcValue("IndexError", STRING_INDEX),
                   constraint=T.or_(T.ge(i, n), T.lt(i, T.neg(n)))),
    ]
