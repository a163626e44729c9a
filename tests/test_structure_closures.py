"""Nested functions (closures) lowered as functions of their own, their
captured variables passed at each call, checked against the real code:
replay of every generated test (outcome and path: the `def` line, the
nested function's call and return events under its `<locals>` qualname)
and enumeration of small inputs; `@functools.cache` on one answers a
key it has seen without running it. What is not exact is refused with its
place."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, replay_mismatches, oracle_tests

from pathcraft.engine.criteria import parse_criterion
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.frontend.lines import statement_lines
from pathcraft.testcase.pathsig import loop_shapes

CLOSURES = Path(__file__).resolve().parent / "fixtures" / "structure" / "closures.py"
NAMES = ["sum_below", "keep_positive", "tally", "reverse_part", "parity", "scaled_sums", "step_total",
         "rebased", "safe_ratio", "chain_length", "grid_paths", "fib_table", "logged_squares", "checked_halves",
         "cached_size", "count_above", "record_highs", "Board.best_run"]
SMALL = Bounds(ints=tuple(range(-2, 4)), max_list=3, max_objects=3)


test_replay, test_enumeration = oracle_tests(CLOSURES, NAMES, SMALL)


def test_nested_functions_are_called_under_their_locals_qualname() -> None:
    program = translate(str(CLOSURES), ["scaled_sums"]).program
    functions = {p.function for p in program.predicates.values() if not p.builtin}
    assert "scaled_sums.<locals>.scale" in functions
    assert "scaled_sums.<locals>.scale.<locals>.clip" in functions


def test_a_nested_def_header_is_one_line_and_loops_know_their_function() -> None:
    source = ("def f(xs):\n    def g(\n        i: int,\n        acc: int = 0,\n    ) -> int:\n"
              "        while i < 3:\n            i += 1\n        return acc\n    return g(0)\n")
    tree = ast.parse(source)
    lines = statement_lines(tree)
    assert [lines[n] for n in (2, 3, 4, 5)] == [2, 2, 2, 2]
    assert [s.function for s in loop_shapes(tree)] == ["f.<locals>.g"]


_COUNTER = "    n = 0\n    def g() -> int:\n        nonlocal n\n        n += 1\n        return n\n"


@pytest.mark.parametrize("body, what", [
    (_COUNTER + "    n += g()\n    return n\n", "statement of its own"),
    (_COUNTER + "    try:\n        g()\n    except ValueError:\n        pass\n    return n\n", "outside 'try'"),
    (_COUNTER + "    return sum([g() for _ in [1]])\n", "comprehensions"),
    ("    n = 0\n    def g() -> int:\n        nonlocal n\n        def h() -> int:\n            return n\n"
     "        n = 2\n        return h()\n    g()\n    return n\n", "nested in 'g'"),
    ("    def g() -> int:\n        def h() -> None:\n            nonlocal x\n            x = 1\n        h()\n"
     "        return x\n    return g()\n", "scope other than the enclosing function's"),
    ("    def g(y: int) -> int:\n        return y\n    h = g\n    return h(x)\n", "used as a value"),
    ("    def len(y: int) -> int:\n        return y\n    return len(x)\n", "named like a builtin"),
    ("    def g(y: int) -> int:\n        return y\n    return sorted([x], key=g)[0]\n", "used as a value"),
    ("    if x:\n        def g() -> int:\n            return 1\n        return g()\n    return 0\n",
     "inside a block"),
    ("    y = g2()\n    def g2() -> int:\n        return x\n    return y\n", "before the 'def'"),
    ("    def g() -> int:\n        return z\n    r = g()\n    z = 1\n    return r + z\n", "may be unbound"),
    ("    @staticmethod\n    def g() -> int:\n        return x\n    return g()\n", "decorator"),
    ("    @functools.lru_cache()\n    def g() -> int:\n        return x\n    return g()\n", "decorator"),
    ("    @functools.cache\n    @functools.cache\n    def g() -> int:\n        return x\n    return g()\n",
     "several decorators"),
    ("    @functools.cache\n    def g(y: int = 1) -> int:\n        return x\n    return g()\n", "cached"),
    ("    @functools.cache\n    def g(y: int) -> int:\n        return x\n    return g(y=1)\n", "keyword"),
    ("    @functools.cache\n    def g(y: int) -> int:\n        return y\n    return g(x > 0) + g(1)\n",
     "may be a bool"),
    ("    def g(y: int = x) -> int:\n        return y\n    return g()\n", "default"),
    ("    def g(*ys: int) -> int:\n        return x\n    return g()\n", "*args"),
    ("    def g(y: Missing) -> int:\n        return y\n    return g(x)\n", "annotation"),
    ("    def g() -> int:\n        return x\n    def g() -> int:\n        return 1\n    return g()\n",
     "defined twice"),
])
def test_closures_outside_the_model_are_refused_with_their_place(tmp_path: Path, body: str, what: str) -> None:
    path = tmp_path / "m.py"
    path.write_text("import functools\n\n\ndef f(x: int) -> int:\n" + body)
    errors = translate(str(path), ["f"]).errors
    assert "f" in errors
    assert what in errors["f"].message and errors["f"].location is not None


def test_isinstance_on_a_nested_functions_parameter_is_decided_at_run_time(tmp_path: Path) -> None:
    """Its annotation says nothing of what callers pass: `g(x > 0)` gives a bool."""
    path = tmp_path / "m.py"
    path.write_text("def f(x: int) -> bool:\n    def g(y: int) -> bool:\n        return isinstance(y, bool)\n"
                    "    return g(x > 0)\n")
    cases = generated(path, "f")
    assert cases and all(c.kind == "return" and c.value is True for c in cases)
    assert replay_mismatches(path, "f", cases) == []


@pytest.mark.parametrize("name", ["parity", "grid_paths", "record_highs"])
def test_dfs_and_bfs_write_the_same_tests(name: str) -> None:
    program = translate(str(CLOSURES), [name]).program
    written = []
    for search in ("dfs", "bfs"):
        cases = generate(program, name, GenerateOptions.of(criterion=parse_criterion("loop-2"), search=search)).cases
        written.append([(c.name, c.inputs, c.kind, repr(c.value), c.path) for c in cases])
    assert written[0] and written[0] == written[1]
