"""Tool adapters: how each test generator is installed and invoked.

An adapter turns (target, budget, work folder) into generated pytest files.
Adapters are looked up by name in ``REGISTRY``; tests register a fake one.
``CommandAdapter`` covers the common case of a command-line tool killed (with
its whole process group) at ``budget + grace`` seconds.
"""

from __future__ import annotations

import math
import os
import shlex
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import procs
from .targets import Target

_SOURCE = Path(__file__).resolve().parents[2] / "src"  # pathcraft's own source tree


@dataclass
class Generation:
    status: str  # "ok", "error", "timeout", "unavailable"
    test_files: list[Path] = field(default_factory=list)
    wall: float = 0.0
    returncode: int | None = None
    error: str | None = None
    command: list[str] = field(default_factory=list)


@dataclass
class AdapterOptions:
    cache_dir: Path
    grace: float = 30.0
    python: str = sys.executable  # creates the peers' virtual environments
    extra: list[str] = field(default_factory=list)  # extra tool arguments
    seed: int = 1


class ToolAdapter:
    """Base class: ``prepare`` once, then ``generate`` per target."""

    name = "tool"

    def __init__(self, options: AdapterOptions) -> None:
        self.options = options
        self.version = ""

    def prepare(self) -> str | None:
        """Install or check the tool. None when ready, else why it is unavailable."""
        return None

    def generate(self, target: Target, budget: float, workdir: Path, env: dict[str, str]) -> Generation:
        raise NotImplementedError


class CommandAdapter(ToolAdapter):
    """A tool run as one command; its tests are files in ``out`` or its stdout."""

    stdout_is_tests = False  # CrossHair prints the test module

    def command(self, target: Target, budget: float, out: Path) -> list[str]:
        raise NotImplementedError

    def tool_env(self, env: dict[str, str]) -> dict[str, str]:
        return env

    def collect(self, out: Path) -> list[Path]:
        return sorted(p for p in out.rglob("test_*.py") if p.is_file())

    def interpret(self, result: procs.ProcResult, files: list[Path]) -> tuple[str, str | None]:
        """(status, error) from the process result and the files it wrote."""
        if result.timed_out:
            why = f"killed after {result.wall:.0f}s (budget + grace)"
            return ("timeout", why + ("" if files else "; no test written"))
        if result.returncode != 0:
            return ("error", f"exit {result.returncode}: {procs.tail(result.stderr or result.stdout)}")
        if not files:
            return ("error", "no test file written: " + procs.tail(result.stderr or result.stdout))
        return ("ok", None)

    def generate(self, target: Target, budget: float, workdir: Path, env: dict[str, str]) -> Generation:
        out = workdir / "out"
        out.mkdir(parents=True, exist_ok=True)
        cmd = self.command(target, budget, out) + list(self.options.extra)
        stdout_path = (out / f"test_{self.name}_{target.module.replace('.', '_')}.py"
                       if self.stdout_is_tests else workdir / "tool.stdout")
        result = procs.run(cmd, timeout=budget + self.options.grace, cwd=workdir,
                           env=self.tool_env(env), stdout_path=stdout_path)
        if self.stdout_is_tests and "def test" not in result.stdout:
            stdout_path.unlink(missing_ok=True)
        files = self.collect(out)
        status, error = self.interpret(result, files)
        return Generation(status, files, result.wall, result.returncode, error, cmd)


def _venv_bin(venv: Path, exe: str) -> Path:
    return venv / "bin" / exe


class VenvAdapter(CommandAdapter):
    """A peer installed from PyPI into its own virtual environment."""

    package = ""
    executable = ""

    @property
    def venv(self) -> Path:
        return self.options.cache_dir / "venvs" / self.name

    def prepare(self) -> str | None:
        exe = _venv_bin(self.venv, self.executable)
        if not exe.exists():
            made = subprocess.run([self.options.python, "-m", "venv", "--clear", str(self.venv)],
                                  check=False, capture_output=True, text=True, timeout=300)
            if made.returncode != 0:
                return f"cannot create venv {self.venv}: {procs.tail(made.stderr)}"
            pip = subprocess.run([str(_venv_bin(self.venv, "python")), "-m", "pip", "install",
                                  "-q", self.package], check=False, capture_output=True, text=True, timeout=1800)
            if pip.returncode != 0 or not exe.exists():
                return (f"pip install {self.package} failed with {self.options.python} "
                        f"(exit {pip.returncode}): {procs.tail(pip.stderr or pip.stdout, 8)}")
        show = subprocess.run([str(_venv_bin(self.venv, "python")), "-m", "pip", "show", self.package],
                              check=False, capture_output=True, text=True, timeout=120)
        for line in show.stdout.splitlines():
            if line.startswith("Version:"):
                self.version = line.split(":", 1)[1].strip()
        return None


