"""Costs against independent measurements of the real code, and policies.

Validation oracle (resource-aware TDG issue): for every test case, its
symbolic costs evaluated at its inputs must equal
* steps: a concrete run of the CLP-translated program on those inputs;
* calls: the calls counted with a profile hook while the real code runs;
* memory: the size model applied to the objects and lists the real code
  creates (seen at every statement boundary; a list counts at the largest
  length it reaches, which equals "created + one slot per append" for code
  that never pops and then appends).
"""

from __future__ import annotations

import sys
import typing
from pathlib import Path
from typing import Any

import pytest
from oracle import EXAMPLES, SHARED_EXAMPLES, RealCode

from pathcraft.cost.models import Costs
from pathcraft.cost.policy import parse_policy
from pathcraft.engine.criteria import parse_criterion
from pathcraft.engine.engine import Engine
from pathcraft.engine.options import EngineOptions
from pathcraft.errors import PathcraftError
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate
from pathcraft.solver import terms as T
from pathcraft.testcase.heapdesc import build_inputs
from pathcraft.testcase.model import TestCase

LINKED = Path(__file__).resolve().parent / "fixtures" / "linked.py"
VECTOR = SHARED_EXAMPLES / "vector.py"
COSTS = ("steps", "memory", "calls")
SLOT = 4

TARGETS = [
    (LINKED, "SList.push_front"), (LINKED, "SList.insert_at"), (LINKED, "Queue.enqueue"),
    (LINKED, "BST.insert"), (LINKED, "DList.append"), (LINKED, "build"), (LINKED, "firsts"),
    (EXAMPLES / "arith.py", "power"), (EXAMPLES / "arith.py", "digit_sum"),
]
SHARED = [(VECTOR, "multiples"), (VECTOR, "Vector.add"), (SHARED_EXAMPLES / "arraypower.py", "arraypower")]


def cases_with_costs(path: Path, name: str, criterion: str = "loop-2", **extra: Any) -> list[TestCase]:
    program = translate(str(path), [name]).program
    options = GenerateOptions.of(criterion=parse_criterion(criterion), costs=COSTS, **extra)
    return generate(program, name, options).cases


def concrete_steps(path: Path, name: str, case: TestCase) -> tuple[int, dict[str, int]]:
    """Run the CLP program on the test's concrete inputs: one path."""
    program = translate(str(path), [name]).program
    engine = Engine(program, EngineOptions(criterion=parse_criterion("loop-1000"),
                                           concrete=(dict(case.inputs), dict(case.heap_in))))
    paths = list(engine.explore(name))
    assert len(paths) == 1, "a concrete run follows exactly one path"
    return paths[0].costs.steps, dict(paths[0].costs.calls)


def measured(path: Path, name: str, case: TestCase) -> tuple[dict[str, int], int]:
    """Calls per function (profile hook) and memory (size model over the
    objects and lists the real run creates)."""
    real = RealCode(path, name)
    objects = build_inputs(dict(case.heap_in), lambda c: getattr(real.module, c))
    args = {k: objects[v["$ref"]] if isinstance(v, dict) else v for k, v in case.inputs}
    inputs = _reachable(list(args.values()))
    known = {id(o) for o in inputs}
    created: dict[int, Any] = {}
    longest: dict[int, int] = {}
    calls: dict[str, int] = {}

    def scan(roots: list[Any]) -> None:
        for obj in _reachable(roots):
            if id(obj) in known:
                continue
            created.setdefault(id(obj), obj)
            if isinstance(obj, list):
                longest[id(obj)] = max(longest.get(id(obj), 0), len(obj))

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename != real.filename:
            return None
        if event in ("line", "return"):
            scan(list(frame.f_locals.values()) + ([arg] if event == "return" else []))
        return tracer

    def profiler(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code.co_filename == real.filename:
            calls[frame.f_code.co_qualname] = calls.get(frame.f_code.co_qualname, 0) + 1

    sys.settrace(tracer)
    sys.setprofile(profiler)
    try:
        result = real.fn(**args)
    except Exception:
        result = None
    finally:
        sys.setprofile(None)
        sys.settrace(None)
    scan([result])
    memory = 0
    for key, obj in created.items():
        if isinstance(obj, list):
            memory += SLOT * longest[key]
        else:
            memory += SLOT * len(typing.get_type_hints(type(obj)))
    return calls, memory


def _reachable(roots: list[Any]) -> list[Any]:
    seen: dict[int, Any] = {}
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen or not (isinstance(obj, list) or hasattr(obj, "__dict__")) or isinstance(obj, type):
            continue
        if callable(obj) and not isinstance(obj, list):
            continue
        seen[id(obj)] = obj
        stack.extend(obj if isinstance(obj, list) else vars(obj).values())
    return list(seen.values())


def check(path: Path, name: str, criterion: str = "loop-2") -> int:
    cases = cases_with_costs(path, name, criterion)
    assert cases
    for case in cases:
        steps, engine_calls = concrete_steps(path, name, case)
        calls, memory = measured(path, name, case)
        assert case.cost_values["steps"] == steps, case.name
        assert case.cost_values["calls"] == sum(calls.values()), (case.name, calls)
        assert engine_calls == calls, case.name
        assert case.cost_values["memory"] == memory, (case.name, case.costs, memory)
    return len(cases)


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: f"{t[0].stem}::{t[1]}")
def test_costs_match_measurements(target: tuple[Path, str]) -> None:
    check(*target)


