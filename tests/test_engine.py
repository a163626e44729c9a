"""Engine tests: termination criteria, searchers, limits, trace terms.

Expected path counts are derived from the CLP program of each fixture
(see `pathcraft clp`): for `count` below it is

    count      :- I = 0, count_loop1(N, I).
    count_loop1:- I < N, count_body2(N, I).  |  I >= N, count_exit3(I).
    count_body2:- I1 = I + 1, count_loop1(N, I1).      (one iteration)
    count_exit3:- R = I.

so a path with j iterations returns j, needs n == j (or n <= 0 for j = 0),
and enters 1 + (j + 1) + j + 1 = 2j + 3 predicates.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from pathcraft.engine.criteria import Criterion, parse_criterion
from pathcraft.engine.engine import Engine
from pathcraft.engine.options import EngineOptions
from pathcraft.engine.state import SymbolicPath as EPath
from pathcraft.errors import PathcraftError
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.ir.nodes import Call, Goto, Program
from pathcraft.ir.trace import TraceTerm
from pathcraft.solver.terms import evaluate

FIXTURE = """\
def count(n: int) -> int:
    i = 0
    while i < n:
        i += 1
    return i


def rec(n: int) -> int:
    if n <= 0:
        return 0
    return 1 + rec(n - 1)


def divide(a: int, b: int) -> int:
    if a > 0:
        return a // b
    return -1


def straight(a: int) -> int:
    return a + 1
