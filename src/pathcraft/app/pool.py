"""Local parallelism: `jobs` worker processes (pathcraft/app/worker.py), each
fed one work item at a time as a JSON line.

Why not `concurrent.futures.ProcessPoolExecutor`: one worker that dies
there breaks the whole pool, and a hung item cannot be stopped. Here a
worker that dies mid-item (killed, out of memory) is replaced and its item
retried (up to `retries` times); an item that outlives `item_timeout`
stops its worker and is reported, and the run goes on; a worker left
holding more than `RECYCLE_BYTES` after an item is replaced. Items are taken
in priority order (a package run finishes one module before it starts the
next), and only JSON crosses the pipe.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import IO, Any

Item = dict[str, Any]
Result = dict[str, Any]
OnStart = Callable[[Item, int], None]  # (item, the pid of the worker taking it)
RECYCLE_BYTES = 2 << 30  # a worker holding more than this after an item is replaced by a fresh one


@dataclass(order=True)
class _Task:
    priority: tuple[Any, ...]
    serial: int
    item: Item = field(compare=False)
    future: Future[Result] = field(compare=False)
    attempts: int = field(default=0, compare=False)


class _Worker:
    """One worker process and the thread that reads its results."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "pathcraft.app.worker"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                        encoding="utf-8", bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.ready = False  # its first line says it has started (its start is no item's time)
        self.gone = False  # it ended before that line
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[str] | None) -> None:
        assert stream is not None
        for line in stream:
            self.lines.put(line)
        self.lines.put(None)  # the worker is gone

    def started(self) -> bool:
        """Wait for the worker's first line (False: it died first)."""
        if not self.ready and not self.gone:
            if self.lines.get() is None:
                self.gone = True
            else:
                self.ready = True
        return self.ready

    def ask(self, item: Item, timeout: float | None) -> Result | str:
        """The item's result, or why there is none ("died", "hung")."""
        assert self.process.stdin is not None
        if not self.started():
            return "died"
        try:
            self.process.stdin.write(json.dumps(item) + "\n")
            self.process.stdin.flush()
        except OSError:
            return "died"
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            return "hung"
        if line is None:
            return "died"
        result: Result = json.loads(line)
        return result

    def resident_bytes(self) -> int:
        """The worker's resident memory (0 where /proc does not tell)."""
        try:
            with open(f"/proc/{self.process.pid}/statm", encoding="ascii") as statm:
                return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            return 0

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


class WorkerPool:
    """`submit(item, priority)` -> a Future of the item's result dict."""

    def __init__(self, jobs: int, item_timeout: float | None = None, retries: int = 2,
                 on_start: OnStart | None = None) -> None:
        self.item_timeout = item_timeout
        self.retries = retries
        self.on_start = on_start
        self._tasks: queue.PriorityQueue[_Task] = queue.PriorityQueue()
        self._serial = itertools.count()
        self._closing = threading.Event()
        self._workers: list[_Worker | None] = [None] * max(1, jobs)
        self._lock = threading.Lock()
        self.retried = 0  # items run again after their worker died
        self._threads = [threading.Thread(target=self._serve, args=(slot,), daemon=True)
                         for slot in range(len(self._workers))]
        for thread in self._threads:
            thread.start()

    def submit(self, item: Item, priority: tuple[Any, ...] = ()) -> Future[Result]:
        future: Future[Result] = Future()
        self._tasks.put(_Task(priority, next(self._serial), item, future))
        return future

    def _serve(self, slot: int) -> None:
        while not self._closing.is_set():
            try:
                task = self._tasks.get(timeout=0.2)
            except queue.Empty:
                continue
            if self._closing.is_set() or task.future.cancelled():
                continue
            worker = self._workers[slot]
            if worker is None or worker.process.poll() is not None:
                with self._lock:
                    if self._closing.is_set():
                        return
                    worker = self._workers[slot] = _Worker()
            if self.on_start is not None and worker.started():
                self.on_start(task.item, worker.process.pid)
            answer = worker.ask(task.item, self.item_timeout)
            if isinstance(answer, dict):
                task.future.set_result(answer)
                if worker.resident_bytes() > RECYCLE_BYTES:  # what its searches left behind: a fresh one
                    worker.stop()
                    self._workers[slot] = None
                continue
            code = worker.process.poll()
            worker.stop()
            self._workers[slot] = None
            if self._closing.is_set():
                task.future.cancel()
            elif answer == "hung":
                task.future.set_result({"error": f"did not finish within {self.item_timeout:g} s "
                                                 "(its worker was stopped)", "hung": True})
            elif task.attempts < self.retries:
                task.attempts += 1
                self.retried += 1
                self._tasks.put(task)
            else:
                task.future.set_result({"error": f"its worker died {task.attempts + 1} times "
                                                 f"(last exit code {code})"})

    def shutdown(self) -> None:
        """Stop every worker now (items in flight are abandoned)."""
        self._closing.set()
        with self._lock:
            for worker in self._workers:
                if worker is not None:
                    worker.stop()
        for thread in self._threads:
            thread.join(timeout=5)

