"""The worker process: imports the analysed module and runs its code.

Started by `sandbox.py`, never imported by pathcraft's own process. It
reads one JSON request per line on its standard input and answers one
JSON line on a private copy of its standard output; the code it runs
writes to /dev/null (its prints cannot corrupt the channel) and reads an
empty standard input. Requests:

* `{"op": "observe", "module": M, "qualname": Q, "seconds": S, "examples": N}`:
  the search of `search.py`: a `{"trying": arguments}` line before each
  call and a `{"partial": observation}` line as each is kept, then the
  answer (all of them) or `{"refused": why}`; `"avoid": [arguments, ...]`
  skips inputs that killed an earlier worker.
* `{"op": "replay", "module": M, "qualname": Q, "calls": [{"args": ...,
  "init": ...}, ...]}`: runs each call again (a method on an object built
  from `init`) and answers what each did (for the determinism check).
* `{"op": "kills", "module": M, "qualname": Q, "tests_module": T, ...}`:
  which generated tests of `T` kill which mutant of `Q` (`mutant_runs.py`,
  for `--suite compact`).

A module is imported once and kept for the worker's later requests.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path
from collections.abc import Callable
from typing import Any, TextIO

from pathcraft.rootalias import register_root
from pathcraft.execute import guard, mutant_runs, recipes, search

RECURSION_HEADROOM = 300  # frames the worker keeps back from the analysed code


def main(searching: bool = True, unicode_cache: str | None = None) -> None:
    """Serve requests (`searching=False`: replays only, without Hypothesis)."""
    channel = _private_channel()
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    _silence()
    if searching:
        import hypothesis  # noqa: F401  (imported before the guard: its own start-up writes nothing outside)

        if unicode_cache is not None:
            _load_unicode_table(Path(unicode_cache))

    # headroom for pytest's own frames: a call that recursed to within it of CPython's default limit here
    # would raise RecursionError under pytest (it is no observation: search.py)
    sys.setrecursionlimit(sys.getrecursionlimit() - RECURSION_HEADROOM)
    guard.install(Path.cwd())
    def send(message: dict[str, Any]) -> None:
        channel.write(json.dumps(message) + "\n")
        channel.flush()

    for line in requests:
        try:
            request = json.loads(line)
            answer = _answer(request, send, searching)
        except Exception as exc:  # noqa: BLE001  (a request that fails is answered, the worker goes on)
            answer = {"refused": f"{type(exc).__name__}: {str(exc)[:200]}"}
        send(answer)


def _load_unicode_table(folder: Path) -> None:
    """Hypothesis's tables of Unicode categories and of what UTF-8 encodes
    (what `st.text()` draws from), read from `folder`, or computed and
    written there by the first worker: computing them takes about 3 s, and
    each worker's own folder is new. Done before the guard and before the analysed module is imported,
    so it is pathcraft's own write; a failure only costs the time."""
    from hypothesis.configuration import set_hypothesis_home_dir
    from hypothesis.internal import charmap

    try:
        set_hypothesis_home_dir(folder)
        charmap.charmap()
        charmap.intervals_from_codec("utf-8")  # kept in memory for the worker's searches
    except Exception:  # noqa: BLE001  (an unwritable cache or a changed Hypothesis: computed when first drawn)
        pass
    finally:
        set_hypothesis_home_dir(None)


def _private_channel() -> TextIO:
    return os.fdopen(os.dup(1), "w", encoding="utf-8")


def _silence() -> None:
    """The analysed code's prints and reads go to /dev/null."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    sys.stdin = open(os.devnull, encoding="utf-8")
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")


def _answer(request: dict[str, Any], send: Callable[[dict[str, Any]], None], searching: bool = True) -> dict[str, Any]:
    op = request.get("op")
    if op == "ping":
        return {"pong": os.getpid()}
    try:
        if request.get("root"):
            register_root(*request["root"])
        module = importlib.import_module(str(request["module"]))
    except BaseException as exc:  # noqa: BLE001  (an import that fails or exits: the module's own doing)
        return {"refused": f"importing {request['module']} failed: {type(exc).__name__}: {str(exc)[:160]}"}
    qualname = str(request["qualname"])
    try:
        if op == "observe" and not searching:
            return {"refused": "this worker only replays"}
        if op == "observe":
            return search.observe(module, qualname, float(request.get("seconds", 2.0)),
                                  int(request.get("examples", 200)), send, list(request.get("avoid", [])))
        if op == "replay":
            goal = search.target(module, qualname)
            positional = [str(p) for p in request.get("positional", [])]
            init_positional = [str(p) for p in request.get("init_positional", [])]
            return {"outcomes": [_replay(goal, positional, init_positional, call) for call in request["calls"]]}
        if op == "kills":
            return mutant_runs.kills(module, request)
    except search.Refused as exc:
        return {"refused": str(exc)}
    return {"refused": f"unknown request {op!r}"}


def _replay(goal: search.Target, positional: list[str], init_positional: list[str],
            call: dict[str, Any]) -> dict[str, Any]:
    """One call of a replay: its arguments built again (a value built by a
    call of the code runs as the code does), then the call."""
    try:
        with search.running():
            args, init = _values(call["args"]), _values(call.get("init", {}))
    except Exception as exc:  # noqa: BLE001  (an argument that no longer builds: the observation does not hold)
        return {"outcome": "skip", "why": f"building an argument raised {type(exc).__name__}"}
    except BaseException as exc:  # noqa: BLE001  (the timer, memory: the same)
        return {"outcome": "skip", "why": type(exc).__name__}
    return search.call(goal, positional, args, init, init_positional)


def _values(shown: dict[str, Any]) -> dict[str, Any]:
    return {str(k): recipes.build(v) for k, v in shown.items()}


if __name__ == "__main__":
    main()
