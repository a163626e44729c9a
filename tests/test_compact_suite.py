"""`--suite compact`: fewer tests that keep what the whole set gives.

Checked against independent oracles: coverage.py's line and branch
coverage of the compact file equals the whole file's; each of our mutants,
applied to a copy of the module, is killed by the compact file under
pytest exactly when the whole file kills it (a slow test); the file
passes pytest and `--verify`. Then the parts: the set cover, the arcs of a
path, the mutants and the tables."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from pathcraft.app.cli import main
from pathcraft.suite.compact import definition, path_elements, select
from pathcraft.suite.mutants import mutants

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(scope="module")
def suites(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return generate(tmp_path_factory.mktemp("suites"))


def generate(tmp_path: Path) -> tuple[Path, Path]:
    """arith.py's whole suite and its compact suite."""
    shutil.copy(EXAMPLES / "arith.py", tmp_path / "arith.py")
    whole, compact = tmp_path / "test_whole.py", tmp_path / "test_compact.py"
    assert main(["gen", str(tmp_path / "arith.py"), "-o", str(whole)]) == 0
    assert main(["gen", str(tmp_path / "arith.py"), "-o", str(compact), "--suite", "compact"]) == 0
    return whole, compact


def coverage_of(test_file: Path) -> dict[str, object]:
    folder = test_file.parent
    data = folder / f".coverage.{test_file.stem}"
    run = subprocess.run([sys.executable, "-m", "coverage", "run", "--branch", f"--data-file={data}",
                          "--include=*/arith.py", "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test_file)],
                         capture_output=True, text=True, cwd=folder)
    assert run.returncode == 0, run.stdout[-2000:]
    out = folder / f"{test_file.stem}.json"
    subprocess.run([sys.executable, "-m", "coverage", "json", f"--data-file={data}", "-o", str(out)],
                   capture_output=True, text=True, cwd=folder, check=True)
    (info,) = json.loads(out.read_text())["files"].values()
    return {"lines": sorted(info["executed_lines"]), "branches": sorted(map(tuple, info["executed_branches"]))}


def test_the_compact_suite_keeps_the_whole_suite_s_coverage_with_fewer_tests(suites: tuple[Path, Path]) -> None:
    whole, compact = suites
    text = compact.read_text(encoding="utf-8")
    assert text.count("pytest.param(") + text.count("\ndef test_") - text.count("@pytest.mark.parametrize") \
        < whole.read_text(encoding="utf-8").count("\ndef test_") / 1.5
    assert "@pytest.mark.parametrize(" in text and "id='1_returns_1'" in text  # rows named after their tests
    assert coverage_of(compact) == coverage_of(whole)


def test_comments_follow_the_option(suites: tuple[Path, Path], tmp_path: Path) -> None:
    whole, compact = suites
    text = compact.read_text(encoding="utf-8")
    assert "# path: a < b and b < c\n" in text and "# trace:" not in text  # compact: the path, one line each
    assert "# trace:" in whole.read_text(encoding="utf-8")  # all: full comments
    none = tmp_path / "test_none.py"
    assert main(["gen", f"{whole.parent / 'arith.py'}::clamp", "-o", str(none), "--comments", "none"]) == 0
    assert "# path:" not in none.read_text(encoding="utf-8") and "\ndef test_clamp_" in none.read_text()


def test_verify_checks_the_rows_of_a_table_as_tests(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(EXAMPLES / "arith.py", tmp_path / "arith.py")
    out = tmp_path / "test_arith.py"
    assert main(["gen", f"{tmp_path / 'arith.py'}::classify", "-o", str(out), "--suite", "compact", "--verify"]) == 0
    said = " ".join(capsys.readouterr().err.split())
    kept = re.search(r"classify: compact suite: (\d+) of 7 tests, keeping every line and arc and the \d+ of \d+ "
                     r"mutants the whole set kills", said)
    assert kept is not None and int(kept.group(1)) < 7
    assert f"{kept.group(1)}/{kept.group(1)} tests pass; {kept.group(1)}/{kept.group(1)} took their claimed path" \
        in said


def test_an_interrupted_compaction_writes_every_test_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pathcraft.app.cli as cli

    def interrupted(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "compact_suite", interrupted)
    shutil.copy(EXAMPLES / "arith.py", tmp_path / "arith.py")
    out = tmp_path / "test_arith.py"
    assert main(["gen", f"{tmp_path / 'arith.py'}::classify", "-o", str(out), "--suite", "compact"]) == 0
    assert out.read_text(encoding="utf-8").count("\ndef test_classify_") == 7  # the whole set: one per path


@pytest.mark.slow
def test_a_mutant_the_whole_suite_kills_the_compact_suite_kills(suites: tuple[Path, Path], tmp_path: Path) -> None:
    """Each of our mutants of two functions, applied to a copy of the
    module, run under pytest with both files: the compact file fails
    exactly when the whole file does."""
    whole, compact = suites
    source = (whole.parent / "arith.py").read_text(encoding="utf-8")
    checked = 0
    for name in ("classify", "clamp"):
        node = definition(source, name)
        assert node is not None
        for mutant in mutants(node):
            lines = source.splitlines(keepends=True)
            mutated = "".join(lines[:node.lineno - 1]) + mutant.source + "\n" + "".join(lines[node.end_lineno:])
            folder = tmp_path / f"m_{name}_{mutant.number}"
            folder.mkdir()
            (folder / "arith.py").write_text(mutated, encoding="utf-8")
            report = folder / "report.xml"
            subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}",
                            str(whole), str(compact)], capture_output=True, cwd=folder,
                           env={"PYTHONPATH": str(folder), "PATH": ""})
            failed = {case.get("classname", "").rpartition(".")[2] for case in ET.parse(report).iter("testcase")
                      if any(child.tag in ("failure", "error") for child in case)}
            assert ("test_whole" in failed) == ("test_compact" in failed), f"{name}: {mutant.what}, line {mutant.line}"
            checked += 1
    assert checked > 30


