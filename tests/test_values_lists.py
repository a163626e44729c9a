"""Lists beyond append/pop: prelude methods, `in`, slices, enumerate /
reversed / zip loops, any/all, nested and bare lists — checked against the
real code (replay of every generated test, and enumeration of small inputs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, missed_heap_paths, replay_mismatches

from pathcraft.frontend import translate

LISTS = Path(__file__).resolve().parent / "fixtures" / "values" / "lists.py"
NAMES = [
    "first_negative_index", "numbered_total", "last_even", "dot", "tail_sum", "window", "backwards",
    "position", "drop_all", "put_front", "take_at", "merged", "any_positive", "grid_total", "set_cell",
    "bare_total", "find_or", "median3", "top_two", "sorted_copy",
]
SMALL = Bounds(ints=tuple(range(-2, 3)), max_list=3, max_object_list=2)
# two list parameters, or a list of lists: fewer values per slot
TINY = Bounds(ints=(-1, 0, 1), max_list=2, max_object_list=2)
BOUNDS = {"dot": TINY, "merged": TINY, "grid_total": TINY, "set_cell": TINY, "window": TINY}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("criterion", ["loop-1", "loop-2"])
def test_replay(name: str, criterion: str) -> None:
    cases = generated(LISTS, name, criterion)
    assert cases
    assert replay_mismatches(LISTS, name, cases) == []


@pytest.mark.parametrize("name", NAMES)
def test_enumeration(name: str) -> None:
    """Every path the real code takes on small lists within loop-2 has a
    test. The prelude's own loops (remove's shift, say) count as loops too,
    so the bound keeps lists short enough for them."""
    cases = generated(LISTS, name, "loop-2")
    missed, runs = missed_heap_paths(LISTS, name, cases, k=2, bounds=BOUNDS.get(name, SMALL))
    assert runs > 0
    assert missed == []


def test_a_bare_list_is_announced() -> None:
    program = translate(str(LISTS), ["bare_total"]).program
    assert program.functions["bare_total"].inferred == ("xs: list[int] (a bare list: its items taken as int)",)


def test_slice_assignment_is_refused_with_its_place(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("def f(xs: list[int]) -> None:\n    xs[1:] = []\n")
    errors = translate(str(source), ["f"]).errors
    assert "slice" in errors["f"].message and errors["f"].location is not None


def test_equality_of_two_lists_compares_their_items(tmp_path: Path) -> None:
    """`xs == ys` is `list.__eq__`: equal lengths and items, not identity;
    each outcome is a test that the real code agrees with."""
    source = tmp_path / "m.py"
    source.write_text("def f(xs: list[int], ys: list[int]) -> int:\n    if xs == ys:\n        return 1\n"
                      "    return 0\n")
    cases = generated(source, "f")
    assert {c.value for c in cases} == {0, 1}
    assert replay_mismatches(source, "f", cases) == []


def test_a_method_an_item_lacks_is_not_claimed_past_its_arguments(tmp_path: Path) -> None:
    """`g[a].link(g[b])` on an int item: Python looks `link` up before it
    indexes `g[b]`, so an int item is an AttributeError there (an int has
    no `link`), never an IndexError from `g[b]` the real code does not
    reach (a corpus sweep found that wrong claim)."""
    source = tmp_path / "graph_links.py"
    source.write_text("def connect(graph, a, b):\n    graph[a].link(graph[b])\n")
    cases = generated(source, "connect")
    assert {(c.exc_type, c.exc_message) for c in cases} == {
        ("IndexError", "list index out of range"), ("AttributeError", "'int' object has no attribute 'link'")}
    assert replay_mismatches(source, "connect", cases) == []


def test_del_of_an_item_is_dropped_for_lists_and_a_type_error_for_tuples(tmp_path: Path) -> None:
    """`del a[b]` (operator.delitem, found by CI's stdlib sweep, crashed the
    engine): a list's item deletion is not modelled, a tuple refuses it."""
    source = tmp_path / "deleting.py"
    source.write_text("def drop(a: list[int], b: int) -> None:\n    del a[b]\n\n\n"
                      "def drop_pair(t: tuple[int, int]) -> None:\n    del t[0]\n")
    assert generated(source, "drop") == []
    cases = generated(source, "drop_pair")
    assert [c.exc_type for c in cases] == ["TypeError"]
    assert replay_mismatches(source, "drop_pair", cases) == []
