"""Values a test writes as a constructor call, in the worker.

Plain data (`wire.py`) is written as a literal. Much of what libraries take
and return is not plain: `Decimal`, `Fraction`, dates and times, enum
members, named tuples, dataclasses, and the package's own objects. Such a
value crosses the process boundary as a *recipe*: the class to call (by
module and qualified name) and the arguments, themselves in wire form,
and a test writes it as that call (`decimal.Decimal('1.5')`,
`version.Version('1.0')`).

A recipe comes from one of two places. An object the search built from a
class's constructor (`search.py`) is `record`ed with the call that built
it. Any other value is asked of the registry of value kinds below (one
function per kind, from the value to its call); a function that its module
binds under its own name (`len`, `operator.add`), or a class, is written
as that name. Either way the recipe is
kept only when the value it builds again here is the same value: same
type, same `repr`, and equal (`==`); for an argument, a value unequal to
itself on both sides (a NaN) counts as the same. A class whose objects are
equal only to themselves therefore gives no recipe for a result: the test
would compare two objects that are never equal.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import decimal
import enum
import fractions
import importlib
import types
from collections.abc import Callable
from typing import Any

from pathcraft.execute import wire

_recorded: dict[int, tuple[object, Any]] = {}  # id of an object the search built -> (it, its recipe)


class Unbuilt:
    """An object the search could not build (its constructor raised): an
    input holding one is no input."""

    def __init__(self, why: str) -> None:
        self.why = why


def record(made: object, recipe: Any) -> None:
    """`made` was built by the call `recipe` (the object is held, so that
    its id is not reused while the record lasts)."""
    _recorded[id(made)] = (made, recipe)


def forget() -> None:
    """Drop the records (between searches: an object of one is no argument of the next)."""
    _recorded.clear()


def class_path(kind: type) -> list[str]:
    """`[module, qualname]` naming `kind` where a test can import it; NotPlain
    when it cannot (a class defined in a function, or not under that name)."""
    module, qualname = getattr(kind, "__module__", None), getattr(kind, "__qualname__", "")
    if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname or module == "__main__":
        raise wire.NotPlain(f"a {qualname or kind!r} a test cannot name")
    try:
        found = _named((module, qualname))
    except Exception:  # noqa: BLE001  (not reachable by its name)
        raise wire.NotPlain(f"a {qualname} a test cannot name") from None
    if found is not kind:
        raise wire.NotPlain(f"a {qualname} a test cannot name")
    return [module, qualname]


def function_path(function: Any) -> list[str]:
    """`[module, qualname]` naming a function where a test can import it
    (`operator.add` rather than its home `_operator.add`); NotPlain when none does."""
    module, qualname = getattr(function, "__module__", None), getattr(function, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str) or "<" in qualname:
        raise wire.NotPlain("a function a test cannot name")
    for home in ([module[1:]] if module.startswith("_") else []) + [module]:
        with contextlib.suppress(Exception):
            if _named((home, qualname)) is function:
                return [home, qualname]
    raise wire.NotPlain(f"a function {qualname} a test cannot name")


def encode(value: object, argument: bool = False) -> Any:
    """`value` in wire form, a recipe where it is not plain (see the module
    docstring; `argument`: a value passed to the code rather than returned)."""
    return wire.encode(value, extend=lambda v, depth: _recipe(v, depth, argument))


def _recipe(value: object, depth: int, argument: bool) -> Any:
    if type(value) is Unbuilt:
        raise wire.NotPlain(value.why)
    found = _recorded.get(id(value))
    if found is not None and found[0] is value:
        recipe = found[1]
        if argument:  # built by this very call: the test builds it the same way
            return recipe
    else:
        recipe = _from_kind(value, depth, argument)
    if not _same(build(recipe), value, argument):
        raise wire.NotPlain(f"a {type(value).__qualname__} its constructor does not rebuild")
    return recipe


def _same(again: object, value: object, argument: bool) -> bool:
    try:
        if type(again) is not type(value) or repr(again) != repr(value):
            return False
        # both ways: a test asks `result == rebuilt`, and an `__eq__` need not be symmetric
        return bool(again == value) and bool(value == again) or argument and bool(again != again) and bool(
            value != value)
    except Exception:  # noqa: BLE001  (an __eq__ or __repr__ that raises: no recipe)
        return False


def _from_kind(value: object, depth: int, argument: bool) -> Any:
    kind = type(value)  # asked of the type: the object's own `__class__` may be anything
    if issubclass(kind, enum.Enum):
        name = value.name  # type: ignore[attr-defined]
        if not isinstance(name, str) or not name.isidentifier() or getattr(kind, name, None) is not value:
            raise wire.NotPlain(f"a {kind.__qualname__} member without a name of its own")
        return ["member", class_path(kind), name]
    if issubclass(kind, (types.BuiltinFunctionType, types.FunctionType)):  # a function by its name
        return ["global", function_path(value)]
    if issubclass(kind, type):  # a class, by its name
        return ["global", class_path(value)]  # type: ignore[arg-type]
    for base, parts in _KINDS:
        if kind is base:
            positional, keywords = parts(value)
            return call(base, positional, keywords, depth, argument)
    if issubclass(kind, tuple) and isinstance(getattr(kind, "_fields", None), tuple):  # a named tuple
        return call(kind, list(value), {}, depth, argument)  # type: ignore[call-overload]
    if dataclasses.is_dataclass(kind) and not issubclass(kind, type):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(kind) if f.init}
        return call(kind, [], fields, depth, argument)
    raise wire.NotPlain(f"a {kind.__qualname__}")


def call(kind: type, positional: list[Any], keywords: dict[str, Any], depth: int, argument: bool) -> Any:
    """The recipe `kind(*positional, **keywords)`, its arguments encoded."""
    def inner(item: object) -> Any:
        return wire.encode(item, depth + 1, extend=lambda v, d: _recipe(v, d, argument))

    return ["call", class_path(kind), [inner(v) for v in positional],
            [[name, inner(v)] for name, v in keywords.items()]]


def build(recipe: Any) -> object:
    """The value `recipe` (wire form) describes, built here."""
    return wire.decode(recipe, make=Builder())


class Builder:
    """Builds what a recipe names by importing its module (the worker only)."""

    def call(self, path: tuple[str, str], positional: list[object], keywords: dict[str, object]) -> object:
        return _named(path)(*positional, **keywords)

    def member(self, path: tuple[str, str], name: str) -> object:
        return getattr(_named(path), name)

    def named(self, path: tuple[str, str]) -> object:
        return _named(path)


def _named(path: tuple[str, str]) -> Any:
    found: Any = importlib.import_module(path[0])
    for part in path[1].split("."):
        found = getattr(found, part)
    return found


def _datetime(value: Any) -> tuple[list[Any], dict[str, Any]]:
    fields = [value.year, value.month, value.day, value.hour, value.minute, value.second, value.microsecond]
    return fields, _zone(value)


def _time(value: Any) -> tuple[list[Any], dict[str, Any]]:
    return [value.hour, value.minute, value.second, value.microsecond], _zone(value)


def _zone(value: Any) -> dict[str, Any]:
    return {"tzinfo": value.tzinfo} if value.tzinfo is not None else {}


# the value kinds a recipe is read from: the exact type, and the call's arguments for a value of it
_KINDS: tuple[tuple[type, Callable[[Any], tuple[list[Any], dict[str, Any]]]], ...] = (
    (decimal.Decimal, lambda v: ([str(v)], {})),
    (fractions.Fraction, lambda v: ([v.numerator, v.denominator], {})),
    (datetime.date, lambda v: ([v.year, v.month, v.day], {})),
    (datetime.datetime, _datetime),
    (datetime.time, _time),
    (datetime.timedelta, lambda v: ([v.days, v.seconds, v.microseconds], {})),
    (datetime.timezone, lambda v: ([v.utcoffset(None)], {})),
    (float, lambda v: ([repr(v)], {})),  # inf, -inf, nan (a finite float is plain data)
    (complex, lambda v: ([v.real, v.imag], {})),
    (range, lambda v: ([v.start, v.stop, v.step], {})),
    (bytearray, lambda v: ([bytes(v)], {})),
)
