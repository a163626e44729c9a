"""Long probes (`--long-probes`, strategies/probes.py): a few tests on inputs
longer than the loop bound reaches.

Oracles: the real code (every test replays with its value and its path),
and a wrong program that only longer inputs tell apart from the right one
(`selection_sort_first_two`): the loop-2 tests cannot see the difference,
the probes' tests must.
"""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path
from typing import Any

import pytest
from oracle import replay_mismatches

from pathcraft.app.cli import main
from pathcraft.strategies import probes
from pathcraft.frontend import translate
from pathcraft.generate import FunctionRun, GenerateOptions, generate
from pathcraft.solver import terms as T
from pathcraft.testcase.emit_pytest import COMMENT_LINES, _comment, call_text

FIXTURE = Path(__file__).parent / "fixtures" / "probes.py"


def run(qualname: str, **options: Any) -> FunctionRun:
    result = translate(str(FIXTURE), [qualname])
    assert not result.errors, result.errors
    return generate(result.program, qualname, GenerateOptions.of(**options))


def fixture_module() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("probes_fixture", FIXTURE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def items(case: Any) -> list[int]:
    return list(case.heap_in["items"]["list"])


def probed(found: FunctionRun) -> list[Any]:
    return [c for c in found.cases if c.extra.get("probe")]


@pytest.mark.parametrize("qualname", ["selection_sort", "search", "halvings"])
def test_probes_add_tests_that_replay_on_paths_no_other_test_takes(qualname: str) -> None:
    plain = run(qualname)
    found = run(qualname, long_probes=3)
    added = probed(found)
    assert 1 <= len(added) <= 3 and found.stats["probe_tests"] == len(added)
    assert found.stats["tests"] == len(found.cases)
    assert [c.trace for c in found.cases if not c.extra.get("probe")] == [c.trace for c in plain.cases]
    # each a path of its own, or the other answer of a path that returns a comparison
    assert len({(c.trace, c.value if isinstance(c.value, bool) else None) for c in found.cases}) == len(found.cases)
    assert replay_mismatches(FIXTURE, qualname, found.cases) == []


def test_probe_lists_are_longer_than_any_list_of_the_loop_bound() -> None:
    found = run("selection_sort", long_probes=3)
    longest_plain = max(len(items(c)) for c in found.cases if not c.extra.get("probe"))
    assert all(len(items(c)) > longest_plain for c in probed(found))


def test_only_the_probe_tests_tell_a_sort_from_one_that_is_right_on_short_lists() -> None:
    module = fixture_module()
    found = run("selection_sort", long_probes=3)

    def tells(case: Any) -> bool:
        given = items(case)
        return module.selection_sort(list(given)) != module.selection_sort_first_two(list(given))

    assert not any(tells(c) for c in found.cases if not c.extra.get("probe"))
    assert any(tells(c) for c in probed(found))


def test_objects_get_no_probes_and_zero_turns_them_off() -> None:
    assert probes.seeds(translate(str(FIXTURE), ["box_steps"]).program.functions["box_steps"], 2) == []
    assert probed(run("halvings", long_probes=0)) == []
    assert "probe_tests" not in run("halvings").stats  # the API's default: off


def test_probes_follow_only_the_plain_all_paths_search() -> None:
    found = run("halvings", long_probes=3, select="branches")
    assert probed(found) == []


def test_a_probe_shows_the_other_answer_of_a_path_that_returns_a_comparison() -> None:
    found = run("is_power_plus_one", long_probes=3)
    by_trace: dict[str, set[object]] = {}
    for case in found.cases:
        by_trace.setdefault(case.trace, set()).add(case.value)
    assert {True, False} in by_trace.values()
    other = [c for c in probed(found) if "other answer" in str(c.extra["probe"])]
    assert other
    for case in other:  # the answer is pinned: one constraint more than the test of the same path
        sibling = next(c for c in found.cases if c.trace == case.trace and c is not case)
        assert sibling.value is not case.value
        assert set(sibling.constraints) < set(case.constraints)
    assert replay_mismatches(FIXTURE, "is_power_plus_one", found.cases) == []


def test_seeds_cover_each_list_shape_and_larger_ints() -> None:
    info = translate(str(FIXTURE), ["search"]).program.functions["search"]
    seeds = probes.seeds(info, 2)
    lengths = {seed["len(items)"] for seed in seeds}
    assert lengths == {6}
    assert len({seed["items"] for seed in seeds}) == 4  # ascending, descending, interleaved, pairs
    assert len(seeds) <= probes.MAX_SEEDS
    ascending, descending, interleaved, pairs = probes.list_shapes(6)
    assert list(ascending) == sorted(ascending) and list(descending) == sorted(descending, reverse=True)
    assert sorted(interleaved) == list(ascending) and interleaved not in (ascending, descending)
    assert list(pairs) == sorted(pairs) and len(set(pairs)) == 3


def test_the_cli_adds_probe_tests_by_default_and_the_file_passes(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "test_halvings.py"
    assert main(["gen", f"{FIXTURE}::halvings", "-o", str(out), "--verify"]) == 0
    text = out.read_text()
    assert text.count("# probe: a longer input than loop-2 reaches") >= 1
    assert main(["gen", f"{FIXTURE}::halvings", "-o", str(out), "--long-probes", "0"]) == 0
    assert "# probe:" not in out.read_text()


def test_an_argument_equal_to_its_default_is_left_out_of_the_call() -> None:
    found = run("halvings")
    calls = [call_text(c, "m", defaults={"strict": False}) for c in found.cases]
    assert any(call.startswith("m.halvings(n=") and "strict" not in call for call in calls)
    assert any("strict=True" in call for call in calls)
    positional = [call_text(c, "m", positional=True, defaults={"strict": False}) for c in found.cases]
    assert all(call.count(",") == (1 if "True" in call else 0) for call in positional)
    # 0 is not False, and 0.0 is not -0.0: a default is left out only for a value of its type and repr
    zero = [c for c in found.cases if not dict(c.inputs)["strict"]][0]
    assert "strict=False" in call_text(zero, "m", defaults={"strict": 0})


def test_a_long_comment_is_cut_and_says_where_the_whole_text_is() -> None:
    text = " and ".join(f"items[{i}] < items[{i + 1}]" for i in range(2000))
    lines = _comment("path:", text)
    assert len(lines) == COMMENT_LINES and "--format json" in lines[-1]
    assert all(len(line) <= 100 for line in lines)
    closing = _comment("trace:", "f(1, [" * 30 + "])" * 30)  # no space to break at
    assert all(len(line) <= 100 for line in closing)


def test_a_shared_subterm_is_evaluated_once() -> None:
    # a chain of 60 additions each using the previous sum twice: 2**60 nodes as a tree
    x = T.Sym("x", T.INT)
    term: T.Term = x
    for _ in range(60):
        term = T.App("add", (term, term), T.INT)
    assert T.evaluate(term, {"x": 1}) == 2 ** 60


def test_a_probe_through_float_remainder_ends_and_keeps_its_own_values() -> None:
    """Z3 5.4 runs past its timeout and rlimit inside `fp.rem` (a probe of
    radix_sort hung for minutes): the query is answered unknown unasked,
    and the probe's test keeps the values the probe ran on."""
    found = run("last_digits", long_probes=3)
    added = probed(found)
    assert added, "the 6-item probe takes a path the loop-2 search does not"
    assert all(len(items_of(c)) > 2 for c in added)
    assert replay_mismatches(FIXTURE, "last_digits", found.cases) == []


def items_of(case: Any) -> list[int]:
    return list(case.heap_in["values"]["list"])


def test_z3_is_not_asked_what_it_cannot_be_stopped_in() -> None:
    from pathcraft.solver.path import extend
    from pathcraft.solver.z3backend import Z3Session

    x = T.Sym("x", T.FLOAT)
    store = extend(None, T.App("fgt", (T.App("fmod", (x, 10.0), T.FLOAT), 3.5), T.BOOL))
    session = Z3Session(timeout_ms=1000, rlimit=100_000)
    assert session.check(store, [], [x]) == ("unknown", None)
    assert (session.refused, session.calls) == (1, 0)
    plain = extend(None, T.App("fgt", (x, 3.5), T.BOOL))
    assert session.check(plain, [], [x])[0] == "sat"


def test_a_probe_without_choices_stops_at_its_rule_budget() -> None:
    """thealgorithms' recursive_lucas_number ran for over 15 minutes under
    --timeout 5: the probe on 36 made no choice, so the choice budget never
    counted. Without any time budget, each probe now stops at
    `PROBE_RULES` rule applications; the search's own tests stay."""
    import signal

    from pathcraft.engine.engine import PROBE_RULES

    def hung(signum: int, frame: object) -> None:
        raise TimeoutError("the probes of lucas ran for more than 300 s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(300)
    try:
        found = run("lucas", long_probes=3)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert found.cases and replay_mismatches(FIXTURE, "lucas", found.cases) == []
    assert all(c.steps <= PROBE_RULES for c in probed(found))
    assert any(c.inputs == (("n", 7),) for c in probed(found)), "a probe within the budget still runs"


def test_a_value_too_long_for_a_literal_drops_its_test_and_says_so() -> None:
    """thealgorithms' sylvester() crashed the writer ('Exceeds the limit
    (4300 digits) for integer string conversion'): such a test is dropped
    and counted; the others are written and pass."""
    found = run("big_square", long_probes=3)
    assert any("more than 4300 digits" in note for note in found.notes)
    assert any(c.inputs == (("n", 7),) for c in probed(found)), "10**128 is still written"
    assert not any(c.inputs == (("n", 13),) for c in found.cases)
    assert replay_mismatches(FIXTURE, "big_square", found.cases) == []
