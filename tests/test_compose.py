"""Composition with summaries (engine/summaries.py, paper 002): the same
tests as running every callee's code, checked path by path and against the
real code; the summary store (engine/summarystore.py) reused across runs
and never trusted when its files are bad."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from oracle import replay_mismatches

from pathcraft.config import Settings
from pathcraft.engine.criteria import parse_criterion
from pathcraft.errors import PathcraftError
from pathcraft.frontend import translate
from pathcraft.generate import FunctionRun, GenerateOptions, generate
from pathcraft.testcase.model import TestCase

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
COMPOSE = FIXTURES / "compose.py"
# modules whose functions call others with int or bool arguments (and objects: arraypower, rational)
MODULES = [COMPOSE, FIXTURES / "papers" / "rational.py", FIXTURES / "papers" / "lcm.py",
           FIXTURES / "papers" / "arraypower.py", ROOT / "examples" / "arith.py"]


def run(path: Path, qualname: str, compose: str, store: Path | None = None, heap: str = "symbolic") -> FunctionRun:
    result = translate(str(path), [qualname])
    options = GenerateOptions.of(criterion=parse_criterion("loop-2"), timeout=60, compose=compose, heap=heap,
                                 summary_store=str(store) if store else None, long_probes=3, edge_tests=3)
    return generate(result.program, qualname, options)


def paths(cases: list[TestCase]) -> list[tuple[object, ...]]:
    """What identifies a test's path, and its outcome (inputs may differ:
    any input on the path will do)."""
    return [(c.trace, c.path, c.kind, c.exc_type, c.steps) for c in cases]


def whole(cases: list[TestCase]) -> list[str]:
    """Everything a test states: composition checks the callee's guards in
    the order its run does, so even the inputs and the constraints' text
    are those of the plain run."""
    return [repr((c.name, c.inputs, c.kind, c.value, c.exc_type, c.exc_message, c.trace, c.constraints, c.path,
                  c.steps, c.heap_in, c.heap_final, c.costs, c.cost_values)) for c in cases]


def functions(path: Path) -> list[str]:
    result = translate(str(path))
    return [q for q in result.targets if q in result.program.functions]


CASES = [(path, q) for path in MODULES for q in functions(path)]


@pytest.mark.parametrize(("path", "qualname"), CASES, ids=[f"{p.stem}::{q}" for p, q in CASES])
def test_composition_finds_the_same_paths(path: Path, qualname: str) -> None:
    plain = run(path, qualname, "off")
    for mode in ("on-demand", "bottom-up"):
        composed = run(path, qualname, mode)
        assert paths(composed.cases) == paths(plain.cases), mode
        assert whole(composed.cases) == whole(plain.cases), mode
        assert replay_mismatches(path, qualname, composed.cases) == []


EVERY_FIXTURE = sorted([*FIXTURES.glob("*.py"), *(FIXTURES / "papers").glob("*.py"), ROOT / "examples" / "arith.py"])


@pytest.mark.parametrize("path", EVERY_FIXTURE, ids=[p.stem for p in EVERY_FIXTURE])
def test_every_fixture_composes_to_the_same_tests(path: Path) -> None:
    """Every function of every fixture module: composed (calls on objects
    included, and methods called by `len`, truth and properties, which are
    run) or not, the same tests."""
    for qualname in functions(path):
        plain = run(path, qualname, "off")
        composed = run(path, qualname, "on-demand")
        assert whole(composed.cases) == whole(plain.cases), qualname


OBJECTS = FIXTURES / "compose_objects.py"
HEAPS = ("symbolic", "lazy", "lazy-noalias")
OBJECT_CASES = [(heap, q) for heap in HEAPS for q in functions(OBJECTS)]


@pytest.mark.parametrize(("heap", "qualname"), OBJECT_CASES, ids=[f"{h}::{q}" for h, q in OBJECT_CASES])
def test_calls_on_objects_compose_to_the_same_tests(heap: str, qualname: str) -> None:
    """Methods on an object (its int fields in, its writes out), under
    each heap model: an input object, one the caller made, two inputs
    that may be one object, raising after a write, three deep."""
    plain = run(OBJECTS, qualname, "off", heap=heap)
    for mode in ("on-demand", "bottom-up"):
        composed = run(OBJECTS, qualname, mode, heap=heap)
        assert whole(composed.cases) == whole(plain.cases), mode
        assert replay_mismatches(OBJECTS, qualname, composed.cases) == []


@pytest.mark.parametrize("heap", HEAPS)
def test_what_a_call_on_an_object_composes(heap: str) -> None:
    """Not vacuous: the methods that stay on their object's int fields are
    summarized and their calls composed; those that follow a reference or
    have a string field are run, and the report says why."""
    for qualname in ("fill", "fresh", "pair", "chain"):
        stats = run(OBJECTS, qualname, "on-demand", heap=heap).stats
        assert stats["calls_composed"] >= 2 and stats["summaries_refused"] == 0, qualname
    linked = run(OBJECTS, "linked", "on-demand", heap=heap).stats
    assert linked["calls_composed"] == 1 and linked["summaries_refused"] == 1  # relabel, not peek_next
    named = run(OBJECTS, "named", "on-demand", heap=heap).stats
    assert named["calls_composed"] == 0 and named["summaries_refused"] == 1


def test_bottom_up_summarizes_methods_first() -> None:
    """chain -> bump_twice -> bump, reset_if_full: the methods' summaries
    (each on a most general Counter) before chain's search."""
    stats = run(OBJECTS, "chain", "bottom-up").stats
    assert stats["summaries_computed"] >= 3 and stats["calls_composed"] >= 1