def test_select_covers_every_element_and_drops_what_others_cover() -> None:
    sets = [frozenset("ab"), frozenset("bc"), frozenset("abc"), frozenset("d"), frozenset("cd")]
    chosen = select(sets)
    assert set().union(*(sets[i] for i in chosen)) == set("abcd")
    assert chosen == [2, 3] or chosen == [2, 4]
    assert select([frozenset(), frozenset()]) == [0]  # one test is kept of a function with tests
    assert select([]) == []


def test_a_path_s_arcs_are_pairs_of_lines_of_one_call() -> None:
    events = [("call", "f"), ("line", "f", 1), ("call", "g"), ("line", "g", 10), ("return", "g"),
              ("line", "f", 2), ("return", "f")]
    elements = path_elements(events)  # type: ignore[arg-type]
    assert ("arc", "f", 1, 2) in elements and ("arc", "g", 10, "return") in elements
    assert not any(e[0] == "arc" and 10 in e[2:] and e[1] == "f" for e in elements)


def test_each_mutant_changes_one_thing_and_compiles() -> None:
    source = (EXAMPLES / "arith.py").read_text(encoding="utf-8")
    node = definition(source, "digit_sum")
    assert node is not None
    made = list(mutants(node))
    whats = {m.what for m in made}
    assert {"< -> <=", "% -> //", "2 -> 3", "+ -> -", "> -> >="} <= whats
    plain = ast.unparse(ast.parse(ast.unparse(node)))
    for mutant in made:
        compile(mutant.source, "<mutant>", "exec")
        assert ast.unparse(ast.parse(mutant.source)) != plain
    assert len({m.source for m in made}) == len(made)


def test_comparisons_are_replaced_as_cosmic_ray_replaces_them() -> None:
    """Each of ==, !=, <, <=, >, >=, is, is not by every other one; against
    a number no `is`/`is not`; against None only the identity of the other
    sense (a compact suite lost `==` -> `is` and `<` -> `!=` mutants of
    cosmic-ray's while these stayed within families)."""
    source = "def f(a, b):\n    return a < b, a < 0, a == None, a in b\n"
    node = definition(source, "f")
    assert node is not None
    whats = Counter(m.what for m in mutants(node) if "->" in m.what and m.what[0] in "<=!i")
    assert whats == Counter({"< -> ==": 2, "< -> !=": 2, "< -> <=": 2, "< -> >": 2, "< -> >=": 2,  # both `<`
                             "< -> is": 1, "< -> is not": 1,  # `a < b` only
                             "== -> is not": 1, "in -> not in": 1})


