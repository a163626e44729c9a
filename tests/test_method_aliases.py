"""`add = seen.add` then `add(x)`: the calls are `seen.add(x)` where
nothing can rebind `seen`, and the alias statement keeps its lookup (an
AttributeError there). The engine against the real code: replay, and
enumeration of small inputs; an alias whose object is rebound is not
inlined."""

from __future__ import annotations

import ast
from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.frontend import translate
from pathcraft.frontend.method_aliases import inline_method_aliases
from pathcraft.generate import GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "method_aliases.py"
NAMES = ["unique", "doubled_into", "tallied", "wrong_method"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1), max_list=3))


def test_the_lookup_raises_at_the_alias() -> None:
    raised = {(c.exc_type, c.exc_message) for c in generated(FIXTURE, "wrong_method") if c.kind == "raise"}
    assert raised == {("AttributeError", "'list' object has no attribute 'add'")}


def _inlined(source: str) -> list[str]:
    tree = ast.parse(source)
    inline_method_aliases(tree)
    return [ast.unparse(n) for n in ast.walk(tree) if isinstance(n, ast.Call)]


def test_aliases_of_rebound_objects_are_left_alone() -> None:
    rebound = "def f(xs):\n    out = []\n    push = out.append\n    out = []\n    push(1)\n    return out\n"
    assert _inlined(rebound) == ["push(1)"]
    param = "def f(out):\n    push = out.append\n    out = [1]\n    push(1)\n"
    assert _inlined(param) == ["push(1)"]
    late = "def f(out):\n    for x in out:\n        push = out.append\n        push(x)\n"
    assert _inlined(late) == ["push(x)"]
    passed = "def f(out, g):\n    push = out.append\n    g(push)\n    push(1)\n"
    assert _inlined(passed) == ["g(push)", "push(1)"]
    assert _inlined("def f(out):\n    push = out.append\n    push(1)\n") == ["out.append(1)"]


def test_an_alias_that_is_not_inlined_still_drops_the_paths_calling_it(tmp_path: Path) -> None:
    path = tmp_path / "rebound.py"
    path.write_text("def f(xs: list[int]) -> list[int]:\n    out: list[int] = []\n    push = out.append\n"
                    "    out = []\n    for x in xs:\n        push(x)\n    return out\n")
    run = generate(translate(str(path), ["f"]).program, "f", GenerateOptions.of())
    assert run.cases == []  # reading `out.append` as a value drops each path (the call of `push` would too)
    assert run.notes