def test_simp_composes_simplify() -> None:
    """002's running example: `simp` over a list of fractions, each
    `rs[i].simplify()` answered by simplify's summary (its 5 cases at
    loop-1 are 002 Table 1's), gcd and abs_value summarized below it."""
    rational = FIXTURES / "papers" / "rational.py"
    result = translate(str(rational), ["simp"])
    options = GenerateOptions.of(criterion=parse_criterion("loop-1"), timeout=60, compose="on-demand")
    from pathcraft.engine.engine import Engine
    engine = Engine(result.program, options.engine)
    list(engine.explore("simp"))
    assert engine.summaries is not None
    simplify = [s for (name, _), s in engine.summaries.known.items() if name == "R_simplify"]
    assert len(simplify) == 1 and simplify[0] is not None and len(simplify[0].cases) == 5
    assert engine.summaries.stats.composed >= 3


def test_simp_composes_the_native_gcd(tmp_path: Path) -> None:
    """002's `arraycopy`, Python side: `simplify_native` calls `math.gcd`
    (C code) through its shipped model; `simp` over it composes
    simplify_native's summary, which holds the model's cases."""
    module = tmp_path / "rational_native.py"
    module.write_text((FIXTURES / "papers" / "rational.py").read_text()
                      .replace("rs[i].simplify()", "rs[i].simplify_native()"))
    plain = run(module, "simp", "off")
    composed = run(module, "simp", "on-demand")
    assert composed.stats["calls_composed"] >= 3 and composed.stats["summaries_computed"] >= 1
    assert whole(composed.cases) == whole(plain.cases)
    assert replay_mismatches(module, "simp", composed.cases) == []


@pytest.mark.parametrize(("qualname", "least"), [("walk", 2), ("both_signs", 2), ("fact_sum", 2),
                                                 ("parity_word", 1), ("safe_clamp", 1), ("use_flag", 2)])
def test_calls_are_composed(qualname: str, least: int) -> None:
    """Not a vacuous equality: the calls were answered by summaries."""
    assert run(COMPOSE, qualname, "on-demand").stats["calls_composed"] >= least


def test_what_cannot_be_summarized_is_run() -> None:
    """A list argument, and recursive calls inside a summarized function,
    run the callee's code (the recursive ones are inside the summary)."""
    assert run(COMPOSE, "list_user", "on-demand").stats["calls_composed"] == 1  # sign(x), not first_item
    fact = run(COMPOSE, "fact", "on-demand").stats
    assert fact["calls_composed"] == 0 and fact["calls_inlined"] > 0 and fact["summaries_computed"] == 0


def test_bottom_up_summarizes_the_callees_first() -> None:
    stats = run(COMPOSE, "walk", "bottom-up").stats
    assert stats["summaries_computed"] >= 3  # sign, step_toward, clamp


def test_composition_is_off_by_default() -> None:
    assert "calls_composed" not in run(COMPOSE, "walk", "off").stats


def test_non_compositional_criteria_are_refused() -> None:
    for criterion in ("block-2", "depth-40", "loop-2,calls-3"):
        with pytest.raises(PathcraftError, match="needs loop-K"):
            Settings(criterion=criterion, compose="on-demand").generate_options()
    with pytest.raises(PathcraftError, match="unknown compose mode"):
        Settings(compose="sideways").generate_options()
    assert Settings(criterion="loop-1", compose="bottom-up").generate_options().engine.compose == "bottom-up"


# ------------------------------------------------------------------ store


def callee_summaries_only(store: Path) -> None:
    """Forget the functions' own tests (a store of callee summaries, as a
    run of other functions leaves it)."""
    for file in store.glob("*.json"):
        if json.loads(file.read_text())["key"].get("kind") == "tests":
            file.unlink()


