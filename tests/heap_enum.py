"""Small inputs for the enumeration oracle, objects and lists included.

Enumerates every input within bounds: ints from a small range, strs up to
a length over a small alphabet, lists of int up to a length, and object graphs of at most `max_objects` objects in
which each reference slot is None (when the type allows), any existing
object of a compatible class (aliasing and cycles) or a new object. Types
come from the real code's annotations (`typing.get_type_hints`), not from
pathcraft. Inputs are produced as heap snapshots (see
`pathcraft.testcase.heapdesc`) so the same builder makes the real objects.
"""

from __future__ import annotations

import collections.abc
import itertools
import sys
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


# floats tried for a `float` parameter or field: signed zeros, a fraction, an
# integral value, one that does not round-trip in binary, the infinities, nan
FLOATS = (-0.0, 0.0, 0.5, -1.5, 2.0, 0.1, float("inf"), float("-inf"), float("nan"))


# functions tried for a `Callable` parameter: wider than pathcraft's candidates (constants too),
# each of any argument type
FUNCTIONS = (lambda x: x, lambda x: bool(x), lambda x: not x, lambda x: True, lambda x: False)
# for `Callable[[A, B], R]`: wider than pathcraft's candidates (constants, the other order, the first)
FUNCTIONS2 = (lambda x, y: x + y, lambda x, y: y, lambda x, y: x < y, lambda x, y: x == y, lambda x, y: x,
              lambda x, y: y < x, lambda x, y: True, lambda x, y: False)


@dataclass(frozen=True)
class Bounds:
    ints: tuple[int, ...] = tuple(range(-3, 4))
    floats: tuple[float, ...] = FLOATS
    max_objects: int = 3
    max_list: int = 3
    max_object_list: int = 2
    max_dict: int = 2  # entries of a dict or set
    # str inputs: every string up to this length over the alphabet (digits,
    # both cases, a space)
    max_str: int = 3
    alphabet: str = "aB1 z"
    max_str_item: int = 1  # the strings of a list[str]
    # attributes no annotation states (set in `__init__` only), as the test
    # author reads them off the code: (class name, attribute, type or its text)
    unannotated: tuple[tuple[str, str, Any], ...] = ()
    # fields whose annotation names a type pathcraft has no values of: its
    # inputs lack them, as the test author knows (class name, attribute)
    opaque: tuple[tuple[str, str], ...] = ()


def strings(bounds: Bounds) -> list[str]:
    return ["".join(chars) for n in range(bounds.max_str + 1)
            for chars in itertools.product(bounds.alphabet, repeat=n)]


def _unwrap(tp: Any) -> tuple[Any, bool]:
    """(type, optional)"""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        assert len(args) == 1, tp
        return args[0], True
    return tp, False


def _fields(cls: type, bounds: Bounds | None = None) -> list[tuple[str, Any]]:
    hints = typing.get_type_hints(cls)
    for owner, name, tp in bounds.unannotated if bounds is not None else ():
        if owner in (cls.__name__, cls.__qualname__):  # a str is evaluated in the class's module (`"A | B"`)
            hints.setdefault(name, eval(tp, vars(sys.modules[cls.__module__])) if isinstance(tp, str) else tp)  # noqa: S307
    for owner, name in bounds.opaque if bounds is not None else ():
        if owner in (cls.__name__, cls.__qualname__):
            hints.pop(name, None)
    return sorted(hints.items())


Slot = tuple[str, Any, Any]  # (owner name or "$param", field/param name, type)


