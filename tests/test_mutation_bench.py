"""Tests of the mutation benchmark (bench/mutation.py) without cosmic-ray.

No network and nothing installed: a fake cosmic-ray
(tests/fixtures/peers/fake_cosmic_ray.py, behind shell wrappers where the
harness looks for the real one) applies three fixed mutations inside
tiny.sign and one outside it, and the fake test generator of
tests/test_peers.py writes the suites.
"""

from __future__ import annotations

import json
import stat
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "peers"
sys.path.insert(0, str(REPO / "bench"))
sys.path.insert(0, str(REPO / "tests"))

import mutation  # noqa: E402
from peer_tools import adapters, procs  # noqa: E402
from peer_tools.measure import CONFTEST  # noqa: E402
from peer_tools.mutants import classify, config_text, in_range, tally  # noqa: E402
from peer_tools.targets import LineRange, make_target  # noqa: E402
from test_peers import FakeAdapter  # noqa: E402


@pytest.fixture(autouse=True)
def no_plugin_autoload(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pytest run of the harness starts a second faster (hypothesis's plugin is not loaded)."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")


def fake_cosmic_ray(cache: Path) -> None:
    """Shell wrappers where ``CosmicRay.exe`` looks for cosmic-ray's commands."""
    bin_dir = cache / "venvs" / "cosmic-ray" / "bin"
    bin_dir.mkdir(parents=True)
    fake = FIXTURES / "fake_cosmic_ray.py"
    for name, prefix in (("cosmic-ray", ""), ("cr-filter-lines", "filter ")):
        exe = bin_dir / name
        exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{fake}" {prefix}"$@"\n')
        exe.chmod(exe.stat().st_mode | stat.S_IEXEC)


# --- restricting mutants to the function's lines ------------------------------------------


def test_config_restricts_mutants_to_the_def_lines(tmp_path: Path) -> None:
    module = tmp_path / "mod.py"
    text = config_text(module, LineRange("f", 4, 7), "python -m pytest 'a b'", 12.5)
    cfg = tomllib.loads(text)["cosmic-ray"]
    assert cfg["module-path"] == str(module)
    assert cfg["filters"]["line-filter"]["lines"] == {str(module): ["4-7"]}
    assert cfg["timeout"] == 12.5 and cfg["test-command"] == "python -m pytest 'a b'"
    assert cfg["distributor"]["name"] == "local"


def test_a_mutated_span_counts_when_it_overlaps_the_range() -> None:
    rng = LineRange("f", 10, 20)
    assert in_range(10, 10, rng) and in_range(20, 20, rng) and in_range(8, 11, rng)
    assert not in_range(9, 9, rng) and not in_range(21, 30, rng)


# --- outcomes and score arithmetic ----------------------------------------------------------


def test_outcomes_of_cosmic_ray_results() -> None:
    assert classify(None) == "not-run"
    assert classify({"worker_outcome": "skipped"}) == "skipped"
    assert classify({"worker_outcome": "exception", "test_outcome": "incompetent"}) == "error"
    assert classify({"worker_outcome": "normal", "test_outcome": "survived", "output": ""}) == "survived"
    assert classify({"worker_outcome": "normal", "test_outcome": "killed", "output": "assert 1 == 2"}) == "killed"
    # cosmic-ray's own per-mutant timeout, and the harness's per-test timeout.
    assert classify({"worker_outcome": "normal", "test_outcome": "killed", "output": "timeout"}) == "timeout"
    assert classify({"worker_outcome": "normal", "test_outcome": "killed",
                     "output": "E   PeersTestTimeout: test ran longer than 5.0s"}) == "timeout"


def test_score_counts_killed_and_timeout_over_all_mutants() -> None:
    score = tally(["killed", "killed", "timeout", "survived", "error", "not-run", "killed", "survived"])
    assert (score.mutants, score.killed, score.timeout, score.survived, score.error, score.not_run) == (
        8, 3, 1, 2, 1, 1)
    assert score.detected == 4 and score.percent == 50.0
    assert score.as_dict()["score"] == 50.0
    assert tally([]).percent is None
    with pytest.raises(ValueError):
        tally(["skipped"])


def _rec(tool: str, target: str, score: float | None, usable: bool = True, **extra: Any) -> dict[str, Any]:
    mut = {"usable": usable, "score": score, "mutants": 10, "detected": round((score or 0) / 10),
           "killed": round((score or 0) / 10), "timeout": 0, "survived": 10 - round((score or 0) / 10),
           "error": 0, "not_run": 0, "outcomes": {}, "not_detected": []} if usable else {
        "usable": False, "reason": "no test"}
    return {"tool": tool, "target": target, "status": "ok", "tests": 3, "mutation": mut, **extra}


def test_summary_and_markdown_mark_pathcraft_below_the_best_peer() -> None:
    data: dict[str, Any] = {
        "meta": {"date": "2000-01-01", "tools": ["pathcraft", "crosshair", "pynguin"], "budget": 20,
                 "grace": 40, "test_timeout": 5, "python": "3.11", "machine": "m", "command": "c",
                 "versions": {"cosmic-ray": "8.7.0"}},
        "targets": [{"target": "a", "mutants": 10}, {"target": "b", "mutants": 10},
                    {"target": "c", "mutants": 10}, {"target": "d", "mutants": 0}],
        "records": [
            _rec("pathcraft", "a", 80.0), _rec("crosshair", "a", 90.0), _rec("pynguin", "a", 70.0),
            _rec("pathcraft", "b", 100.0), _rec("crosshair", "b", None, usable=False),
            _rec("pynguin", "b", 100.0),
            _rec("pathcraft", "c", None, usable=False), _rec("crosshair", "c", 50.0),
            _rec("pynguin", "c", 60.0),
        ],
    }
    data["records"][0]["mutation"]["not_detected"] = [
        {"mutant": "L5:4 NumberReplacer#0", "outcome": "survived", "diff": ["-if x > 0:", "+if x > 1:"]}]
    data["records"][0]["mutation"]["outcomes"] = {"L5:4 NumberReplacer#0": "survived"}
    summary = mutation.summarize(data)
    tools = summary["tools"]
    # d has no mutant: left out. pathcraft: a 80, b 100, c unusable.
    assert tools["pathcraft"]["usable"] == 2 and tools["pathcraft"]["mean_score_usable"] == 90.0
    assert tools["pathcraft"]["mean_score_all"] == 60.0
    # On pathcraft's targets (a, b), an unusable suite counts 0: crosshair (90 + 0) / 2.
    assert tools["crosshair"]["mean_score_pathcraft_targets"] == 45.0
    assert tools["pynguin"]["mean_score_pathcraft_targets"] == 85.0
    assert summary["pathcraft_below_best_peer"] == [
        {"target": "a", "pathcraft": 80.0, "best_peer": "crosshair", "best_score": 90.0}]
    data["summary"] = summary
    md = mutation.markdown(data)
    assert "| `a` | 10 | 80 | 8/0/2 | 90 | 9/0/1 | 70 | 7/0/3 | **▼ -10** (crosshair) |" in md
    assert "| `b` | 10 | 100 | 10/0/0 | fails |  | 100 | 10/0/0 | ≥ |" in md
    assert "* L5:4 NumberReplacer#0 (survived): `-if x > 0:` / `+if x > 1:` — detected by crosshair, pynguin" in md
    assert "at or above the best peer on 1 of the 2 targets" in md


# --- the whole pipeline, with fake tools -------------------------------------------------


def test_sandbox_is_a_copy_with_the_same_module(tmp_path: Path) -> None:
    target = make_target(FIXTURES / "tiny.py", "sign", "tiny.py::sign")
    copy = mutation.make_sandbox(target, tmp_path / "src")
    assert copy.file == (tmp_path / "src" / "tiny.py").resolve()
    assert (copy.module, copy.range) == (target.module, target.range)
    assert copy.file.read_text() == target.file.read_text()


def test_the_mutant_command_runs_exactly_the_tests_that_passed(tmp_path: Path) -> None:
    # CrossHair names tests test_f, test_f_2, ...: pytest's --deselect would
    # drop test_pos_2 with test_pos. A file that does not import is left out.
    target = mutation.make_sandbox(make_target(FIXTURES / "tiny.py", "sign", "tiny.py::sign"), tmp_path / "src")
    tests = tmp_path / "suite" / "tests"
    tests.mkdir(parents=True)
    (tests / "test_a.py").write_text("import tiny\n\ndef test_pos():\n    assert tiny.sign(1) == 'pos'\n\n"
                                     "def test_pos_2():\n    assert tiny.sign(1) == 'nonpos'\n")
    (tests / "test_broken.py").write_text("import no_such_module_here\n")
    (tests / "conftest.py").write_text(CONFTEST)
    passing = ["test_a.py::test_pos"]
    cmd = mutation.pytest_command(tests, passing)
    env = mutation.mutant_env(target, tmp_path / "suite", passing, 5.0)
    run = procs.run(cmd, timeout=60, cwd=tests, env=env)
    assert run.returncode == 0, run.stdout
    assert "1 passed, 1 deselected" in run.stdout
    # The tests import the copy: a change there fails them.
    target.file.write_text(target.file.read_text().replace('"pos"', '"POS"'))
    assert procs.run(cmd, timeout=60, cwd=tests, env=env).returncode == 1


def test_a_test_failing_on_the_rerun_is_left_out(tmp_path: Path) -> None:
    # test_once passed in the measured run but fails when rerun (it leaves a
    # mark behind); the rerun drops it and keeps the others.
    target = mutation.make_sandbox(make_target(FIXTURES / "tiny.py", "sign", "tiny.py::sign"), tmp_path / "src")
    tests = tmp_path / "suite" / "tests"
    tests.mkdir(parents=True)
    mark = tmp_path / "mark"
    mark.write_text("")
    (tests / "test_a.py").write_text(
        f"import os, tiny\n\ndef test_once():\n    assert not os.path.exists({str(mark)!r})\n\n"
        "def test_pos():\n    assert tiny.sign(1) == 'pos'\n")
    (tests / "conftest.py").write_text(CONFTEST)
    base, cmd, env, dropped = mutation.rerun_passing(
        target, tmp_path / "suite", ["test_a.py::test_once", "test_a.py::test_pos"], 5.0)
    assert dropped == ["test_a.py::test_once"]
    assert base.returncode == 0 and "1 passed, 1 deselected" in base.stdout
    assert env["PYTHONHASHSEED"] == "0"


def test_main_scores_each_suite_on_the_mutants_inside_the_function(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    fake_cosmic_ray(cache)
    monkeypatch.setattr(mutation.CosmicRay, "prepare", lambda self: None)
    monkeypatch.setitem(adapters.REGISTRY, "fake-both", lambda o: FakeAdapter(o, "both"))
    monkeypatch.setitem(adapters.REGISTRY, "fake-half", lambda o: FakeAdapter(o, "half"))
    original = (FIXTURES / "tiny.py").read_text()
    out = tmp_path / "results"
    code = mutation.main(["--tools", "fake-both,fake-half", "--manifest", str(FIXTURES / "MANIFEST.tsv"),
                          "--examples", "", "--targets", "sign", "--out-dir", str(out),
                          "--cache-dir", str(cache), "--test-timeout", "0.5", "--date", "2000-01-01",
                          "--keep-work", str(tmp_path / "work")])
    assert code == 0
    assert (FIXTURES / "tiny.py").read_text() == original
    data = json.loads((out / "mutation-2000-01-01.json").read_text())
    assert data["targets"][0]["mutants"] == 3  # the mutation in spin is filtered out
    muts = {r["tool"]: r["mutation"] for r in data["records"]}
    # sign(5), sign(0): `x > 1` survives, "POS" is killed, `or spin(1)` loops on sign(0).
    both = muts["fake-both"]
    assert (both["killed"], both["timeout"], both["survived"]) == (1, 1, 1)
    assert both["outcomes"] == {"L5:4 NumberReplacer#0": "survived", "L5:4 FakeLoop#0": "timeout"}
    assert both["not_detected"][0]["diff"] == ["-if x > 0:", "+if x > 1:"]
    # sign(1) alone: `x > 1` is killed, the loop is never reached.
    half = muts["fake-half"]
    assert (half["killed"], half["timeout"], half["survived"]) == (2, 0, 1)
    assert both["score"] == half["score"] == pytest.approx(66.67)
    # The copy the mutants were run on is back to the original text.
    copies = list((tmp_path / "work" / "_mutation").rglob("tiny.py"))
    assert copies and all(p.read_text() == original for p in copies)
    md = (out / "mutation-2000-01-01.md").read_text()
    assert "| `tiny.py::sign` | 3 | 67 | 1/1/1 | 67 | 2/0/1 |" in md

    # --reuse-work: the kept tests are measured and mutated again; the
    # adapter, which would now fail, is not run.
    def failing(options: adapters.AdapterOptions) -> FakeAdapter:
        adapter = FakeAdapter(options, "fail")
        adapter.name = "fake-half"
        return adapter

    monkeypatch.setitem(adapters.REGISTRY, "fake-half", failing)
    assert mutation.main(["--tools", "fake-half", "--manifest", str(FIXTURES / "MANIFEST.tsv"),
                          "--examples", "", "--targets", "sign", "--out-dir", str(out),
                          "--cache-dir", str(cache), "--test-timeout", "0.5", "--date", "again",
                          "--reuse-work", str(tmp_path / "work")]) == 0
    (again,) = json.loads((out / "mutation-again.json").read_text())["records"]
    assert again["status"] == "ok" and again["gen_wall"] == data["records"][1]["gen_wall"]
    assert again["mutation"]["outcomes"] == half["outcomes"]


def test_merge_keeps_the_earlier_targets_not_run_again(tmp_path: Path) -> None:
    earlier = {"meta": {"tools": ["pathcraft"], "versions": {"pathcraft": "0.1"}, "command": "first",
                        "targets": ["a", "b"]},
               "targets": [{"target": "a", "mutants": 1}, {"target": "b", "mutants": 2}],
               "records": [_rec("pathcraft", "a", 10.0), _rec("pathcraft", "b", 20.0)]}
    (tmp_path / "old.json").write_text(json.dumps(earlier))
    data: dict[str, Any] = {"meta": {"tools": ["pathcraft"], "versions": {"pathcraft": "0.2"}, "targets": ["b", "c"]},
                            "targets": [{"target": "b", "mutants": 3}, {"target": "c", "mutants": 4}],
                            "records": [_rec("pathcraft", "b", 30.0), _rec("pathcraft", "c", 40.0)]}
    mutation.merge_earlier(tmp_path / "old.json", data)
    assert data["meta"]["targets"] == ["a", "b", "c"]
    assert [i["mutants"] for i in data["targets"]] == [1, 3, 4]
    assert sorted((r["target"], r["mutation"]["score"]) for r in data["records"]) == [
        ("a", 10.0), ("b", 30.0), ("c", 40.0)]
    assert data["meta"]["merged"]["targets"] == ["a"] and data["meta"]["versions"] == {"pathcraft": "0.2"}
