"""What every heap model shares: the interface, the result of an operation,
and Python's names for the values it holds.

The engine talks to a heap model only through `HeapModel`; each operation
returns the list of its possible outcomes (`HeapResult`), one per branch the
model makes (lazy initialization, index cases), each with the heap after it,
a value, an optional constraint on the path and an optional exception.
"""

from __future__ import annotations

import collections
import sys
import types

from dataclasses import dataclass
from typing import Literal, Protocol, TypeGuard, Union, get_args

from pathcraft.errors import Unsupported
from pathcraft.heap.cells import Addr, DictCell, GeneratorCell, Heap, Lazy, ObjectCell, ViewCell
from pathcraft.ir.builtin_names import MODEL_STATE
from pathcraft.ir.nodes import EnumMember, Program, Sentinel, Text
from pathcraft.ir.types import Type
from pathcraft.ir.values import ExcValue
from pathcraft.solver import terms as T
from pathcraft.solver.terms import BOOL, INT, App, Sym, Term

HEAP_MODELS = ("symbolic", "lazy", "lazy-noalias")

# What a heap operation is given and what a cell holds: a term, a reference,
# a string literal, a caught exception, None, or a reference not read yet.
HeapValue = Union[Term, Addr, Text, ExcValue, Lazy, None]
# The list operations a heap model runs itself (`len` and `iter` of a loop too).
ListOpName = Literal["len", "iter", "get", "set", "append", "pop", "copy"]
LIST_OPS: tuple[ListOpName, ...] = get_args(ListOpName)
# dict views (`d.keys()`, ...) and what a loop over a dict reads of an entry
ViewName = Literal["keys", "values", "items"]
Site = tuple[int, int]  # a loop's line and the depth of its frame


@dataclass(frozen=True)
class HeapResult:
    heap: Heap
    value: object = None
    constraint: Term | None = None
    exc: ExcValue | None = None


class HeapModel(Protocol):
    """The operations the engine performs on a heap; `name` is the option
    value that selects the model."""

    name: str

    def materialize(self, heap: Heap, kind: Type, label: str) -> list[tuple[Heap, object]]: ...
    def ref_eq(self, heap: Heap, a: object, b: object) -> Term: ...
    def new_object(self, heap: Heap, cls: str) -> tuple[Heap, Addr]: ...
    def get_field(self, heap: Heap, obj: object, field: str) -> list[HeapResult]: ...
    def set_field(self, heap: Heap, obj: object, field: str, value: object) -> list[HeapResult]: ...
    def new_list(self, heap: Heap, items: tuple[object, ...]) -> tuple[Heap, Addr]: ...
    def repeat_list(self, heap: Heap, value: object, count: object) -> list[HeapResult]: ...
    def list_op(self, heap: Heap, op: ListOpName, lst: HeapValue, args: tuple[HeapValue, ...]
                ) -> list[HeapResult]: ...

    def logged_identity(self, heap: Heap, obj: Addr) -> Term | None:
        """The identity under which the model logs writes to the input
        object `obj` (reads go through the log), or None where writes go
        into the cell itself."""
        ...

    # dicts and sets (`heap/dictops.py` holds the one implementation)
    def new_dict(self, heap: Heap, is_set: bool, default: tuple[object, ...] | None = None
                 ) -> tuple[Heap, Addr]: ...
    def dict_read(self, heap: Heap, d: Addr, key: HeapValue, default: HeapValue = None,
                  missing_raises: bool = True) -> list[HeapResult]: ...
    def dict_write(self, heap: Heap, d: Addr, key: HeapValue, value: HeapValue = None,
                   keep: bool = False) -> list[HeapResult]: ...
    def dict_remove(self, heap: Heap, d: Addr, key: HeapValue, default: HeapValue = None,
                    missing_raises: bool = True) -> list[HeapResult]: ...
    def dict_contains(self, heap: Heap, d: Addr, key: HeapValue) -> list[HeapResult]: ...
    def dict_copy(self, heap: Heap, d: Addr) -> tuple[Heap, Addr]: ...
    def dict_clear(self, heap: Heap, d: Addr) -> Heap: ...
    def dict_equal(self, heap: Heap, a: HeapValue, b: HeapValue) -> Term: ...
    def dict_size(self, heap: Heap, d: Addr) -> int: ...
    def dict_view(self, heap: Heap, d: Addr, what: ViewName) -> tuple[Heap, Addr]: ...
    def view_contains(self, heap: Heap, view: Addr, item: HeapValue) -> list[HeapResult]: ...
    def dict_iter_start(self, heap: Heap, d: Addr, site: Site, unordered: bool = False) -> list[HeapResult]: ...
    def dict_iter_more(self, heap: Heap, d: Addr, site: Site, certain: bool = True) -> HeapResult: ...
    def dict_iter_item(self, heap: Heap, d: Addr, index: HeapValue, part: str) -> HeapResult: ...


def list_op_name(op: str) -> ListOpName:
    """`op` as one of the list operations a heap model runs (the others
    are answered before a heap model is asked; one that is not drops its
    path rather than stopping the run)."""
    for name in LIST_OPS:
        if name == op:
            return name
    raise Unsupported(f"list operation '{op}'")


def is_scalar(value: object) -> TypeGuard[Term]:
    """An int or bool value (constant or term), not a reference or array."""
    if isinstance(value, (int, bool)):
        return True
    return isinstance(value, (Sym, App)) and value.sort in (INT, BOOL)