@pytest.mark.parametrize("target", SHARED, ids=lambda t: f"{t[0].stem}::{t[1]}")
def test_costs_match_measurements_shared(target: tuple[Path, str]) -> None:
    check(*target)


def test_multiples_memory_policy_matches_the_paper() -> None:
    """Paper 000, Example 5: of the 54 test cases of multiples at loop-4
    (normal paths), the policy memory > 48 bytes filters out 23."""
    program = translate(str(VECTOR), ["multiples"]).program
    base = dict(criterion=parse_criterion("loop-4"), exceptions=False, costs=COSTS)
    everything = generate(program, "multiples", GenerateOptions.of(**base)).cases
    kept = generate(program, "multiples", GenerateOptions.of(**base, policies=(parse_policy("memory>48"),)))
    assert len(everything) == 54
    assert len(kept.cases) == 31 and kept.policy_filtered == 23
    assert all(c.cost_values["memory"] > 48 for c in kept.cases)
    # the inputs of a kept test satisfy the policy even when its cost is symbolic
    symbolic = [c for c in kept.cases if isinstance(c.costs["memory"], str)]
    assert symbolic and all(c.cost_values["memory"] > 48 for c in symbolic)


def test_upper_bound_policy_prunes_soundly() -> None:
    """steps<=100 prunes during the search; it must keep exactly the test
    cases of the unpruned run whose steps are at most 100 (same traces)."""
    program = translate(str(VECTOR), ["multiples"]).program
    base = dict(criterion=parse_criterion("loop-3"), exceptions=False, costs=COSTS)
    everything = generate(program, "multiples", GenerateOptions.of(**base)).cases
    bounded = generate(program, "multiples", GenerateOptions.of(**base, policies=(parse_policy("steps<=100"),)))
    expected = sorted(c.trace for c in everything if c.cost_values["steps"] <= 100)
    assert sorted(c.trace for c in bounded.cases) == expected
    full = generate(program, "multiples", GenerateOptions.of(**base))
    assert bounded.stats["derivation_steps"] < full.stats["derivation_steps"]


def test_worst_policies() -> None:
    program = translate(str(VECTOR), ["multiples"]).program
    base = dict(criterion=parse_criterion("loop-4"), exceptions=False, costs=COSTS)
    everything = generate(program, "multiples", GenerateOptions.of(**base)).cases
    worst_steps = generate(program, "multiples", GenerateOptions.of(**base, policies=(parse_policy("worst:steps"),)))
    top = max(c.cost_values["steps"] for c in everything)
    assert [c.cost_values["steps"] for c in worst_steps.cases] == [top] * len(worst_steps.cases)
    worst_memory = generate(program, "multiples", GenerateOptions.of(**base, policies=(parse_policy("worst:memory"),)))
    # memory linear in icap grows without bound: those paths win, under a condition on icap
    assert worst_memory.cases
    for case in worst_memory.cases:
        assert isinstance(case.costs["memory"], str) and "icap" in case.costs["memory"]
        assert "icap >" in case.extra["note"]
    top3 = generate(program, "multiples", GenerateOptions.of(**base, policies=(parse_policy("top:3:steps"),)))
    assert sorted((c.cost_values["steps"] for c in top3.cases), reverse=True) == \
        sorted((c.cost_values["steps"] for c in everything), reverse=True)[:3]


def test_costs_are_terms() -> None:
    """Constant counts fold to plain ints; a summary's cost may be symbolic
    (in its own inputs), renamed at the call site and added to the caller's."""
    n = T.Sym("n", T.INT)
    plain = Costs().call("f").step().step(2).allocate(8)
    assert (plain.get("steps"), plain.get("memory"), plain.get("calls"), plain.get("calls:f")) == (3, 8, 1, 1)
    assert all(type(plain.get(k)) is int for k in ("steps", "memory", "calls", "calls:f", "calls:g"))
    summary = Costs().step(T.add(T.mul(3, n), 2)).call("g", n).allocate(T.mul(4, n))
    at_site = summary.substitute(T.renaming([n], "@1"))
    n1 = T.Sym("n@1", T.INT)
    total = plain.plus(at_site)
    assert total.get("steps") == T.add(3, T.add(T.mul(3, n1), 2))
    assert total.get("calls") == T.add(1, n1) and total.get("calls:g") == n1
    assert T.evaluate(total.get("memory"), {"n@1": 5}) == 28
    assert plain.plus(summary.substitute({n: 2})).get("steps") == 11


@pytest.mark.parametrize("text", ["memory>>3", "memry>4", "top:0:steps", "top:x:steps", "worst:", "calls:>2",
                                  "steps<=ten", "size>3"])
def test_bad_policies_are_rejected(text: str) -> None:
    with pytest.raises(PathcraftError):
        parse_policy(text)
