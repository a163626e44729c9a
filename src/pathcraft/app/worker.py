"""A local worker process (`python -m pathcraft.app.worker`): reads work items
as JSON lines on stdin, writes each result as one JSON line on stdout
(pathcraft/app/pool.py drives it). Ctrl-C is the coordinator's business: the
worker ignores it and is stopped by the pool."""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any


def serve(items: Any, results: Any) -> None:
    from pathcraft.depth import run_deep
    from pathcraft.app.workitem import handle

    results.write('{"ready": true}\n')  # started and imported: an item's time counts from here
    results.flush()
    for line in items:
        item = json.loads(line)
        try:
            result = run_deep(lambda: handle(item))
        except Exception as exc:  # a bug of pathcraft's: reported against the item, the worker goes on
            result = {"error": f"internal error: {type(exc).__name__}: {exc}"}
        results.write(json.dumps(result) + "\n")
        results.flush()


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # results go on a pipe of their own; whatever else writes to stdout lands on stderr
    results = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(sys.stdin, results)


if __name__ == "__main__":
    main()