def type_name(value: object, heap: Heap) -> str:
    """`type(value).__name__` as Python would print it. An exception or a
    regex match as a value has a type whose behaviour the model does not
    follow (a match is subscriptable, an exception has `args`): an error
    that names it is not claimed, the path is dropped."""
    if value is None:
        return "NoneType"
    if isinstance(value, ExcValue):
        raise Unsupported(f"an operation on a {value.type} object (what its type does is not modelled)")
    if isinstance(value, EnumMember):  # its class (models/enum)
        return value.cls.rpartition(".")[2]
    if isinstance(value, Sentinel):
        raise Unsupported(f"an operation on the sentinel object {value.name}")
    if isinstance(value, Addr):
        cell = heap.cell(value)
        if isinstance(cell, DictCell):
            return "set" if cell.is_set else "dict" if cell.default is None else "defaultdict"
        if isinstance(cell, ViewCell):
            return f"dict_{cell.what}"
        if isinstance(cell, GeneratorCell):
            return "generator"
        return cell.cls if isinstance(cell, ObjectCell) else "tuple" if cell.is_tuple else \
            "deque" if cell.is_deque else "list"
    if isinstance(value, (Text, str)) or (isinstance(value, (Sym, App)) and T.sort_of(value) == T.STR):
        return "str"
    if isinstance(value, bool) or (isinstance(value, (Sym, App)) and T.sort_of(value) == BOOL):
        return "bool"
    if isinstance(value, float) or (isinstance(value, (Sym, App)) and T.sort_of(value) == T.FLOAT):
        return "float"
    return "int"


def uncertain_attribute(program: Program, cell: ObjectCell, name: str) -> str | None:
    """Why `cell` lacking attribute `name` is no certain AttributeError, if
    it is not: a special attribute (`__class__`), or one the class binds to
    values not modelled, on an input object (the tests build inputs without
    running the class's code). The path is then dropped, never guessed."""
    if name.startswith("__") and name.endswith("__"):
        return f"special attribute '{name}'"
    if name.startswith(MODEL_STATE):  # a model's own state: an input is made without it (DICT_ITEMS, a lock)
        return None
    if cell.origin == "input" and program.class_binds(cell.cls, name):
        return f"attribute '{name}', which the class sets to values not modelled"
    if program.body_binds(cell.cls, name):  # a class attribute: any instance has it (`_update = update`)
        return f"attribute '{name}', which the class body binds to a value not modelled"
    return None


def called_field(program: Program, cell: ObjectCell, name: str) -> str | None:
    """`obj.name(...)` where `name` is no method but a field the class
    stores (`self.fn = function`): Python calls the stored value, which
    the model does not follow (the path is dropped, never an AttributeError)."""
    if name in cell.fields or any(name in dict(program.classes[k].fields) for k in program.mro(cell.cls)):
        return f"attribute '{name}', a value the {cell.cls} stores (calling it is not modelled)"
    return None


# the builtin types `type_name` names, for asking whether one has an attribute
_BUILTIN_TYPES: dict[str, type] = {
    "NoneType": type(None), "list": list, "tuple": tuple, "dict": dict, "set": set, "str": str, "int": int,
    "float": float, "bool": bool, "generator": types.GeneratorType, "deque": collections.deque,
    "defaultdict": collections.defaultdict, "dict_keys": type({}.keys()), "dict_values": type({}.values()),
    "dict_items": type({}.items()),
}


def builtin_type(value: object, heap: Heap) -> type | None:
    """The Python type of a value of a builtin kind (None: an object of a
    class of the module, or a kind without one here)."""
    return _BUILTIN_TYPES.get(type_name(value, heap))


def attribute_error(value: object, heap: Heap, field: str) -> ExcValue:
    """Python's AttributeError for `value.field`; a path that reads what a
    builtin value has but the model does not follow (`files.append` as a
    value, a bound method) is dropped instead of claiming the error."""
    name = type_name(value, heap)
    real = _BUILTIN_TYPES.get(name)
    if real is not None and hasattr(real, field):
        raise Unsupported(f"reading {name}.{field} (a builtin value's attribute, not modelled)")
    return ExcValue("AttributeError", f"'{name}' object has no attribute '{field}'")


def set_attribute_error(value: object, heap: Heap, field: str) -> ExcValue:
    """`value.field = x` on None, a number or a builtin container: Python
    3.13 says more. An attribute the builtin type has is no such error
    (`d.default_factory = None` sets it; `xs.append = f` is read-only,
    another message): the path is dropped."""
    name = type_name(value, heap)
    real = _BUILTIN_TYPES.get(name)
    if real is not None and hasattr(real, field):
        raise Unsupported(f"setting {name}.{field} (a builtin value's attribute, not modelled)")
    tail = " and no __dict__ for setting new attributes" if sys.version_info >= (3, 13) else ""
    return ExcValue("AttributeError", f"'{name}' object has no attribute '{field}'{tail}")


def list_type_error(op: str, value: object, heap: Heap) -> ExcValue:
    """The TypeError (or AttributeError) of a list operation on a non-list."""
    name = type_name(value, heap)
    if op == "iter":
        return ExcValue("TypeError", f"'{name}' object is not iterable")
    if op == "len":
        return ExcValue("TypeError", f"object of type '{name}' has no len()")
    if op in ("get", "set"):
        verb = "is not subscriptable" if op == "get" else "does not support item assignment"
        return ExcValue("TypeError", f"'{name}' object {verb}")
    return ExcValue("AttributeError", f"'{name}' object has no attribute '{op}'")
