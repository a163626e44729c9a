"""The heap solver (`--heap symbolic`): aliasing as disjunction.

Paper 003, Section 3, keeps what aliasing implies in the constraint store
instead of branching on it. Here every input object cell gets an identity
term `id(x)` (a positive int; `None` is 0, objects created by the run have
no identity term and never alias an input). Input references are
materialized as under `lazy-noalias` (None or a fresh cell, never an
existing one), and aliasing becomes equality of identities:

* consistency: for two input cells p, q of compatible classes, the path
  gets `id(p) = id(q) -> p.f = q.f` for each field both know (reference
  fields compare identities), so equal identities mean one object;
  cells of incompatible classes get `id(p) != id(q)`;
* writes to input objects go to a log per field; reading `x.f` on an input
  cell yields `ite(id(x) = id(w_n), v_n, ... ite(id(x) = id(w_1), v_1, x.f))`
  over the writes `w_i.f = v_i`: no branch (backward and forward
  propagation are then Z3's business);
* `x is z` on input cells is the term `id(x) = id(z)`: the program's own
  branch is the only place where aliasing splits the tree.

A read whose candidates are different *references* (a reference field
written through a possibly aliased object) still forks, one child per
candidate under its condition: a value of this engine is one cell.
Lists keep the shapes of the lazy models (arrays with a symbolic length
for ints, symbolic indices without branching).

Heap assumptions restrict input heaps for every model: `non-aliasing(a,b)`,
`non-sharing(a,b)` (no object reachable from both), `acyclic(a)`.
"""

from __future__ import annotations

from dataclasses import replace

from pathcraft.heap.assumptions import Assumptions, ancestors, root_of
from pathcraft.heap.base import HeapResult, is_scalar, set_attribute_error
from pathcraft.heap.cells import Addr, Heap, Lazy, ObjectCell
from pathcraft.heap.lazy import LazyHeap
from pathcraft.ir.nodes import Program
from pathcraft.solver import terms as T
from pathcraft.solver.terms import INT, Sym, Term


