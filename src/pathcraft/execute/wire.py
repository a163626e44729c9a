"""Values across the process boundary: a typed JSON encoding.

Why not pickle: unpickling runs code the data names, and the data comes
from a process running code nobody vetted. Here only plain data crosses:
None, bools, ints, finite floats, strs, bytes, and lists, tuples, sets,
frozensets and dicts of those, each tagged with its exact type (a subclass
of int is no int here: its repr is not a literal). pathcraft rebuilds the
value with the builtin constructors and writes it with its own `repr`, so
the text of a test never comes from the worker.
"""

from __future__ import annotations

import base64
import math
from typing import Any

MAX_DEPTH = 20
MAX_ITEMS = 200  # items of one container: a larger value is not asserted (a test nobody reads)


class NotPlain(Exception):
    """The value is not plain data (see the module docstring)."""


def encode(value: object, depth: int = 0) -> Any:
    """The tagged form of a plain value; NotPlain otherwise."""
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
        items = [encode(v, depth + 1) for v in value]
        if kind in (set, frozenset):
            items.sort(key=repr)  # a stable text, whatever the hash seed
        return [kind.__name__, items]
    if kind is dict:
        assert isinstance(value, dict)
        if len(value) > MAX_ITEMS:
            raise NotPlain("too many items")
        return ["dict", [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]]
    raise NotPlain(f"a {kind.__qualname__}")


def decode(data: Any) -> object:
    """The value of a tagged form (ValueError when it is malformed)."""
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        raise ValueError(f"not a wire value: {data!r:.80}")
    tag = data[0]
    if tag == "none" and len(data) == 1:
        return None
    if len(data) != 2:
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
        items = [decode(item) for item in payload]
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
            out[decode(pair[0])] = decode(pair[1])
        return out
    raise ValueError(f"not a wire value: {data!r:.80}")
