"""Trace-guided generation (`--trace`, paper 001 Def. 4; paper 000 Def. 5).

The oracle for the guide's pruning is the unguided run: guided by a
pattern, the search must find exactly the paths of the standard search
whose traces are instances of the pattern (none lost to pruning, none
extra), and every guided test must replay on the real code along its path.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from oracle import SHARED_EXAMPLES, replay_mismatches

from pathcraft.engine.criteria import parse_criterion
from pathcraft.errors import PathcraftError
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.ir.pattern import PatternError, matches, parse_pattern, read_trace
from pathcraft.testcase.model import TestCase

LCM = SHARED_EXAMPLES / "lcm.py"
VECTOR = SHARED_EXAMPLES / "vector.py"
LINKED = Path(__file__).parent / "fixtures" / "linked.py"


def run(path: Path, qualname: str, trace: str | None, criterion: str = "loop-2") -> list[TestCase]:
    result = translate(str(path), [qualname])
    assert not result.errors, result.errors
    options = GenerateOptions.of(criterion=parse_criterion(criterion), trace=trace)
    return generate(result.program, qualname, options).cases


# lcm's path that divides by zero (a = b = 0) and returns -1 from the handler
ZERO = ("lcm(2, [lcm_join2(1, [gcd(1, [gcd_loop1(2, [gcd_exit3(1, [abs_value(1, [abs_value_then1(1, [])])])])]), "
        "lcm_try6(1, [abs_value(1, [abs_value_then1(1, [])]), int_floordiv(2, []), "
        "lcm_except4(1, [lcm_except4_c(1, [lcm_handler10(1, [])])])])])])")


def test_a_complete_feasible_trace_gives_its_one_test() -> None:
    cases = run(LCM, "lcm", ZERO)
    assert [(dict(c.inputs), c.value) for c in cases] == [({"a": 0, "b": 0}, -1)]
    assert read_trace(cases[0].trace) == read_trace(ZERO)
    assert replay_mismatches(LCM, "lcm", cases) == []


def test_an_infeasible_trace_gives_none() -> None:
    # a < b (rule 1 swaps them), then a division by zero: that needs a = b = 0
    pattern = "lcm(1, [lcm_then1(1, [lcm_join2(1, [_, lcm_try6(1, [_, int_floordiv(2, []), _])])])])"
    assert run(LCM, "lcm", pattern) == []


@pytest.mark.parametrize(("path", "qualname", "pattern", "criterion"), [
    (LCM, "lcm", "lcm(1, _)", "loop-2"),
    (LCM, "lcm", "lcm(K, [lcm_join2(1, [gcd(1, [gcd_loop1(1, _)]), _])])", "loop-2"),
    (LCM, "lcm", "lcm(2, [_ | Rest])", "loop-2"),
    (LCM, "gcd", "gcd(1, [gcd_loop1(1, [gcd_body2(1, [_, gcd_loop1(2, _)])])])", "loop-3"),
    (LCM, "lcm", "lcm(2, [lcm_join2(1, [_, lcm_try6(1, [A, _, _])])])", "loop-2"),
    (VECTOR, "multiples", "multiples(1, [_, multiples_loop5(1, [multiples_body6(1, [_, "
                          "multiples_body6_c(2, _)])])])", "loop-2"),
])
def test_guided_paths_are_the_standard_paths_the_pattern_describes(
        path: Path, qualname: str, pattern: str, criterion: str) -> None:
    standard = run(path, qualname, None, criterion)
    guided = run(path, qualname, pattern, criterion)
    wanted = parse_pattern(pattern)
    expected = sorted(c.trace for c in standard if matches(wanted, read_trace(c.trace)))
    assert expected, "the pattern should describe some of the standard paths"
    assert len(expected) < len(standard), "and not all of them"
    assert sorted(c.trace for c in guided) == expected
    assert replay_mismatches(path, qualname, guided) == []


def test_a_repeated_variable_means_equal_subtraces() -> None:
    both = ("lcm(_, [lcm_join2(1, [gcd(1, [gcd_loop1(1, [gcd_body2(1, [_, gcd_loop1(2, [gcd_exit3(1, [A])])])])]), "
            "lcm_try6(1, [A | _])])])")
    cases = run(LCM, "lcm", both)
    assert cases
    for case in cases:  # gcd's abs_value took the same rule as lcm's
        trace = read_trace(case.trace)
        join = trace.children[0]
        gcd_abs = join.children[0].children[0].children[0].children[1].children[0].children[0]
        assert gcd_abs.predicate == "abs_value"
        assert gcd_abs == join.children[1].children[0]
    anything = both.replace("lcm_try6(1, [A | _])", "lcm_try6(1, [_ | _])")
    assert len(run(LCM, "lcm", anything)) > len(cases)


def test_the_partial_trace_of_paper_000_example_6() -> None:
    """Four iterations of multiples' loop, each calling add, whatever add
    does: the paper's four tests, icap = 1, 2, 3 and icap >= 4."""
    pattern = "multiples_loop5(2, [multiples_exit7(1, [])])"
    for i in range(4, 0, -1):
        pattern = (f"multiples_loop5(1, [multiples_body6(1, [_, multiples_body6_c(1, [multiples_then8(1, "
                   f"[A{i}, multiples_join9(1, [{pattern}])])])])])")
    pattern = f"multiples(1, [_, {pattern}])"
    cases = run(VECTOR, "multiples", pattern, "loop-4")
    caps = sorted(dict(c.inputs)["icap"] for c in cases)
    assert len(cases) == 4
    assert caps[:3] == [1, 2, 3] and caps[3] >= 4
    assert all(len(c.heap_in["ns"]["list"]) == 4 for c in cases)
    assert replay_mismatches(VECTOR, "multiples", cases) == []


