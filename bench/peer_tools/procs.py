"""Run a command with a hard wall-clock deadline.

The command gets its own session (process group), so that at the deadline the
whole tree it started (a tool's worker processes included) is killed, not only
the direct child.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class ProcResult:
    returncode: int | None  # None when killed at the deadline
    stdout: str
    stderr: str
    wall: float
    timed_out: bool


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the process group of ``proc`` (which must lead its own session)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass


def run(
    cmd: list[str],
    *,
    timeout: float,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    stdout_path: Path | None = None,
) -> ProcResult:
    """Run ``cmd``; kill its process group after ``timeout`` seconds.

    Output goes to files (not pipes), so a killed tool's children holding the
    pipe open can never block us. ``stdout_path`` keeps the standard output
    (CrossHair prints its tests there).
    """
    out_dir = Path(cwd) if cwd is not None else Path.cwd()
    out_file = stdout_path if stdout_path is not None else out_dir / ".proc.stdout"
    err_file = out_file.with_name(out_file.name + ".stderr")
    start = time.monotonic()
    timed_out = False
    with open(out_file, "wb") as fout, open(err_file, "wb") as ferr:
        try:
            proc = subprocess.Popen(
                cmd,
                cwd=str(cwd) if cwd is not None else None,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=fout,
                stderr=ferr,
                start_new_session=True,
            )
        except OSError as exc:
            return ProcResult(None, "", f"cannot start {cmd[0]}: {exc}", 0.0, False)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            kill_group(proc)
            proc.wait()
        except BaseException:  # interrupted (Ctrl-C, SIGTERM): take the tool down too
            kill_group(proc)
            raise
        else:
            # The tool is done; do not leave stray workers of it behind.
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    wall = time.monotonic() - start
    stdout = out_file.read_text(errors="replace")
    stderr = err_file.read_text(errors="replace")
    return ProcResult(None if timed_out else proc.returncode, stdout, stderr, wall, timed_out)


def tail(text: str, lines: int = 15, chars: int = 2000) -> str:
    """The last lines of ``text``, for error messages."""
    kept = "\n".join(text.strip().splitlines()[-lines:])
    return kept[-chars:]
