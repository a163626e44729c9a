"""Tests of the peer benchmark harness (bench/peers.py) with a fake tool.

No network and no virtual environment: a fake adapter runs
tests/fixtures/peers/fake_tool.py, which writes a known pytest file for the
tiny targets of tests/fixtures/peers/tiny.py (or hangs, or fails).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "peers"
sys.path.insert(0, str(REPO / "bench"))

import peers  # noqa: E402
from peer_tools import adapters  # noqa: E402
from peer_tools.adapters import AdapterOptions, CommandAdapter, ToolAdapter  # noqa: E402
from peer_tools.measure import file_coverage, range_coverage, run_tests  # noqa: E402
from peer_tools.targets import (  # noqa: E402
    Target,
    analyse_source,
    import_root_of,
    load_manifest,
    make_target,
)


class FakeAdapter(CommandAdapter):
    """Runs fake_tool.py in MODE: half, both, mixed, broken, hang, fail."""

    def __init__(self, options: AdapterOptions, mode: str) -> None:
        super().__init__(options)
        self.mode = mode
        self.name = f"fake-{mode}"

    def command(self, target: Target, budget: float, out: Path) -> list[str]:
        return [sys.executable, str(FIXTURES / "fake_tool.py"), self.mode, target.spec, str(out)]


class MissingAdapter(ToolAdapter):
    name = "missing"

    def prepare(self) -> str | None:
        return "cannot install: no such package (fake)"


def options(tmp_path: Path, grace: float = 5.0) -> AdapterOptions:
    return AdapterOptions(cache_dir=tmp_path / "cache", grace=grace)


def sign_target() -> Target:
    return make_target(FIXTURES / "tiny.py", "sign", "tiny.py::sign")


def run(tmp_path: Path, mode: str, target: Target, budget: float = 20.0, grace: float = 5.0,
        test_timeout: float = 5.0) -> dict[str, Any]:
    records, _, unavailable = peers.run_benchmark(
        [target], [FakeAdapter(options(tmp_path, grace), mode)], budget=budget,
        work_root=tmp_path / "work", test_timeout=test_timeout)
    assert not unavailable
    assert len(records) == 1
    return records[0]


# --- targets -------------------------------------------------------------------


def test_line_range_and_callees() -> None:
    rng, callees = analyse_source(FIXTURES / "tiny.py", "sign")
    source = (FIXTURES / "tiny.py").read_text().splitlines()
    assert source[rng.start - 1].startswith("def sign(")
    assert source[rng.end - 1].strip() == 'return "nonpos"'
    assert callees == []
    with pytest.raises(LookupError):
        analyse_source(FIXTURES / "tiny.py", "nope")


def test_callees_are_transitive_and_same_module(tmp_path: Path) -> None:
    mod = tmp_path / "m.py"
    mod.write_text(
        "import math\n"
        "def a(x):\n    return b(x) + math.floor(x)\n"
        "def b(x):\n    return C(x).go()\n"
        "class C:\n"
        "    def __init__(self, x):\n        self.x = x\n"
        "    def go(self):\n        return self.helper()\n"
        "    def helper(self):\n        return 1\n"
        "def unused():\n    return 0\n")
    _, callees = analyse_source(mod, "a")
    assert [c.qualname for c in callees] == ["b", "C.__init__", "C.go", "C.helper"]


def test_import_root_of_packages(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub" / "mod.py").write_text("def f():\n    pass\n")
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "mod.py").write_text("")
    assert import_root_of(tmp_path / "pkg" / "sub" / "mod.py") == (tmp_path.resolve(), "pkg.sub.mod")
    assert import_root_of(tmp_path / "plain" / "mod.py") == ((tmp_path / "plain").resolve(), "mod")


def test_package_folder_with_dashes_is_imported_under_an_identifier(tmp_path: Path) -> None:
    # The Goodrich bundle: a package (it has __init__.py) whose folder name has
    # dashes, with chapters importing ..exceptions.
    bundle = tmp_path / "my-bundle"
    (bundle / "ch07").mkdir(parents=True)
    (bundle / "__init__.py").write_text("")
    (bundle / "exceptions.py").write_text("class Empty(Exception):\n    pass\n")
    (bundle / "ch07" / "__init__.py").write_text("")
    (bundle / "ch07" / "stack.py").write_text("from ..exceptions import Empty\n\ndef pop() -> None:\n    raise Empty\n")
    target = make_target(bundle / "ch07" / "stack.py", "pop", "stack")
    assert target.module == "my_bundle.ch07.stack"
    assert (target.import_root / "my_bundle").resolve() == bundle.resolve()
    assert "imported as my_bundle.ch07.stack" in target.import_note


def test_manifest_loading() -> None:
    targets = load_manifest(FIXTURES / "MANIFEST.tsv")
    assert [t.id for t in targets] == ["tiny.py::sign", "tiny.py::spin"]
    assert all(t.error is None and t.module == "tiny" for t in targets)
    assert targets[0].dotted == "tiny.sign"
    assert targets[0].spec.endswith("tiny.py::sign")


# --- coverage ------------------------------------------------------------------


def test_one_of_two_branches_is_50_percent(tmp_path: Path) -> None:
    # sign has exactly one branch point, `if x > 0`, with two outcomes (arcs):
    # to `return "pos"` and to `return "nonpos"`. The fake tool's only test calls
    # sign(1): it takes the first arc only, so 1 of 2 arcs = 50 %. Of the 3
    # statements of the body (if, return, return) it runs 2.
    rec = run(tmp_path, "half", sign_target())
    assert rec["status"] == "ok" and rec["error"] is None
    assert rec["tests"] == 1 and rec["passed"] == 1 and rec["failed"] == 0
    assert rec["imports"] is True
    cov = rec["coverage"]
    assert (cov["branches_hit"], cov["branches_total"]) == (1, 2)
    assert cov["percent"] == 50.0
    assert (cov["lines_hit"], cov["lines_total"]) == (2, 3)


def test_both_branches_is_100_percent(tmp_path: Path) -> None:
    rec = run(tmp_path, "both", sign_target())
    assert rec["tests"] == 2 and rec["passed"] == 2
    assert (rec["coverage"]["branches_hit"], rec["coverage"]["branches_total"]) == (2, 2)
    assert rec["coverage"]["percent"] == 100.0


def test_coverage_counts_only_the_target(tmp_path: Path) -> None:
    # The "half" tests never call spin: its while loop (2 branch arcs) stays at 0.
    target = make_target(FIXTURES / "tiny.py", "spin", "tiny.py::spin")
    rec = run(tmp_path, "half", target)
    assert rec["passed"] == 1
    assert (rec["coverage"]["branches_hit"], rec["coverage"]["branches_total"]) == (0, 2)


def test_static_totals_match_coverage_report(tmp_path: Path) -> None:
    # With no data, totals come from coverage.py's parser; with data, from its
    # JSON report: both must count the same arcs and statements.
    target = sign_target()
    assert target.range is not None
    static = range_coverage(None, target.file, target.range)
    run(tmp_path, "half", target)
    data_dir = next((tmp_path / "work").rglob("tests"))
    measured = range_coverage(file_coverage(data_dir, target.file), target.file, target.range)
    assert (static.branches_total, static.lines_total) == (measured.branches_total, measured.lines_total)
    assert (static.branches_hit, static.lines_hit) == (0, 0)


# --- failures, hangs, timeouts ---------------------------------------------------


def test_hanging_tool_is_killed_and_recorded(tmp_path: Path) -> None:
    rec = run(tmp_path, "hang", sign_target(), budget=0.5, grace=0.5)
    assert rec["status"] == "timeout"
    assert "killed" in rec["error"]
    assert 0.9 <= rec["gen_wall"] < 10
    assert rec["tests"] == 0
    assert (rec["coverage"]["branches_hit"], rec["coverage"]["branches_total"]) == (0, 2)


def test_failing_tool_is_recorded_with_its_error(tmp_path: Path) -> None:
    rec = run(tmp_path, "fail", sign_target())
    assert rec["status"] == "error"
    assert "exit 2" in rec["error"] and "unsupported construct (fake)" in rec["error"]
    assert rec["tests"] == 0 and rec["coverage"]["percent"] == 0.0


def test_tests_that_do_not_import_are_recorded(tmp_path: Path) -> None:
    rec = run(tmp_path, "broken", sign_target())
    assert rec["imports"] is False
    assert rec["tests"] == 0
    assert "no_such_module_here" in rec["error"]


def run_fake_tests(tmp_path: Path, mode: str) -> Any:
    """The fake tool's tests for `sign` in MODE, run by the harness with short limits."""
    target = sign_target()
    gen_dir = tmp_path / "gen"
    gen_dir.mkdir()
    gen = FakeAdapter(options(tmp_path), mode).generate(target, 20, gen_dir, dict(__import__("os").environ))
    assert gen.status == "ok"
    return run_tests(gen.test_files, target, tmp_path / "measure", test_timeout=1.0, stall_slack=2.0)


