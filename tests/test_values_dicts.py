"""Dicts and sets: literals, lookups with KeyError, get/setdefault/pop,
`in`, `del`, loops over keys, values and items (RuntimeError when the dict
changes size), dict-valued parameters and fields, sets of ints — checked
against the real code (replay of every generated test, and enumeration of
small inputs), plus unit tests of the heap operations."""

from __future__ import annotations

from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, missed_heap_paths, replay_mismatches

from pathcraft.errors import Unsupported
from pathcraft.frontend import translate
from pathcraft.heap import dicts
from pathcraft.heap.cells import Addr, DictCell, Heap
from pathcraft.ir.nodes import Text
from pathcraft.solver import terms as T
from pathcraft.solver.terms import INT, Sym

DICTS = Path(__file__).resolve().parent / "fixtures" / "values" / "dicts.py"
NAMES = [
    "tally", "most_common", "inverse", "price_of", "memo_lookup", "degree", "neighbours_sum", "remove_small",
    "drain", "group_sizes", "take", "deposit", "keys_total", "has_value", "distinct", "first_repeat", "forget",
    "table", "bare", "smallest_two", "union_size", "uniq_count", "overlap", "merged",
    "same_counts", "is_empty_table", "pairs_back", "backwards_set", "letter_groups", "default_counts",
    "walk_and_default", "positions", "residues", "swapped", "sorted_keys", "lookup_or_fail",
    "total_of",
]
# attributes typed from use: the enumerator reads class annotations only, so replay alone
METHODS = ["Graph.link", "Graph.out_degree", "Tasks.assign"]
SMALL = Bounds(ints=tuple(range(-2, 3)), max_list=3, max_object_list=2, max_dict=2)
TINY = Bounds(ints=(-1, 0, 1), max_list=2, max_object_list=1, max_dict=2)
# sets are walked only where CPython's order is certain (keys in [0, 8)): the box stays there
WALKED = Bounds(ints=(0, 1, 2, 3), max_list=3, max_object_list=1, max_dict=2)
BOUNDS = {"degree": TINY, "neighbours_sum": TINY, "deposit": TINY, "inverse": TINY, "smallest_two": WALKED,
          "union_size": WALKED, "overlap": TINY, "merged": TINY, "same_counts": TINY, "pairs_back": TINY,
          "letter_groups": TINY, "default_counts": TINY, "residues": TINY, "swapped": TINY,
          "sorted_keys": TINY, "lookup_or_fail": TINY, "total_of": TINY}


@pytest.mark.parametrize("name", NAMES + METHODS)
@pytest.mark.parametrize("criterion", ["loop-1", "loop-2"])
def test_replay(name: str, criterion: str) -> None:
    cases = generated(DICTS, name, criterion)
    assert cases
    assert replay_mismatches(DICTS, name, cases) == []


@pytest.mark.parametrize("name", NAMES)
def test_enumeration(name: str) -> None:
    """Every path the real code takes on small dicts (up to two entries,
    keys and values from a small box) within loop-2 has a test."""
    cases = generated(DICTS, name, "loop-2")
    missed, runs = missed_heap_paths(DICTS, name, cases, k=2, bounds=BOUNDS.get(name, SMALL))
    assert runs > 0
    assert missed == []


def test_a_bare_dict_is_announced() -> None:
    program = translate(str(DICTS), ["bare"]).program
    assert program.functions["bare"].inferred == ("d: dict[int, int] (a bare dict: its keys and values taken as int)",)


def test_attributes_set_to_empty_dicts_and_sets_are_typed_from_use() -> None:
    program = translate(str(DICTS), ["Graph.link"]).program
    fields = dict(program.classes["Graph"].fields)
    assert str(fields["adj"]) == "dict[int, list[int]]" and str(fields["seen"]) == "set[int]"


