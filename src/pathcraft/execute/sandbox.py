"""The worker process that runs the analysed code (`--execute`), from
pathcraft's side.

A worker is a fresh interpreter (`python -I`: no user site, no PYTHONPATH
from the environment) with the module's import root and pathcraft's own
source on its path, a temporary working directory that is also its HOME
and TMPDIR, a bare environment and PYTHONHASHSEED 0 (or, for the check of
what another worker saw, the user's environment and another seed), and
resource limits set before it starts: address space
(`memory_mb`), CPU seconds over its life, file size, open files, no core
files. Its audit hook (`guard.py`) refuses writes outside its folder,
sockets, processes and `ctypes`. Each request has a wall-clock limit: a
worker that does not answer in time, crashes, or exits is killed and the
request answered `{"fault": why}`; the next request starts a new worker.
So a hang, a segfault or `os._exit` in user code costs one call, not the
run. Values cross as JSON (`wire.py`); nothing from the worker is
unpickled or evaluated here.
"""

from __future__ import annotations

import json
import os
import resource
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

_SOURCE_ROOT = Path(__file__).resolve().parent.parent.parent  # the folder holding the `pathcraft` package
_TIMEOUT = "\0timeout"  # `_read_line`'s answer when the deadline passed
_BOOT = ("import sys; sys.path[:0] = {paths!r}; "
         "from pathcraft.execute.worker import main; main(searching={searching!r}, unicode_cache={cache!r})")


def unicode_cache() -> Path:
    """Where search workers keep Hypothesis's Unicode table between runs
    (`$XDG_CACHE_HOME/pathcraft/hypothesis`, by default under `~/.cache`):
    each worker's own folder is new, and the table takes 2 s to compute."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pathcraft" / "hypothesis"


class Sandbox:
    """One worker at a time for one import root; restarted when it dies."""

    def __init__(self, import_root: Path, memory_mb: int = 2048, cpu_seconds: int = 600,
                 like_the_user: bool = False, hash_seed: int = 0, searching: bool = True) -> None:
        """`like_the_user`: the worker gets this process's environment
        variables (HOME and TMPDIR still its own folder) instead of a bare
        environment; with another `hash_seed` than the search's, a call
        whose outcome depends on either does otherwise (see `observed.py`).
        `searching=False`: a worker that only replays (it starts without
        Hypothesis, a quarter of a second sooner)."""
        self.import_root = import_root.resolve()
        self.like_the_user = like_the_user
        self.hash_seed = hash_seed
        self.searching = searching
        self.memory_mb = memory_mb
        self.cpu_seconds = cpu_seconds
        self.process: subprocess.Popen[bytes] | None = None
        self.home: str | None = None
        self.started = 0  # workers started (the first, and one per restart)
        self._buffer = b""  # what the worker wrote past the last line read

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def request(self, message: dict[str, Any], seconds: float,
                partial: Callable[[dict[str, Any]], None] = lambda item: None) -> dict[str, Any]:
        """Send one request and wait at most `seconds` for its answer; the
        progress lines before it (`{"partial": ...}`, `{"trying": ...}`) go
        to `partial` as they come (they are known when the worker dies
        before answering)."""
        if self.process is None or self.process.poll() is not None:
            self._start()
        process = self.process
        assert process is not None and process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            return self._fault("the worker died")
        deadline = time.monotonic() + seconds
        while True:
            line = self._read_line(process, deadline)
            if line is _TIMEOUT:
                return self._fault(f"no answer within {seconds:.0f} s")
            if line is None:  # its end of the pipe closed: it is dying, if not dead yet
                try:
                    return self._fault(_death(process.wait(timeout=10)))
                except subprocess.TimeoutExpired:
                    return self._fault("the worker closed its output")
            try:
                answer = json.loads(line)
            except ValueError:
                return self._fault("the worker's answer was no JSON")
            if not isinstance(answer, dict):
                return self._fault("the worker's answer was no object")
            if "partial" not in answer and "trying" not in answer:
                return answer
            partial(answer)

    def close(self) -> None:
        self._stop()

    # ------------------------------------------------------------ internals

    def _start(self) -> None:
        self._stop()
        self.home = tempfile.mkdtemp(prefix="pathcraft-worker-")
        env = {"PATH": os.defpath, "LANG": "C.UTF-8"} if not self.like_the_user else \
            {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        env.update({"HOME": self.home, "TMPDIR": self.home, "PYTHONDONTWRITEBYTECODE": "1",
                    "PYTHONHASHSEED": str(self.hash_seed)})
        boot = _BOOT.format(paths=[str(_SOURCE_ROOT), str(self.import_root)], searching=self.searching,
                            cache=str(unicode_cache()) if self.searching else None)
        memory, cpu = self.memory_mb * 1024 * 1024, self.cpu_seconds

        def limits() -> None:  # in the child, before the interpreter starts
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024 * 1024, 64 * 1024 * 1024))
            resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

        self.process = subprocess.Popen([sys.executable, "-I", "-c", boot], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=self.home,
                                        env=env, preexec_fn=limits, start_new_session=True)
        self.started += 1

    def _stop(self) -> None:
        process, self.process = self.process, None
        self._buffer = b""
        if process is not None:
            if process.poll() is None:
                try:
                    os.killpg(process.pid, 9)  # its own session: anything it started goes too
                except (ProcessLookupError, PermissionError):
                    process.kill()
            process.wait()
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    stream.close()
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)
            self.home = None

    def _fault(self, why: str) -> dict[str, Any]:
        self._stop()
        return {"fault": why}

    def _read_line(self, process: subprocess.Popen[bytes], deadline: float) -> str | None:
        """The worker's next line; None when its output ends, `_TIMEOUT`
        when the time is up first."""
        assert process.stdout is not None
        fd = process.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return _TIMEOUT
            ready, _, _ = select.select([fd], [], [], min(left, 0.5))
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace")


def _death(code: int | None) -> str:
    if code is not None and code < 0:
        return f"the worker was killed by signal {-code}"
    return f"the worker exited with code {code}"
