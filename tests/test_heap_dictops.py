"""The dict and set operations of `HeapModel`, on each heap model, called
directly (no run): every model gives the same outcomes, and the models of
`models/dict/semantics.py` reach dicts only through them."""

from __future__ import annotations

import pytest

from pathcraft.errors import Unsupported
from pathcraft.heap.base import HEAP_MODELS, HeapModel, HeapValue
from pathcraft.heap.cells import Addr, DictCell, Heap, ObjectCell, ViewCell
from pathcraft.heap.factory import make_heap_model
from pathcraft.ir.nodes import ClassInfo, Program, Text
from pathcraft.ir.types import Type
from pathcraft.solver import terms as T
from pathcraft.solver.terms import INT, Sym


@pytest.fixture(params=HEAP_MODELS)
def model(request: pytest.FixtureRequest) -> HeapModel:
    return make_heap_model(request.param, Program("m", "m.py", {}, {}))


def _dict(model: HeapModel, *entries: tuple[HeapValue, HeapValue]) -> tuple[Heap, Addr]:
    heap, addr = model.new_dict(Heap(), is_set=False)
    for key, value in entries:
        (written,) = [r for r in model.dict_write(heap, addr, key, value) if r.constraint is not False]
        heap = written.heap
    return heap, addr


def _cell(heap: Heap, addr: Addr) -> DictCell:
    cell = heap.cell(addr)
    assert isinstance(cell, DictCell)
    return cell


def test_new_dict_set_and_defaultdict(model: HeapModel) -> None:
    heap, d = model.new_dict(Heap(), is_set=False)
    heap, s = model.new_dict(heap, is_set=True)
    heap, dd = model.new_dict(heap, is_set=False, default=("int",))
    assert not _cell(heap, d).is_set and _cell(heap, s).is_set
    assert _cell(heap, dd).default == ("int",) and _cell(heap, d).default is None
    assert model.dict_size(heap, d) == 0


def test_write_then_read_a_known_key(model: HeapModel) -> None:
    heap, d = _dict(model, (1, 10), (2, 20))
    assert _cell(heap, d).keys == (1, 2) and model.dict_size(heap, d) == 2
    (found,) = model.dict_read(heap, d, 2)
    assert found.value == 20 and found.constraint is True
    (missing,) = model.dict_read(heap, d, 3)
    assert missing.exc is not None and missing.exc.type == "KeyError" and missing.exc.message == "3"
    (got,) = model.dict_read(heap, d, 3, default=7, missing_raises=False)
    assert got.value == 7 and got.exc is None


def test_a_symbolic_key_reads_one_merged_value_or_misses(model: HeapModel) -> None:
    heap, d = _dict(model, (1, 10), (2, 20))
    k = Sym("k", INT)
    found, missing = model.dict_read(heap, d, k)
    assert found.value == T.ite(T.eq(k, 1), 10, 20)
    assert missing.constraint == T.and_(T.ne(k, 1), T.ne(k, 2))


def test_a_defaultdict_read_adds_the_missing_entry(model: HeapModel) -> None:
    heap, dd = model.new_dict(Heap(), is_set=False, default=("int",))
    (made,) = model.dict_read(heap, dd, 5)
    assert made.value == 0 and _cell(made.heap, dd).keys == (5,)


def test_setdefault_keeps_the_value_held(model: HeapModel) -> None:
    heap, d = _dict(model, (1, 10))
    (kept,) = model.dict_write(heap, d, 1, 99, keep=True)
    assert kept.value == 10 and _cell(kept.heap, d).values == (10,)
    (added,) = model.dict_write(heap, d, 2, 99, keep=True)
    assert added.value == 99 and _cell(added.heap, d).values == (10, 99)


def test_remove_and_pop(model: HeapModel) -> None:
    heap, d = _dict(model, (1, 10), (2, 20))
    (popped,) = model.dict_remove(heap, d, 1)
    assert popped.value == 10 and _cell(popped.heap, d).keys == (2,)
    (missing,) = model.dict_remove(heap, d, Text("a"))
    assert missing.exc is not None and missing.exc.message == "'a'"
    (default,) = model.dict_remove(heap, d, 3, default=0, missing_raises=False)
    assert default.value == 0 and default.exc is None


