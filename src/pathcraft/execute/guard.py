"""The worker's audit hook: what the analysed code may not do.

Installed by the worker (`worker.py`) after its own imports and before the
analysed module is imported; from then on CPython reports each audited
action to it (`sys.addaudithook`, PEP 578), and an action refused here
raises PermissionError in the code that asked. Refused always: writing,
creating, removing or renaming a file outside the worker's temporary
folder; network connections and listening sockets; starting processes
(`fork`, `exec`, `subprocess`, `os.system`) and signalling others; loading
or calling C code through `ctypes`. Refused while a call of the search
runs, because its test would do the same under pytest: writing any file
(it would land wherever pytest runs, and the test fail on its second
run); reading a file or listing a folder other than the interpreter's and
those on the import path (the outcome would depend on the machine);
changing the environment variables or the working directory; starting a
thread. Reading `sys.argv` or using `sys.stdin` is noted the same way:
pytest's are not the worker's.

What it does not stop (said in the README): reading any file while the
module is imported, asking whether a file exists (`os.stat` has no audit
event), using CPU and memory within the worker's resource limits (set by
`sandbox.py`), C code already loaded doing what it likes. A call during
which anything was refused is no observation: its outcome is the sandbox's
doing, not the code's (`refusals` says so to the search).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_BLOCKED = frozenset({
    "socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg",
    "os.fork", "os.forkpty", "os.posix_spawn", "os.exec", "os.spawn", "os.system", "os.startfile",
    "subprocess.Popen", "os.kill", "os.killpg", "pty.spawn", "ctypes.dlopen", "ctypes.call_function",
    "ctypes.dlsym", "sys.remote_exec",
})
# changes to the process a test would make to pytest's (and so to the tests after it)
_CALL_BLOCKED = frozenset({"os.putenv", "os.unsetenv", "os.chdir", "_thread.start_new_thread",
                           "_thread.start_joinable_thread", "os.setuid", "os.setgid", "os.chroot"})
_LISTINGS = frozenset({"os.listdir", "os.scandir", "glob.glob", "glob.glob/2"})
_PATH_EVENTS = frozenset({
    "os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod", "os.chown", "os.truncate", "os.symlink",
    "os.link", "os.utime", "shutil.rmtree", "shutil.copyfile", "shutil.move",
})

refusals: list[str] = []  # what was refused since the search last looked
_home: Path | None = None
calling = False  # a call of the analysed code is running: no write at all (see `_hook`)
_code_roots: list[Path] = []  # the interpreter's and the import path's folders: what a call may read


def install(home: Path) -> None:
    """Refuse from now on what the module docstring lists (once per process)."""
    global _home
    if _home is not None:
        return
    _home = home.resolve()
    _code_roots.extend(sorted({Path(p).resolve() for p in (sys.prefix, sys.base_prefix, *sys.path)
                               if p and Path(p).is_dir()} - {_home}))
    _trip_wires()
    sys.addaudithook(_hook)


class _Tripwire(list):  # type: ignore[type-arg]
    """`sys.argv` in the worker: reading it is noted as a refusal. The test
    will run under pytest, whose command line is another: an outcome that
    depends on it is no observation."""

    def _touched(self) -> None:
        refusals.append("reading sys.argv")

    def __getitem__(self, index: Any) -> Any:
        self._touched()
        return super().__getitem__(index)

    def __iter__(self) -> Any:
        self._touched()
        return super().__iter__()

    def __len__(self) -> int:
        self._touched()
        return super().__len__()


class _Stdin:
    """`sys.stdin` in the worker: any use is noted as a refusal (pytest's
    standard input is not the worker's)."""

    def __getattr__(self, name: str) -> Any:
        refusals.append("using sys.stdin")
        raise OSError("pathcraft's sandbox has no standard input")


def _trip_wires() -> None:
    sys.argv = _Tripwire(["<pathcraft-worker>"])
    sys.stdin = _Stdin()
    import _thread
    import threading

    start = _thread.start_new_thread

    def guarded(*args: Any, **kwargs: Any) -> Any:  # no audit event for it before Python 3.12
        if calling:
            _refuse("_thread.start_new_thread", None)
        return start(*args, **kwargs)

    _thread.start_new_thread = guarded
    threading._start_new_thread = guarded  # type: ignore[attr-defined]


def _under(path: Any, roots: list[Path]) -> bool:
    """Is `path` (a descriptor: checked when it was opened) one of `roots`
    or inside one?"""
    if isinstance(path, int) or path is None:
        return True
    try:
        resolved = Path(os.fsdecode(path)).resolve()
    except (TypeError, ValueError, OSError):
        return False
    return any(resolved == root or root in resolved.parents for root in roots)


def _inside(path: Any) -> bool:
    assert _home is not None
    return _under(path, [_home])


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if event == "open":
        path, mode, flags = (tuple(args) + (None, None, None))[:3]
        writes = isinstance(mode, str) and any(c in mode for c in "wax+") \
            or isinstance(flags, int) and bool(flags & _WRITE_FLAGS)
        if writes and (calling or not _inside(path)):
            _refuse(event, path)
        if calling and not writes and not _readable(path):
            _refuse(event, path)
    elif event in _LISTINGS and calling and args and not _readable(args[0]):
        _refuse(event, args[0])
    elif event in _BLOCKED or calling and event in _CALL_BLOCKED:
        _refuse(event, None)
    elif event in _PATH_EVENTS:
        if calling or not all(_inside(a) for a in args[:2] if isinstance(a, (str, bytes, os.PathLike))):
            _refuse(event, args[0] if args else None)


def _readable(path: Any) -> bool:
    """May a call read `path`? Files of the interpreter and of the import
    path (the module's own package data), not the machine's others: an
    outcome that depends on them would be another under pytest."""
    return _under(path, _code_roots)


def _refuse(event: str, what: object) -> None:
    refusals.append(event if what is None else f"{event} {what!r:.60}")
    raise PermissionError(f"pathcraft's sandbox refused {event}")
