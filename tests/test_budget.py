"""Work budgets (budget.py): a run stops where its work is spent, whatever
the clock says, so a slower or busier machine writes the same tests; the
clock is only a safety net, and a run it stops says so."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pathcraft import budget as work
from pathcraft.engine.criteria import parse_criterion
from pathcraft.engine.engine import Run
from pathcraft.frontend import translate
from pathcraft.generate import FunctionRun, GenerateOptions, generate
from pathcraft.ir.nodes import Program
from pathcraft.solver import terms as T
from pathcraft.solver.z3backend import Z3Session, rlimit_count

FIXTURE = """\
def walk(xs: list[int], k: int) -> int:
    total = 0
    for x in xs:
        if x > k:
            total += x
        elif x == k:
            total -= 1
    return total
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Program:
    path = tmp_path_factory.mktemp("budget") / "walk.py"
    path.write_text(FIXTURE)
    return translate(str(path)).program


def _run(program: Program, timeout: float | None) -> FunctionRun:
    options = GenerateOptions.of(criterion=parse_criterion("loop-3"), timeout=timeout)
    return generate(program, "walk", options)


def test_the_budget_stops_a_search_at_the_same_tests_on_a_slower_machine(
        program: Program, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = _run(program, None)
    assert whole.budget is not None
    timeout = whole.budget.spent / work.WORK_PER_SECOND / 3  # a third of the whole search's work
    first = _run(program, timeout)
    assert first.stopped == work.WORK_REACHED
    assert 0 < len(first.cases) < len(whole.cases)  # the budget cut the search, after some tests
    advance = Run.advance

    def slowly(self: Run, state: object) -> object:  # a machine many times slower, or busy
        time.sleep(0.002)
        return advance(self, state)  # type: ignore[arg-type]

    monkeypatch.setattr(Run, "advance", slowly)
    started = time.monotonic()
    second = _run(program, timeout)
    assert time.monotonic() - started > timeout  # a clock budget would have stopped it sooner
    assert second.stopped == work.WORK_REACHED
    assert [repr(c) for c in second.cases] == [repr(c) for c in first.cases]
    assert second.budget is not None and first.budget is not None
    assert (second.budget.steps, second.budget.z3) == (first.budget.steps, first.budget.z3)


def test_work_is_reported_and_a_run_without_timeout_has_no_limit(program: Program) -> None:
    run = _run(program, None)
    assert run.stopped is None
    assert run.budget is not None and run.budget.limit is None
    assert run.stats["work"] == run.budget.spent > 0


def test_past_its_work_a_budget_says_so_and_past_its_clock_says_it_is_not_reproducible() -> None:
    spent = work.Budget(limit=1000, steps=1000 // work.STEP_WORK + 1)
    assert spent.reason() == work.WORK_REACHED
    assert work.Budget(limit=10**9).reason() is None
    late = work.Budget(limit=10**9, deadline=time.monotonic() - 1)
    assert late.reason() == work.CLOCK_REACHED and "not reproducible" in late.reason()


def test_for_timeout_buys_work_at_the_reference_rate_with_the_clock_well_behind() -> None:
    budget = work.for_timeout(2.0)
    assert budget.limit == 2 * work.WORK_PER_SECOND
    assert budget.deadline is not None and budget.deadline - time.monotonic() > 2.0 * (work.SAFETY_FACTOR - 0.5)
    assert work.for_timeout(None).limit is None


def test_a_z3_check_gets_only_the_work_left_and_none_past_it() -> None:
    x = T.Sym("x", T.INT)
    session = Z3Session(5000, 2_000_000)
    with work.spending(work.Budget(limit=work.STEP_WORK, steps=2)):
        assert session.check(None, [T.gt(x, 3)], [x]) == ("unknown", None)
    assert session.calls == 0  # Z3 not asked
    budget = work.Budget(limit=10**9)
    with work.spending(budget):
        verdict, model = session.check(None, [T.gt(x, 3)], [x])
    assert verdict == "sat" and model is not None and model["x"] > 3
    assert budget.z3 > 0 and session.calls == 1  # the check's resource count is charged


def test_each_check_is_charged_its_own_resource_count_not_its_contexts() -> None:
    """Z3 counts resources per context, over all its solvers: a check after
    a bit-blasted one (a fresh solver of the session's context) is charged
    what it spent itself, not the other's count again."""
    x = T.Sym("x", T.INT)
    bits = T.eq(T.bitand(x, 12), 4)

    def charged(session: Z3Session, constraint: T.Term) -> int:
        budget = work.Budget(limit=10**12)
        with work.spending(budget):
            assert session.check(None, [constraint], [x])[0] == "sat"
        return budget.z3

    session = Z3Session(5000, 50_000_000)
    charges = [charged(session, bits), charged(session, T.gt(x, 3)), charged(session, bits), charged(session, bits)]
    counted = rlimit_count(session.solver)  # the context's count, over both kinds of check
    assert charges[1] < charges[0] // 10  # the incremental check: its own count, not the bit check's before it
    assert 0.9 * counted <= sum(charges) <= counted  # each unit charged once


def test_a_canonical_models_session_is_not_cut_by_the_search_budget() -> None:
    x = T.Sym("x", T.INT)
    session = Z3Session(5000, 2_000_000, budgeted=False)
    with work.spending(work.Budget(limit=0, steps=5)):
        verdict, _ = session.check(None, [T.gt(x, 3)], [x])
    assert verdict == "sat"


def test_the_cli_says_a_work_budget_stopped_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from pathcraft.app.cli import main

    target = tmp_path / "walk.py"
    target.write_text(FIXTURE)
    code = main(["gen", f"{target}::walk", "--timeout", "1e-9", "-o", str(tmp_path / "test_walk.py")])
    err = capsys.readouterr().err
    assert code == 0
    assert "walk: work budget reached; kept" in err, err


FACTORS = """\
import math


def smallest_factor(n: int) -> int:
    if n < 2:
        raise ValueError("no factor below 2")
    i = 2
    while i * i <= n:
        if n % i == 0:
            return i
        i += 1
    return n


def has_no_divisor(n: int) -> bool:
    if n < 2:
        return False
    for i in range(2, int(math.sqrt(n)) + 1):
        if n % i == 0:
            return False
    return True
"""


def test_non_linear_checks_stay_within_the_work_they_were_given(tmp_path: Path) -> None:
    """`i * i <= n` and `sqrt(n)` make checks Z3 may not stop on its count
    (TheAlgorithms' prime checks ran to the clock's safety net, several
    times their budget): each check gets the work left, weighed by its
    theories, and the run ends on its work, twice the same."""
    path = tmp_path / "factors.py"
    path.write_text(FACTORS)
    program = translate(str(path)).program
    for name in ("smallest_factor", "has_no_divisor"):
        runs = [generate(program, name, GenerateOptions.of(timeout=1.0)) for _ in range(2)]
        for run in runs:
            assert run.budget is not None and run.budget.limit is not None
            assert run.stopped in (None, work.WORK_REACHED), (name, run.stopped)
            assert run.budget.spent <= run.budget.limit * 1.05, (name, run.budget)
            assert run.cases
        assert [repr(c) for c in runs[0].cases] == [repr(c) for c in runs[1].cases]
