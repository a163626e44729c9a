"""Deep recursion: a thread with a large stack to work on, and what to say
when even that is not deep enough.

pathcraft's walks over syntax, terms and programs are recursive, and the
code it analyses can nest deeply without being unusual: a 300-deep chain of
calls builds a result term 300 operators deep, `x + x + ... + x` is one
`BinOp` per `+`. Python's default recursion limit (1000 frames) is too low
for those, and the main thread's stack (often 8 MiB) is too small to raise
the limit safely: past it, CPython crashes instead of raising
`RecursionError`. So the command runs on a thread whose stack is large
enough for `RECURSION_LIMIT` frames, and a `RecursionError` that still
happens is reported, for the function it happened in, with `too_deep`.
"""

from __future__ import annotations

import ctypes
import sys
import threading
from collections.abc import Callable
from types import TracebackType
from typing import TypeVar, cast

T = TypeVar("T")

STACK_BYTES = 512 * 1024 * 1024  # reserved, not used: pages are taken as the stack grows
# measured: nested repr, hash, ==, ast.parse and deepcopy 8 times as deep fit in STACK_BYTES
RECURSION_LIMIT = 50_000
POLL_SECONDS = 0.1  # how soon a Ctrl-C is noticed

# where a RecursionError happened (the innermost pathcraft module) -> what to call that stage
_STAGES = (
    ("pathcraft.frontend", "the translation"),
    ("pathcraft.ir.printer", "the CLP printer"),
    ("pathcraft.solver.z3backend", "the conversion to Z3"),
    ("pathcraft.solver.simplify", "term simplification"),
    ("pathcraft.solver", "the solver"),
    ("pathcraft.heap", "the heap model"),
    ("pathcraft.cost", "the cost model"),
    ("pathcraft.engine", "the search"),
    ("pathcraft.testcase", "the test writer"),
)


def run_deep(work: Callable[[], T]) -> T:
    """`work()` on a thread with a `STACK_BYTES` stack and the recursion
    limit raised to `RECURSION_LIMIT`, or here as it is when no such thread
    can be made. Ctrl-C reaches the work as a `KeyboardInterrupt`, as it
    would on the main thread (a second one leaves without waiting)."""
    outcome: list[tuple[bool, object]] = []
    done = threading.Event()
    _INTERRUPTED.clear()

    def target() -> None:
        try:
            outcome.append((True, work()))
        except BaseException as exc:  # handed to the caller's thread
            outcome.append((False, exc))
        finally:
            done.set()

    old_limit = sys.getrecursionlimit()
    try:
        old_size = threading.stack_size(STACK_BYTES)
    except (ValueError, RuntimeError):  # a platform that cannot set it
        return work()
    try:
        thread = threading.Thread(target=target, name="pathcraft-deep", daemon=True)
        sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
        try:
            thread.start()
        except RuntimeError:  # no memory for the stack: work with what there is
            sys.setrecursionlimit(old_limit)
            return work()
    finally:
        threading.stack_size(old_size)
    try:
        _wait(thread, done)
    finally:
        sys.setrecursionlimit(old_limit)
    if not outcome:  # interrupted between finishing the work and reporting it
        raise KeyboardInterrupt
    ok, value = outcome[0]
    if ok:
        return cast(T, value)
    assert isinstance(value, BaseException)
    raise value.with_traceback(value.__traceback__)


_INTERRUPTED = threading.Event()  # a Ctrl-C reached the main thread while work ran on the deep one


def interrupted() -> bool:
    """Has Ctrl-C been pressed during `run_deep`'s work? The exception set
    on the work's thread is raised at whatever line it runs, and one raised
    inside a finalizer (`__del__`, run by the collector at any point) is
    lost; so the work's long loops (the search's steps, the functions of a
    run, a wait on other processes) ask at each turn and raise
    `KeyboardInterrupt` themselves."""
    return _INTERRUPTED.is_set()


def _wait(thread: threading.Thread, done: threading.Event) -> None:
    """Wait for `thread` to set `done`; pass a Ctrl-C on to it (Python runs
    signal handlers on the main thread only) and wait for it to finish what
    an interruption does. The wait wakes up now and then: the kernel may
    deliver the signal to the busy thread, and a thread blocked for good
    would notice only when the work is over. (Not `Thread.join`: a join
    that a Ctrl-C interrupts marks a running thread as finished, under
    Python 3.11.)"""
    try:
        while not done.wait(POLL_SECONDS):
            pass
    except KeyboardInterrupt:
        _INTERRUPTED.set()  # for work that waits in a loop: an exception set on a thread can be lost
        if not done.is_set() and thread.ident is not None:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident),
                                                       ctypes.py_object(KeyboardInterrupt))
        while not done.wait(POLL_SECONDS):
            pass
    thread.join()


def too_deep(exc: RecursionError) -> str:
    """Why a function was skipped: what pathcraft was doing with it (from
    the innermost pathcraft frame of the traceback) and the limit."""
    stage = "pathcraft"
    for module in reversed(_modules(exc.__traceback__)):
        found = next((words for prefix, words in _STAGES if module.startswith(prefix)), None)
        if found is not None:
            stage = found
            break
    return f"too deeply nested for {stage} ({_limit()} was reached)"


def _limit() -> str:
    """The limit that stopped a recursion: from Python 3.12 on, nested C
    calls (a generator's frame, `==` on tuples) have a fixed bound of their
    own, beside the frame limit."""
    frames = f"Python's recursion limit of {sys.getrecursionlimit()}"
    return frames if sys.version_info < (3, 12) else f"{frames} frames, or of nested C calls,"


def _modules(tb: TracebackType | None) -> list[str]:
    """The module of each frame of a traceback, outermost first."""
    out: list[str] = []
    while tb is not None:
        out.append(str(tb.tb_frame.f_globals.get("__name__", "")))
        tb = tb.tb_next
    return out
