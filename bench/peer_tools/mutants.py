"""Mutation analysis with cosmic-ray, restricted to one function's lines.

Why cosmic-ray (pinned to 8.7.0) and not mutmut (3.x):

* **Restricting mutants to a function's lines.** cosmic-ray enumerates every
  mutation of a module into a session database (``cosmic-ray init``), each
  with its start and end position; its own filter ``cr-filter-lines`` marks
  those outside a configured line range as skipped. That is exactly the
  ``def`` range the peer table's coverage uses. mutmut 3 names mutants per
  function (``mod.x_f__mutmut_3``) and can select by that name, but only
  after copying the whole source tree into ``mutants/`` and rewriting every
  function into a trampoline.
* **Any test command, with a timeout.** cosmic-ray runs a configured shell
  command per mutant (exit 0 = survived, anything else = killed), kills it
  after a per-mutant timeout and records ``timeout`` as its output. mutmut 3
  has no test-command option: it runs pytest in its own process (forked, with
  its own venv's pytest and plugins) from a ``[tool.mutmut]`` configuration,
  and needs the whole clean suite to pass; our suites come from three tools,
  run under the peer harness's ``conftest.py`` (per-test timeout), with some
  tests excluded, in pathcraft's environment.
* cosmic-ray leaves the code under test as it is apart from the one mutation
  (it edits the file on disk and restores it), so the tests import exactly
  what the peer benchmark measured.

cosmic-ray edits the module in place: it always runs on a copy of the
target's import tree (see ``bench/mutation.py``), never on the corpus.

It is installed like a peer, into ``CACHE/venvs/cosmic-ray``, and driven
through its command line: ``init``, ``cr-filter-lines``, then per tool a copy
of the filtered session and ``exec`` with that tool's test command, and
``dump`` to read the results.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from . import procs
from .adapters import VenvAdapter
from .targets import LineRange

PACKAGE = "cosmic-ray==8.7.0"
# The exception measure.CONFTEST raises in a test that runs past its timeout.
TEST_TIMEOUT_MARK = "PeersTestTimeout"
# Outcomes of one mutant under one suite; the first two are "detected".
OUTCOMES = ("killed", "timeout", "survived", "error", "not-run")


class CosmicRay(VenvAdapter):
    """cosmic-ray in its own virtual environment, installed as the peers are."""

    name = "cosmic-ray"
    package = PACKAGE
    executable = "cosmic-ray"

    def prepare(self) -> str | None:
        reason = super().prepare()
        if reason is not None:
            return reason
        for exe in ("cosmic-ray", "cr-filter-lines"):
            if not self.exe(exe).exists():
                return f"{self.exe(exe)} is missing (cosmic-ray < 8.7 has no line filter)"
        show = subprocess.run([str(self.venv / "bin" / "python"), "-m", "pip", "show", "cosmic-ray"],
                              check=False, capture_output=True, text=True, timeout=120)
        for line in show.stdout.splitlines():
            if line.startswith("Version:"):
                self.version = line.split(":", 1)[1].strip()
        return None

    def exe(self, name: str) -> Path:
        return self.venv / "bin" / name


@dataclass(frozen=True)
class Mutant:
    """One mutation of the session: an operator's occurrence at a position."""

    job_id: str
    operator: str
    occurrence: int
    line: int
    col: int
    end_line: int

    @property
    def label(self) -> str:
        """Short and stable across runs (job ids are random)."""
        return f"L{self.line}:{self.col} {self.operator.removeprefix('core/')}#{self.occurrence}"


@dataclass
class Score:
    """Outcomes of a target's mutants under one suite."""

    mutants: int = 0
    killed: int = 0
    timeout: int = 0
    survived: int = 0
    error: int = 0  # cosmic-ray could not run the mutant (same for every tool)
    not_run: int = 0  # the session was stopped at its time limit first

    @property
    def detected(self) -> int:
        """Killed or timed out: the suite does not pass on the mutant (as mutmut and Stryker count)."""
        return self.killed + self.timeout

    @property
    def percent(self) -> float | None:
        return 100.0 * self.detected / self.mutants if self.mutants else None

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["detected"] = self.detected
        pct = self.percent
        data["score"] = None if pct is None else round(pct, 2)
        return data


def tally(outcomes: Iterable[str]) -> Score:
    """The score of a list of per-mutant outcomes (``OUTCOMES``)."""
    score = Score()
    for outcome in outcomes:
        if outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {outcome!r}")
        score.mutants += 1
        field = outcome.replace("-", "_")
        setattr(score, field, getattr(score, field) + 1)
    return score


def classify(result: dict[str, Any] | None) -> str:
    """One mutant's outcome from cosmic-ray's ``dump`` of its WorkResult.

    ``skipped`` is a mutant outside the line range (the filter's mark).
    cosmic-ray itself reports a run past the per-mutant timeout as killed with
    the output ``timeout``; a test stopped by the per-test timeout of the peer
    harness's conftest fails the run with ``PeersTestTimeout`` in its output.
    """
    if result is None:
        return "not-run"
    worker = result.get("worker_outcome")
    if worker == "skipped":
        return "skipped"
    if worker != "normal":
        return "error"
    test = result.get("test_outcome")
    output = result.get("output") or ""
    if test == "survived":
        return "survived"
    if test == "killed":
        return "timeout" if output == "timeout" or TEST_TIMEOUT_MARK in output else "killed"
    return "error"  # incompetent