def test_a_warm_store_runs_no_callee(tmp_path: Path) -> None:
    store = tmp_path / "store"
    cold = run(COMPOSE, "walk", "on-demand", store)
    assert cold.stats["summaries_computed"] >= 2 and cold.stats["summaries_reused"] == 0
    callee_summaries_only(store)
    files = sorted(store.glob("*.json"))
    assert files and all(json.loads(f.read_text())["key"]["predicate"] for f in files)
    warm = run(COMPOSE, "walk", "on-demand", store)
    assert warm.stats["summaries_computed"] == 0 and warm.stats["summaries_reused"] >= 2
    assert paths(warm.cases) == paths(cold.cases)
    assert [c.inputs for c in warm.cases] == [c.inputs for c in cold.cases]


def test_a_warm_store_keeps_summaries_of_calls_on_objects(tmp_path: Path) -> None:
    store = tmp_path / "store"
    cold = run(OBJECTS, "chain", "on-demand", store)
    callee_summaries_only(store)
    warm = run(OBJECTS, "chain", "on-demand", store)
    assert cold.stats["summaries_computed"] >= 2 and warm.stats["summaries_computed"] == 0
    assert warm.stats["summaries_reused"] >= 1 and whole(warm.cases) == whole(cold.cases)
    edited = tmp_path / "objects.py"  # a field more: another class layout, another summary
    edited.write_text(OBJECTS.read_text().replace("    limit: int\n", "    limit: int\n    spare: int\n", 1))
    again = run(edited, "chain", "on-demand", store)
    assert again.stats["summaries_computed"] >= 2 and whole(again.cases) == whole(run(edited, "chain", "off").cases)


def test_an_edited_method_reached_by_dispatch_is_summarized_again(tmp_path: Path) -> None:
    """`bump_twice` reaches `bump` through `self.bump(...)` (dispatch, not
    a direct call): editing `bump` must not leave bump_twice's stored
    summary in use."""
    module = tmp_path / "objects.py"
    module.write_text(OBJECTS.read_text())
    store = tmp_path / "store"
    run(module, "chain", "on-demand", store)
    module.write_text(OBJECTS.read_text().replace("self.count = self.limit\n", "self.count = self.limit - 1\n"))
    edited = run(module, "chain", "on-demand", store)
    assert whole(edited.cases) == whole(run(module, "chain", "off").cases)
    assert replay_mismatches(module, "chain", edited.cases) == []