def test_a_dict_comprehension_of_two_loops_nests_them(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("def f(n: int) -> dict[int, int]:\n    return {i: j for i in range(n) for j in range(i)}\n")
    assert translate(str(source), ["f"]).errors == {}
    cases = generated(source, "f", "loop-2")
    assert {len(c.heap_final[c.value["$ref"]]["dict"]) for c in cases} >= {0, 1}
    assert replay_mismatches(source, "f", cases) == []


def test_a_defaultdict_of_a_lambda_is_refused() -> None:
    errors = translate(str(DICTS), ["lambda_default"]).errors
    assert "defaultdict() with a factory other than" in errors["lambda_default"].message


def test_keys_of_objects_are_refused(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("class C:\n    pass\n\ndef f(d: dict[C, int]) -> int:\n    return len(d)\n")
    errors = translate(str(source), ["f"]).errors
    assert "keys other than int, bool or str" in errors["f"].message


def test_a_loop_that_changes_keys_at_the_same_size_is_dropped() -> None:
    source = DICTS.parent / "dicts.py"
    cases = generated(source, "drain", "loop-2")
    assert all(c.kind == "return" or c.exc_type == "RuntimeError" for c in cases)


# ------------------------------------------------------ heap operations


def _dict(*entries: tuple[object, object]) -> tuple[Heap, object]:
    heap, addr = dicts.new(Heap(), is_set=False)
    for key, value in entries:
        (result,) = [r for r in dicts.write(heap, addr, key, value) if r.constraint is not False]
        heap = result.heap
    return heap, addr


def test_find_on_known_keys_does_not_fork() -> None:
    heap, addr = _dict((1, 10), (2, 20))
    cell = heap.cell(addr)  # type: ignore[arg-type]
    assert isinstance(cell, DictCell)
    assert dicts.find(cell, 2) == [(1, True)]
    assert dicts.find(cell, 3) == [(None, True)]


def test_read_of_a_symbolic_key_merges_int_values() -> None:
    heap, addr = _dict((1, 10), (2, 20))
    k = Sym("k", INT)
    found, missing = dicts.read(heap, addr, k)  # type: ignore[arg-type]
    assert found.value == T.ite(T.eq(k, 1), 10, 20)
    assert found.constraint == T.or_(T.eq(k, 1), T.eq(k, 2))
    assert missing.exc is not None and missing.exc.type == "KeyError" and missing.exc.message is None
    assert missing.constraint == T.and_(T.ne(k, 1), T.ne(k, 2))


def test_bool_and_int_keys_are_one_key() -> None:
    heap, addr = _dict((1, 10), (True, 20))
    cell = heap.cell(addr)  # type: ignore[arg-type]
    assert isinstance(cell, DictCell)
    assert cell.keys == (1,) and cell.values == (20,)


def test_key_error_says_a_known_key() -> None:
    heap, addr = _dict((1, 10))
    (missing,) = dicts.read(heap, addr, 5)  # type: ignore[arg-type]
    assert missing.exc is not None and missing.exc.message == "5"
    (missing,) = dicts.remove(heap, addr, Text("a"))  # type: ignore[arg-type]
    assert missing.exc is not None and missing.exc.message == "'a'"


def test_unhashable_keys_raise_type_error() -> None:
    heap, addr = _dict()
    heap, inner = dicts.new(heap, is_set=True)
    (result,) = dicts.write(heap, addr, inner, 1)  # type: ignore[arg-type]
    assert result.exc is not None and result.exc.message == "unhashable type: 'set'"


def test_a_loop_raises_when_the_dict_changed_size() -> None:
    heap, addr = _dict((1, 10))
    (started,) = dicts.iter_start(heap, addr, (3, 1))  # type: ignore[arg-type]
    (grown,) = dicts.write(started.heap, addr, 2, 20)  # type: ignore[arg-type]
    step = dicts.iter_more(grown.heap, addr, (3, 1))  # type: ignore[arg-type]
    assert step.exc is not None and step.exc.type == "RuntimeError"
    (shrunk,) = dicts.remove(grown.heap, addr, 2)  # type: ignore[arg-type]
    with pytest.raises(Unsupported):  # same size, other keys: not modelled
        dicts.iter_more(shrunk.heap, addr, (3, 1))  # type: ignore[arg-type]


def test_a_set_of_small_ints_is_walked_in_ascending_order() -> None:
    heap, addr = dicts.new(Heap(), is_set=True)
    a, b = Sym("a", INT), Sym("b", INT)
    for key in (a, b):
        heap = dicts.write(heap, addr, key)[-1].heap  # type: ignore[arg-type]  # the key is new
    outcomes = dicts.iter_start(heap, addr, (1, 1))  # type: ignore[arg-type]
    orders = [(heap_cell.keys, r.exc) for r in outcomes
              for heap_cell in [r.heap.cell(addr)] if isinstance(heap_cell, DictCell)]  # type: ignore[arg-type]
    assert [keys for keys, exc in orders if exc is None] == [(a, b), (b, a)]
    assert [exc for _, exc in orders][-1] is dicts.DROPPED


def test_equal_dicts_compare_entries_whatever_their_order() -> None:
    heap, a = _dict((1, 10), (2, 20))
    heap2, b = _dict((2, 20), (1, 10))
    merged = Heap(cells={**heap.cells, **{k + 100: c for k, c in heap2.cells.items()}})
    assert isinstance(b, Addr)
    assert dicts.equal(merged, a, Addr(b.id + 100)) is True
    assert dicts.equal(merged, a, None) is False


def test_memory_grows_by_a_slot_per_key_and_value() -> None:
    from pathcraft.cost.models import SizeModel
    from pathcraft.models.dict.semantics import growth

    empty, addr = dicts.new(Heap(), is_set=False)
    one = dicts.write(empty, addr, 1, 10)[-1].heap  # type: ignore[arg-type]
    assert growth(Heap(), empty, SizeModel()) == 0
    assert growth(empty, one, SizeModel()) == 8
    assert growth(one, dicts.remove(one, addr, 1)[0].heap, SizeModel()) == 0  # type: ignore[arg-type]


def test_items_of_something_else_than_a_dict_drop_the_path() -> None:
    assert generated(DICTS, "pairs_of_bag", "loop-2") == []


def test_a_generator_over_a_dict_drops_its_paths() -> None:
    assert [c for c in generated(DICTS, "values_total", "loop-2") if c.kind == "return"] == []