def test_contains_is_one_outcome(model: HeapModel) -> None:
    heap, d = _dict(model, (1, 10), (2, 20))
    k = Sym("k", INT)
    (found,) = model.dict_contains(heap, d, k)
    assert found.value == T.or_(T.eq(k, 1), T.eq(k, 2))
    (known,) = model.dict_contains(heap, d, 2)
    assert known.value is True


def test_unhashable_keys_raise_type_error(model: HeapModel) -> None:
    heap, d = _dict(model)
    heap, inner = model.new_dict(heap, is_set=True)
    (result,) = model.dict_write(heap, d, inner, 1)
    assert result.exc is not None and result.exc.message == "unhashable type: 'set'"


def test_copy_clear_and_equal(model: HeapModel) -> None:
    heap, d = _dict(model, (1, 10), (2, 20))
    heap, copied = model.dict_copy(heap, d)
    assert copied != d and _cell(heap, copied).keys == (1, 2) and _cell(heap, copied).origin == "new"
    assert model.dict_equal(heap, d, copied) is True
    cleared = model.dict_clear(heap, copied)
    assert model.dict_size(cleared, copied) == 0 and model.dict_size(cleared, d) == 2
    assert model.dict_equal(cleared, d, copied) is False
    assert model.dict_equal(heap, d, None) is False


def test_sets_add_and_discard(model: HeapModel) -> None:
    heap, s = model.new_dict(Heap(), is_set=True)
    (added,) = model.dict_write(heap, s, 3)
    assert _cell(added.heap, s).keys == (3,) and _cell(added.heap, s).added == (3,)
    (gone,) = model.dict_remove(added.heap, s, 4, missing_raises=False)
    assert gone.exc is None and gone.value is None


def test_views_are_live_and_answer_in(model: HeapModel) -> None:
    heap, d = _dict(model, (1, 10))
    heap, keys = model.dict_view(heap, d, "keys")
    heap, values = model.dict_view(heap, d, "values")
    assert heap.cell(keys) == ViewCell(d, "keys")
    (grown,) = model.dict_write(heap, d, 2, 20)
    assert model.dict_size(grown.heap, keys) == 2
    (in_values,) = model.view_contains(grown.heap, values, 20)
    assert in_values.value is True
    (in_keys,) = model.view_contains(grown.heap, keys, 5)
    assert in_keys.value is False


def test_a_loop_walks_entries_and_raises_once_the_size_changed(model: HeapModel) -> None:
    heap, d = _dict(model, (1, 10), (2, 20))
    site = (4, 1)
    (started,) = model.dict_iter_start(heap, d, site)
    assert started.value == 2
    assert model.dict_iter_more(started.heap, d, site).value == 2
    assert model.dict_iter_item(started.heap, d, 1, "step").value == 2
    heap, items = model.dict_view(started.heap, d, "items")
    assert model.dict_iter_item(heap, items, 0, "value").value == 10
    (grown,) = model.dict_write(started.heap, d, 3, 30)
    step = model.dict_iter_more(grown.heap, d, site)
    assert step.exc is not None and step.exc.type == "RuntimeError"
    with pytest.raises(Unsupported):
        model.dict_iter_more(heap, d, (9, 9))  # no loop started there


def test_input_dicts_are_materialized_per_size(model: HeapModel) -> None:
    made = model.materialize(Heap(), Type("dict", key=Type("int"), elem=Type("int")), "d")
    sizes = [_cell(heap, addr).size() for heap, addr in made if isinstance(addr, Addr)]
    assert sizes == [0, 1, 2, 3]


@pytest.mark.parametrize("name", HEAP_MODELS)
def test_only_the_symbolic_heap_logs_writes_to_input_objects(name: str) -> None:
    """The capability the summaries ask for instead of the model's class."""
    program = Program("m", "m.py", {}, {}, classes={"C": ClassInfo("C", None, (("x", Type("int")),), (), 1)})
    model = make_heap_model(name, program)
    (heap, obj), = [(h, a) for h, a in model.materialize(Heap(), Type("obj", cls="C"), "c") if isinstance(a, Addr)]
    assert isinstance(heap.cell(obj), ObjectCell)
    assert (model.logged_identity(heap, obj) is not None) == (name == "symbolic")
    (written,) = model.set_field(heap, obj, "x", 5)
    (read,) = model.get_field(written.heap, obj, "x")
    assert read.value == 5  # through the log, or from the cell
    assert (written.heap.writes != {}) == (name == "symbolic")