@pytest.mark.parametrize("damage", ["truncated", "other version", "not a summary"])
def test_a_bad_store_file_is_reported_and_recomputed(tmp_path: Path, damage: str) -> None:
    store = tmp_path / "store"
    cold = run(COMPOSE, "walk", "on-demand", store)
    callee_summaries_only(store)
    for file in store.glob("*.json"):
        text = file.read_text()
        if damage == "truncated":
            file.write_text(text[: len(text) // 2])
        elif damage == "other version":
            document = json.loads(text)
            document["key"]["store"] = 0
            file.write_text(json.dumps(document))
        else:
            document = json.loads(text)
            document["cases"] = [{"constraints": "?"}]
            file.write_text(json.dumps(document))
    again = run(COMPOSE, "walk", "on-demand", store)
    assert paths(again.cases) == paths(cold.cases)
    assert again.stats["summaries_computed"] == cold.stats["summaries_computed"]
    assert again.warnings and all(w.startswith("summary store: ") and "computed again" in w
                                  and "\n" not in w for w in again.warnings)
    callee_summaries_only(store)
    third = run(COMPOSE, "walk", "on-demand", store)  # the recomputed summaries were written back
    assert third.stats["summaries_computed"] == 0 and not third.warnings


def test_an_edited_callee_is_summarized_again(tmp_path: Path) -> None:
    module = tmp_path / "chain.py"
    shutil.copy(COMPOSE, module)
    store = tmp_path / "store"
    run(module, "walk", "on-demand", store)
    module.write_text(COMPOSE.read_text().replace("if x < 0:\n        return -1", "if x < -1:\n        return -1"))
    edited = run(module, "walk", "on-demand", store)
    assert edited.stats["summaries_computed"] >= 1  # sign changed: its summary and step_toward's
    assert paths(edited.cases) == paths(run(module, "walk", "off").cases)
    assert replay_mismatches(module, "walk", edited.cases) == []


# ------------------------------------------------- a function's own tests


def test_an_unchanged_function_reads_its_tests_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its summary is its tests (002): a warm run writes every test as the
    cold run did, field for field, without searching at all."""
    store = tmp_path / "store"
    for path in (COMPOSE, OBJECTS, FIXTURES / "linked.py"):
        for qualname in functions(path):
            cold = run(path, qualname, "on-demand", store)
            assert "run_reused" not in cold.stats
    import pathcraft.generate as generating

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("searched")

    monkeypatch.setattr(generating, "_generate", no_search)
    for path in (COMPOSE, OBJECTS, FIXTURES / "linked.py"):
        for qualname in functions(path):
            monkeypatch.undo()
            plain = run(path, qualname, "off")
            monkeypatch.setattr(generating, "_generate", no_search)
            warm = run(path, qualname, "on-demand", store)
            assert warm.stats["run_reused"] == 1 and warm.cases == plain.cases, qualname
            assert [c.term for c in warm.cases] == [c.term for c in plain.cases]
            assert warm.choices == plain.choices and warm.notes == plain.notes


def test_an_edit_searches_again_the_functions_whose_code_it_touches(tmp_path: Path) -> None:
    """Editing `clamp` touches walk and safe_clamp (its callers), not
    both_signs or fact: their tests are read back."""
    module = tmp_path / "chain.py"
    module.write_text(COMPOSE.read_text())
    store = tmp_path / "store"
    for qualname in ("walk", "safe_clamp", "both_signs", "fact"):
        run(module, qualname, "on-demand", store)
    module.write_text(COMPOSE.read_text().replace("    if x > high:\n        return high",
                                                  "    if x >= high:\n        return high"))
    for qualname in ("walk", "safe_clamp", "both_signs", "fact"):
        again = run(module, qualname, "on-demand", store)
        assert ("run_reused" in again.stats) == (qualname in ("both_signs", "fact")), qualname
        assert whole(again.cases) == whole(run(module, qualname, "off").cases)
        assert replay_mismatches(module, qualname, again.cases) == []


def test_a_run_cut_short_is_not_kept(tmp_path: Path) -> None:
    result = translate(str(COMPOSE), ["walk"])
    store = tmp_path / "store"
    options = GenerateOptions.of(criterion=parse_criterion("loop-2"), max_paths=3, compose="on-demand",
                                 summary_store=str(store))
    cut = generate(result.program, "walk", options)
    assert cut.stopped is not None
    assert "run_reused" not in generate(result.program, "walk", options).stats


@pytest.mark.parametrize("damage", ["truncated", "not tests"])
def test_a_bad_file_of_tests_is_reported_and_searched_again(tmp_path: Path, damage: str) -> None:
    store = tmp_path / "store"
    cold = run(COMPOSE, "both_signs", "on-demand", store)
    for file in store.glob("*.json"):
        text = file.read_text()
        document = json.loads(text)
        if document["key"].get("kind") != "tests":
            continue
        if damage == "truncated":
            file.write_text(text[: len(text) // 2])
        else:
            document["cases"] = [["?"]]
            file.write_text(json.dumps(document))
    again = run(COMPOSE, "both_signs", "on-demand", store)
    assert "run_reused" not in again.stats and whole(again.cases) == whole(cold.cases)
    assert again.warnings and all(w.startswith("summary store: ") and "\n" not in w for w in again.warnings)
    assert run(COMPOSE, "both_signs", "on-demand", store).stats["run_reused"] == 1  # written back


def test_values_keep_their_python_types_in_the_store() -> None:
    from pathcraft.ir.trace import TraceTerm
    from pathcraft.testcase.stored import decode, encode

    values = [None, True, 0, -(10 ** 40), 2.5, -0.0, float("inf"), "x\u00e9", (1, (2.0, "a")), [1, [2]],
              {"a": {"$ref": "b"}, 3: (4,)}, frozenset({1, 2}), {7}, b"\x00\xff",
              TraceTerm("p", 1, (TraceTerm("q", 2, (), True),), False)]
    traces: list[object] = []
    encoded = json.loads(json.dumps([encode(v, traces) for v in values]))
    from pathcraft.engine.summarystore import decode_traces
    back = [decode(v, decode_traces(json.loads(json.dumps(traces)))) for v in encoded]
    assert back == values and [type(v) for v in back] == [type(v) for v in values]
    nan = decode(json.loads(json.dumps(encode(float("nan"), []))), [])
    assert nan != nan


def test_the_command_line_composes_and_keeps_a_store(tmp_path: Path) -> None:
    out = tmp_path / "test_chain.py"
    command = [sys.executable, "-m", "pathcraft", "gen", f"{COMPOSE}::walk", "--compose", "bottom-up",
               "--summaries", str(tmp_path / "s"), "-o", str(out)]
    first = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert list((tmp_path / "s").glob("*.json"))
    plain = tmp_path / "test_plain.py"
    subprocess.run([*command[:5], "-o", str(plain)], capture_output=True, text=True, cwd=tmp_path, check=True)
    assert out.read_text().count("def test_") == plain.read_text().count("def test_")
    bad = subprocess.run([*command[:-2], "--criterion", "block-2", "-o", str(out)], capture_output=True,
                         text=True, cwd=tmp_path)
    assert bad.returncode == 2 and "needs loop-K" in bad.stderr and "Traceback" not in bad.stderr
