"""Names imported from the standard library (`frontend/stdlib.py`),
checked against the real code: replay of every generated test and
enumeration of small inputs. A call the model has no summary of drops
only the paths that reach it (named in the run's notes): enumeration may
miss exactly the real paths through such a call, and no other. `heapq`
and `bisect` give CPython's list order; a deque is written and compared
as a `collections.deque` literal with its own messages."""

from __future__ import annotations

import ast
import collections
import heapq
from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import RealCode, generated, missed_heap_paths, missed_paths, replay_mismatches

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.heap import deques
from pathcraft.testcase.emit_pytest import container_literal

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "structure"
CALLS = FIXTURES / "stdlib_calls.py"
HEAPS = FIXTURES / "stdlib_heaps.py"
DEQUES = FIXTURES / "stdlib_deques.py"
ITERS = FIXTURES / "stdlib_iters.py"
SMALL = Bounds(ints=tuple(range(-2, 4)), max_list=3)

CASES = [(CALLS, n) for n in ("roll_or_fixed", "pick_index", "stamp", "shuffled_copy", "bits_needed", "letter_at",
                              "label", "arrangements", "common", "turned")] \
    + [(HEAPS, n) for n in ("smallest_two", "heap_after", "replace_top", "first_out", "count_of", "insert_sorted",
                            "grade", "push_onto")] \
    + [(DEQUES, n) for n in ("visit_order", "last_k", "rotated", "both_ends", "take_back", "front_pair",
                             "doubled_big", "equals_its_list", "copy_grows", "position", "drain_front",
                             "swap_ends", "Counter.join", "Counter.serve")] \
    + [(ITERS, n) for n in ("ascending", "rises", "gaps", "pairs_to", "choose", "extended_copy", "frozen_copy",
                            "deep_rows")]
INTS_ONLY = {"roll_or_fixed", "stamp", "bits_needed", "letter_at", "label", "heap_after", "replace_top", "first_out",
             "both_ends", "take_back", "choose", "push_onto", "arrangements", "common", "turned"}
# the lines of each function that call a library function the model has no summary of
UNMODELLED = {"roll_or_fixed": 19, "pick_index": 25, "stamp": 31, "shuffled_copy": 37, "bits_needed": 46,
              "grow_while_walking": 29, "deep_rows": 65}


def _ids(case: tuple[Path, str]) -> str:
    return f"{case[0].stem}-{case[1]}"


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
@pytest.mark.parametrize("criterion", ["loop-1", "loop-2"])
def test_replay(case: tuple[Path, str], criterion: str) -> None:
    path, name = case
    cases = generated(path, name, criterion)
    assert cases
    assert replay_mismatches(path, name, cases) == []


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_enumeration(case: tuple[Path, str]) -> None:
    """Every real path within loop-2 is found, except those through an
    unmodelled call (and each of those does reach it)."""
    path, name = case
    cases = generated(path, name, "loop-2")
    real = RealCode(path, name)
    if name in INTS_ONLY:
        missed = [real.run(m).events for m in missed_paths(path, name, cases, k=2, low=-3, high=12)]
    else:
        found, runs = missed_heap_paths(path, name, cases, k=2, bounds=SMALL)
        assert runs > 0
        missed = [real.run_case(m["inputs"], m["heap"])[0].events for m in found]
    through = [events for events in missed if ("line", name, UNMODELLED.get(name)) in events]
    assert missed == through


def test_the_assumed_lines_are_the_unmodelled_calls() -> None:
    lines = {n.lineno for path in (CALLS, ITERS) for n in ast.walk(ast.parse(path.read_text()))
             if isinstance(n, ast.Call)}
    assert set(UNMODELLED.values()) <= lines


def test_a_lazy_iterator_whose_consumer_may_change_lists_is_not_taken_whole() -> None:
    """`for a, b in pairwise(xs): xs.append(a)` reads items appended while
    it runs: a list taken first would not; the paths through it are dropped."""
    cases = generated(ITERS, "grow_while_walking", "loop-2")
    assert replay_mismatches(ITERS, "grow_while_walking", cases) == []
    run = generate(translate(str(ITERS), ["grow_while_walking"]).program, "grow_while_walking",
                   GenerateOptions.of())
    assert run.stats["unsupported_paths"] > 0 and any("itertools.pairwise()" in note for note in run.notes)
    real = RealCode(ITERS, "grow_while_walking")
    found, runs = missed_heap_paths(ITERS, "grow_while_walking", cases, k=2, bounds=SMALL)
    assert runs > 0
    assert all(("line", "grow_while_walking", 29) in real.run_case(m["inputs"], m["heap"])[0].events
               for m in found)