class SymbolicHeap(LazyHeap):
    def __init__(self, program: Program, max_list_length: int = 3,
                 assumptions: Assumptions = Assumptions()) -> None:
        super().__init__(program, aliasing=False, max_list_length=max_list_length, assumptions=assumptions)
        self.name = "symbolic"

    # ----------------------------------------------------- identities

    def identity(self, heap: Heap, value: object) -> Term | None:
        """0 for None, the identity term of an input cell, None otherwise."""
        if value is None:
            return 0
        if isinstance(value, Addr):
            return heap.ids.get(value.id)
        return None

    def logged_identity(self, heap: Heap, obj: Addr) -> Term | None:
        """An input object's identity: its writes go to the log."""
        return heap.ids.get(obj.id)

    def ref_eq(self, heap: Heap, a: object, b: object) -> Term:
        if a == b:
            return True
        ida, idb = self.identity(heap, a), self.identity(heap, b)
        if ida is None or idb is None:
            return False  # a new object is only itself
        return T.eq(ida, idb)

    # ------------------------------------------------ materialization

    def _fresh_object(self, heap: Heap, cls: str, label: str) -> tuple[Heap, Addr]:
        heap, addr = super()._fresh_object(heap, cls, label)
        ident = Sym(f"id({label})", INT)
        heap = replace(heap, ids={**heap.ids, addr.id: ident}).constrain(T.relation("gt", ident, 0))
        cell = heap.cell(addr)
        assert isinstance(cell, ObjectCell)
        constraints: list[Term] = []
        for other_id, other in heap.initial.items():
            if other_id == addr.id or not isinstance(other, ObjectCell):
                continue
            other_ident = heap.ids[other_id]
            if not self._may_alias(cls, label, other.cls, other.label):
                constraints.append(T.ne(ident, other_ident))
                continue
            same = T.eq(ident, other_ident)
            for name, value in cell.fields.items():
                if name in other.fields:
                    agree = self._agree(heap, value, heap.current(other.fields[name]))
                    if agree is not True:
                        constraints.append(T.or_(T.not_(same), agree))
        return heap.constrain(*constraints), addr

    def _may_alias(self, cls: str, label: str, other_cls: str, other_label: str) -> bool:
        if not (self.program.is_subclass(cls, other_cls) or self.program.is_subclass(other_cls, cls)):
            return False
        return self.allowed_alias(label, other_label)

    def _agree(self, heap: Heap, a: object, b: object) -> Term:
        """The two initial field values are equal (None if unknown yet)."""
        if isinstance(a, Lazy) or isinstance(b, Lazy):
            return True  # decided when the later of the two is read
        ia, ib = self.identity(heap, a), self.identity(heap, b)
        if ia is not None and ib is not None:
            return T.eq(ia, ib)
        if is_scalar(a) and is_scalar(b):
            return T.eq(a, b)
        return a == b  # references (compared above by identity) or strings

    # ---------------------------------------------------------- fields

    def get_field(self, heap: Heap, obj: object, field: str) -> list[HeapResult]:
        ident = self.identity(heap, obj)
        if ident is None or not isinstance(obj, Addr):
            return super().get_field(heap, obj, field)
        out: list[HeapResult] = []
        cell = heap.cell(obj)
        lazy = isinstance(cell, ObjectCell) and isinstance(heap.current(cell.fields.get(field)), Lazy)
        for base in super().get_field(heap, obj, field):
            if base.exc is not None:  # not in the cell as made: an attribute a write may have added since
                out.extend(self._written_since(heap, ident, field, base))
                continue
            h = self._link_field(base.heap, obj, field, base.value, lazy)
            out.extend(self._through_writes(h, ident, field, base.value))
        return out

    def _link_field(self, heap: Heap, obj: Addr, field: str, value: object, lazy: bool) -> Heap:
        """A field just materialized (`lazy`: a reference, or a scalar that
        may be None, `label: int | None`) must agree with the same field of
        every cell that may be the same object. Any other scalar field was
        materialized with its cell, which agreed then with every other
        cell's (`_fresh_object`): nothing to add."""
        if not lazy and not (value is None or isinstance(value, Addr)):
            return heap
        ident = heap.ids[obj.id]
        cell = heap.initial[obj.id]
        assert isinstance(cell, ObjectCell)
        constraints = []
        for other_id, other in heap.initial.items():
            if other_id == obj.id or not isinstance(other, ObjectCell) or field not in other.fields:
                continue
            theirs = heap.current(other.fields[field])
            if isinstance(theirs, Lazy):
                continue
            if not self._may_alias(cell.cls, cell.label, other.cls, other.label):
                continue
            agree = self._agree(heap, value, theirs)
            if agree is not True:
                constraints.append(T.or_(T.not_(T.eq(ident, heap.ids[other_id])), agree))
        if isinstance(value, Addr) and value.id in heap.ids:
            for root in self.assumptions.acyclic:
                child = heap.initial[value.id]
                if root_of(child.label) == root:
                    for label in ancestors(child.label) + [cell.label]:
                        for other_id, other in heap.initial.items():
                            if other.label == label and other_id in heap.ids:
                                constraints.append(T.ne(heap.ids[value.id], heap.ids[other_id]))
        return heap.constrain(*constraints)

    def _written_since(self, heap: Heap, ident: Term, field: str, missing: HeapResult) -> list[HeapResult]:
        """A field the input object lacked when made (an attribute its code
        adds, `self._cache = {}`): the value of the last write to this
        object, one child per candidate writer, else the read's error."""
        out, missed = _by_writer(heap, ident, field)
        before = missing.constraint
        out.append(replace(missing, constraint=missed if before is None else T.and_(before, missed)))
        return [r for r in out if r.constraint is not False]

    def _through_writes(self, heap: Heap, ident: Term, field: str, base: object) -> list[HeapResult]:
        writes = heap.writes.get(field, ())
        if not writes:
            return [HeapResult(heap, base)]
        if is_scalar(base) and all(is_scalar(v) for _, v in writes):
            value: Term = base
            for writer, written in writes:
                assert is_scalar(written)
                value = T.ite(T.eq(ident, writer), written, value)
            return [HeapResult(heap, value)]
        out, missed = _by_writer(heap, ident, field)  # a reference: one child per candidate
        out.append(HeapResult(heap, base, missed))
        return [r for r in out if r.constraint is not False]

    def set_field(self, heap: Heap, obj: object, field: str, value: object) -> list[HeapResult]:
        ident = self.identity(heap, obj)
        if ident is None or not isinstance(obj, Addr):
            return super().set_field(heap, obj, field, value)
        cell = heap.cell(obj)
        if not isinstance(cell, ObjectCell):
            return [HeapResult(heap, exc=set_attribute_error(obj, heap, field))]
        log = heap.writes.get(field, ()) + ((ident, value),)
        return [HeapResult(replace(heap, writes={**heap.writes, field: log}))]


def _by_writer(heap: Heap, ident: Term, field: str) -> tuple[list[HeapResult], Term]:
    """A read of `field` through the writes logged to inputs: the value of
    each write under the condition that it is the last to this object, and
    the condition that none was."""
    out = []
    later_miss: Term = True
    for writer, written in reversed(heap.writes.get(field, ())):
        hit = T.eq(ident, writer)
        out.append(HeapResult(heap, written, T.and_(hit, later_miss)))
        later_miss = T.and_(later_miss, T.not_(hit))
    return out, later_miss
