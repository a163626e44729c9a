"""Edge tests (`--edge-tests`, solver/boundaries.py): tests that put an int
parameter at or beside a constant a path compares it with, where no test
has that value.

Oracles: the real code (every test replays with its value and its path)
and slipped programs (`<=` for `<`, `==` for `>=`, a search from the
other end) that agree with the right one on every input a path-per-test
suite gives: only an edge test tells them apart.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from oracle import load_module, replay_mismatches

from pathcraft.frontend import translate
from pathcraft.generate import FunctionRun, GenerateOptions, generate
from pathcraft.solver import terms as T
from pathcraft.solver.boundaries import boundary_values

FIXTURE = Path(__file__).parent / "fixtures" / "edges.py"


def run(qualname: str, **options: Any) -> FunctionRun:
    result = translate(str(FIXTURE), [qualname])
    assert not result.errors, result.errors
    return generate(result.program, qualname, GenerateOptions.of(**options))


def edged(found: FunctionRun) -> list[Any]:
    return [c for c in found.cases if c.extra.get("edge")]


def outcome(function: Any, args: dict[str, Any]) -> Any:
    try:
        return ("return", function(**args))
    except Exception as error:  # noqa: BLE001  # the outcome to compare, whatever it is
        return ("raise", type(error).__name__)


@pytest.mark.parametrize("qualname, slipped", [("floor_root", "floor_root_slipped"),
                                               ("magnitude", "magnitude_slipped"),
                                               ("first_index", "first_index_slipped")])
def test_only_the_edge_tests_tell_a_slipped_comparison_apart(qualname: str, slipped: str) -> None:
    module = load_module(FIXTURE)
    right, wrong = getattr(module, qualname), getattr(module, slipped)
    found = run(qualname, edge_tests=3)
    assert edged(found) and found.stats["edge_tests"] == len(edged(found))
    assert found.stats["tests"] == len(found.cases)

    def arguments(case: Any) -> dict[str, Any]:  # a list input afresh for each call
        return {name: list(case.heap_in[name]["list"]) if isinstance(value, dict) else value
                for name, value in case.inputs}

    def tells(case: Any) -> bool:
        return bool(outcome(right, arguments(case)) != outcome(wrong, arguments(case)))

    assert not any(tells(c) for c in found.cases if not c.extra.get("edge"))
    assert any(tells(c) for c in edged(found))
    assert replay_mismatches(FIXTURE, qualname, found.cases) == []


def test_edge_tests_add_only_values_no_test_has_and_keep_the_other_tests() -> None:
    plain = run("grade")
    found = run("grade", edge_tests=10)
    assert [c.trace for c in found.cases if not c.extra.get("edge")] == [c.trace for c in plain.cases]
    values = [dict(c.inputs)["score"] for c in found.cases]
    assert len(set(values)) == len(values)  # an edge value is added once, and only if no test has it
    # `score` is compared with 90 and 50 alone: those edges are the ones added
    assert {dict(c.inputs)["score"] for c in edged(found)} <= {49, 50, 51, 89, 90, 91}
    assert replay_mismatches(FIXTURE, "grade", found.cases) == []


def test_the_limit_holds_and_zero_turns_edge_tests_off() -> None:
    assert len(edged(run("grade", edge_tests=1))) == 1
    found = run("grade", edge_tests=0)
    assert edged(found) == [] and "edge_tests" not in found.stats


def test_a_parameter_no_comparison_names_gets_no_edge_test() -> None:
    assert edged(run("uncompared", edge_tests=3)) == []


def test_boundary_values_of_comparisons_with_constants() -> None:
    x, y = T.Sym("x", T.INT), T.Sym("y", T.INT)
    constraints = [T.apply("lt", x, 5), T.apply("not", T.apply("ge", 0, x)), T.apply("le", x, y),
                   T.apply("lt", y, 7)]
    found = boundary_values(constraints, [x])
    assert [(b.parameter.name, b.value, b.offset) for b in found] == \
        [("x", 5, 0), ("x", 4, -1), ("x", 6, 1), ("x", 0, 0), ("x", -1, -1), ("x", 1, 1)]
    assert found[0].describe() == "x = 5, on the edge of x < 5"
    assert found[1].describe() == "x = 4, next to the edge of x < 5"
    assert found[3].describe() == "x = 0, on the edge of x > 0"  # not 0 >= x


def test_a_bool_stands_in_for_an_int_returned_as_given() -> None:
    """`magnitude(False) is False`; the version that computes `-a` on 0
    returns the int 0, equal on every int: only the bool test tells them
    apart (and it asserts identity, which equality would miss)."""
    module = load_module(FIXTURE)
    right, wrong = module.magnitude, module.magnitude_computed
    found = run("magnitude", edge_tests=3)
    bools = [c for c in found.cases if any(type(v) is bool for _, v in c.inputs)]
    assert len(bools) == 1 and bools[0].value is False and "a bool" in bools[0].extra["edge"]
    for case in found.cases:
        args = dict(case.inputs)
        if case is bools[0]:
            assert right(**args) is case.value and wrong(**args) is not case.value
        else:
            assert right(**args) == wrong(**args) == case.value and type(wrong(**args)) is type(case.value)
    assert replay_mismatches(FIXTURE, "magnitude", found.cases) == []


@pytest.mark.parametrize("qualname", ["described", "signed"])
def test_no_bool_where_the_function_tells_a_bool_from_its_int(qualname: str) -> None:
    """`f"{a}"` writes "False"; `+a` and `a * 1` return the int 0, though the
    engine's terms fold them to `a` (the line returned from tells)."""
    found = run(qualname, edge_tests=3)
    assert not [c for c in found.cases if any(type(v) is bool for _, v in c.inputs)]
    assert replay_mismatches(FIXTURE, qualname, found.cases) == []


@pytest.mark.parametrize("body, safe", [
    ("return a", True),
    ("if a >= 0 and a != 3:\n        return a\n    return -a + 2 * a - a // 2 + a % 3 + a ** 2", True),
    ("return not a", True),
    ("return str(a)", False),
    ("return f'{a}'", False),
    ("return '%s' % a", False),
    ("return a is 0", False),
    ("return a & 1", False),
    ("return g(a)", False),
    ("a = a + 1\n    return a", False),
    ("return (lambda: a)()", False),
    ("return [a for _ in range(2)]", False),
    ("b = [a]\n    return b", False),
])
def test_which_uses_let_a_bool_stand_in_for_an_int(body: str, safe: bool) -> None:
    import ast

    from pathcraft.frontend.boolsafe import bool_safe_ints
    from pathcraft.ir.types import INT

    fn = ast.parse(f"def f(a: int) -> int:\n    {body}\n").body[0]
    assert isinstance(fn, ast.FunctionDef)
    assert bool_safe_ints(fn, ["a"], [INT]) == (("a",) if safe else ())


def test_a_twin_test_has_two_equal_items_where_the_path_finds_one() -> None:
    found = run("first_index", edge_tests=3)
    twins = [c for c in edged(found) if "twin" in c.extra["edge"]]
    assert twins
    for case in twins:
        items, item = case.heap_in["items"]["list"], dict(case.inputs)["item"]
        assert list(items).count(item) >= 2, case
    assert replay_mismatches(FIXTURE, "first_index", found.cases) == []
