"""What a package run shows while it goes: on a terminal, a live display
(rich) of the work items done out of those known, the tests found, and
what each local worker is running; elsewhere (CI logs), one line per
module; with `--quiet`, nothing until the summary."""

from __future__ import annotations

import threading
import time
from types import TracebackType
from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from pathcraft.app.batch import ModuleOutcome, Progress


class PackageDisplay(Progress):
    def __init__(self, console: Console, quiet: bool) -> None:
        self.console = console
        self.quiet = quiet
        self._lock = threading.Lock()
        self._running: dict[int, tuple[str, float]] = {}  # worker pid -> (item, since)
        self._tests = 0
        self._bar = Bar(TextColumn("[bold]items"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.fields[tests]} tests"), TimeElapsedColumn(), console=console)
        self._task = self._bar.add_task("items", total=0, tests=0)
        self._live: Live | None = None
        if console.is_terminal and not quiet:
            self._live = Live(get_renderable=self._render, console=console, refresh_per_second=4, transient=True)

    def __enter__(self) -> PackageDisplay:
        if self._live is not None:
            self._live.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._live is not None:
            self._live.stop()

    def _render(self) -> Any:
        with self._lock:
            running = sorted(self._running.items(), key=lambda entry: entry[1][1])
        table = Table.grid(padding=(0, 2))
        now = time.monotonic()
        for pid, (what, since) in running:
            table.add_row(Text(f"worker {pid}", style="dim"), Text(what), Text(f"{now - since:.0f} s"))
        return Group(self._bar, table)

    def item_started(self, module: str, qualname: str | None, worker: int) -> None:
        what = f"{module}::{qualname}" if qualname else f"{module} (translating)"
        with self._lock:
            self._running[worker] = (what, time.monotonic())

    def items_added(self, count: int) -> None:
        total = self._bar.tasks[0].total or 0
        self._bar.update(self._task, total=total + count)

    def item_done(self, module: str, qualname: str | None, tests: int) -> None:
        label = f"{module}::{qualname}" if qualname else f"{module} (translating)"
        with self._lock:
            self._tests += tests
            for pid, (what, _) in list(self._running.items()):
                if what == label:
                    del self._running[pid]
                    break
        self._bar.update(self._task, advance=1, tests=self._tests)

    def module_done(self, outcome: ModuleOutcome, index: int, total: int) -> None:
        if self.quiet:
            return
        what = f"{outcome.tests} tests" if outcome.status != "failed" else f"failed: {outcome.message}"
        line = f"pathcraft: [{index}/{total}] {outcome.module}: {what} ({outcome.seconds:.1f} s)"
        if self._live is not None:
            self._live.refresh()  # the display printed below the line is drawn now, not as last drawn
            self._live.console.print(line, markup=False, highlight=False)
        else:
            self.console.print(line, markup=False, highlight=False, soft_wrap=True)
