"""Values across the process boundary: a typed JSON encoding.

Why not pickle: unpickling runs code the data names, and the data comes
from a process running code nobody vetted. Here only plain data crosses:
None, bools, ints, finite floats, strs, bytes, and lists, tuples, sets,
frozensets and dicts of those, each tagged with its exact type (a subclass
of int is no int here: its repr is not a literal). pathcraft rebuilds the
value with the builtin constructors and writes it with its own `repr`, so
the text of a test never comes from the worker.

Three tags go beyond plain data (`recipes.py` makes them in the worker):
`["call", [module, qualname], [args...], [[name, value]...]]`, a value
built by calling a class, `["member", [module, qualname], name]`, an
attribute of a class (an enum member), and `["global", [module,
qualname]]`, a function by its name (`len`, `operator.add`). pathcraft's
process never builds them: it reads them as descriptions (`Made`,
`Member`, `Global`) that a test writes as code, after checking that every
name in them is an identifier.
"""

from __future__ import annotations

import base64
import keyword
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

MAX_DEPTH = 20
MAX_ITEMS = 200  # items of one container: a larger value is not asserted (a test nobody reads)


class NotPlain(Exception):
    """The value is not plain data (see the module docstring)."""


@dataclass(frozen=True)
class Made:
    """A value built by calling `path` (module, qualname) with these arguments."""

    path: tuple[str, str]
    args: tuple[object, ...] = ()
    keywords: tuple[tuple[str, object], ...] = ()


@dataclass(frozen=True)
class Member:
    """The attribute `name` of the class `path` (module, qualname)."""

    path: tuple[str, str]
    name: str


@dataclass(frozen=True)
class Global:
    """The function `path` (module, qualname), by its name."""

    path: tuple[str, str]


class Maker(Protocol):
    """What `decode` turns the tags beyond plain data into."""

    def call(self, path: tuple[str, str], positional: list[object], keywords: dict[str, object]) -> object: ...

    def member(self, path: tuple[str, str], name: str) -> object: ...

    def named(self, path: tuple[str, str]) -> object: ...


class Described:
    """The descriptions `Made` and `Member` (pathcraft's process builds nothing)."""

    def call(self, path: tuple[str, str], positional: list[object], keywords: dict[str, object]) -> object:
        return Made(path, tuple(positional), tuple(keywords.items()))

    def member(self, path: tuple[str, str], name: str) -> object:
        return Member(path, name)

    def named(self, path: tuple[str, str]) -> object:
        return Global(path)


Extend = Callable[[object, int], Any]  # a value that is not plain, its depth -> its wire form, or NotPlain


def encode(value: object, depth: int = 0, extend: Extend | None = None) -> Any:
    """The tagged form of a plain value; of another, what `extend` makes of
    it (NotPlain when there is no `extend`)."""
    if depth > MAX_DEPTH:
        raise NotPlain("too deep")
    kind = type(value)
    if value is None:
        return ["none"]
    if kind is bool:
        return ["bool", value]
    if kind is int:
        return ["int", str(value)]  # as text: JSON readers may round big ints
    if kind is float:
        assert isinstance(value, float)
        if not math.isfinite(value):
            if extend is not None:
                return extend(value, depth)
            raise NotPlain("a float that is not finite")
        return ["float", repr(value)]
    if kind is str:
        return ["str", value]
    if kind is bytes:
        assert isinstance(value, bytes)
        return ["bytes", base64.b64encode(value).decode("ascii")]
    if kind in (list, tuple, set, frozenset):
        assert isinstance(value, (list, tuple, set, frozenset))
        if len(value) > MAX_ITEMS:
            raise NotPlain("too many items")
        items = [encode(v, depth + 1, extend) for v in value]
        if kind in (set, frozenset):
            items.sort(key=repr)  # a stable text, whatever the hash seed
        return [kind.__name__, items]
    if kind is dict:
        assert isinstance(value, dict)
        if len(value) > MAX_ITEMS:
            raise NotPlain("too many items")
        return ["dict", [[encode(k, depth + 1, extend), encode(v, depth + 1, extend)] for k, v in value.items()]]
    if extend is not None:
        return extend(value, depth)
    raise NotPlain(f"a {kind.__qualname__}")


def decode(data: Any, make: Maker | None = None) -> object:
    """The value of a tagged form (ValueError when it is malformed); the
    tags beyond plain data as `make` builds them (by default descriptions)."""
    maker = make or Described()
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise ValueError(f"not a wire value: {data!r:.80}")
    tag = data[0]
    if tag == "none" and len(data) == 1:
        return None
    if len(data) != 2 and tag not in ("member", "call"):
        raise ValueError(f"not a wire value: {data!r:.80}")
    payload = data[1]
    if tag == "bool" and isinstance(payload, bool):
        return payload
    if tag == "int" and isinstance(payload, str):
        return int(payload)
    if tag == "float" and isinstance(payload, str):
        number = float(payload)
        if not math.isfinite(number):
            raise ValueError("a float that is not finite")
        return number
    if tag == "str" and isinstance(payload, str):
        return payload
    if tag == "bytes" and isinstance(payload, str):
        return base64.b64decode(payload.encode("ascii"), validate=True)
    if tag in ("list", "tuple", "set", "frozenset") and isinstance(payload, list):
        items = [decode(item, maker) for item in payload]
        if tag == "list":
            return items
        if tag == "tuple":
            return tuple(items)
        return set(items) if tag == "set" else frozenset(items)
    if tag == "dict" and isinstance(payload, list):
        out: dict[Any, Any] = {}
        for pair in payload:
            if not isinstance(pair, list) or len(pair) != 2:
                raise ValueError("a dict entry that is no pair")
            out[decode(pair[0], maker)] = decode(pair[1], maker)
        return out
    if tag == "global":
        return maker.named(class_path(payload))
    if tag == "member" and len(data) == 3 and isinstance(data[2], str) and is_name(data[2]):
        return maker.member(class_path(payload), data[2])
    if tag == "call" and len(data) == 4 and isinstance(data[2], list) and isinstance(data[3], list):
        keywords: dict[str, object] = {}
        for pair in data[3]:
            if not isinstance(pair, list) or len(pair) != 2 or not isinstance(pair[0], str) or not is_name(pair[0]):
                raise ValueError("a keyword argument that is no name and value")
            keywords[pair[0]] = decode(pair[1], maker)
        return maker.call(class_path(payload), [decode(item, maker) for item in data[2]], keywords)
    raise ValueError(f"not a wire value: {data!r:.80}")


def is_name(text: str) -> bool:
    return text.isidentifier() and not keyword.iskeyword(text)


def class_path(data: Any) -> tuple[str, str]:
    """A class's or function's `[module, qualname]`, each a dotted name (it
    is written into a test)."""
    if not (isinstance(data, list) and len(data) == 2 and all(isinstance(p, str) for p in data)
            and all(is_name(part) for p in data for part in p.split("."))):
        raise ValueError(f"not a class's module and name: {data!r:.80}")
    return data[0], data[1]
