"""Heaps of test cases as plain JSON data, from either side.

A *snapshot* describes objects and lists by name:

    {"x": {"class": "Cell", "fields": {"f": 1, "next": {"$ref": "y"}}},
     "a": {"list": [1, 2]}}

values being ints, bools, None, `{"$ref": name}` or tuples of those
(a tuple is a value: written as a literal, never named). The engine side builds
snapshots of a path's input heap (as materialized) and final heap from its
symbolic heap and a model; the replay side builds the real input objects
from the input snapshot and takes a snapshot of the real objects after the
call, by the same traversal, so the two compare with `==`.

Naming: input objects and lists are named after the access path that first
reached them (`x`, `x.next` -> `x_next`); objects created by the call are
`new1`, `new2`, ... in breadth-first order from the result, then from the
input objects in order.
"""

from __future__ import annotations

import enum

import keyword
import re
import importlib
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pathcraft.errors import Unsupported
from pathcraft.heap.base import is_scalar
from pathcraft.solver.floats import is_float
from pathcraft.ir.callables import SOURCES, made_as
from pathcraft.ir.callables import real as real_function
from pathcraft.heap.cells import Addr, Cell, DictCell, GeneratorCell, Heap, Lazy, ListCell, ObjectCell, ViewCell
from pathcraft.heap.readback import ObjectKey, final_fields, object_key
from pathcraft.ir.builtin_names import DICT_ITEMS, MADE_BY, made_call
from pathcraft.ir.nodes import EnumMember, Sentinel, Text
from pathcraft.ir.values import ExcValue
from pathcraft.solver import terms as T
from pathcraft.solver.sorts import ArrayValue
from pathcraft.solver.terms import STR, App, Model, Sym, Term, evaluate, value_of
from pathcraft.testcase.records import NamedValue

Json = Any
MOST_ITEMS = 100_000  # the longest list a test states: a longer one is a dropped path


IDENTIFIER_LIMIT = 40  # a longer name (an object deep in a structure) keeps its first and last two parts