def test_a_test_past_its_timer_once_does_not_kill_a_mutant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kill by the timer is confirmed by a second run (a false kill let a
    compact suite drop the test that really kills a mutant); the mutants'
    runs are timed in CPU time, the real code's run by the wall clock only."""
    import contextlib
    import importlib

    from pathcraft.execute import mutant_runs, search

    (tmp_path / "subject_mod.py").write_text("def f(x):\n    return x + 1\n", encoding="utf-8")
    (tmp_path / "tests_mod.py").write_text("import subject_mod\n\n\ndef test_a():\n    assert subject_mod.f(1) == 2\n",
                                           encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    subject = importlib.import_module("subject_mod")
    request = {"tests_folder": str(tmp_path), "tests_module": "tests_mod", "qualname": "f", "tests": ["test_a"],
               "mutants": [[1, 2, "def f(x):\n    return x + 1\n"]], "reaches": {"test_a": [2]}}
    limits: list[tuple[float, float | None]] = []

    def slow_once(seconds: float = 1.0, cpu_seconds: float | None = None):  # type: ignore[no-untyped-def]
        limits.append((seconds, cpu_seconds))
        if len(limits) == 2:  # the mutant's first run
            raise search.TooSlow
        return contextlib.nullcontext()

    monkeypatch.setattr(search, "running", slow_once)
    assert mutant_runs.kills(subject, request)["kills"] == {"1": []}
    assert limits[0][1] is None and all(cpu is not None and cpu >= mutant_runs.MUTANT_SECONDS for _, cpu in limits[1:])

    def always_slow_on_mutants(seconds: float = 1.0, cpu_seconds: float | None = None):  # type: ignore[no-untyped-def]
        if cpu_seconds is not None:  # every run but the one on the real code
            raise search.TooSlow
        return contextlib.nullcontext()

    importlib.invalidate_caches()
    monkeypatch.setattr(search, "running", always_slow_on_mutants)
    assert mutant_runs.kills(subject, request)["kills"] == {"1": ["test_a"]}


def test_the_mutant_timer_counts_cpu_time_not_waiting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A mutant that waits 60 ms (as a descheduled test does) spends no CPU
    time and is not killed by the 20 ms timer; one that loops is killed."""
    import importlib

    from pathcraft.execute import mutant_runs

    (tmp_path / "waited_mod.py").write_text("def f(x):\n    return x + 1\n", encoding="utf-8")
    (tmp_path / "waited_tests.py").write_text("import waited_mod\n\n\ndef test_a():\n    assert waited_mod.f(1) == 2\n",
                                              encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    subject = importlib.import_module("waited_mod")
    waits = "def f(x):\n    __import__('time').sleep(0.06)\n    return x + 1\n"
    loops = "def f(x):\n    while x:\n        x = x + 1\n    return x + 1\n"
    request = {"tests_folder": str(tmp_path), "tests_module": "waited_tests", "qualname": "f", "tests": ["test_a"],
               "mutants": [[1, 2, waits], [2, 2, loops]], "reaches": {"test_a": [2]}}
    assert mutant_runs.kills(subject, request)["kills"] == {"1": [], "2": ["test_a"]}


def test_mutants_run_in_a_package_whose_root_has_no_identifier_name(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Its modules import each other with `..`: the worker imports the module
    under the root's alias, as the tests do (it once said "mutants not run:
    ... attempted relative import beyond top-level package")."""
    root = tmp_path / "my-lib"
    for folder, files in ((root, {"errors.py": "class Gone(Exception):\n    pass\n"}),
                          (root / "part", {"things.py": "from ..errors import Gone\n\n\ndef take(n: int) -> int:\n"
                                                        "    if n < 0:\n        raise Gone('no')\n    return n\n"})):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "__init__.py").write_text("")
        for name, text in files.items():
            (folder / name).write_text(text)
    out = tmp_path / "test_things.py"
    assert main(["gen", str(root / "part" / "things.py"), "-o", str(out), "--suite", "compact"]) == 0
    err = capsys.readouterr().err
    assert "mutants the whole set kills" in err and "mutants not run" not in err, err
