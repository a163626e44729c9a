"""Heap assumptions: no generated input violates them, under every model."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from oracle import SHARED_EXAMPLES, RealCode, generated

from pathcraft.errors import PathcraftError
from pathcraft.heap.assumptions import parse_assumptions
from pathcraft.testcase.heapdesc import build_inputs

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "linked.py"
MODELS = ["symbolic", "lazy", "lazy-noalias"]


def built(path: Path, name: str, heap: str, assumptions: tuple[str, ...]) -> list[dict[str, Any]]:
    """The real input objects of every generated test."""
    real = RealCode(path, name)
    out = []
    for case in generated(path, name, "loop-2", heap=heap, assumptions=assumptions):
        objects = build_inputs(dict(case.heap_in), lambda c: getattr(real.module, c))
        out.append({k: objects[v["$ref"]] if isinstance(v, dict) else v for k, v in case.inputs})
    assert out
    return out


def reachable(obj: Any) -> list[Any]:
    seen: dict[int, Any] = {}
    stack = [obj]
    while stack:
        o = stack.pop()
        if o is None or id(o) in seen or not hasattr(o, "__dict__"):
            continue
        seen[id(o)] = o
        stack.extend(vars(o).values())
    return list(seen.values())


def has_cycle(obj: Any) -> bool:
    on_path: set[int] = set()

    def visit(o: Any) -> bool:
        if o is None or not hasattr(o, "__dict__"):
            return False
        if id(o) in on_path:
            return True
        on_path.add(id(o))
        found = any(visit(v) for v in vars(o).values())
        on_path.discard(id(o))
        return found

    return visit(obj)


@pytest.mark.parametrize("heap", MODELS)
def test_non_aliasing(heap: str) -> None:
    inputs = built(SHARED_EXAMPLES / "aliasing.py", "m", heap, ("non-aliasing(x, z)",))
    assert all(i["x"] is not i["z"] for i in inputs)
    if heap == "lazy":  # lazy still enumerates the aliasings the assumption allows
        assert any(i["x"] is i["y"] for i in inputs)
    if heap == "symbolic":  # only the else branch of `if x is z` is left
        assert len(inputs) == 1


@pytest.mark.parametrize("heap", MODELS)
def test_non_sharing(heap: str) -> None:
    inputs = built(FIXTURE, "link_both", heap, ("non-sharing(a, b)",))
    for i in inputs:
        assert not {id(o) for o in reachable(i["a"])} & {id(o) for o in reachable(i["b"])}
    unconstrained = built(FIXTURE, "link_both", heap, ())
    # without the assumption, lazy enumerates the sharings, so some test shows one; the symbolic
    # heap keeps sharing as a disjunct of the same path, so whether its test shares is the model's pick
    if heap == "lazy":
        assert any({id(o) for o in reachable(i["a"])} & {id(o) for o in reachable(i["b"])}
                   for i in unconstrained)


TWO_CYCLE = (
    "class Node:\n    val: int\n    next: 'Node | None'\n\n\n"
    "def loops_back(n: Node) -> int:\n"
    "    if n.next is not None and n.next.next is n:\n"
    "        return 1\n"
    "    return 0\n"
)


@pytest.mark.parametrize("heap", MODELS)
def test_acyclic(heap: str, tmp_path: Path) -> None:
    """`loops_back` returns 1 only on a cyclic input: the path shows up
    without the assumption (where the model can alias) and not with it."""
    inputs = built(FIXTURE, "count_to_cycle", heap, ("acyclic(n)",))
    assert not any(has_cycle(i["n"]) for i in inputs)
    source = tmp_path / "cycle.py"
    source.write_text(TWO_CYCLE)
    assert not any(has_cycle(i["n"]) for i in built(source, "loops_back", heap, ("acyclic(n)",)))
    if heap != "lazy-noalias":
        assert any(has_cycle(i["n"]) for i in built(source, "loops_back", heap, ()))


def test_assumption_from_a_decorator(tmp_path: Path) -> None:
    source = tmp_path / "deco.py"
    source.write_text(
        "from pathcraft.assume import assume\n\n\n"
        "class Node:\n    val: int\n    next: 'Node | None'\n\n\n"
        "@assume('acyclic(n)')\n"
        "def walk(n: Node) -> int:\n"
        "    total = 0\n"
        "    cur: Node | None = n\n"
        "    while cur is not None:\n"
        "        total += 1\n"
        "        cur = cur.next\n"
        "    return total\n"
    )
    inputs = built(source, "walk", "lazy", ())
    assert not any(has_cycle(i["n"]) for i in inputs)


@pytest.mark.parametrize("text", ["acyclic(a, b)", "non-aliasing(a)", "aliasing(a,b)", "acyclic(q)"])
def test_bad_assumptions(text: str) -> None:
    with pytest.raises(PathcraftError):
        parse_assumptions([text], ("a", "b"))