"""

REPO = Path(__file__).resolve().parent.parent
ARITH = REPO / "examples" / "arith.py"
CONTROL = REPO / "tests" / "fixtures" / "control.py"


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Program:
    path = tmp_path_factory.mktemp("engine") / "fx.py"
    path.write_text(FIXTURE, encoding="utf-8")
    result = translate(str(path))
    assert not result.errors
    return result.program


def run(program: Program, name: str, criterion: str = "loop-2", **options: object) -> tuple[list[EPath], Engine]:
    engine = Engine(program, EngineOptions(criterion=parse_criterion(criterion), **options))  # type: ignore[arg-type]
    return list(engine.explore(name)), engine


def returned(path: EPath) -> int | bool:
    assert path.outcome.kind == "return"
    return evaluate(path.outcome.value, path.model)  # type: ignore[arg-type]


# ------------------------------------------------------------- criteria


def test_parse_criterion() -> None:
    assert parse_criterion("loop-3") == Criterion("loop", 3)
    assert parse_criterion(" depth-10 ") == Criterion("depth", 10)
    assert str(parse_criterion("block-0")) == "block-0"
    for bad in ("loop-x", "loop", "loops-2", "loop--1", "depth-1.5", ""):
        with pytest.raises(PathcraftError):
            parse_criterion(bad)


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_loop_k_while_with_symbolic_bound(program: Program, k: int) -> None:
    """loop-K runs the body at most K times per loop entry: j = 0..K
    iterations, each a normal path (K + 1 of them), returning j, with n
    forced to j (n <= 0 when j = 0). The K+1-st iteration is pruned."""
    paths, engine = run(program, "count", f"loop-{k}")
    assert sorted(returned(p) for p in paths) == list(range(k + 1))
    for p in paths:
        j = returned(p)
        n = p.model.get("n", 0)
        assert (n <= 0) if j == 0 else (n == j)
        assert p.steps == 2 * j + 3
    assert engine.stats.pruned == 1


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_loop_k_bounds_recursion(program: Program, k: int) -> None:
    """The first activation is free, then at most K recursive ones: paths
    with 0..K recursive calls, returning 0..K."""
    paths, engine = run(program, "rec", f"loop-{k}")
    assert sorted(returned(p) for p in paths) == list(range(k + 1))
    assert engine.stats.pruned == 1


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_block_k(program: Program, k: int) -> None:
    """With j iterations the header count_loop1 is entered j + 1 times and
    every other block at most j + 1 times, so block-K keeps j + 1 <= K:
    K paths (j = 0..K-1); with K = 0 even the entry block is cut."""
    paths, engine = run(program, "count", f"block-{k}")
    assert sorted(returned(p) for p in paths) == list(range(k))
    assert engine.stats.pruned >= 1


def test_block_k_bounds_recursion(program: Program) -> None:
    """rec is entered once per activation: block-3 allows 3 activations,
    i.e. 0, 1 or 2 recursive calls."""
    paths, _ = run(program, "rec", "block-3")
    assert sorted(returned(p) for p in paths) == [0, 1, 2]


@pytest.mark.parametrize(("k", "iterations"), [(2, []), (3, [0]), (6, [0, 1]), (7, [0, 1, 2]), (9, [0, 1, 2, 3])])
def test_depth_k(program: Program, k: int, iterations: list[int]) -> None:
    """A path with j iterations applies 2j + 3 rules; depth-K keeps those
    with 2j + 3 <= K."""
    paths, engine = run(program, "count", f"depth-{k}")
    assert sorted(returned(p) for p in paths) == iterations
    assert all(p.steps <= k for p in paths)
    assert engine.stats.pruned >= 1


def test_depth_k_cuts_a_straight_line_function(program: Program) -> None:
    """`straight` is one rule: depth-1 keeps it, depth-0 does not."""
    assert len(run(program, "straight", "depth-1")[0]) == 1
    assert run(program, "straight", "depth-0")[0] == []


# ------------------------------------------------------------- searchers


def _signatures(paths: list[EPath]) -> list[str]:
    return sorted(str(p.trace) for p in paths)


@pytest.mark.parametrize(("source", "name", "criterion"), [
    (None, "count", "loop-3"), (None, "rec", "loop-2"), (None, "divide", "loop-2"),
    (ARITH, "classify", "loop-2"), (ARITH, "digit_sum", "loop-2"), (CONTROL, "nested_finally", "loop-2"),
])
def test_dfs_and_bfs_find_the_same_paths(program: Program, source: Path | None, name: str, criterion: str) -> None:
    prog = program if source is None else translate(str(source), [name]).program
    dfs, _ = run(prog, name, criterion, search="dfs")
    bfs, _ = run(prog, name, criterion, search="bfs")
    assert dfs and _signatures(dfs) == _signatures(bfs)
    assert len(set(_signatures(dfs))) == len(dfs), "a path was found twice"


def test_bfs_finds_short_paths_first(program: Program) -> None:
    """Breadth-first: the paths of `count` come out in order of length."""
    paths, _ = run(program, "count", "loop-3", search="bfs")
    assert [returned(p) for p in paths] == [0, 1, 2, 3]


# -------------------------------------------------------- outcomes, limits


def test_exception_paths_and_no_exceptions(program: Program) -> None:
    """divide: a > 0 and b != 0 returns a // b; a > 0 and b == 0 raises
    ZeroDivisionError; a <= 0 returns -1. Without exceptions: two tests."""
    with_exc = generate(program, "divide", GenerateOptions.of())
    kinds = sorted(c.kind for c in with_exc.cases)
    assert kinds == ["raise", "return", "return"]
    raised = [c for c in with_exc.cases if c.kind == "raise"][0]
    assert raised.exc_type == "ZeroDivisionError" and dict(raised.inputs)["b"] == 0
    without = generate(program, "divide", GenerateOptions.of(exceptions=False))
    assert [c.kind for c in without.cases] == ["return", "return"]
    assert without.stats["exception_paths_filtered"] == 1
    assert without.stats["paths"] == 3 and without.stats["tests"] == 2


def test_max_paths_stops_and_says_why(program: Program) -> None:
    paths, engine = run(program, "count", "loop-3", max_paths=2)
    assert len(paths) == 2
    assert engine.stats.stopped == "path limit reached"


def test_deadline_in_the_past_stops_and_says_why(program: Program) -> None:
    paths, engine = run(program, "count", "loop-3", deadline=time.monotonic() - 1.0)
    assert paths == []
    assert engine.stats.stopped == "time budget reached"


def test_complete_run_does_not_claim_to_have_stopped(program: Program) -> None:
    _, engine = run(program, "count", "loop-3", max_paths=100)
    assert engine.stats.stopped is None and engine.stats.paths == 4


# ----------------------------------------------------------- trace terms

_TRACE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\((\d+),\[")


def _parse(text: str, i: int = 0) -> tuple[TraceTerm, int]:
    """Parse `p(k,[T1,...,Tn])` strictly; returns the term and the end index."""
    m = _TRACE.match(text, i)
    assert m, f"bad trace at {i}: {text[i:i + 30]!r}"
    i = m.end()
    children: list[TraceTerm] = []
    while text[i] != "]":
        child, i = _parse(text, i)
        children.append(child)
        if text[i] == ",":
            i += 1
    assert text[i:i + 2] == "])"
    return TraceTerm(m.group(1), int(m.group(2)), tuple(children)), i + 2


def _expected_count_trace(j: int) -> str:
    """From the CLP program of `count` (module docstring)."""
    inner = "count_loop1(2,[count_exit3(1,[])])"
    for _ in range(j):
        inner = f"count_loop1(1,[count_body2(1,[{inner}])])"
    return f"count(1,[{inner}])"


def test_trace_of_a_loop_is_the_derivation(program: Program) -> None:
    paths, _ = run(program, "count", "loop-2")
    assert {str(p.trace): returned(p) for p in paths} == {_expected_count_trace(j): j for j in range(3)}


TRACED = [(ARITH, n) for n in ("classify", "digit_sum", "power", "spread", "clamp", "gate")] + [
    (CONTROL, n) for n in ("spin", "ternary", "chained", "mutual_even", "while_else", "range_forms")
]


@pytest.mark.parametrize(("source", "name"), TRACED, ids=[n for _, n in TRACED])
def test_trace_terms_have_the_shape_and_match_the_program(source: Path, name: str) -> None:
    """Each trace prints as `p(k,[...])` and parses back to itself; its
    root is the function's entry; every (p, k) names an existing rule; for
    a path that returns normally (no try in these functions) the children
    are one per Call/Goto of the rule body."""
    program = translate(str(source), [name]).program
    paths, _ = run(program, name, "loop-2")
    assert paths
    for p in paths:
        text = str(p.trace)
        parsed, end = _parse(text)
        # the same term (whether a frame raised is not printed: compare what is)
        assert end == len(text) and str(parsed) == text and parsed.rules_used() == p.trace.rules_used()
        assert p.trace.predicate == program.functions[name].entry
        for pred_name, k in p.trace.rules_used():
            pred = program.predicate(pred_name)
            assert 1 <= k <= len(pred.rules) and pred.rules[k - 1].index == k
        if p.outcome.kind == "return":
            _check_children(program, p.trace)


def _check_children(program: Program, term: TraceTerm) -> None:
    rule = program.predicate(term.predicate).rules[term.rule - 1]
    calls = [i for i in rule.body if isinstance(i, (Call, Goto))]
    assert len(term.children) == len(calls), (str(term), rule)
    for instr, child in zip(calls, term.children):
        assert child.predicate == (instr.predicate if isinstance(instr, Call) else instr.block)
        _check_children(program, child)


LEN_SOURCE = '''
class Box:
    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n


def size(b: Box) -> int:
    return len(b)
'''


def test_len_through_dunder_len_checks_the_result(tmp_path: Path) -> None:
    """Python's len() raises ValueError when __len__ returns a negative int:
    a path for it, and the non-negative path returns the value."""
    source = tmp_path / "boxes.py"
    source.write_text(LEN_SOURCE)
    program = translate(str(source), ["size"]).program
    cases = generate(program, "size", GenerateOptions()).cases
    outcomes = sorted((c.kind, c.exc_type or "", c.exc_message or "") for c in cases)
    assert outcomes == [("raise", "ValueError", "__len__() should return >= 0"), ("return", "", "")]
    returned = next(c for c in cases if c.kind == "return")
    assert returned.value >= 0
