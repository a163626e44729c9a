"""The search-control seam, used from outside the engine: a toy control in
a few lines, and criteria combined."""

from __future__ import annotations

from pathlib import Path

import pytest

from pathcraft.engine.control import SearchControl
from pathcraft.engine.criteria import Criteria, Criterion, parse_criterion
from pathcraft.engine.state import State
from pathcraft.errors import PathcraftError
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.ir.nodes import Predicate, Program


class NeverEnter(SearchControl):
    """Prune every path that calls `function` (the toy control)."""

    name = "never-enter"

    def __init__(self, function: str) -> None:
        self.function = function

    def call(self, state: State, callee: Predicate) -> State | None:
        return None if callee.function == self.function else state


SOURCE = '''
def helper(x: int) -> int:
    if x > 5:
        return x - 5
    return x + 1


def f(a: int) -> int:
    if a > 0:
        return helper(a)
    if a < -3:
        return -1
    return 0


def depth(n: int) -> int:
    if n <= 0:
        return 0
    return 1 + depth(n - 1)
'''


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Program:
    path = tmp_path_factory.mktemp("control") / "mod.py"
    path.write_text(SOURCE, encoding="utf-8")
    return translate(str(path)).program


def test_toy_control_prunes_exactly_the_paths_that_enter(program: Program) -> None:
    """Oracle: the full run's tests minus those whose path calls `helper`."""
    full = generate(program, "f", GenerateOptions()).cases
    pruned = generate(program, "f", GenerateOptions.of(controls=(NeverEnter("helper"),))).cases
    expected = [c.path for c in full if ("call", "helper") not in c.path]
    assert 0 < len(expected) < len(full)
    assert [c.path for c in pruned] == expected


def test_call_depth_combines_with_loop_bound(program: Program) -> None:
    """`depth` recurses; loop-3 allows 3 recursive activations under the
    first, calls-2 only one call below the function under test."""
    loop_only = generate(program, "depth", GenerateOptions.of(criterion=parse_criterion("loop-3"))).cases
    both = generate(program, "depth", GenerateOptions.of(criterion=parse_criterion("loop-3,calls-2"))).cases
    depth_of = [sum(1 for e in c.path if e[0] == "call") for c in both]
    assert len(loop_only) == 4 and len(both) == 2
    assert max(depth_of) == 2


def test_criteria_parse_and_print() -> None:
    assert parse_criterion("loop-2") == Criterion("loop", 2)
    both = parse_criterion("loop-2, calls-4")
    assert both == Criteria((Criterion("loop", 2), Criterion("calls", 4)))
    assert str(both) == "loop-2,calls-4"
    with pytest.raises(PathcraftError):
        parse_criterion("loop-2,cals-4")


def test_state_extension_data_is_per_path(program: Program) -> None:
    """block-K keeps its visit counts in `State.ext`: each recursion level
    enters `depth`'s blocks once more, so block-K allows K levels."""
    for k in (1, 2, 3):
        cases = generate(program, "depth", GenerateOptions.of(criterion=parse_criterion(f"block-{k}"))).cases
        assert sorted(c.path.count(("call", "depth")) for c in cases) == list(range(1, k + 1))


class CallsPerFrame(SearchControl):
    """Counts the calls each frame makes, in `frame.ext` (a per-frame
    controller datum), and allows at most `limit` per frame."""

    name = "calls-per-frame"

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def call(self, state: State, callee: Predicate) -> State | None:
        assert state.stack is not None
        made = state.stack.top.ext.get(self.name, 0)
        assert isinstance(made, int)
        return state.with_frame_ext(self.name, made + 1) if made < self.limit else None


TWO_CALLS = '''
def inc(x: int) -> int:
    return x + 1


def twice(a: int) -> int:
    if a > 3:
        return inc(inc(a))
    return inc(a)
'''


def test_frame_extension_data(tmp_path: Path) -> None:
    """With one call allowed per frame (a block of the CLP program), the
    block that calls `inc` twice is cut; the other block, and each callee's
    frame, start with their own count."""
    path = tmp_path / "two.py"
    path.write_text(TWO_CALLS, encoding="utf-8")
    program = translate(str(path)).program
    assert len(generate(program, "twice", GenerateOptions()).cases) == 2
    kept = generate(program, "twice", GenerateOptions.of(controls=(CallsPerFrame(1),))).cases
    assert [c.path.count(("call", "inc")) for c in kept] == [1]