class PathcraftAdapter(CommandAdapter):
    """``python -m pathcraft gen FILE::NAME -o OUT --timeout S`` in this environment."""

    name = "pathcraft"

    def __init__(self, options: AdapterOptions, label: str | None = None) -> None:
        super().__init__(options)
        if label:
            self.name = label

    def tool_env(self, env: dict[str, str]) -> dict[str, str]:
        """The pathcraft of the tree this benchmark belongs to, not whichever
        one is installed (a worktree measured with the main venv's Python)."""
        return {**env, "PYTHONPATH": os.pathsep.join(p for p in (str(_SOURCE), env.get("PYTHONPATH")) if p)}

    def prepare(self) -> str | None:
        probe = subprocess.run(
            [sys.executable, "-c", "import pathcraft; print(getattr(pathcraft, '__version__', ''))"],
            check=False, capture_output=True, text=True, timeout=120, env=self.tool_env(dict(os.environ)))
        if probe.returncode != 0:
            return f"pathcraft is not importable by {sys.executable}: {procs.tail(probe.stderr, 1)}"
        self.version = probe.stdout.strip()
        return None

    def command(self, target: Target, budget: float, out: Path) -> list[str]:
        dest = out / f"test_pathcraft_{target.module.replace('.', '_')}.py"
        return [sys.executable, "-m", "pathcraft", "gen", target.spec, "-o", str(dest),
                "--timeout", f"{budget:g}"]

    def interpret(self, result: procs.ProcResult, files: list[Path]) -> tuple[str, str | None]:
        if result.returncode == 1 and files:
            # Verification failed, but tests were written: measure them.
            return ("ok", "exit 1 (verification failed): " + procs.tail(result.stderr, 5))
        return super().interpret(result, files)


class CrosshairAdapter(VenvAdapter):
    """``crosshair cover`` with path coverage, pytest output, bounded by the budget."""

    name = "crosshair"
    package = "crosshair-tool"
    executable = "crosshair"
    stdout_is_tests = True

    def command(self, target: Target, budget: float, out: Path) -> list[str]:
        # per_condition_timeout is CPU time for the whole function; keep a few
        # seconds of the budget for start-up and printing.
        condition = max(1.0, budget - max(2.0, 0.15 * budget))
        per_path = max(1.0, round(math.sqrt(condition), 1))
        return [str(_venv_bin(self.venv, "crosshair")), "cover", target.dotted,
                "--example_output_format", "pytest", "--coverage_type", "path",
                "--per_condition_timeout", f"{condition:g}", "--per_path_timeout", f"{per_path:g}"]


class PynguinAdapter(VenvAdapter):
    """Pynguin's default DynaMOSA on the target's module, assertions on.

    Pynguin works on a whole module (it has no single-function mode): its
    budget is spent on all of the module, its coverage counted on the target.
    """

    name = "pynguin"
    package = "pynguin"
    executable = "pynguin"

    def tool_env(self, env: dict[str, str]) -> dict[str, str]:
        env = dict(env)
        env["PYNGUIN_DANGER_AWARE"] = "1"
        return env

    def command(self, target: Target, budget: float, out: Path) -> list[str]:
        return [str(_venv_bin(self.venv, "pynguin")),
                "--project-path", str(target.import_root), "--module-name", target.module,
                "--output-path", str(out), "--maximum-search-time", str(max(1, int(budget))),
                # Assertions on, from the observed values. The default,
                # MUTATION_ANALYSIS, re-runs the tests on every mutant after the
                # search: on binary_search.py and proth_number.py it ran more than
                # 40 s past a 20 s budget, so the tool was killed with no output.
                "--assertion-generation", "SIMPLE",
                "--seed", str(self.options.seed)]


AdapterFactory = Callable[[AdapterOptions], ToolAdapter]

REGISTRY: dict[str, AdapterFactory] = {
    "pathcraft": PathcraftAdapter,
    "crosshair": CrosshairAdapter,
    "pynguin": PynguinAdapter,
}


def register_adapter(name: str, factory: AdapterFactory) -> None:
    REGISTRY[name] = factory


def pathcraft_variant(extra: str) -> tuple[str, AdapterFactory]:
    """A second pathcraft configuration, e.g. ``"--criterion loop-3"``."""
    args = shlex.split(extra)
    label = "pathcraft[" + " ".join(args) + "]"

    def factory(options: AdapterOptions) -> ToolAdapter:
        opts = AdapterOptions(options.cache_dir, options.grace, options.python, args, options.seed)
        return PathcraftAdapter(opts, label)

    return label, factory
