"""Long probes for object inputs (strategies/deeper.py): a search one loop
deeper, kept where the function's own decisions are new.

Oracles: the real code (every test replays with its value, heap and path)
and a slipped method (`size <= 3` for `size < 3`) that agrees with the
right one on every chain a loop-2 search builds: only the deeper test
tells them apart.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from oracle import RealCode, replay_mismatches

from pathcraft.engine.control import SolverWorkLimit
from pathcraft.engine.criteria import Criteria, Criterion
from pathcraft.strategies.deeper import one_deeper, own_signature
from pathcraft.frontend import translate
from pathcraft.generate import FunctionRun, GenerateOptions, generate
from pathcraft.ir.trace import TraceTerm
from pathcraft.solver import terms as T
from pathcraft.solver.z3backend import Z3Session

FIXTURE = Path(__file__).parent / "fixtures" / "deeper.py"


def run(qualname: str, **options: Any) -> FunctionRun:
    result = translate(str(FIXTURE), [qualname])
    assert not result.errors, result.errors
    return generate(result.program, qualname, GenerateOptions.of(**options))


def probed(found: FunctionRun) -> list[Any]:
    return [c for c in found.cases if c.extra.get("probe")]


def test_a_deeper_search_reaches_the_decision_a_loop_2_walk_cannot() -> None:
    plain = run("Chain.middle")
    found = run("Chain.middle", long_probes=3)
    assert not any(c.kind == "return" for c in plain.cases)  # three nodes are one walk step too many
    added = probed(found)
    assert added and found.stats["probe_tests"] == len(added) <= 3
    assert [c.trace for c in found.cases if not c.extra.get("probe")] == [c.trace for c in plain.cases]
    assert any(c.kind == "return" for c in added)
    assert replay_mismatches(FIXTURE, "Chain.middle", found.cases) == []


def test_only_the_deeper_test_tells_a_slipped_bound_apart() -> None:
    found = run("Chain.middle", long_probes=3)
    right, wrong = RealCode(FIXTURE, "Chain.middle"), RealCode(FIXTURE, "Chain.middle_slipped")

    def outcome(real: RealCode, case: Any) -> Any:
        ran, value, _ = real.run_case(dict(case.inputs), dict(case.heap_in))
        return (ran.kind, value, ran.exc_type)

    def tells(case: Any) -> bool:
        return bool(outcome(right, case) != outcome(wrong, case))

    assert not any(tells(c) for c in found.cases if not c.extra.get("probe"))
    assert any(tells(c) for c in probed(found))


def test_no_deeper_search_where_the_criterion_cut_nothing() -> None:
    found = run("Node.__init__", long_probes=3)
    assert probed(found) == [] and "probe_tests" not in found.stats


def test_one_deeper_raises_only_the_loop_bound() -> None:
    assert one_deeper(Criterion("loop", 2)) == Criterion("loop", 3)
    assert one_deeper(Criteria((Criterion("loop", 2), Criterion("depth", 4)))) == \
        Criteria((Criterion("loop", 3), Criterion("depth", 4)))


def test_own_signature_leaves_out_what_callees_decide() -> None:
    def call(rule: int) -> TraceTerm:
        return TraceTerm("Chain_length", 1, (TraceTerm("Chain_length_loop1", rule),))

    one = TraceTerm("Chain_middle", 1, (call(1), TraceTerm("Chain_middle_then2", 1)))
    other = TraceTerm("Chain_middle", 1, (call(2), TraceTerm("Chain_middle_then2", 1)))
    third = TraceTerm("Chain_middle", 1, (call(2), TraceTerm("Chain_middle_else3", 1)))
    entries = ["Chain_middle", "Chain_length"]
    assert own_signature(one, entries) == own_signature(other, entries)
    assert own_signature(one, entries) != own_signature(third, entries)


def test_the_solver_work_limit_counts_from_the_first_question() -> None:
    spent = [5000]
    limit = SolverWorkLimit(lambda: spent[0], 100)
    assert limit.stop_reason() is None  # 5000 already spent before the search: not counted
    spent[0] = 5100
    assert limit.stop_reason() is None
    spent[0] = 5101
    assert limit.stop_reason() == "solver budget reached"


def test_a_session_counts_its_work_deterministically() -> None:
    x = T.Sym("x", T.INT)
    counts = []
    for _ in range(2):
        session = Z3Session(5000, 2_000_000)
        for bound in (3, 5, 7):
            session.check(None, [T.apply("eq", T.apply("mul", x, x), bound * bound)], [x])
        counts.append(session.work)
    assert counts[0] > 0 and counts[0] == counts[1]
