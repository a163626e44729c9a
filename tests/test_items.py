"""Item coverage by the standard search with paper 004's pruning
(`--criterion statements|branches --item-search paths`, strategies/items.py).

The oracle is the standard search: every path under the same termination
criterion, with no objective. The items its tests reach are exactly the
items an item-coverage run must reach (it explores the same tree and only
drops paths that add nothing), with Look-Ahead or without (004, Property
1: Look-Ahead never loses coverage), and with Solve-First (Property 4:
the same covering power). Tests also replay on the real code.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from oracle import SHARED_EXAMPLES, replay_mismatches

from pathcraft.engine.criteria import parse_criterion
from pathcraft.strategies.items import objective
from pathcraft.strategies.points import report
from pathcraft.frontend import translate
from pathcraft.generate import FunctionRun, GenerateOptions, generate

FIXTURES = Path(__file__).parent / "fixtures"
ITEMS = FIXTURES / "items.py"


def run(path: Path, qualname: str, criterion: str = "branches,loop-2", **options: Any) -> FunctionRun:
    result = translate(str(path), [qualname])
    assert not result.errors, result.errors
    parts = criterion.split(",")
    select = parts[0] if parts[0] in ("statements", "branches") else None
    bound = ",".join(p for p in parts if p not in ("statements", "branches"))
    settings = GenerateOptions.of(criterion=parse_criterion(bound), select=select, **options)
    return generate(result.program, qualname, settings)


def reached(run_: FunctionRun) -> set[str]:
    return {item for item, test in run_.stats["points"].items() if test is not None}


def test_look_ahead_abandons_paths_that_can_reach_nothing_new() -> None:
    plain = run(ITEMS, "pick", "branches,loop-3", item_search="paths", look_ahead=False)
    pruned = run(ITEMS, "pick", "branches,loop-3", item_search="paths")
    assert reached(plain) == reached(pruned) == set(plain.stats["points"])
    # without it, countdown's four paths under a > 0 all complete; with it, one does
    assert (plain.stats["completed_paths"], plain.stats["look_ahead_cut"]) == (5, 0)
    assert pruned.stats["completed_paths"] == 2 and pruned.stats["look_ahead_cut"] == 3
    assert pruned.stats["derivation_steps"] < plain.stats["derivation_steps"]
    assert replay_mismatches(ITEMS, "pick", pruned.cases) == []


TARGETS = [
    (SHARED_EXAMPLES / "lcm.py", "lcm"), (SHARED_EXAMPLES / "lcm.py", "gcd"),
    (SHARED_EXAMPLES / "vector.py", "multiples"), (SHARED_EXAMPLES / "vector.py", "Vector.add"),
    (SHARED_EXAMPLES / "arraypower.py", "arraypower"), (SHARED_EXAMPLES / "rational.py", "R.simplify"),
    (SHARED_EXAMPLES / "aliasing.py", "m"),
    (FIXTURES / "linked.py", "SList.insert_at"), (FIXTURES / "linked.py", "SList.remove_first"),
    (FIXTURES / "linked.py", "SList.find"), (FIXTURES / "pq.py", "SortedPQ.insert"),
    (FIXTURES / "pq.py", "HeapPQ.remove_min"), (FIXTURES / "pq.py", "Tree.remove"),
    (ITEMS, "pick"), (ITEMS, "nested"),
]


@pytest.mark.parametrize("criterion", ["branches", "statements"])
@pytest.mark.parametrize(("path", "qualname"), TARGETS, ids=[q for _, q in TARGETS])
def test_same_items_as_every_path_with_look_ahead_and_solve_first(path: Path, qualname: str, criterion: str) -> None:
    every = run(path, qualname, "loop-2")
    program = translate(str(path), [qualname]).program
    items = objective(program, qualname, criterion, unit=True)
    oracle = {item for item, test in report(items, every.cases).items() if test is not None}
    for look_ahead, solve_first in ((False, False), (True, False), (True, True)):
        found = run(path, qualname, f"{criterion},loop-2", item_search="paths", look_ahead=look_ahead,
                    solve_first=solve_first)
        assert reached(found) == oracle, (look_ahead, solve_first, found.stats["points"])
        assert len(found.cases) <= len(oracle)  # each test reaches an item no earlier one did
        assert found.stopped is None
        assert replay_mismatches(path, qualname, found.cases) == []


def test_max_call_depth_runs_deep_calls_for_their_first_answer() -> None:
    full = run(ITEMS, "nested", "branches,loop-2", item_search="paths", look_ahead=False)
    deep = run(ITEMS, "nested", "branches,loop-2", item_search="paths", look_ahead=False, max_call_depth=1)
    shallow = run(ITEMS, "nested", "branches,loop-2", item_search="paths", look_ahead=False, max_call_depth=5)
    assert full.stats["call_depth_cut"] == 0 and shallow.stats["completed_paths"] == full.stats["completed_paths"]
    # countdown (two calls down) gives helper_loop one answer: 2 of its 3 paths are cut
    assert deep.stats["call_depth_cut"] > 0
    assert deep.stats["completed_paths"] < full.stats["completed_paths"]
    assert reached(deep) == reached(full)  # here nothing is lost: nested's own items do not depend on it
    assert replay_mismatches(ITEMS, "nested", deep.cases) == []


def test_max_call_depth_may_lose_coverage_and_says_so(tmp_path: Path) -> None:
    lcm = run(SHARED_EXAMPLES / "lcm.py", "lcm", "branches,loop-2", item_search="paths", max_call_depth=0)
    assert lcm.stats["call_depth_cut"] > 0
    missed = {item for item, test in lcm.stats["points"].items() if test is None}
    assert "22" in missed  # `return -1` needs gcd's second answer (a = b = 0)
    out = subprocess.run([sys.executable, "-m", "pathcraft", "gen", f"{SHARED_EXAMPLES / 'lcm.py'}::lcm",
                          "-c", "branches", "--item-search", "paths", "--max-call-depth", "0", "--no-solve-first",
                          "-o", str(tmp_path / "t.py")], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert "Max-CallDepth cut" in out.stderr and "22" in out.stderr
    # Solve-First's concrete runs follow the model through gcd, whatever the depth: they reach it
    first = run(SHARED_EXAMPLES / "lcm.py", "lcm", "branches,loop-2", item_search="paths", max_call_depth=0,
                solve_first=True)
    assert reached(first) > reached(lcm) and "22" in reached(first)
    assert replay_mismatches(SHARED_EXAMPLES / "lcm.py", "lcm", first.cases) == []


def test_outside_unit_mode_the_callees_items_count_too() -> None:
    unit = run(ITEMS, "pick", "statements,loop-2", item_search="paths")
    whole = run(ITEMS, "pick", "statements,loop-2", item_search="paths", unit=False)
    countdown_lines = {"5", "6", "7", "8", "9"}
    assert not countdown_lines & set(unit.stats["points"])
    assert countdown_lines <= reached(whole)


@pytest.mark.parametrize("args", [
    ["--max-call-depth", "1"],  # no item criterion
    ["-c", "branches", "--item-search", "guided", "--max-call-depth", "1"],  # the guided item search
    ["-c", "branches", "--item-search", "paths", "--no-unit", "--max-call-depth", "1"],
    ["-c", "branches", "--item-search", "sideways"],
])
def test_pruning_options_out_of_place_are_usage_errors(args: list[str], tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "pathcraft", "gen", f"{ITEMS}::pick", *args,
                          "-o", str(tmp_path / "t.py")], capture_output=True, text=True, check=False)
    assert out.returncode == 2
    assert out.stderr.startswith("pathcraft:") or "Invalid value" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize(("path", "qualname"), [(FIXTURES / "pq.py", "Tree.remove"),
                                                (FIXTURES / "linked.py", "SList.insert_at"),
                                                (SHARED_EXAMPLES / "lcm.py", "lcm")])
def test_no_test_is_redundant_and_the_written_ones_are_the_kept_ones(path: Path, qualname: str) -> None:
    from pathcraft.strategies.points import reached_by

    result = translate(str(path), [qualname])
    written: list[str] = []
    options = GenerateOptions.of(criterion=parse_criterion("loop-2"), select="branches", item_search="paths")
    found = generate(result.program, qualname, options, on_case=lambda case: written.append(case.name))
    assert written == [c.name for c in found.cases]
    prefix = f"test_{qualname.replace('.', '_')}_"
    assert [c.name[len(prefix):].split("_")[0] for c in found.cases] == \
        [str(n) for n in range(1, len(found.cases) + 1)]
    items = objective(result.program, qualname, "branches", unit=True)
    reached_each = [reached_by(items, c) for c in found.cases]
    for i, mine in enumerate(reached_each):
        others = set().union(*(r for j, r in enumerate(reached_each) if j != i))
        assert mine - others, f"{found.cases[i].name} reaches nothing the others do not"


def test_solve_first_runs_alternatives_without_the_solver_and_look_ahead_skips_them() -> None:
    plain = run(ITEMS, "pick", "branches,loop-3", item_search="paths")
    first = run(ITEMS, "pick", "branches,loop-3", item_search="paths", solve_first=True)
    assert reached(first) == reached(plain) == set(plain.stats["points"])
    assert first.stats["concrete_runs"] >= 1 and first.stats["concrete_kept"] >= 1
    assert first.stats["branch_queries"] < plain.stats["branch_queries"]
    assert replay_mismatches(ITEMS, "pick", first.cases) == []


def test_the_model_brancher_never_asks_the_solver() -> None:
    from pathcraft.engine.branch import ModelBrancher
    from pathcraft.engine.state import EngineStats
    from pathcraft.solver import terms as T

    class NoSolver:
        def check(self, query: object) -> object:
            raise AssertionError("a concrete run asked the solver")

    brancher = ModelBrancher(NoSolver(), EngineStats())  # type: ignore[arg-type]
    x = T.Sym("x", T.INT)
    assert brancher.narrow(None, {"x": 3}, T.gt(x, 2)) is not None
    assert brancher.narrow(None, {"x": 3}, T.lt(x, 2)) is None
    assert brancher.narrow(None, {}, T.eq(x, 0)) is not None  # a free symbol takes its default, 0


def test_solve_first_leaves_the_all_paths_search_alone() -> None:
    every = run(ITEMS, "pick", "loop-2")
    asked = run(ITEMS, "pick", "loop-2", solve_first=True)
    assert [str(c.trace) for c in asked.cases] == [str(c.trace) for c in every.cases]
    assert "concrete_runs" not in asked.stats