@pytest.mark.parametrize("name,called", [("roll_or_fixed", "random.randint"), ("pick_index", "random.randint"),
                                         ("stamp", "time.time"), ("shuffled_copy", "random.shuffle"),
                                         ("bits_needed", "math.log2")])
def test_an_unmodelled_call_drops_its_paths_and_is_named(name: str, called: str) -> None:
    result = translate(str(CALLS), [name])
    assert not result.errors
    run = generate(result.program, name, GenerateOptions.of())
    assert run.cases and run.stats["unsupported_paths"] > 0
    assert any(f"{called}()" in note for note in run.notes)


def test_library_module_shadowed_by_the_tree_is_not_taken(tmp_path: Path) -> None:
    (tmp_path / "random.py").write_text("def randint(a: int, b: int) -> int:\n    return a\n")
    source = tmp_path / "mod.py"
    source.write_text("import random\n\n\ndef f(x: int) -> int:\n    return random.randint(x, x)\n")
    run = generate(translate(str(source), ["f"]).program, "f", GenerateOptions.of())
    assert run.cases == []  # the module the tree holds is not read as the library's: its one path is dropped
    assert any("unknown name 'random'" in note for note in run.notes)


def test_a_name_the_module_binds_again_is_not_the_library_one(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text("from random import randint\n\n\ndef randint(a: int, b: int) -> int:\n    return a\n\n\n"
                      "def f(x: int) -> int:\n    return randint(x, 3)\n")
    run = generate(translate(str(source), ["f"]).program, "f", GenerateOptions.of())
    assert run.stats["unsupported_paths"] == 0 and len(run.cases) == 1


def test_messages_are_cpythons() -> None:
    """The messages the model asserts, checked against this Python."""
    def message(thunk: object) -> str:
        try:
            thunk()  # type: ignore[operator]
        except Exception as exc:  # noqa: BLE001
            return str(exc)
        raise AssertionError("no exception")

    assert message(lambda: collections.deque().pop()) == deques.EMPTY
    assert message(lambda: collections.deque().popleft()) == deques.EMPTY
    assert message(lambda: collections.deque([1])[1]) == deques.OUT_OF_RANGE

    def mutate() -> None:
        d = collections.deque([1])
        for x in d:
            d.append(x)

    assert message(mutate) == deques.MUTATED
    assert message(lambda: heapq.heappop([])) == "index out of range"
    assert message(lambda: heapq.heapreplace([], 1)) == "index out of range"
    assert message(lambda: __import__("bisect").bisect_left([], 1, -1)) == "lo must be non-negative"


def test_a_deque_is_written_as_its_repr() -> None:
    assert container_literal({"deque": [1, 2]}) == repr(collections.deque([1, 2])).replace("deque", "collections.deque")
    assert container_literal({"deque": []}) == "collections.deque([])"


def test_deque_annotations_are_list_types_so_marked() -> None:
    from pathcraft.frontend.types import TypeSyntaxError, parse_type

    def parsed(text: str) -> object:
        return parse_type(ast.parse(text, mode="eval").body, set())

    kind = parsed("deque[int]")
    assert str(kind) == "deque[int]" and kind.kind == "list" and kind.deque  # type: ignore[attr-defined]
    assert parsed("collections.deque[bool]").deque  # type: ignore[attr-defined]
    assert parsed("deque[int] | None").optional  # type: ignore[attr-defined]
    with pytest.raises(TypeSyntaxError):
        parsed("deque[str]")


def test_generics_spelled_through_the_typing_module_are_the_plain_ones() -> None:
    from pathcraft.frontend.types import parse_type

    def parsed(text: str) -> str:
        return str(parse_type(ast.parse(text, mode="eval").body, set()))

    for spelled, plain in (("typing.Tuple[int, str]", "tuple[int, str]"), ("typing.List[int]", "list[int]"),
                           ("typing.Optional[typing.Dict[str, int]]", "dict[str, int] | None"),
                           ("typing_extensions.Set[int]", "set[int]")):
        assert parsed(spelled) == parsed(plain) == plain