@pytest.mark.parametrize(("pattern", "problem", "column"), [
    ("lcm(1, [_", "expected ']', found the end of the pattern", 10),
    ("lcm(3, [_])", "'lcm' has rules 1 to 2, not 3", 1),
    ("lcm(1, [nope(1, [])])", "no predicate 'nope'", 9),
    ("lcm(1)", "'lcm' needs two arguments", 6),
    ("lcm(1, [], [])", "'lcm' takes two arguments", 10),
    ("gcd(1, [_])", "starts with 'lcm', not 'gcd'", 1),
    ("lcm(1, [_ | x(1, [])])", "after '|' comes a variable", 13),
    ("lcm(1, [#])", "unexpected character '#'", 9),
    ("lcm(1, [_]) extra", "unexpected text after the pattern", 13),
    ("lcm(x, [_])", "expected a rule number or a variable", 5),
    ("  ", "empty pattern", 1),
])
def test_bad_patterns_point_into_the_pattern(pattern: str, problem: str, column: int) -> None:
    result = translate(str(LCM), ["lcm"])
    with pytest.raises(PatternError) as caught:
        generate(result.program, "lcm", GenerateOptions.of(trace=pattern))
    assert problem in caught.value.problem
    assert caught.value.offset + 1 == column
    text = str(caught.value)
    assert f"at column {column}:" in text
    lines = text.splitlines()
    assert lines[-1].index("^") - 2 == column - 1  # the caret sits under the column


def test_cli_trace_writes_the_tests_and_refuses_bad_patterns(tmp_path: Path) -> None:
    out = tmp_path / "test_zero.py"
    ok = subprocess.run([sys.executable, "-m", "pathcraft", "gen", f"{LCM}::lcm", "--trace", ZERO, "-o", str(out)],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "wrote 1 tests" in ok.stderr
    assert "lcm.lcm(a=0, b=0) == -1" in out.read_text()
    bad = subprocess.run([sys.executable, "-m", "pathcraft", "gen", f"{LCM}::lcm", "--trace", "lcm(1, [foo(1, [])])"],
                         capture_output=True, text=True)
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
    assert "no predicate 'foo'" in bad.stderr and "^" in bad.stderr
    whole = subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(LCM), "--trace", "_"],
                           capture_output=True, text=True)
    assert whole.returncode == 2
    assert "give the target as path/to/module.py::name" in whole.stderr


def test_read_trace_refuses_variables() -> None:
    with pytest.raises(PathcraftError):
        read_trace("lcm(1, [_])")