def identifier(label: str, taken: set[str]) -> str:
    """A variable name for `label` (`obj.head.next`), unique among `taken`."""
    text = re.sub(r"\W+", "_", label).strip("_") or "obj"
    if len(text) > IDENTIFIER_LIMIT:
        parts = [p for p in text.split("_") if p]
        text = "_".join(part[:IDENTIFIER_LIMIT // 3] for part in (parts[0], *parts[-2:]))
    if text[0].isdigit() or keyword.iskeyword(text):
        text = "v_" + text
    base, n = text, 1
    while text in taken:
        n += 1
        text = f"{base}_{n}"
    taken.add(text)
    return text


class SymbolicSnapshot:
    """Snapshots of one path's heaps, evaluated in a model.

    Under the symbolic heap several input cells may be one object (equal
    identity terms in the model): they are merged into one named object."""

    def __init__(self, heap: Heap, model: Model, reserved: Iterable[str] = ()) -> None:
        self.heap = heap
        self.model = model
        taken = set(reserved)
        receiver = heap.roots.get("self")
        this = None
        first = heap.initial.get(receiver.id) if isinstance(receiver, Addr) else None
        if isinstance(first, ObjectCell):
            this = first.cls.lower()
        # input cells that are one object share a key; the first one names it
        self.key: dict[int, ObjectKey] = {}
        self.members: dict[ObjectKey, list[int]] = {}
        for addr_id in sorted(heap.initial):
            if _is_tuple(heap.initial[addr_id]):
                continue
            key = object_key(heap, addr_id, model)
            self.key[addr_id] = key
            self.members.setdefault(key, []).append(addr_id)
        self.names: dict[ObjectKey, str] = {}
        for key, members in self.members.items():
            label = heap.initial[members[0]].label
            if this is not None and (label == "self" or label.startswith(("self.", "self["))):
                label = this + label[4:]
            self.names[key] = identifier(label, taken)
        self.taken = taken
        self.blanks: dict[str, Json] = {}
        self._blank_names: dict[str, str] = {}
        self._new_names: dict[int, str] = {}

    def _key(self, addr: Addr) -> ObjectKey:
        return self.key.get(addr.id, ("new", addr.id))

    def value(self, v: object) -> Json:
        v = self.heap.current(v)
        if v is None:
            return None
        if isinstance(v, Sentinel):
            raise Unsupported(f"the sentinel object {v.name} in the result or a changed object (a test cannot name it)")
        if isinstance(v, EnumMember):
            return enum_json(v.cls, v.name)
        if isinstance(v, ExcValue):
            raise Unsupported(f"a {v.type} object in the result or a changed object (its assertion is not written)")
        if isinstance(v, Text):
            if v.value is None:  # an f-string or a %-formatted string: never asserted as something else
                raise Unsupported("a string whose text is not computed, in the result or a changed object")
            return v.value
        if isinstance(v, Addr) and _is_tuple(self.heap.cells[v.id]):
            cell = self.heap.cells[v.id]
            assert isinstance(cell, ListCell)
            if cell.named is not None:
                return NamedValue(cell.named[0], cell.named[1], self._items(cell, "tuple"))
            return tuple(self._items(cell, "tuple"))
        if isinstance(v, Addr):
            if isinstance(self.heap.cells.get(v.id), ViewCell):
                raise Unsupported("a dict view in the result or a changed object")
            if isinstance(self.heap.cells.get(v.id), GeneratorCell):
                raise Unsupported("a generator in the result or a changed object")
            key = self._key(v)
            name = self.names.get(key) or self._new_names.get(v.id)
            assert name is not None, v
            return {"$ref": name}
        if isinstance(v, Lazy):
            return None
        if is_float(v):
            return float(evaluate(v, self.model))  # type: ignore[arg-type]  # a float term
        if isinstance(v, str) or isinstance(v, (Sym, App)) and v.sort == STR:
            return str(value_of(v, self.model))
        assert is_scalar(v), v
        result = evaluate(v, self.model)
        return result if isinstance(result, bool) else int(result)

    def _fields(self, key: ObjectKey, final: bool) -> dict[str, object]:
        return final_fields(self.heap, self.members[key], self.model, final)

    def _describe(self, key: ObjectKey, cell: Cell, owner: str, final: bool) -> Json:
        if isinstance(cell, DictCell):
            keys = [self.value(k) for k in cell.keys]
            if cell.values is None:
                return {"set": set_items(keys)}
            return {"dict": [[k, self.value(v)] for k, v in zip(keys, cell.values)]}
        if isinstance(cell, ViewCell):  # `d.keys()` kept in a field or returned: not written in a test
            raise Unsupported("a dict view in the state after the call (its test would not state it)")
        if isinstance(cell, GeneratorCell):
            raise Unsupported("a generator in the state after the call (its test would not state it)")
        if isinstance(cell, ObjectCell):
            if cell.cls in SOURCES:  # a function a callable parameter takes: the test writes its lambda
                return {"class": cell.cls, "fields": {}, "function": SOURCES[cell.cls]}
            if cell.cls in MADE_BY:  # a lock: the test makes a fresh one, its state the model's own
                return {"class": cell.cls, "fields": {}, "made": made_call(cell.cls)}
            if key in self.members:
                raw = self._fields(key, final)
            else:
                raw = {f: self.heap.current(v) for f, v in cell.fields.items()}
            raw = self._without_empty_items(raw)
            fields = {f: self.value(v) for f, v in sorted(raw.items()) if not isinstance(v, Lazy)}
            return {"class": cell.cls, "fields": fields}
        if cell.is_deque:
            return {"deque": self._items(cell, owner)}
        return {"list": self._items(cell, owner)}

    def _without_empty_items(self, fields: Mapping[str, object]) -> dict[str, object]:
        """An object's fields, without the items of a dict subclass's
        instance when it has none (DICT_ITEMS, models/builtins/dict_base.py:
        made when first needed, where the real object always has a table)."""
        items = self.heap.current(fields.get(DICT_ITEMS))
        cell = self.heap.cells.get(items.id) if isinstance(items, Addr) else None
        if isinstance(cell, DictCell) and not cell.keys:
            return {f: v for f, v in fields.items() if f != DICT_ITEMS}
        return dict(fields)

    def _items(self, cell: ListCell, owner: str) -> list[Json]:
        if cell.items is not None:
            out = []
            for k, item in enumerate(cell.items):
                item = self.heap.current(item)
                if isinstance(item, Lazy):
                    out.append(self._blank(item, f"{owner}_{k}"))
                else:
                    out.append(self.value(item))
            return out
        assert cell.length is not None and cell.data is not None
        n = max(0, int(evaluate(cell.length, self.model)))
        if n > MOST_ITEMS:  # a model may choose a length no test could write (a guard on a float of it)
            raise Unsupported(f"a list of more than {MOST_ITEMS} items in a test")
        data = value_of(cell.data, self.model)
        if isinstance(data, ArrayValue):  # the array read once, not its stores once per item
            table = dict(data.entries)  # (a later entry for an index replaces an earlier one)
            return [item if isinstance(item := table.get(k, data.default), bool) else int(item) for k in range(n)]
        return [self.value(T.select(cell.data, k)) for k in range(n)]

    def _blank(self, item: Lazy, label: str) -> Json:
        """An element the path never read: None when allowed, else an object
        with no field set, an empty list, or a tuple of zeros of the declared
        shape (any value takes the same path)."""
        if item.type.optional:
            return None
        if item.type.kind == "tuple":
            items = enumerate(item.type.items or ())
            return tuple(self._blank(Lazy(t, f"{label}_{k}"), f"{label}_{k}") for k, t in items)
        if item.type.kind in _ZEROS:
            return _ZEROS[item.type.kind]
        if item.type.kind not in ("obj", "list"):
            return None
        name = self._blank_names.get(label)
        if name is None:
            name = identifier(label, self.taken)
            self._blank_names[label] = name
            self.blanks[name] = {"class": item.type.cls, "fields": {}} if item.type.kind == "obj" else \
                {"deque": []} if item.type.deque else {"list": []}
        return {"$ref": name}

    def inputs(self) -> dict[str, Json]:
        """Input snapshot: every input object and list as first materialized."""
        out: dict[str, Json] = {}
        for key, members in self.members.items():
            cell = self.heap.initial[members[0]]
            out[self.names[key]] = self._describe(key, cell, self.names[key], final=False)
        out.update(self.blanks)
        return out

    def final(self, result: object) -> tuple[Json, dict[str, Json]]:
        """The result and the final state of input and reachable new objects."""
        order: list[tuple[ObjectKey, int]] = []
        queue: deque[object] = deque([self.heap.current(result)])
        queue.extend(Addr(members[0]) for members in self.members.values())
        seen: set[ObjectKey] = set()
        while queue:
            v = self.heap.current(queue.popleft())
            if not isinstance(v, Addr):
                continue
            cell = self.heap.cells[v.id]
            if isinstance(cell, ListCell) and cell.is_tuple:  # a value, not named: what it holds may be
                queue.extend(self.heap.current(c) for c in cell.items or ())
                continue
            key = self._key(v)
            if key in seen:
                continue
            seen.add(key)
            if key not in self.names:
                self._new_names[v.id] = f"new{len(self._new_names) + 1}"
            order.append((key, v.id))
            cell = self.heap.cells[v.id]
            if isinstance(cell, ObjectCell):
                fields = self._fields(key, final=True) if key in self.members else cell.fields
                fields = self._without_empty_items(fields)
                queue.extend(self.heap.current(c) for _, c in sorted(fields.items()))
            elif isinstance(cell, DictCell):
                queue.extend(cell.values or ())
            elif isinstance(cell, ListCell):
                queue.extend(self.heap.current(c) for c in cell.items or ())
        objects: dict[str, Json] = {}
        for key, addr_id in order:
            name = self.names.get(key) or self._new_names[addr_id]
            cell = self.heap.cells[addr_id]
            objects[name] = self._describe(key, cell, name, final=True)
        value = self.value(result)  # before the blanks: an unread item of a returned tuple is one
        for name, blank in self.blanks.items():
            objects.setdefault(name, blank)
        return value, objects


# what a blank scalar item of a tuple is written as (any value takes the same path)
_ZEROS: dict[str, Json] = {"int": 0, "bool": False, "str": "", "float": 0.0}


def _is_tuple(cell: object) -> bool:
    return isinstance(cell, ListCell) and cell.is_tuple


ENUM_KEY = "$enum"  # an enum member in a snapshot: `{"$enum": "Color", "member": "RED"}`


def enum_json(cls: str, member: str) -> Json:
    """An enum member as a snapshot names it (frontend/enums.py)."""
    return {ENUM_KEY: cls, "member": member}


def json_value(v: Json) -> Json:
    """A value or snapshot for JSON documents, where a tuple would come
    back a list: `{"$tuple": [...]}`, at any depth."""
    if isinstance(v, tuple):
        return {"$tuple": [json_value(x) for x in v]}
    if isinstance(v, list):
        return [json_value(x) for x in v]
    if isinstance(v, dict):
        return {k: json_value(x) for k, x in v.items()}
    return v


def real_value(v: Json, objects: Mapping[str, Any], classes: Callable[[str], Any] | None = None) -> Any:
    """A value of a snapshot (`json_value`'s encoding or not): objects by
    name, enum members from their classes (`classes`: a name to its class)."""
    if isinstance(v, tuple):
        return tuple(real_value(x, objects, classes) for x in v)
    if isinstance(v, dict) and ENUM_KEY in v:
        assert classes is not None, v
        return getattr(classes(v[ENUM_KEY]), v["member"])
    if isinstance(v, dict):
        return tuple(real_value(x, objects, classes) for x in v["$tuple"]) if "$tuple" in v \
            else objects[v["$ref"]]
    return v


# --------------------------------------------------------------- real side


def build_inputs(snapshot: Mapping[str, Json], classes: Callable[[str], type]) -> dict[str, Any]:
    """Real objects from an input snapshot: instances made without running
    `__init__`, fields set directly, sharing and cycles reproduced."""
    objects: dict[str, Any] = {}
    for name, desc in snapshot.items():
        if "function" in desc:  # a callable parameter's function (models/callables)
            objects[name] = real_function(desc["class"])
        elif "made" in desc:  # a fresh lock (models/threading)
            objects[name] = _FACTORIES[desc["class"]]()
        elif "class" in desc:
            cls = classes(desc["class"])
            maker: Any = next((b for b in cls.__mro__[1:] if b.__module__ == "builtins" and b is not object), object)
            try:
                objects[name] = maker.__new__(cls)  # `class C(dict)`: dict's (object.__new__ refuses it)
            except TypeError:  # `class C(IOBase)`: the standard-library base's own (frontend/library_bases.py)
                made: Any = cls
                objects[name] = made.__new__(cls)
        else:
            objects[name] = {} if "dict" in desc else set() if "set" in desc else \
                deque() if "deque" in desc else []

    def real(v: Json) -> Any:
        return real_value(v, objects, classes)

    for name, desc in snapshot.items():
        if "class" in desc:
            frozen = getattr(getattr(type(objects[name]), "__dataclass_params__", None), "frozen", False) is True
            for field, v in desc["fields"].items():  # a frozen dataclass's fields as its `__init__` sets them
                (object.__setattr__ if frozen else setattr)(objects[name], field, real(v))
        elif "dict" in desc:
            objects[name].update((k, real(v)) for k, v in desc["dict"])
        elif "set" in desc:
            objects[name].update(desc["set"])
        else:
            objects[name].extend(real(v) for v in desc.get("list", desc.get("deque", [])))
    return objects


def real_snapshot(result: Any, inputs: Mapping[str, Any]) -> tuple[Json, dict[str, Json]]:
    """The same traversal as `SymbolicSnapshot.final`, over live objects."""
    names = {id(obj): name for name, obj in inputs.items()}
    _attributes = _attributes_and_items()
    order: list[Any] = []
    new_count = 0
    queue: deque[Any] = deque([result])
    queue.extend(inputs.values())
    seen: set[int] = set()
    while queue:
        v = queue.popleft()
        if isinstance(v, tuple):  # a value, not named: what it holds may be
            queue.extend(v)
            continue
        if isinstance(v, enum.Enum) or not _is_object(v) or id(v) in seen:
            continue
        seen.add(id(v))
        if id(v) not in names:
            new_count += 1
            names[id(v)] = f"new{new_count}"
        order.append(v)
        if _user_class(v):  # `class C(dict)`: an object, its items never modelled (models/builtins)
            queue.extend(value for _, value in sorted(_attributes(v).items()))
        elif isinstance(v, dict):
            queue.extend(v.values())
        elif isinstance(v, (list, deque)):
            queue.extend(v)
        elif not isinstance(v, set):
            queue.extend(value for _, value in sorted(_attributes(v).items()))

    def value(v: Any) -> Json:
        if isinstance(v, tuple):
            return tuple(value(x) for x in v)
        if isinstance(v, enum.Enum):
            return enum_json(type(v).__qualname__, v.name)
        if _is_object(v):
            return {"$ref": names[id(v)]}
        return v

    objects: dict[str, Json] = {}
    for obj in order:
        if _user_class(obj):
            fields = {f: value(x) for f, x in sorted(_attributes(obj).items())}
            objects[names[id(obj)]] = {"class": type(obj).__qualname__, "fields": fields}
        elif isinstance(obj, dict):
            objects[names[id(obj)]] = {"dict": [[k, value(x)] for k, x in obj.items()]}
        elif isinstance(obj, (set, frozenset)):
            objects[names[id(obj)]] = {"set": set_items(obj)}
        elif isinstance(obj, list):
            objects[names[id(obj)]] = {"list": [value(x) for x in obj]}
        elif isinstance(obj, deque):
            objects[names[id(obj)]] = {"deque": [value(x) for x in obj]}
        elif (model := made_as(obj)) is not None:  # a callable parameter's function (models/callables)
            objects[names[id(obj)]] = {"class": model, "fields": {}, "function": SOURCES[model]}
        elif (model := _lock_model(obj)) is not None:  # a lock (models/threading)
            objects[names[id(obj)]] = {"class": model, "fields": {}, "made": made_call(model)}
        else:
            fields = {f: value(x) for f, x in sorted(_attributes(obj).items())}
            objects[names[id(obj)]] = {"class": type(obj).__qualname__, "fields": fields}
    return value(result), objects


def set_items(items: Iterable[Json]) -> list[Json]:
    """The items of a set in one order for both sides (a set has none)."""
    return sorted(items, key=lambda x: (type(x).__name__, x))


def _user_class(v: Any) -> bool:
    """An instance of a class the analysed code derives from a builtin
    container (`class C(dict)`), not the container itself nor the
    standard library's kin (`defaultdict`, `OrderedDict`)."""
    return isinstance(v, (dict, list, set, deque)) and type(v).__module__ not in ("builtins", "collections")


def _lock_model(v: Any) -> str | None:
    """The model class of a `threading` lock (models/threading), if `v` is one."""
    return next((model for model, made in _MADE_TYPES.items() if type(v) is made), None)


# the real factories MADE_BY names, and the types of what they make
_FACTORIES = {model: getattr(importlib.import_module(module), name) for model, (module, name) in MADE_BY.items()}
_MADE_TYPES = {model: type(factory()) for model, factory in _FACTORIES.items()}


def _is_object(v: Any) -> bool:
    if _lock_model(v) is not None:
        return True
    return isinstance(v, (list, dict, set, deque)) or not isinstance(v, type) and (
        hasattr(v, "__dict__") or type(v).__module__ != "builtins" and any(
            "__slots__" in vars(k) for k in type(v).__mro__))


def _attributes_and_items() -> Callable[[Any], dict[str, Any]]:
    """An instance's attributes, and the items of one derived from dict as
    the model holds them (DICT_ITEMS: a dict of them, the same one each
    time it is asked; none when it has no items)."""
    tables: dict[int, dict[Any, Any]] = {}

    def attributes(obj: Any) -> dict[str, Any]:
        found = _own_attributes(obj)
        if isinstance(obj, dict) and dict.__len__(obj):  # the table itself, past the class's own methods
            found[DICT_ITEMS] = tables.setdefault(id(obj), dict(dict.items(obj)))
        return found

    return attributes


def _own_attributes(obj: Any) -> dict[str, Any]:
    """An instance's attributes: its `__dict__`, and the `__slots__` of its
    class and bases that are set (a node class with `__slots__` has no dict)."""
    found = dict(vars(obj)) if hasattr(obj, "__dict__") else {}
    for klass in type(obj).__mro__:
        slots = vars(klass).get("__slots__", ())
        for slot in (slots,) if isinstance(slots, str) else slots:
            if slot not in ("__dict__", "__weakref__") and hasattr(obj, slot):
                found[slot] = getattr(obj, slot)
    return found


def changed(before: Mapping[str, Json], after: Mapping[str, Json]) -> dict[str, Json]:
    """Objects whose fields or items differ after the call (and new ones)."""
    out: dict[str, Json] = {}
    for name, desc in after.items():
        old = before.get(name)
        if old is None:
            out[name] = desc
        elif "fields" in desc:
            diff = {f: v for f, v in desc["fields"].items() if old["fields"].get(f, _MISSING) != v}
            if diff:
                out[name] = {"class": desc["class"], "fields": diff}
        elif desc != old:
            out[name] = desc
    return out


_MISSING = object()


__all__ = ["SymbolicSnapshot", "Term", "build_inputs", "changed", "identifier", "json_value", "real_snapshot",
           "real_value"]