def enumerate_inputs(params: list[tuple[str, Any]], bounds: Bounds) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Yield (inputs, heap snapshot) pairs covering every input within bounds."""
    slots: list[Slot] = [("$param", name, tp) for name, tp in params]
    yield from _fill(slots, {}, {}, bounds)


def _fill(slots: list[Slot], inputs: dict[str, Any], heap: dict[str, Any],
          bounds: Bounds) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    if not slots:
        yield inputs, heap
        return
    (owner, name, tp), rest = slots[0], slots[1:]
    for value, new_heap, new_slots in _choices(tp, heap, bounds, f"{owner}_{name}".strip("$")):
        if owner == "$param":
            yield from _fill(new_slots + rest, {**inputs, name: value}, new_heap, bounds)
        else:
            desc = new_heap[owner]
            updated = {**new_heap, owner: {**desc, "fields": {**desc["fields"], name: value}}}
            yield from _fill(new_slots + rest, inputs, updated, bounds)


Choice = tuple[Any, dict[str, Any], list[Slot]]


def _choices(tp: Any, heap: dict[str, Any], bounds: Bounds, label: str) -> Iterator[Choice]:
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(members) > 1:  # `int | str`: each member's values (None first when it is one)
            if len(members) < len(typing.get_args(tp)):
                yield None, heap, []
            for member in members:
                yield from _choices(member, heap, bounds, label)
            return
    if isinstance(tp, typing.TypeVar):  # pathcraft's reading: its bound, its first constraint, or Any (an int)
        scope = vars(sys.modules[tp.__module__])
        tp = tp.__bound__ or (tp.__constraints__[0] if tp.__constraints__ else int)
        if isinstance(tp, typing.ForwardRef):
            tp = eval(tp.__forward_arg__, scope)  # noqa: S307  (a name of the fixture's own module)
    tp, optional = _unwrap(tp)
    if tp is Any or tp is object:  # pathcraft's reading: a value of any type will do, an int is the simplest
        tp = int
    if optional and tp in (bool, int, float, str):  # `int | None`: None, then the scalars
        yield None, heap, []
    if tp is bool:
        for b in (False, True):
            yield b, heap, []
        return
    if tp is int:
        for i in bounds.ints:
            yield i, heap, []
        return
    if tp is float:
        for x in bounds.floats:
            yield x, heap, []
        return
    if tp is str:
        for s in strings(bounds):
            yield s, heap, []
        return
    if optional:
        yield None, heap, []
    if tp is collections.abc.Callable or typing.get_origin(tp) is collections.abc.Callable:
        shape = typing.get_args(tp)[:1]
        two = bool(shape) and isinstance(shape[0], list) and len(shape[0]) == 2
        for function in FUNCTIONS2 if two else FUNCTIONS:  # a value, not a heap object: no fields to fill
            yield function, heap, []
        return
    if tp is list:  # a bare `list`: pathcraft takes its items as ints
        tp = list[int]
    if typing.get_origin(tp) is tuple:  # a value, not a heap object: `tuple[int, bool]`, `tuple[int, ...]`
        args = typing.get_args(tp)
        shapes = [args[:1] * n for n in range(bounds.max_list + 1)] if args[-1:] == (Ellipsis,) else [args]
        for shape in shapes:
            yield from _tuple_of(shape, heap, bounds, label)
        return
    if typing.get_origin(tp) in (collections.abc.Sequence, collections.abc.Iterable):  # pathcraft builds lists
        tp = list[typing.get_args(tp)]  # type: ignore[misc]
    if typing.get_origin(tp) is collections.abc.Mapping:
        tp = dict[typing.get_args(tp)]  # type: ignore[misc]
    if tp is dict:  # likewise a bare `dict`
        tp = dict[int, int]
    if tp is set:
        tp = set[int]
    if typing.get_origin(tp) in (dict, set):
        yield from _dicts(tp, heap, bounds, f"d{len(heap)}")
        return
    if typing.get_origin(tp) is collections.deque:  # `deque[int]`: ints or bools, like a list of them
        (elem,) = typing.get_args(tp)
        name = f"l{len(heap)}"
        for n in range(bounds.max_list + 1):
            for items in itertools.product((False, True) if elem is bool else bounds.ints, repeat=n):
                yield {"$ref": name}, {**heap, name: {"deque": list(items)}}, []
        return
    if typing.get_origin(tp) is list:
        (elem,) = typing.get_args(tp)
        elem, _ = _unwrap(elem)
        name = f"l{len(heap)}"
        if elem is str:
            items_of = strings(Bounds(max_str=bounds.max_str_item, alphabet=bounds.alphabet))
            for n in range(bounds.max_object_list + 1):
                for items in itertools.product(items_of, repeat=n):
                    yield {"$ref": name}, {**heap, name: {"list": list(items)}}, []
            return
        if elem in (int, bool, float):
            values = (False, True) if elem is bool else (bounds.floats if elem is float else bounds.ints)
            for n in range(bounds.max_list + 1):
                for items in itertools.product(values, repeat=n):
                    yield {"$ref": name}, {**heap, name: {"list": list(items)}}, []
            return
        for n in range(bounds.max_object_list + 1):
            yield from _object_list(elem, n, heap, bounds, name)
        return
    assert isinstance(tp, type), tp
    for other, desc in heap.items():
        if "class" in desc and issubclass(desc["_cls"], tp):
            yield {"$ref": other}, heap, []
    if sum(1 for d in heap.values() if "class" in d) < bounds.max_objects:
        name = f"o{len(heap)}"
        desc = {"class": tp.__qualname__, "_cls": tp, "fields": {}}
        yield {"$ref": name}, {**heap, name: desc}, [(name, f, t) for f, t in _fields(tp, bounds)]


def _tuple_of(shape: tuple[Any, ...], heap: dict[str, Any], bounds: Bounds, label: str) -> Iterator[Choice]:
    """Every tuple of the item types `shape`: each item as a value of its
    own type (objects named in the heap, their fields slots to fill)."""
    def rec(k: int, items: list[Any], h: dict[str, Any]) -> Iterator[Choice]:
        if k == len(shape):
            yield tuple(items), h, []
            return
        for value, h2, slots in _choices(shape[k], h, bounds, f"{label}_{k}"):
            for done, h3, slots2 in rec(k + 1, items + [value], h2):
                yield done, h3, slots + slots2

    yield from rec(0, [], heap)


def _object_list(elem: type, n: int, heap: dict[str, Any], bounds: Bounds,
                 name: str) -> Iterator[tuple[Any, dict[str, Any], list[Slot]]]:
    def rec(k: int, items: list[Any], h: dict[str, Any]) -> Iterator[tuple[list[Any], dict[str, Any], list[Slot]]]:
        if k == n:
            yield items, h, []
            return
        for value, h2, slots in _choices(elem, h, bounds, f"{name}_{k}"):
            for more, h3, slots2 in rec(k + 1, items + [value], h2):
                yield more, h3, slots + slots2

    reserved = {**heap, name: {"list": []}}  # the items' own names (nested lists) come after this one
    for items, h, slots in rec(0, [], reserved):
        yield {"$ref": name}, {**h, name: {"list": items}}, slots


def _dicts(tp: Any, heap: dict[str, Any], bounds: Bounds, name: str) -> Iterator[Choice]:
    """Dicts (sets) of up to `max_dict` entries: keys a sorted combination
    of distinct small ints or strs of one character at most (their order
    varies too: all permutations),
    values any choice of the value type."""
    args = typing.get_args(tp)
    key_type = args[0]
    keys_box = (False, True) if key_type is bool else \
        tuple(strings(Bounds(max_str=1, alphabet=bounds.alphabet))) if key_type is str else bounds.ints
    for n in range(bounds.max_dict + 1):
        for keys in itertools.permutations(keys_box, n):
            if typing.get_origin(tp) is set:
                if list(keys) != sorted(keys):  # a set has no order of its own
                    continue
                yield {"$ref": name}, {**heap, name: {"set": list(keys)}}, []
                continue

            def rec(k: int, values: list[Any], h: dict[str, Any]) -> Iterator[tuple[list[Any], dict[str, Any],
                                                                                  list[Slot]]]:
                if k == n:
                    yield values, h, []
                    return
                for value, h2, slots in _choices(args[1], h, bounds, f"{name}_{k}"):
                    for more, h3, slots2 in rec(k + 1, values + [value], h2):
                        yield more, h3, slots + slots2

            reserved = {**heap, name: {"dict": []}}
            for values, h, slots in rec(0, [], reserved):
                yield {"$ref": name}, {**h, name: {"dict": [[k, v] for k, v in zip(keys, values)]}}, slots


def clean(heap: dict[str, Any]) -> dict[str, Any]:
    """The snapshot without enumeration bookkeeping."""
    return {n: {k: v for k, v in d.items() if k != "_cls"} for n, d in heap.items()}
