"""Classes nested in class bodies (`self._Node(...)`, `Outer.Inner`,
inherited by a subclass, `isinstance(p, self._Node)`), `super()` calls,
`<` by a user `__lt__` (and reflected), truth by `__bool__`/`__len__`, untyped classes whose fields are
typed from what the module passes; and the Goodrich corpus, untyped code
built on such classes. Oracles: replay against the real code, and
enumeration of small inputs and objects (`tests/heap_enum.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, oracle_tests, replay_mismatches

from pathcraft.errors import PathcraftError
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

HERE = Path(__file__).resolve().parent / "fixtures" / "structure"
NESTED = HERE / "nested_classes.py"
GOODRICH = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "goodrich-dsap-python"

TYPED = ["Stack.push", "Stack.pop", "Stack.top_two", "CountingStack.push", "CountingStack.push_pair",
         "Ranked.offer", "Ranked.beats", "pick", "tally", "same_kind", "Spot.__eq__"]
UNTYPED = ["Queue.enqueue", "Queue.dequeue", "Queue._check", "Queue.first_checked", "Week.get_first",
           "Fortnight.show"]

test_replay, test_enumeration = oracle_tests(NESTED, TYPED, Bounds(ints=tuple(range(-2, 3)), max_objects=3))


@pytest.mark.parametrize("name", UNTYPED)
@pytest.mark.parametrize("criterion", ["loop-1", "loop-2"])
def test_untyped_classes_replay(name: str, criterion: str) -> None:
    cases = generated(NESTED, name, criterion)
    assert cases
    assert replay_mismatches(NESTED, name, cases) == []


def test_fields_of_an_untyped_node_come_from_what_the_module_passes() -> None:
    info = translate(str(NESTED), ["Queue.dequeue"]).program.classes["Queue._Node"]
    fields = {name: str(kind) for name, kind in info.fields}
    assert fields == {"_element": "int", "_next": "Queue._Node | None"}


def test_an_isinstance_check_on_a_guessed_parameter_gets_none_too() -> None:
    cases = generated(NESTED, "Queue._check", "loop-2")
    assert {c.exc_type for c in cases} == {"TypeError", None}


def test_a_nested_class_a_subclass_binds_again_is_refused() -> None:
    result = translate(str(NESTED), ["Shapes.make"])
    assert "Shapes.make" not in result.program.functions
    error = result.errors["Shapes.make"]
    assert isinstance(error, PathcraftError) and "subclass Boxes binds 'Cell' again" in str(error)


def test_a_builtin_walking_an_object_follows_its_iterator() -> None:
    """`sum(obj)` walks the object through its `__iter__` (a generator),
    into a list first (it claimed 'not subscriptable', then dropped the
    path): every test replays on its path, none claims a TypeError."""
    result = translate(str(NESTED), ["Chain.total"])
    run = generate(result.program, "Chain.total", GenerateOptions.of())
    assert run.cases and all(c.exc_type != "TypeError" for c in run.cases)
    assert replay_mismatches(NESTED, "Chain.total", list(run.cases)) == []


def test_calling_a_stored_value_drops_the_path() -> None:
    result = translate(str(NESTED), ["Folder.fold"])
    run = generate(result.program, "Folder.fold", GenerateOptions.of())
    assert not any(c.exc_type == "AttributeError" and "'fn'" in (c.exc_message or "") for c in run.cases)
    assert any("a value the Folder stores" in note for note in run.notes)
    assert replay_mismatches(NESTED, "Folder.fold", list(run.cases)) == []


def test_descriptors_of_a_class_or_its_bases_are_no_fields() -> None:
    info = translate(str(NESTED), ["Fortnight.show"]).program.classes["Fortnight"]
    assert {"first", "label"} & set(dict(info.fields)) == set()


def test_an_f_string_field_runs() -> None:
    cases = generated(NESTED, "Fortnight.show", "loop-2")
    assert any(c.exc_type == "IndexError" for c in cases)


def test_tests_name_a_nested_class_by_its_qualified_name() -> None:
    cases = generated(NESTED, "Stack.pop", "loop-2")
    assert any(d.get("class") == "Stack._Node" for c in cases for d in c.heap_in.values())


GOODRICH_TARGETS = [
    ("ch07/linked_stack.py", "LinkedStack.pop"), ("ch07/circular_queue.py", "CircularQueue.dequeue"),
    ("ch07/circular_queue.py", "CircularQueue.enqueue"), ("ch07/positional_list.py", "PositionalList.add_before"),
    ("ch07/positional_list.py", "PositionalList._validate"), ("ch08/linked_binary_tree.py", "LinkedBinaryTree._delete"),
    ("ch09/sorted_priority_queue.py", "SortedPriorityQueue.add"),
]


@pytest.mark.skipif(not GOODRICH.is_dir(), reason="the shared corpus is not next to the checkout")
@pytest.mark.parametrize(("module", "name"), GOODRICH_TARGETS)
def test_goodrich_targets_follow_their_paths(module: str, name: str) -> None:
    path = GOODRICH / module
    cases = generated(path, name, "loop-2")
    assert any(c.kind == "return" for c in cases)  # a real path, not only errors on a bare object
    assert replay_mismatches(path, name, cases) == []