def test_hung_tests_are_stopped_and_counted(tmp_path: Path) -> None:
    result = run_fake_tests(tmp_path, "mixed")
    outcomes = {k.split("::")[-1]: v for k, v in result.outcomes.items()}
    assert outcomes == {"test_pass": "passed", "test_fail": "failed", "test_loop": "timeout",
                        "test_stuck": "timeout", "test_after": "passed",
                        "test_expects_raise": "xfailed"}
    assert (result.tests, result.passed, result.failed, result.timed_out) == (6, 3, 3, 2)
    assert result.xfailed == 1
    assert result.restarts == 1  # test_stuck ignored SIGALRM: the watchdog killed the run
    assert result.target is not None and result.target.branches_hit == 1


def test_a_slow_end_of_run_keeps_its_coverage(tmp_path: Path) -> None:
    # CI (three suites on two cores) once killed a run whose last test had
    # passed while coverage.py was still saving: the coverage was lost.
    result = run_fake_tests(tmp_path, "slow-exit")
    assert (result.passed, result.restarts, result.error) == (1, 0, None)
    assert result.target is not None and result.target.branches_hit == 1


def test_unavailable_tool_is_reported(tmp_path: Path) -> None:
    records, _, unavailable = peers.run_benchmark(
        [sign_target()], [MissingAdapter(options(tmp_path))], budget=1, work_root=tmp_path)
    assert unavailable == {"missing": "cannot install: no such package (fake)"}
    assert records[0]["status"] == "unavailable"


