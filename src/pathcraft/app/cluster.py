"""A Dask cluster as the pool of a package run (`--scheduler ADDRESS`, or
`--scheduler local` for a `LocalCluster` on this machine).

The work items are those of the local pool (pathcraft/app/workitem.py), sent as
JSON text to `workitem.run_json` and answered as JSON text: test text and
counts come back, never engine state. Workers need pathcraft and the
source at the path the items name (the same checkout on every machine, or
a shared file system). A worker lost mid-item loses only that item, which
the scheduler runs again elsewhere (up to its `allowed-failures`); an item
that raises is retried `retries` times.
"""

from __future__ import annotations

import json
import logging
from concurrent.futures import Future
from typing import Any

from pathcraft.errors import PathcraftError
from pathcraft.app.workitem import run_json

Item = dict[str, Any]
Result = dict[str, Any]


class DaskPool:
    """`submit(item, priority)` -> a Future of the item's result dict, on a
    Dask cluster."""

    def __init__(self, address: str, jobs: int, retries: int = 2) -> None:
        try:
            import distributed
        except ImportError:  # pragma: no cover (a dependency)
            raise PathcraftError("--scheduler needs Dask's distributed package (pip install distributed)") from None
        self.retries = retries
        self.cluster: Any = None
        try:
            if address == "local":
                self.cluster = distributed.LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None,
                    silence_logs=logging.ERROR)
                self.client: Any = distributed.Client(self.cluster)  # type: ignore[no-untyped-call]
            else:
                self.client = distributed.Client(address, timeout="15s")  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError) as exc:
            if self.cluster is not None:
                self.cluster.close()
            raise PathcraftError(f"--scheduler {address}: cannot reach the Dask scheduler ({exc})") from None

    def worker_pids(self) -> dict[str, int]:
        """Each worker's address and process id (for the fault tests)."""
        import os

        pids: dict[str, int] = self.client.run(os.getpid)
        return pids

    def submit(self, item: Item, priority: tuple[Any, ...] = ()) -> Future[Result]:
        answer: Future[Result] = Future()
        rank = -int(priority[0]) if priority and isinstance(priority[0], int) else 0  # Dask runs high first
        task = self.client.submit(run_json, json.dumps(item), pure=False, retries=self.retries, priority=rank)

        def done(task: Any) -> None:
            try:
                answer.set_result(json.loads(task.result()))
            except Exception as exc:  # a worker lost too often, a cancelled run: the item has no result
                answer.set_result({"error": f"cluster: {type(exc).__name__}: {exc}"})

        task.add_done_callback(done)
        return answer

    def shutdown(self) -> None:
        try:
            self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()