def _abstraction(path: Path, qualname: str) -> str:
    done = subprocess.run([sys.executable, "-m", "pathcraft", "clp", f"{path}::{qualname}", "--abstraction"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(("path", "qualname", "criterion"), [
    (LCM, "lcm", "loop-2"), (VECTOR, "multiples", "loop-2"), (VECTOR, "Vector.add", "loop-2"),
])
def test_every_trace_the_engine_finds_is_derived_by_the_trace_abstraction(
        path: Path, qualname: str, criterion: str) -> None:
    """Def. 6 read back: each trace node's children are the calls of its
    rule's abstraction, or a prefix of them where a call raised (then the
    handler's trace, inside a `try`)."""
    import re

    text = _abstraction(path, qualname)
    calls: dict[tuple[str, int], list[str]] = {}
    handler: dict[str, str] = {}
    pending: str | None = None
    for line in text.splitlines():
        note = re.match(r"% a call that raises ends the list, then (\S+)'s trace follows", line)
        if note:
            pending = note.group(1)
            continue
        head = re.match(r"(\S+?)\(\1\((\d+),\[[^\]]*\]\)\)(?: :- (.*))?\.$", line)
        if head is None:
            continue
        name, rule, body = head.group(1), int(head.group(2)), head.group(3) or ""
        calls[(name, rule)] = [c.split("(")[0] if not c.startswith("invoke(") else "*"
                               for c in re.findall(r"[\w$.<>]+\([^()]*\)", body)]
        if pending:
            handler[name] = pending
    assert calls
    for case in run(path, qualname, None, criterion):
        stack = [read_trace(case.trace)]
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            expected = calls.get((node.predicate, node.rule))
            if expected is None:  # a method's own predicates are printed with its module's functions
                continue
            got = [c.predicate for c in node.children]
            agrees = len(got) <= len(expected) and all(e in ("*", g) for e, g in zip(expected, got))
            if not agrees and node.predicate in handler and got and got[-1] == handler[node.predicate]:
                prefix = got[:-1]
                agrees = len(prefix) <= len(expected) and all(e in ("*", g) for e, g in zip(expected, prefix))
            assert agrees, f"{node.predicate}({node.rule}): children {got}, abstraction {expected}"


# ---------------------------------------------------------------- all-local-paths

def test_lcm_all_local_paths_gives_the_papers_three_tests() -> None:
    """Paper 001, Example 5: {a >= b}, {a = b = 0, result -1}, {b > a},
    where plain loop-2 gives many more."""
    result = translate(str(LCM), ["lcm"])
    run_ = generate(result.program, "lcm", GenerateOptions.of(select="all-local-paths"))
    cases = run_.cases
    inputs = [dict(c.inputs) for c in cases]
    assert len(cases) == 3
    assert sum(1 for i in inputs if i["a"] < i["b"]) == 1
    assert sum(1 for i in inputs if i["a"] >= i["b"] and (i["a"], i["b"]) != (0, 0)) == 1
    assert [c.value for c in cases if dict(c.inputs) == {"a": 0, "b": 0}] == [-1]
    assert len(run(LCM, "lcm", None)) > 3
    assert run_.stats["generated_traces"] >= run_.stats["infeasible_traces"] + 3
    assert replay_mismatches(LCM, "lcm", cases) == []


FIXTURES = Path(__file__).parent / "fixtures"
_ALL_LOCAL = [
    (SHARED_EXAMPLES / "lcm.py", ["lcm", "gcd", "abs_value"]),
    (SHARED_EXAMPLES / "arraypower.py", None),
    (SHARED_EXAMPLES / "vector.py", None),
    (SHARED_EXAMPLES / "rational.py", None),
    (SHARED_EXAMPLES / "aliasing.py", None),
    (FIXTURES / "control.py", None),
    (FIXTURES / "linked.py", None),
    (FIXTURES / "objects.py", None),
    (FIXTURES / "structure" / "clauses.py", None),
    (FIXTURES / "structure" / "proto_equality.py", None),
    (FIXTURES / "structure" / "decorators.py", None),
    (FIXTURES / "values" / "lists.py", None),
]


@pytest.mark.parametrize(("path", "names"), _ALL_LOCAL, ids=[p.stem for p, _ in _ALL_LOCAL])
def test_all_local_paths_is_the_first_standard_path_of_each_local_trace(path: Path, names: list[str] | None) -> None:
    """The oracle is the standard search: the trace generator must produce
    the local trace of every standard path (it is complete), and the guided
    scheme must give, for each local trace, the first standard path that has
    it (the leftmost branch of the guided tree), nothing else."""
    from pathcraft.strategies.tracegen import LocalScope, LocalTraces

    result = translate(str(path), names)
    checked = 0
    for qualname in result.targets:
        if qualname not in result.program.functions or result.program.functions[qualname].generator:
            continue
        program = result.program
        standard_run = generate(program, qualname, GenerateOptions.of(timeout=60))
        if standard_run.stopped:
            continue
        scope = LocalScope(program, qualname)
        local = {scope.project(c.term): c for c in reversed(standard_run.cases) if c.term is not None}
        generated = set(LocalTraces(program, qualname, 2))
        assert set(local) <= generated, f"{qualname}: local traces the generator missed"
        generated = set(LocalTraces(program, qualname, 2, refine=True))  # what the guided scheme uses
        assert set(local) <= generated, f"{qualname}: local traces the refined generator missed"
        guided = generate(program, qualname, GenerateOptions.of(select="all-local-paths", timeout=60))
        assert guided.stopped is None
        # the same paths, in the same (depth-first) order; the inputs may
        # differ, as the telling values of a test depend on the tests before it
        firsts = sorted(local.values(), key=lambda c: standard_run.cases.index(c))
        assert [c.trace for c in guided.cases] == [c.trace for c in firsts], qualname
        assert replay_mismatches(path, qualname, guided.cases) == []
        if "gave_way_after" in guided.stats:  # the standard search found the rest
            assert guided.stats["generated_traces"] == guided.stats["gave_way_after"] < len(generated)
        else:
            assert guided.stats["generated_traces"] == len(generated)
            assert guided.stats["generated_traces"] - guided.stats["infeasible_traces"] == len(guided.cases)
        checked += 1
    assert checked


def test_cli_all_local_paths(tmp_path: Path) -> None:
    out = tmp_path / "test_lcm_local.py"
    done = subprocess.run([sys.executable, "-m", "pathcraft", "gen", f"{LCM}::lcm", "-c", "all-local-paths",
                           "-o", str(out), "--verify"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert text.count("\ndef test_") == 3 and "(all-local-paths,loop-2)" in text
    bad = subprocess.run([sys.executable, "-m", "pathcraft", "gen", f"{LCM}::lcm", "-c", "all-local-paths,depth-9"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "with loop-K" in bad.stderr and "Traceback" not in bad.stderr


# ---------------------------------------------------------------- program points

def cover(path: Path, qualname: str, points: str, criterion: str = "loop-2") -> tuple[list[TestCase], dict]:
    result = translate(str(path), [qualname])
    done = generate(result.program, qualname, GenerateOptions.of(criterion=parse_criterion(criterion),
                                                                  cover=points))
    assert done.stopped is None
    return done.cases, done.stats


def test_lcm_program_point_in_the_handler_gives_the_papers_one_test() -> None:
    """Paper 001, Example 7: the return in the except block, one test {a = b = 0}."""
    line = next(i for i, text in enumerate(LCM.read_text().splitlines(), 1) if text.strip() == "return -1")
    cases, stats = cover(LCM, "lcm", str(line))
    assert [(dict(c.inputs), c.value) for c in cases] == [({"a": 0, "b": 0}, -1)]
    assert stats["points"] == {str(line): cases[0].name}
    assert stats["generated_traces"] > stats["infeasible_traces"]
    assert replay_mismatches(LCM, "lcm", cases) == []


POINTS = '''\
def walk(n: int, m: int) -> int:
    i = 0
    while i < n:
        i += 1
        if i == 3:
            return 100
    if n > 5 and n < 3:
        return -1
    if m < 0:
        return helper(m)
    return i


def helper(m: int) -> int:
    if m < -4:
        return 0
    return m
'''


def test_points_are_reached_or_reported_unreachable_which_small_inputs_confirm(tmp_path: Path) -> None:
    from oracle import RealCode

    from pathcraft.testcase.pathsig import within_loop_bound

    source = tmp_path / "walker.py"
    source.write_text(POINTS)
    lines = POINTS.splitlines()
    at = {text.strip(): i for i, text in enumerate(lines, 1)}
    wanted = [at["return 100"], at["return -1"], at["return 0"], at["return m"], at["return i"]]
    cases, stats = cover(source, "walk", ",".join(map(str, wanted)) + ",helper")
    reached = {p for p, t in stats["points"].items() if t is not None}
    unreached = set(stats["points"]) - reached
    assert unreached == {str(at["return 100"]), str(at["return -1"])}  # 3 iterations; dead code
    assert len(cases) <= len(reached)
    assert replay_mismatches(source, "walk", cases) == []
    real = RealCode(source, "walk")
    for point in unreached:  # the independent check: no small input within loop-2 reaches it
        for inputs in real.domain(-6, 6):
            run_ = real.run(inputs)
            if within_loop_bound(run_.events, real.shapes, 2):
                assert ("line", "walk", int(point)) not in run_.events, (point, inputs)
    for point in reached:  # and the test named does reach it, for real
        case = next(c for c in cases if c.name == stats["points"][point])
        events = real.run(dict(case.inputs)).events
        assert (("call", "helper") in events) if point == "helper" else \
            any(e[0] == "line" and e[2] == int(point) for e in events)


def test_bad_points_are_refused(tmp_path: Path) -> None:
    result = translate(str(LCM), ["lcm"])
    for points, problem in (("9999", "holds no statement"), ("other.py:20", "not of other.py"),
                            ("nothing", "expected LINE, FILE:LINE or a function"), (",", "no program point")):
        with pytest.raises(PathcraftError, match=problem):
            generate(result.program, "lcm", GenerateOptions.of(cover=points))
    done = subprocess.run([sys.executable, "-m", "pathcraft", "gen", f"{LCM}::lcm", "--cover", "9999"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "holds no statement" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("item_search", ["guided", "paths"])
@pytest.mark.parametrize(("path", "names"), _ALL_LOCAL, ids=[p.stem for p, _ in _ALL_LOCAL])
def test_statements_and_branches_reach_what_the_standard_search_reaches(path: Path, names: list[str] | None,
                                                                        item_search: str) -> None:
    """Item coverage with fewer tests: the statement lines (and the branch
    outcomes, rules of the function's own choice points) that the full
    search's tests reach, the selected tests reach too; what they miss is
    reported unreachable, and the full search never reaches it either."""
    from pathcraft.strategies.points import criterion_points

    result = translate(str(path), names)
    for qualname in result.targets:
        if qualname not in result.program.functions or result.program.functions[qualname].generator:
            continue
        program = result.program
        standard = generate(program, qualname, GenerateOptions.of(timeout=60))
        if standard.stopped:
            continue
        for criterion in ("statements", "branches"):
            points = criterion_points(criterion, program, qualname)
            chosen = generate(program, qualname, GenerateOptions.of(select=criterion, timeout=60,
                                                                    item_search=item_search))
            assert chosen.stopped is None
            assert len(chosen.cases) <= max(len(standard.cases), 1)
            if not points:
                continue
            traces = {c.name: c.term for c in standard.cases}
            by_standard = {p.text for p in points
                           if any(p.reached_by(c.path, traces[c.name]) for c in standard.cases)}
            by_chosen = {p for p, test in chosen.stats["points"].items() if test is not None}
            assert by_chosen == by_standard, (qualname, criterion)
            assert replay_mismatches(path, qualname, chosen.cases) == []


def test_guided_generation_refuses_constructed_objects_for_now() -> None:
    done = subprocess.run([sys.executable, "-m", "pathcraft", "gen", f"{FIXTURES / 'objects.py'}::LinkedStack.pop",
                           "--objects", "constructed", "-c", "all-local-paths"], capture_output=True, text=True)
    assert done.returncode == 2 and "free objects only" in done.stderr and not done.stdout
