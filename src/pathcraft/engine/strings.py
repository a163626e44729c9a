"""str values in the engine: terms of sort STR.

A string literal travels as `Text` (it may end up in a message or a
result untouched); where it meets an operation it becomes a constant term
of sort STR (`as_str`), so constants fold and symbolic strings (inputs,
what is computed from them) reach Z3's string theory. The engine keeps
strings ASCII (see `solver/strings.py`): a non-ASCII literal meeting an
operation drops the path. `Text(None)` (an f-string, `%` formatting: text
not computed) drops the path wherever an operation needs its text.
"""

from __future__ import annotations

from pathcraft.errors import Unsupported
from pathcraft.heap.base import HeapResult
from pathcraft.heap.cells import Addr, Heap
from pathcraft.ir.nodes import Text
from pathcraft.ir.values import ExcValue
from pathcraft.solver import terms as T
from pathcraft.solver.terms import BOOL, INT, STR, App, Sym, Term

STRING_INDEX = "string index out of range"

# operators of the table whose operands are all strings, and those that
# take an int (`chr`, `str_of_nat`)
_ON_STRINGS = frozenset({
    "concat", "strlen", "contains", "prefixof", "suffixof", "indexof", "nat_of_str", "ord",
    "isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "intlike", "lower", "upper",
})
_ON_INTS = frozenset({"chr", "str_of_nat"})
UNARY = _ON_STRINGS | _ON_INTS | {"isstr", "isbool", "isint"}


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
    """A string value as a term of sort STR."""
    if isinstance(value, Text):
        if value.value is None:
            raise Unsupported("operations on a string whose text is not computed (f-string, %)")
        value = value.value
    if isinstance(value, str):
        if not value.isascii():
            raise Unsupported("a non-ASCII string in an operation")
        return value
    assert isinstance(value, (Sym, App)) and value.sort == STR, value
    return value


class Mismatch(Exception):
    """A string meeting an operand of another type: Python's TypeError
    (the evaluator raises it; the message names types: not asserted)."""


def _type_error(*values: object) -> Exception:
    """TypeError, unless an operand is an object or list (which may define
    the operator)."""
    if any(isinstance(v, Addr) for v in values):
        return Unsupported("operators between strings and lists or objects")
    return Mismatch()


def binary(op: str, left: object, right: object) -> Term:
    """`left op right` where an operand is a string."""
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
    if not (is_str(left) and is_str(right)):
        raise _type_error(left, right)  # "a" + 1, "a" < 1; "a" * 3 is not modelled
    a, b = as_str(left), as_str(right)
    if op == "add":
        return T.apply("concat", a, b)
    if op in ("lt", "le", "gt", "ge"):
        return T.relation(op, a, b)
    if op in _ON_STRINGS:
        return T.apply(op, a, b)
    raise Unsupported(f"operator {op} on strings")


def unary(op: str, value: object) -> Term:
    """The string operator `op` (or a type test) applied to `value`."""
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
    return T.apply(op, as_str(value))


def _slice(heap: Heap, s: Term, n: Term, bounds: tuple[object, ...]) -> list[HeapResult]:
    """`s[a:b]`: each bound None (the end), or from the end when negative,
    then clamped into [0, len(s)] (an `ite` term: no fork)."""
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
    (index,) = args
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
