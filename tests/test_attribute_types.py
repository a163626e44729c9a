"""Attribute types inferred from the code that sets them (`frontend/fields.py`),
and input values chosen to tell mutants apart (`solver/canonical.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from oracle import replay_mismatches
from pathcraft.frontend import translate
from pathcraft.frontend.module import load_module
from pathcraft.generate import GenerateOptions, generate

LINKED = '''
LIMIT = 10


class Node:
    def __init__(self, value: int) -> None:
        self.value = value
        self.next = None


class Base:
    def __init__(self) -> None:
        self.size = 0


class Stack(Base):
    def __init__(self) -> None:
        super().__init__()
        self.head = None
        self.nodes = []
        self.label = None
        self.limit = LIMIT
        self.full = False
        self.reset()

    def reset(self) -> None:
        self.mark = -1

    def push(self, value: int) -> None:
        node = Node(value)
        node.next = self.head
        self.head = node
        self.size += 1
        self.nodes.append(node)
        self.full = self.size >= self.limit
        self.mark = self.size * 2

    def rename(self, text: str) -> None:
        self.label = text
        self.limit = len(text) if text else self.limit
        self.mark = text

    def second(self) -> int:
        if self.head is None or self.head.next is None:
            return -1
        return self.head.next.value + self.size
'''


@pytest.fixture
def module(tmp_path: Path) -> Path:
    source = tmp_path / "linked.py"
    source.write_text(LINKED)
    return source


def types_of(source: Path, cls: str) -> dict[str, str]:
    return {name: str(kind) for name, kind in load_module(str(source)).class_infos[cls].fields}


def test_types_come_from_every_assignment_joined(module: Path) -> None:
    stack = types_of(module, "Stack")
    assert stack["head"] == "Node | None"  # None in __init__, a Node in push
    assert stack["size"] == "int"  # set by the base's __init__, `+= 1` in push
    assert stack["nodes"] == "list[Node]"  # [] and what push appends
    assert stack["full"] == "bool"  # a comparison
    assert stack["mark"] == "int"  # a str elsewhere: the construction (reset, called by __init__) decides
    assert stack["label"] == "str | None"  # None in __init__, a str later: either, chosen when read


def test_a_construction_branch_that_can_be_typed_gives_the_type(tmp_path: Path) -> None:
    """One `__init__` branch stores `[0] * n`, another (through a method it
    calls) a value not modelled: objects built along the first are real."""
    source = tmp_path / "tree.py"
    source.write_text(
        "from copy import deepcopy\n\n\nclass Tree:\n"
        "    def __init__(self, arr: list[int] | None, n: int) -> None:\n"
        "        if arr is None:\n            self.tree = [0] * n\n        else:\n            self.load(arr)\n\n"
        "    def load(self, arr: list[int]) -> None:\n        self.tree = deepcopy(arr)\n")
    assert types_of(source, "Tree") == {"tree": "list[int]"}


def test_none_at_construction_and_nodes_elsewhere_give_an_optional_node_even_past_an_untyped_store(
        tmp_path: Path) -> None:
    """`reverse` stores a local the typer cannot follow; `push` stores a
    Node: the head is `Node | None`, not only the None of `__init__`."""
    source = tmp_path / "chain.py"
    source.write_text(
        "class Node:\n    def __init__(self, value: int) -> None:\n        self.value = value\n"
        "        self.next: Node | None = None\n\n\nclass Chain:\n    def __init__(self) -> None:\n"
        "        self.head = None\n\n    def push(self, value: int) -> None:\n        node = Node(value)\n"
        "        node.next = self.head\n        self.head = node\n\n    def reverse(self) -> None:\n"
        "        prev = None\n        current = self.head\n        while current:\n"
        "            following = current.next\n            current.next = prev\n            prev = current\n"
        "            current = following\n        self.head = prev\n")
    assert types_of(source, "Chain") == {"head": "Node | None"}


def test_an_attribute_of_no_inferable_type_stays_out_of_input_objects(tmp_path: Path) -> None:
    source = tmp_path / "opaque.py"
    source.write_text("class Box:\n    def __init__(self, text: bytes) -> None:\n        self.text = text\n")
    assert types_of(source, "Box") == {}
    assert "text" in load_module(str(source)).class_infos["Box"].opaque


TAGS = '''
PREFIX = "py"


class Tag:
    def __init__(self, interpreter: str, abi: str, count: int) -> None:
        self._interpreter = interpreter.lower()
        self._abi = abi.strip()
        self._label = f"{interpreter}-{abi}"
        self._prefix = PREFIX
        self._n = str(count)
        self._where = interpreter.find("x")
        self._parts = abi.split("-")
        self._first = self._parts[0]
        self._dashes = "-" * count + "%s" % abi

    def is_py(self) -> bool:
        if self._interpreter.startswith(self._prefix):
            return True
        return False

    def parts(self) -> int:
        if len(self._parts) > 1 and self._where >= 0:
            return 2
        return 1
'''


def test_strs_made_by_str_methods_formatting_and_constants_are_typed(tmp_path: Path) -> None:
    """What packaging's `Tag` stores (`interpreter.lower()`, an f-string, a
    module's str constant, `str(n)`, `s.split(...)` and its items) are
    strs and lists of strs, so its methods get input objects."""
    source = tmp_path / "tags.py"
    source.write_text(TAGS)
    assert types_of(source, "Tag") == {
        "_interpreter": "str", "_abi": "str", "_label": "str", "_prefix": "str", "_n": "str", "_where": "int",
        "_parts": "list[str]", "_first": "str", "_dashes": "str"}
    for name in ("Tag.is_py", "Tag.parts"):
        cases = generate(translate(str(source), [name]).program, name, GenerateOptions()).cases
        assert len({c.value for c in cases}) == 2, name
        assert replay_mismatches(source, name, cases) == []


def test_an_attribute_only_set_to_none_takes_what_other_code_stores(module: Path) -> None:
    assert types_of(module, "Node") == {"value": "int", "next": "Node | None"}


def test_methods_on_inferred_attributes_get_tests_that_replay(module: Path) -> None:
    for name in ("Stack.second", "Stack.push"):
        cases = generate(translate(str(module), [name]).program, name, GenerateOptions()).cases
        assert cases and all(c.exc_type != "AttributeError" for c in cases), name
        assert replay_mismatches(module, name, cases) == []
    outcomes = {c.value for c in generate(translate(str(module), ["Stack.second"]).program, "Stack.second",
                                          GenerateOptions()).cases}
    assert -1 in outcomes and len(outcomes) >= 2  # the path through two nodes is reached


FREE = '''
def add(x: int, y: int, items: list[int]) -> int:
    if len(items) > 1:
        return x + y + items[0] * items[1]
    return x
'''


def test_inputs_no_constraint_mentions_are_distinct_and_not_identities(tmp_path: Path) -> None:
    """Free inputs of 0 (or 1) make `x + y` look like `x`: they get small
    values different from each other and from the constrained ones."""
    source = tmp_path / "free.py"
    source.write_text(FREE)
    cases = generate(translate(str(source), ["add"]).program, "add", GenerateOptions()).cases
    long = next(c for c in cases if len(c.heap_in["items"]["list"]) > 1)
    values = dict(long.inputs)
    scalars = [values["x"], values["y"], *long.heap_in["items"]["list"]]
    assert len(set(scalars)) == len(scalars)
    assert not {0, 1, -1} & set(scalars)
    assert replay_mismatches(source, "add", cases) == []


EDGES = '''
def sign(x: int, y: int) -> int:
    if x >= 0:
        return 1
    if y > 5:
        return 2
    return -1


def mean(a: int, b: int) -> int:
    if a < 0 or b < 0:
        return -1
    return (a + b) // 2


def ratio(n: int, d: int) -> int:
    if n % d > 1:
        return n // d
    return 0
'''


def test_a_symbol_only_compared_with_constants_sits_on_the_edge(tmp_path: Path) -> None:
    """`x >= 0` is tested with x = 0 and x = -1 (telling `>=` from `>`),
    two such symbols do not share a value, and a symbol in arithmetic
    keeps a telling value (no 0 or 1 making `n % d` trivial)."""
    source = tmp_path / "edges.py"
    source.write_text(EDGES)
    program = translate(str(source)).program
    sign = [dict(c.inputs) for c in generate(program, "sign", GenerateOptions()).cases]
    assert {s["x"] for s in sign} == {0, -1} and {6, 5} <= {s["y"] for s in sign}
    means = [dict(c.inputs) for c in generate(program, "mean", GenerateOptions()).cases]
    assert any(m["a"] >= 0 and m["b"] >= 0 and m["a"] != m["b"] for m in means)
    ratios = [dict(c.inputs) for c in generate(program, "ratio", GenerateOptions()).cases if c.kind == "return"]
    assert all(r["d"] not in (0, 1, -1) for r in ratios)
    for name in ("sign", "mean", "ratio"):
        assert replay_mismatches(source, name, generate(program, name, GenerateOptions()).cases) == []


LATEST_EDGE = '''
def root(num: int) -> int:
    if num < 0:
        raise ValueError("negative")
    if num < 2:
        return num
    return num // 2
'''


def test_a_test_sits_on_the_edge_of_the_branch_that_made_its_path(tmp_path: Path) -> None:
    """`0 <= num < 2`: the path's own branch is `num < 2`, so its test takes
    num = 1 (where `num < 1` would answer otherwise), not 0, the edge of
    the earlier `num < 0` that the raising path's test sits on."""
    source = tmp_path / "latest.py"
    source.write_text(LATEST_EDGE)
    cases = generate(translate(str(source), ["root"]).program, "root", GenerateOptions()).cases
    small = [dict(c.inputs)["num"] for c in cases if c.kind == "return" and "num < 2" in c.constraints]
    raised = [dict(c.inputs)["num"] for c in cases if c.kind == "raise"]
    assert small == [1] and raised == [-1]
    assert replay_mismatches(source, "root", cases) == []


def test_an_attribute_set_to_an_empty_deque_is_a_deque_of_what_is_appended(tmp_path: Path) -> None:
    """`self._cache = deque()` (more_itertools' peekable, a window): a
    deque, of the items the methods append; input objects hold deques."""
    source = tmp_path / "window.py"
    source.write_text(
        "import collections\nfrom collections import deque\n\n\nclass Window:\n"
        "    def __init__(self, size: int) -> None:\n        self.size = size\n        self._cache = deque()\n"
        "        self._seen = collections.deque()\n\n"
        "    def push(self, x: int) -> int:\n        self._cache.append(x)\n        self._seen.appendleft(x > 0)\n"
        "        if len(self._cache) > self.size:\n            return self._cache.popleft()\n        return -1\n")
    assert types_of(source, "Window") == {"size": "int", "_cache": "deque[int]", "_seen": "deque[bool]"}
    cases = generate(translate(str(source), ["Window.push"]).program, "Window.push", GenerateOptions()).cases
    assert {c.value for c in cases if c.value != -1}
    assert replay_mismatches(source, "Window.push", cases) == []