# --- the command line ----------------------------------------------------------------


def test_main_writes_json_and_markdown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(adapters.REGISTRY, "fake-half", lambda o: FakeAdapter(o, "half"))
    monkeypatch.setitem(adapters.REGISTRY, "missing", MissingAdapter)
    out = tmp_path / "results"
    code = peers.main(["--tools", "fake-half,missing", "--manifest", str(FIXTURES / "MANIFEST.tsv"),
                       "--examples", "", "--out-dir", str(out), "--cache-dir", str(tmp_path / "c"),
                       "--budget", "10", "--date", "2000-01-01", "--targets", "tiny"])
    assert code == 0
    data = json.loads((out / "peers-2000-01-01.json").read_text())
    assert data["meta"]["targets"] == ["tiny.py::sign", "tiny.py::spin"]
    assert data["meta"]["unavailable"] == {"missing": "cannot install: no such package (fake)"}
    summary = data["summary"]["fake-half"]
    # sign: 50 %; spin: 0 % (the tests never call it): mean 25 %.
    assert summary["mean_coverage_all"] == 25.0
    assert summary["handled"] == 2
    md = (out / "peers-2000-01-01.md").read_text()
    assert "| `tiny.py::sign` | 50 | 1 | 1 |" in md
    assert "**unavailable** — cannot install" in md
    captured = capsys.readouterr()
    assert md in captured.out
    assert "fake-half tiny.py::sign: ok cov 50%" in captured.err


def test_reuse_merges_records_of_tools_not_rerun(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(adapters.REGISTRY, "fake-half", lambda o: FakeAdapter(o, "half"))
    monkeypatch.setitem(adapters.REGISTRY, "fake-both", lambda o: FakeAdapter(o, "both"))
    common = ["--manifest", str(FIXTURES / "MANIFEST.tsv"), "--examples", "", "--out-dir",
              str(tmp_path), "--cache-dir", str(tmp_path / "c"), "--targets", "sign"]
    assert peers.main(["--tools", "fake-half,fake-both", "--date", "first", *common]) == 0
    first = tmp_path / "peers-first.json"
    # Rerun fake-both only; fake-half's records come from the first file.
    assert peers.main(["--tools", "fake-both", "--date", "second", "--reuse", str(first), *common]) == 0
    data = json.loads((tmp_path / "peers-second.json").read_text())
    assert data["meta"]["tools"] == ["fake-half", "fake-both"]
    assert set(data["meta"]["reused"]) == {"fake-half"}
    covs = {r["tool"]: r["coverage"]["percent"] for r in data["records"]}
    assert covs == {"fake-half": 50.0, "fake-both": 100.0}
    assert "records reused from `peers-first.json`" in (tmp_path / "peers-second.md").read_text()
