"""Dicts and sets: entries in insertion order, looked up by comparing keys.

A `DictCell` holds a concrete number of entries, each a key term and a value
(a set has keys only). An input dict of unknown size is materialized once
per size 0..max, its keys fresh symbols constrained pairwise distinct and
its values fresh inputs of the value type, as lists of objects are. A lookup
compares the wanted key with every entry's key: the outcomes are "found at
i" (`key == k_i`) and "missing" (`key != k_j` for all j), mutually exclusive
because keys stay distinct (an insertion happens only on the missing
branch). Where every value is an int or bool term the found outcomes merge
into one, the value an `ite` over the keys, so a read forks at most in two.

Keys are hashable scalars compared by `==` (`True == 1`, as Python's dict
does); None and strings with a known text compare by value; lists, dicts and
sets raise `TypeError: unhashable type`; objects (hashed by identity) drop
the path.

Iteration walks the entries by position; a set only where CPython's order is
certain (see `set_orders`). Python raises RuntimeError on the
next step of a loop whose dict changed size, and misbehaves when its keys
changed at the same size: a loop records the dict's size and version when it
starts (`DictCell.iters`), the first raises, the second drops the path.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace

from pathcraft.errors import Unsupported
from pathcraft.heap.base import HeapResult, Site, is_scalar, type_name
from pathcraft.heap.cells import Addr, DictCell, Heap, ListCell, ViewCell
from pathcraft.ir.nodes import Text
from pathcraft.ir.types import Type
from pathcraft.ir.values import ExcValue
from pathcraft.solver import terms as T
from pathcraft.solver.terms import BOOL, INT, STR, App, Sym, Term

# (heap, type, label) -> the choices for a fresh input of that type
Materializer = Callable[[Heap, Type, str], list[tuple[Heap, object]]]

CHANGED_SIZE = {False: "dictionary changed size during iteration", True: "Set changed size during iteration"}


def materialize(heap: Heap, kind: Type, label: str, max_entries: int,
                fresh: Materializer) -> list[tuple[Heap, object]]:
    """An input dict (or set) of each size 0..`max_entries`."""
    key_type = kind.key if kind.kind == "dict" else kind.elem
    assert key_type is not None
    sort = BOOL if key_type.kind == "bool" else STR if key_type.kind == "str" else INT
    out: list[tuple[Heap, object]] = []
    for n in range(max_entries + 1):
        if sort == BOOL and n > 2:
            break
        keys = tuple(Sym(f"{label}.key{i}", sort) for i in range(n))
        distinct = [T.ne(keys[i], keys[j]) for i in range(n) for j in range(i + 1, n)]
        if sort == STR:  # str inputs are printable ASCII (solver/strings.py)
            distinct += [T.apply("printable", key) for key in keys]
        partial: list[tuple[Heap, tuple[object, ...]]] = [(heap.constrain(*distinct), ())]
        if kind.kind == "dict":
            assert kind.elem is not None
            for i in range(n):
                partial = [(h2, values + (v,)) for h, values in partial
                           for h2, v in fresh(h, kind.elem, f"{label}.value{i}")]
        for h, values in partial:
            cell = DictCell(key_type, kind.elem, "input", label, keys,
                            values if kind.kind == "dict" else None)
            out.append(h.allocate(cell, initial=True))
    return out


# ------------------------------------------------------------------ keys


def hash_error(key: object, heap: Heap) -> ExcValue | None:
    """TypeError for an unhashable key; Unsupported for keys not modelled."""
    if isinstance(key, Addr):
        cell = heap.cell(key)
        if getattr(cell, "is_tuple", False):
            raise Unsupported("a tuple as a dict key")
        if isinstance(cell, (ListCell, DictCell)):
            return ExcValue("TypeError", f"unhashable type: '{type_name(key, heap)}'")
        raise Unsupported("an object or a view as a dict key (hashed by identity)")
    if isinstance(key, Text) and key.value is None:
        raise Unsupported("a string whose text is not computed as a dict key")
    return None


def key_eq(a: object, b: object) -> Term:
    """`a == b` for two hashable keys (a str never equals an int or None)."""
    if is_scalar(a) and is_scalar(b):
        return T.eq(T.as_int(a), T.as_int(b))
    text_a, text_b = _str_key(a), _str_key(b)
    if text_a is not None and text_b is not None:
        return T.eq(text_a, text_b)
    if a is None or b is None or text_a is not None or text_b is not None:
        return a is b or (a is None and b is None)
    raise Unsupported("dict keys of these types")


def _known_key(value: object) -> tuple[str, object] | None:
    """A key whose value is known, in a form Python's own equality of keys
    gives (`True == 1`, a str never equal to an int); None for a symbolic
    key or one of another type (`key_eq` decides those)."""
    if value is None:
        return ("none", None)
    if isinstance(value, (bool, int)):
        return ("int", int(value))
    if isinstance(value, Text):
        return None if value.value is None else ("str", value.value)
    if isinstance(value, str):
        return ("str", value)
    return None


def _str_key(value: object) -> Term | None:
    """A str key as a term of sort STR (a literal's text, or a symbol)."""
    if isinstance(value, Text):
        return value.value
    if isinstance(value, str) or isinstance(value, (Sym, App)) and value.sort == STR:
        return value
    return None


def key_error(key: object) -> ExcValue:
    """KeyError(key): its text is `repr(key)`, certain only for a known key."""
    if isinstance(key, (bool, int)) or key is None:
        return ExcValue("KeyError", repr(key))
    if isinstance(key, Text) and key.value is not None:
        return ExcValue("KeyError", repr(key.value))
    return ExcValue("KeyError", None)


def find(cell: DictCell, key: object) -> list[tuple[int | None, Term]]:
    """(position or None when missing, its condition) for each outcome."""
    out: list[tuple[int | None, Term]] = []
    missing: Term = True
    probe = _known_key(key)
    for i, k in enumerate(cell.keys):
        known = _known_key(k) if probe is not None else None
        if known is not None:  # two known keys: compared as Python would, no term built
            if known == probe:
                return [(i, True)]
            continue
        same = key_eq(key, k)
        if same is False:
            continue
        if same is True:
            return [(i, True)]
        out.append((i, same))
        missing = T.and_(missing, T.not_(same))
    out.append((None, missing))
    return out


def _merged(found: list[tuple[int | None, Term]], cell: DictCell) -> tuple[Term, Term] | None:
    """The found outcomes as one (condition, value) when every candidate
    value is an int/bool term; None otherwise."""
    assert cell.values is not None
    hits = [(i, c) for i, c in found if i is not None]
    if len(hits) < 2 or not all(is_scalar(cell.values[i]) for i, _ in hits):
        return None
    sorts = {T.sort_of(cell.values[i]) for i, _ in hits}  # type: ignore[arg-type]  # scalars
    last_i, _ = hits[-1]
    value: Term = cell.values[last_i]  # type: ignore[assignment]  # scalar
    if len(sorts) > 1:
        value = T.as_int(value)
    condition: Term = False
    for i, c in reversed(hits[:-1]):
        value = T.ite(c, cell.values[i], value)  # type: ignore[arg-type]  # scalar
    for _, c in hits:
        condition = T.or_(condition, c)
    return condition, value


# ----------------------------------------------------------- operations


def dict_cell(heap: Heap, addr: Addr) -> DictCell:
    cell = heap.cell(addr)
    assert isinstance(cell, DictCell)
    return cell


def new(heap: Heap, is_set: bool) -> tuple[Heap, Addr]:
    return heap.allocate(DictCell(None, None, "new", "new set" if is_set else "new dict",
                                  values=None if is_set else ()))


def read(heap: Heap, addr: Addr, key: object, default: object = None, missing_raises: bool = True
         ) -> list[HeapResult]:
    """`d[key]` (KeyError when missing, or a defaultdict's new entry) or
    `d.get(key, default)`."""
    error = hash_error(key, heap)
    if error is not None:
        return [HeapResult(heap, exc=error)]
    cell = dict_cell(heap, addr)
    assert cell.values is not None
    found = find(cell, key)
    if missing_raises and cell.default is not None and found[-1][0] is None:
        *found, (_, condition) = found
        heap_with, made = made_default(heap, cell.default)
        added = write(heap_with, addr, key, made, keep=True)[-1]  # the key is missing: its entry goes last
        return [*_hits(heap, cell, found), HeapResult(added.heap, made, condition)]
    out = _hits(heap, cell, [(i, c) for i, c in found if i is not None])
    for i, condition in found:
        if i is None and missing_raises:
            out.append(HeapResult(heap, exc=key_error(key), constraint=condition))
        elif i is None:
            out.append(HeapResult(heap, default, condition))
    return out


def _hits(heap: Heap, cell: DictCell, found: list[tuple[int | None, Term]]) -> list[HeapResult]:
    """The outcomes of a read that found its key: merged where the values
    are ints or bools."""
    assert cell.values is not None
    merged = _merged(found, cell)
    if merged is not None:
        return [HeapResult(heap, merged[1], merged[0])]
    return [HeapResult(heap, cell.values[i], condition) for i, condition in found if i is not None]


def made_default(heap: Heap, factory: tuple[object, ...]) -> tuple[Heap, object]:
    """What a defaultdict's factory returns: 0, False, a new list, set or dict."""
    kind = factory[0]
    if kind in ("int", "bool"):
        return heap, 0 if kind == "int" else False
    if kind == "list":
        return heap.allocate(ListCell(None, "new", "new list", items=()))
    return new(heap, is_set=kind == "set")


def write(heap: Heap, addr: Addr, key: object, value: object = None, keep: bool = False) -> list[HeapResult]:
    """`d[key] = value`, or (`keep`) `d.setdefault(key, value)` whose
    result is the value now held; for a set, `s.add(key)`."""
    error = hash_error(key, heap)
    if error is not None:
        return [HeapResult(heap, exc=error)]
    cell = dict_cell(heap, addr)
    found = find(cell, key)
    out: list[HeapResult] = []
    hits = [(i, c) for i, c in found if i is not None]
    values = cell.values
    if values is not None and not keep and len(hits) > 1 and is_scalar(value) \
            and all(is_scalar(values[i]) for i, _ in hits):
        updated = list(values)  # one outcome: every candidate entry takes `value` where its key is the one
        condition: Term = False
        for i, c in hits:
            updated[i] = T.ite(c, value, values[i])  # type: ignore[arg-type]  # scalars
            condition = T.or_(condition, c)
        out.append(HeapResult(heap.with_cell(addr, replace(cell, values=tuple(updated))), None, condition))
        hits = []
    for i, c in hits:
        if values is None or keep:
            out.append(HeapResult(heap, None if values is None else values[i], c))
        else:
            changed = values[:i] + (value,) + values[i + 1:]
            out.append(HeapResult(heap.with_cell(addr, replace(cell, values=changed)), None, c))
    missing = found[-1][1] if found[-1][0] is None else None
    if missing is not None:
        grown = replace(cell, keys=cell.keys + (key,), version=cell.version + 1,
                        values=None if values is None else values + (value,),
                        added=cell.added + (key,) if values is None else ())
        out.append(HeapResult(heap.with_cell(addr, grown), value if keep else None, missing))
    return out


def remove(heap: Heap, addr: Addr, key: object, default: object = None, missing_raises: bool = True
           ) -> list[HeapResult]:
    """`del d[key]`, `d.pop(key[, default])`, `s.remove(key)`,
    `s.discard(key)`: the removed value (None for a set), the default, or
    KeyError when missing."""
    error = hash_error(key, heap)
    if error is not None:
        return [HeapResult(heap, exc=error)]
    cell = dict_cell(heap, addr)
    out: list[HeapResult] = []
    for i, condition in find(cell, key):
        if i is None:
            if missing_raises:
                out.append(HeapResult(heap, exc=key_error(key), constraint=condition))
            else:
                out.append(HeapResult(heap, default, condition))
            continue
        values = cell.values
        shrunk = replace(cell, keys=cell.keys[:i] + cell.keys[i + 1:], version=cell.version + 1,
                         values=None if values is None else values[:i] + values[i + 1:])
        out.append(HeapResult(heap.with_cell(addr, shrunk), None if values is None else values[i], condition))
    return out


def contains(heap: Heap, addr: Addr, key: object) -> list[HeapResult]:
    """`key in d`: one outcome, the disjunction over the keys (no fork)."""
    error = hash_error(key, heap)
    if error is not None:
        return [HeapResult(heap, exc=error)]
    cell = dict_cell(heap, addr)
    found: Term = False
    for i, condition in find(cell, key):
        if i is not None:
            found = T.or_(found, condition)
    return [HeapResult(heap, found)]


def copy(heap: Heap, addr: Addr) -> tuple[Heap, Addr]:
    cell = dict_cell(heap, addr)
    return heap.allocate(replace(cell, origin="new", label="copy", iters={}))


def clear(heap: Heap, addr: Addr) -> Heap:
    cell = dict_cell(heap, addr)
    if not cell.keys:
        return heap
    return heap.with_cell(addr, replace(cell, keys=(), values=None if cell.is_set else (),
                                        version=cell.version + 1))


def equal(heap: Heap, a: object, b: object) -> Term:
    """`a == b` where one side is a dict or set: same kind and size, and
    every entry of `a` found in `b` with an equal value (keys are distinct,
    so this is equality). Values that are references are not compared."""
    cells = [heap.cell(x) if isinstance(x, Addr) else None for x in (a, b)]
    if any(isinstance(c, ViewCell) for c in cells):
        raise Unsupported("'==' on dict views")
    left, right = cells
    if not (isinstance(left, DictCell) and isinstance(right, DictCell)) or left.is_set != right.is_set:
        return False  # dict.__eq__ and the other side's give NotImplemented: identity
    if left.size() != right.size():
        return False
    values = [*(left.values or ()), *(right.values or ())]
    if not all(is_scalar(v) for v in values):
        raise Unsupported("'==' on dicts holding references")
    result: Term = True
    for i, key in enumerate(left.keys):
        found: Term = False
        for j, other in enumerate(right.keys):
            same = key_eq(key, other)
            if left.values is not None and right.values is not None:
                same = T.and_(same, T.eq(T.as_int(left.values[i]), T.as_int(right.values[j])))  # type: ignore[arg-type]
            found = T.or_(found, same)
        result = T.and_(result, found)
    return result


# ------------------------------------------------------------- iteration


def underlying(heap: Heap, addr: Addr) -> tuple[Addr, DictCell, str]:
    """The dict a dict or view walks, and what it yields."""
    cell = heap.cell(addr)
    if isinstance(cell, ViewCell):
        return cell.of, dict_cell(heap, cell.of), cell.what
    assert isinstance(cell, DictCell)
    return addr, cell, "keys"


def iter_start(heap: Heap, addr: Addr, site: Site, unordered: bool = False) -> list[HeapResult]:
    """A `for` loop starts walking the dict (or view) at `addr`; with
    `unordered`, a set in the order it holds its keys (for a walk whose
    outcome does not depend on it)."""
    of, cell, _ = underlying(heap, addr)
    iters = {**cell.iters, site: (cell.version, cell.size())}
    if not cell.is_set or cell.size() < 2 or unordered:
        return [HeapResult(heap.with_cell(of, replace(cell, iters=iters)), cell.size())]
    return [HeapResult(heap.with_cell(of, replace(cell, keys=keys, iters=iters)), cell.size(), condition, exc)
            for keys, condition, exc in set_orders(cell)]


SMALL_SET_SLOTS = 8  # the fewest slots a CPython set has


def set_orders(cell: DictCell) -> list[tuple[tuple[object, ...], Term, ExcValue | None]]:
    """The order CPython walks a set in, where it is certain: ints (or
    bools) every one of which, ever added, was in [0, 8) sit each in the slot
    of its own value (a set has 8 slots at least, none taken by another
    key), so the walk is ascending. One outcome per ascending arrangement of
    the keys; the rest (some key outside) is `DROPPED`."""
    if not all(is_scalar(k) for k in (*cell.keys, *cell.added)):
        raise Unsupported("iteration over a set of keys other than ints")
    small: Term = True
    for k in (*cell.keys, *cell.added):
        value = T.as_int(k)  # type: ignore[arg-type]  # scalars
        small = T.and_(small, T.and_(T.relation("ge", value, 0), T.relation("lt", value, SMALL_SET_SLOTS)))
    out: list[tuple[tuple[object, ...], Term, ExcValue | None]] = []
    for order in itertools.permutations(cell.keys):
        ascending: Term = small
        for a, b in zip(order, order[1:]):
            ascending = T.and_(ascending, T.relation("lt", T.as_int(a), T.as_int(b)))  # type: ignore[arg-type]
        if ascending is not False:
            out.append((order, ascending, None))
    out.append((cell.keys, T.not_(small), DROPPED))
    return out


# an outcome the engine drops (and counts) instead of guessing
DROPPED = ExcValue("$unsupported", "iteration over a set whose order CPython does not fix (keys outside [0, 8))")


def iter_more(heap: Heap, addr: Addr, site: Site, certain: bool = True) -> HeapResult:
    """The loop's next step: RuntimeError if the dict changed size since the
    loop started (not `certain` for zip's later arguments: zip may stop
    before it asks them); a change of keys at the same size is not modelled."""
    _, cell, _ = underlying(heap, addr)
    started = cell.iters.get(site)
    if started is None:
        raise Unsupported("a dict walked by a loop that did not start here")
    version, size = started
    if size != cell.size() and not certain:
        raise Unsupported("a dict that changed size while zip walked it")
    if size != cell.size():
        return HeapResult(heap, exc=ExcValue("RuntimeError", CHANGED_SIZE[cell.is_set]))
    if version != cell.version:
        raise Unsupported("a dict whose keys changed while a loop walked it")
    return HeapResult(heap, cell.size())


def walks_items(heap: Heap, addr: Addr) -> bool:
    """Is `addr` an items view (a loop over it takes pairs)?"""
    return underlying(heap, addr)[2] == "items"


def iter_item(heap: Heap, addr: Addr, index: object, part: str) -> HeapResult:
    """Entry `index` (a position the loop checked) of what the loop walks:
    its key or value (`part` for `for k, v in d.items()`)."""
    _, cell, what = underlying(heap, addr)
    if not isinstance(index, int):
        raise Unsupported("a dict walked at a symbolic position")
    if what == "items":
        what = {"key": "keys", "value": "values"}.get(part, "items")
    if what == "items":
        raise Unsupported("the items of a dict as tuples")
    if what == "values":
        assert cell.values is not None
        return HeapResult(heap, cell.values[index])
    return HeapResult(heap, cell.keys[index])


def view_contains(heap: Heap, addr: Addr, item: object) -> list[HeapResult]:
    """`x in d.keys()` / `x in d.values()`."""
    of, cell, what = underlying(heap, addr)
    if what == "keys":
        return contains(heap, of, item)
    if what == "items":
        raise Unsupported("'in' on the items of a dict")
    assert cell.values is not None
    found: Term = False
    for value in cell.values:
        if not (is_scalar(value) and is_scalar(item)):
            raise Unsupported("'in' on the values of a dict of references")
        found = T.or_(found, T.eq(T.as_int(value), T.as_int(item)))
    return [HeapResult(heap, found)]


def is_container(heap: Heap, value: object) -> bool:
    """A dict, set or view (these operations apply)."""
    return isinstance(value, Addr) and isinstance(heap.cell(value), (DictCell, ViewCell))