def in_range(start_line: int, end_line: int, rng: LineRange) -> bool:
    """The line filter's rule: the mutated span overlaps the ``def`` lines."""
    return start_line <= rng.end and rng.start <= end_line


def _toml(value: str) -> str:
    return json.dumps(value)  # a JSON string is a TOML basic string


def config_text(module: Path, rng: LineRange, test_command: str, timeout: float) -> str:
    """cosmic-ray's configuration: one module, its ``def`` lines, tests run locally."""
    return "\n".join([
        "[cosmic-ray]",
        f"module-path = {_toml(str(module))}",
        f"timeout = {timeout:.1f}",
        "excluded-modules = []",
        f"test-command = {_toml(test_command)}",
        "",
        "[cosmic-ray.distributor]",
        'name = "local"',
        "",
        "[cosmic-ray.filters.line-filter]",
        f"lines = {{ {_toml(str(module))} = [{_toml(f'{rng.start}-{rng.end}')}] }}",
        "",
    ])


def _tool_env() -> dict[str, str]:
    """cosmic-ray's own environment for init, filter and dump (no PYTHONPATH of ours)."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


def _run(cmd: list[str], folder: Path, name: str, timeout: float = 300.0) -> str:
    result = procs.run(cmd, timeout=timeout, cwd=folder, env=_tool_env(), stdout_path=folder / f"{name}.out")
    if result.timed_out or result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:2])} failed (exit {result.returncode}): "
                           f"{procs.tail(result.stderr or result.stdout, 5)}")
    return result.stdout


def dump(cr: CosmicRay, db: Path, folder: Path) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    """The session's (work item, result or None) pairs."""
    out = _run([str(cr.exe("cosmic-ray")), "dump", str(db)], folder, db.stem + ".dump")
    rows = []
    for line in out.splitlines():
        if line.strip():
            item, result = json.loads(line)
            rows.append((item, result))
    return rows


def _mutant(item: dict[str, Any]) -> Mutant:
    (m,) = item["mutations"]  # one mutation per work item (first order)
    return Mutant(item["job_id"], m["operator_name"], int(m["occurrence"]),
                  int(m["start_pos"][0]), int(m["start_pos"][1]), int(m["end_pos"][0]))


def list_mutants(cr: CosmicRay, module: Path, rng: LineRange, folder: Path) -> tuple[Path, list[Mutant]]:
    """The session of every mutant inside ``rng``, and those mutants by position.

    ``init`` enumerates the whole module; ``cr-filter-lines`` marks the
    mutants outside the range as skipped, so ``exec`` never runs them.
    """
    folder.mkdir(parents=True, exist_ok=True)
    cfg, db = folder / "session.toml", folder / "session.sqlite"
    cfg.write_text(config_text(module, rng, "false", 10.0))
    db.unlink(missing_ok=True)
    _run([str(cr.exe("cosmic-ray")), "init", str(cfg), str(db)], folder, "init")
    _run([str(cr.exe("cr-filter-lines")), str(db), "--config", str(cfg)], folder, "filter")
    mutants = [_mutant(item) for item, result in dump(cr, db, folder) if classify(result) != "skipped"]
    for m in mutants:  # the filter's rule, checked: the score is for the function alone
        assert in_range(m.line, m.end_line, rng), m
    return db, sorted(mutants, key=lambda m: (m.line, m.col, m.operator, m.occurrence))


@dataclass
class SessionRun:
    """Per-mutant outcomes of one suite, and cosmic-ray's results by job id."""

    outcomes: dict[str, str]  # job id -> outcome
    results: dict[str, dict[str, Any] | None]
    wall: float
    stopped: bool  # the time limit stopped the session


def run_session(
    cr: CosmicRay,
    base_db: Path,
    module: Path,
    rng: LineRange,
    name: str,
    test_command: list[str],
    *,
    mutant_timeout: float,
    env: dict[str, str],
    limit: float,
) -> SessionRun:
    """Run every mutant of ``base_db`` against ``test_command`` (``cosmic-ray exec``).

    Works on a copy of the filtered session, so every suite meets the same
    mutants. The module's text is put back afterwards even if cosmic-ray was
    killed at ``limit`` in the middle of a mutant.
    """
    folder = base_db.parent
    db = folder / f"{name}.sqlite"
    cfg = folder / f"{name}.toml"
    shutil.copy(base_db, db)
    # cosmic-ray splits the command with shlex.split.
    cfg.write_text(config_text(module, rng, shlex.join(test_command), mutant_timeout))
    original = module.read_bytes()
    try:
        result = procs.run([str(cr.exe("cosmic-ray")), "exec", str(cfg), str(db)], timeout=limit,
                           cwd=folder, env=env, stdout_path=folder / f"{name}.exec.out")
    finally:
        module.write_bytes(original)
    results = {item["job_id"]: res for item, res in dump(cr, db, folder)}
    outcomes = {job: classify(res) for job, res in results.items()}
    outcomes = {job: o for job, o in outcomes.items() if o != "skipped"}
    return SessionRun(outcomes, results, result.wall, result.timed_out)


def diff_lines(result: dict[str, Any] | None) -> list[str]:
    """The changed lines of a mutant's diff (without headers and context)."""
    if not result or not result.get("diff"):
        return []
    return [line for line in str(result["diff"]).splitlines()
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]
