"""Heap models by lazy initialization: `lazy-noalias` and `lazy`.

Input references are materialized when they are first loaded (a parameter
at entry, a field of an input object when read): the state forks into one
child per choice -- `None` (if the type allows it), each type-compatible
input object already materialized (only under `lazy`: aliasing), and a fresh
input object whose int/bool fields are fresh symbols and whose reference
fields are `Lazy` until read. Paper 003, Section 1, describes the method and
its explosion; the `symbolic` heap solver is meant to sit behind the same
interface.

Every operation returns a list of `HeapResult`s: the possible outcomes, each
with the heap after it, a value, an optional constraint on the path (a
symbolic index in range, say) and an optional exception.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from pathcraft.errors import Unsupported
from pathcraft.heap.assumptions import Assumptions
from pathcraft.heap.base import (
    HeapResult,
    HeapValue,
    ListOpName,
    attribute_error,
    set_attribute_error,
    is_scalar,
    list_type_error,
    type_name,
    uncertain_attribute,
)
from pathcraft.heap import dicts
from pathcraft.heap import deques
from pathcraft.heap.dictops import DictOps
from pathcraft.heap.cells import Addr, DictCell, Heap, Lazy, ListCell, ObjectCell
from pathcraft.heap.tuples import fresh_tuple
from pathcraft.ir.callables import CANDIDATES
from pathcraft.ir.nodes import EnumMember, Program
from pathcraft.ir.types import Type
from pathcraft.ir.values import ExcValue
from pathcraft.solver import terms as T
from pathcraft.solver.terms import BOOL, INT, Sym, Term

MAX_REPEAT = 4096

# Records a choice for a lazy reference where it was stored.
Update = Callable[[Heap, object], Heap]

SCALAR_KINDS = ("int", "bool", "str", "float")


class LazyHeap(DictOps):
    def __init__(self, program: Program, aliasing: bool, max_list_length: int = 3,
                 assumptions: Assumptions | None = None) -> None:
        self.program = program
        self.aliasing = aliasing
        self.max_list_length = max_list_length
        self.name = "lazy" if aliasing else "lazy-noalias"
        self.assumptions = assumptions if assumptions is not None else Assumptions()

    def ref_eq(self, heap: Heap, a: object, b: object) -> Term:
        """`a is b`: every reference here is one concrete cell."""
        return a == b

    def logged_identity(self, heap: Heap, obj: Addr) -> Term | None:
        """No write log: a write goes into the object's cell."""
        return None

    def allowed_alias(self, label: str, other_label: str) -> bool:
        return self.assumptions.allow_alias(label, other_label)

    # ------------------------------------------------------ materialization

    def materialize(self, heap: Heap, kind: Type, label: str) -> list[tuple[Heap, object]]:
        """The choices for an input reference of type `kind`."""
        choices: list[tuple[Heap, object]] = []
        if kind.kind == "float" and not kind.optional:  # an item of a list of floats: a symbol
            return [(heap, self.fresh_value(kind, label))]
        if kind.optional or kind.kind == "none":
            choices.append((heap, None))
        if kind.kind in SCALAR_KINDS:  # `int | None` (an optional field or tuple item): None or a symbol
            value = self.fresh_value(Type(kind.kind), label)
            choices.append((heap.constrain(T.apply("printable", value)) if kind.kind == "str" else heap,  # type: ignore[arg-type]  # a Sym
                            value))
        if kind.kind == "obj":
            assert kind.cls is not None
            info = self.program.classes.get(kind.cls)
            if info is not None and info.enum:  # an enum class: each member in turn (frontend/enums.py)
                return choices + [(heap, EnumMember(kind.cls, name)) for name, _ in info.members]
            members = [str(t.cls) for t in (kind, *kind.alternatives)]  # a union of classes: each in turn
            if self.aliasing:
                for addr, cell in heap.input_objects():
                    if isinstance(cell, ObjectCell) and any(self.program.is_subclass(cell.cls, m) for m in members) \
                            and self.allowed_alias(label, cell.label):
                        choices.append((heap, addr))
            for member in members:
                for cls in CANDIDATES.get(member, (member,)):  # a callable parameter: each function a test may pass
                    if kind.alternatives and cls not in self.program.classes:
                        continue  # a member of the union the model cannot build: inputs hold the others
                    choices.append(self._fresh_object(heap, cls, label))
        elif kind.kind == "list":
            if self.aliasing:
                for addr, cell in heap.input_objects():
                    if isinstance(cell, ListCell) and cell.elem == kind.elem and not cell.is_tuple \
                            and cell.is_deque == kind.deque and self.allowed_alias(label, cell.label):
                        choices.append((heap, addr))
            fresh = self._fresh_lists(heap, kind, label)
            choices.extend(deques.as_deques(fresh) if kind.deque else fresh)
        elif kind.kind == "tuple":
            choices.extend(fresh_tuple(heap, kind, label, self.max_list_length))
        elif kind.kind in ("dict", "set"):
            if self.aliasing:
                for addr, cell in heap.input_objects():
                    if isinstance(cell, DictCell) and (cell.key, cell.elem) == (kind.key, kind.elem) \
                            and cell.is_set == (kind.kind == "set") and self.allowed_alias(label, cell.label):
                        choices.append((heap, addr))
            choices.extend(dicts.materialize(heap, kind, label, self.max_list_length, self._fresh_entry))
        return choices

    def _fresh_entry(self, heap: Heap, kind: Type, label: str) -> list[tuple[Heap, object]]:
        """The choices for a value of an input dict, materialized with it."""
        if not kind.is_ref:
            return [(heap, self.fresh_value(kind, label))]
        return self.materialize(heap, kind, label)

    def _fresh_object(self, heap: Heap, cls: str, label: str) -> tuple[Heap, Addr]:
        if cls not in self.program.classes:
            raise Unsupported(f"input of class {cls}, which cannot be analysed")
        fields: dict[str, object] = {}
        for klass in reversed(self.program.mro(cls)):
            for name, ftype in self.program.classes[klass].fields:
                fields[name] = self.fresh_value(ftype, f"{label}.{name}")
                if ftype.kind == "str" and not ftype.optional:  # string inputs are printable ASCII (solver/strings.py)
                    heap = heap.constrain(T.apply("printable", fields[name]))  # type: ignore[arg-type]  # a Sym
        return heap.allocate(ObjectCell(cls, fields, "input", label), initial=True)

    @staticmethod
    def fresh_value(kind: Type, label: str) -> object:
        if kind.optional:  # None or a value: chosen when read (`materialize`)
            return Lazy(kind, label)
        if kind.kind == "int":
            return Sym(label, INT)
        if kind.kind == "bool":
            return Sym(label, BOOL)
        if kind.kind == "float":
            return Sym(label, T.FLOAT)
        if kind.kind == "str":
            return Sym(label, T.STR)
        return Lazy(kind, label)

    def _fresh_lists(self, heap: Heap, kind: Type, label: str) -> list[tuple[Heap, object]]:
        elem = kind.elem
        assert elem is not None
        if elem.kind in ("int", "bool"):
            length = Sym(f"len({label})", INT)
            data = Sym(label, T.array_sort(elem.kind))
            cell = ListCell(elem, "input", label, length=length, data=data)
            return [heap.constrain(T.relation("ge", length, 0)).allocate(cell, initial=True)]
        out: list[tuple[Heap, object]] = []
        if elem.kind == "str":  # as many strings as the length, each printable ASCII (solver/strings.py)
            for n in range(self.max_list_length + 1):
                strings = tuple(Sym(f"{label}[{k}]", T.STR) for k in range(n))
                constrained = heap.constrain(*(T.apply("printable", s) for s in strings))
                out.append(constrained.allocate(ListCell(elem, "input", label, items=strings), initial=True))
            return out
        for n in range(self.max_list_length + 1):
            items = tuple(Lazy(elem, f"{label}[{k}]") for k in range(n))
            out.append(heap.allocate(ListCell(elem, "input", label, items=items), initial=True))
        return out

    def _resolve(self, heap: Heap, value: object, update: Update) -> list[tuple[Heap, object]]:
        """`value` itself, or the choices for it if it is `Lazy`; `update`
        records the choice where the lazy reference was stored."""
        if not isinstance(value, Lazy):
            return [(heap, value)]
        if value.label in heap.resolved:
            known = heap.resolved[value.label]
            return [(update(heap, known), known)]
        return [(update(h.resolve(value.label, v), v), v)
                for h, v in self.materialize(heap, value.type, value.label)]

    # -------------------------------------------------------------- objects

    def new_object(self, heap: Heap, cls: str) -> tuple[Heap, Addr]:
        return heap.allocate(ObjectCell(cls, {}, "new", f"new {cls}"))

    def get_field(self, heap: Heap, obj: object, field: str) -> list[HeapResult]:
        if not isinstance(obj, Addr) or not isinstance(heap.cell(obj), ObjectCell):
            return [HeapResult(heap, exc=attribute_error(obj, heap, field))]
        cell = heap.cell(obj)
        assert isinstance(cell, ObjectCell)
        if field not in cell.fields:
            found, default = self.program.class_default(cell.cls, field)
            if found:  # a class attribute stands in for an unset instance attribute
                return [HeapResult(heap, default)]
            if self.program.resolve_method(cell.cls, field):
                raise Unsupported(f"reading method or property '{field}' as a value")
            uncertain = uncertain_attribute(self.program, cell, field)
            if uncertain is not None:
                raise Unsupported(f"reading {uncertain}")
            return [HeapResult(heap, exc=attribute_error(obj, heap, field))]

        def update(h: Heap, chosen: object) -> Heap:
            current = h.cell(obj)
            assert isinstance(current, ObjectCell)
            h = h.with_cell(obj, replace(current, fields={**current.fields, field: chosen}))
            first = h.initial.get(obj.id)
            if isinstance(first, ObjectCell) and isinstance(first.fields.get(field), Lazy):
                h = h.with_initial(obj, replace(first, fields={**first.fields, field: chosen}))
            return h

        return [HeapResult(h, v) for h, v in self._resolve(heap, cell.fields[field], update)]

    def set_field(self, heap: Heap, obj: object, field: str, value: object) -> list[HeapResult]:
        if not isinstance(obj, Addr) or not isinstance(heap.cell(obj), ObjectCell):
            return [HeapResult(heap, exc=set_attribute_error(obj, heap, field))]
        cell = heap.cell(obj)
        assert isinstance(cell, ObjectCell)
        return [HeapResult(heap.with_cell(obj, replace(cell, fields={**cell.fields, field: value})))]

    # ---------------------------------------------------------------- lists

    def new_list(self, heap: Heap, items: tuple[object, ...]) -> tuple[Heap, Addr]:
        return heap.allocate(ListCell(None, "new", "new list", items=items))

    def repeat_list(self, heap: Heap, value: object, count: object) -> list[HeapResult]:
        if not is_scalar(count):
            return [HeapResult(heap, exc=ExcValue("TypeError", None))]
        count = T.as_int(count)
        if isinstance(count, int):
            if count > MAX_REPEAT:
                raise Unsupported(f"[v] * {count}: list longer than {MAX_REPEAT}")
            h, addr = self.new_list(heap, (value,) * max(count, 0))
            return [HeapResult(h, addr)]
        if not is_scalar(value):
            raise Unsupported("[reference] * n with a symbolic n")
        length = T.ite(T.relation("gt", count, 0), count, 0)
        cell = ListCell(None, "new", "new list", length=length, data=T.karray(value))
        h, addr = heap.allocate(cell)
        return [HeapResult(h, addr)]

    def list_op(self, heap: Heap, op: ListOpName, lst: HeapValue, args: tuple[HeapValue, ...]
                ) -> list[HeapResult]:
        cell = heap.cell(lst) if isinstance(lst, Addr) else None
        if not isinstance(cell, ListCell):
            return [HeapResult(heap, exc=list_type_error(op, lst, heap))]
        assert isinstance(lst, Addr)
        if op in ("len", "iter"):  # a loop's own `len` and `get` carry a flag (ignored for lists)
            return [HeapResult(heap, cell.size())]
        if op == "copy":
            h, addr = heap.allocate(replace(cell, origin="new", label="copy"))
            return [HeapResult(h, addr)]
        if op == "append":
            return [HeapResult(self._append(heap, lst, cell, args[0]))]
        if op == "pop":
            if args:
                raise Unsupported("list.pop(index)")
            return self._pop(heap, lst, cell)
        index = args[0]
        if not is_scalar(index):
            message = "list indices must be integers or slices, not " + type_name(index, heap)
            return [HeapResult(heap, exc=ExcValue("TypeError", message))]
        index = T.as_int(index)
        if op == "get":
            return self._get(heap, lst, cell, index)
        if op == "set":
            return self._set(heap, lst, cell, index, args[1])
        raise AssertionError(op)

    def _positions(self, cell: ListCell, index: Term, what: str) -> Iterable[tuple[Term, Term | None]]:
        """(position, constraint) for each way `index` can be in range."""
        size = cell.size()
        if cell.items is not None and isinstance(index, int):
            n = len(cell.items)
            if 0 <= index < n:
                yield index, None
            elif -n <= index < 0:
                yield index + n, None
            return
        if cell.items is not None:
            n = len(cell.items)
            for k in range(n):
                yield k, T.eq(index, k)
            for k in range(n):
                yield k, T.eq(index, k - n)
            return
        yield index, T.and_(T.relation("ge", index, 0), T.relation("lt", index, size))
        yield T.add(index, size), T.and_(T.relation("lt", index, 0), T.relation("ge", index, T.neg(size)))

    @staticmethod
    def _out_of_range(cell: ListCell, index: Term) -> Term:
        size = cell.size()
        return T.or_(T.relation("lt", index, T.neg(size)), T.relation("ge", index, size))

    def _get(self, heap: Heap, lst: Addr, cell: ListCell, index: Term) -> list[HeapResult]:
        out: list[HeapResult] = []
        for position, constraint in self._positions(cell, index, "get"):
            if cell.items is not None:
                assert isinstance(position, int)

                def update(h: Heap, chosen: object, k: int = position) -> Heap:
                    return self._replace_item(h, lst, k, chosen, initial=True)

                for h, v in self._resolve(heap, cell.items[position], update):
                    out.append(HeapResult(h, v, constraint))
            else:
                assert cell.data is not None
                out.append(HeapResult(heap, T.select(cell.data, position), constraint))
        out.append(HeapResult(heap, constraint=self._out_of_range(cell, index),
                              exc=ExcValue("IndexError", "list index out of range")))
        return out

    def _set(self, heap: Heap, lst: Addr, cell: ListCell, index: Term, value: object) -> list[HeapResult]:
        out: list[HeapResult] = []
        for position, constraint in self._positions(cell, index, "set"):
            if cell.items is not None:
                assert isinstance(position, int)
                out.append(HeapResult(self._replace_item(heap, lst, position, value), None, constraint))
            else:
                out.append(HeapResult(self._store(heap, lst, cell, position, value), None, constraint))
        out.append(HeapResult(heap, constraint=self._out_of_range(cell, index),
                              exc=ExcValue("IndexError", "list assignment index out of range")))
        return out

    def _store(self, heap: Heap, lst: Addr, cell: ListCell, position: Term, value: object) -> Heap:
        if not is_scalar(value):
            raise Unsupported("storing a reference in a list of symbolic length")
        assert cell.data is not None
        return heap.with_cell(lst, replace(cell, data=T.store(cell.data, position, value)))

    @staticmethod
    def _replace_item(heap: Heap, lst: Addr, k: int, value: object, initial: bool = False) -> Heap:
        cell = heap.cell(lst)
        assert isinstance(cell, ListCell) and cell.items is not None
        items = list(cell.items)
        items[k] = value
        heap = heap.with_cell(lst, replace(cell, items=tuple(items)))
        first = heap.initial.get(lst.id)
        if initial and isinstance(first, ListCell) and first.items is not None \
                and isinstance(first.items[k], Lazy):
            init_items = list(first.items)
            init_items[k] = value
            heap = heap.with_initial(lst, replace(first, items=tuple(init_items)))
        return heap

    def _append(self, heap: Heap, lst: Addr, cell: ListCell, value: object) -> Heap:
        if cell.items is not None:
            return heap.with_cell(lst, replace(cell, items=cell.items + (value,)))
        assert cell.length is not None
        heap = self._store(heap, lst, cell, cell.length, value)
        current = heap.cell(lst)
        assert isinstance(current, ListCell) and current.length is not None
        return heap.with_cell(lst, replace(current, length=T.add(current.length, 1)))

    def _pop(self, heap: Heap, lst: Addr, cell: ListCell) -> list[HeapResult]:
        empty = ExcValue("IndexError", "pop from empty list")
        if cell.items is not None:
            if not cell.items:
                return [HeapResult(heap, exc=empty)]
            k = len(cell.items) - 1

            def update(h: Heap, chosen: object) -> Heap:
                return self._replace_item(h, lst, k, chosen, initial=True)

            out = []
            for h, v in self._resolve(heap, cell.items[k], update):
                current = h.cell(lst)
                assert isinstance(current, ListCell) and current.items is not None
                out.append(HeapResult(h.with_cell(lst, replace(current, items=current.items[:-1])), v))
            return out
        assert cell.length is not None and cell.data is not None
        last = T.sub(cell.length, 1)
        shorter = heap.with_cell(lst, replace(cell, length=last))
        return [
            HeapResult(shorter, T.select(cell.data, last), T.relation("gt", cell.length, 0)),
            HeapResult(heap, constraint=T.relation("le", cell.length, 0), exc=empty),
        ]
