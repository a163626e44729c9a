"""The worker that runs analysed code (`--execute`): each thing the code
may try costs one call, is answered in one line, and the worker goes on
(a new one when it died). The fixture module is only ever imported by a
worker: the last test checks that this process never imported it."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path
from typing import Any

import pytest

from pathcraft.execute.sandbox import Sandbox

ROOT = Path(__file__).resolve().parent / "fixtures" / "execute"


def call(sandbox: Sandbox, function: str, seconds: float = 20.0, **args: Any) -> dict[str, Any]:
    """Run `faults.function(**args)` once in the worker: its outcome, or the fault."""
    from pathcraft.execute import wire

    answer = sandbox.request({"op": "replay", "module": "faults", "qualname": function,
                              "calls": [{"args": {k: wire.encode(v) for k, v in args.items()}}]}, seconds)
    return answer if "fault" in answer or "refused" in answer else dict(answer["outcomes"][0])


@pytest.fixture(scope="module")
def sandbox() -> Any:
    with Sandbox(ROOT, memory_mb=1024) as box:
        yield box


def test_a_write_outside_its_folder_is_refused(sandbox: Sandbox, tmp_path: Path) -> None:
    target = tmp_path / "outside.txt"
    outcome = call(sandbox, "write_outside", path=str(target))
    assert outcome["outcome"] == "skip" and outcome["why"].startswith("open '/")
    assert not target.exists()


def test_no_call_writes_a_file_even_in_its_folder(sandbox: Sandbox) -> None:
    # the test would write it wherever pytest runs, and fail the second time
    assert call(sandbox, "write_inside", name="here.txt") == {"outcome": "skip", "why": "open 'here.txt'"}


def test_a_connection_is_refused(sandbox: Sandbox) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        outcome = call(sandbox, "connect", port=port)
    assert outcome["outcome"] == "skip" and outcome["why"].startswith("socket.connect")


@pytest.mark.parametrize("name", ["fork", "run_command"])
def test_starting_a_process_is_refused(sandbox: Sandbox, name: str) -> None:
    outcome = call(sandbox, name)
    assert outcome["outcome"] == "skip" and outcome["why"] in ("os.fork", "os.system")


@pytest.mark.parametrize("name, args, event", [("set_variable", {"value": "x"}, "os.putenv"),
                                               ("start_thread", {}, "_thread.start_")])
def test_a_call_may_not_change_the_process_pytest_would_share(sandbox: Sandbox, name: str, args: dict[str, Any],
                                                              event: str) -> None:
    outcome = call(sandbox, name, **args)  # a thread: `start_joinable_thread` from Python 3.13
    assert outcome["outcome"] == "skip" and outcome["why"].startswith(event)


def test_a_call_reads_only_the_interpreters_and_the_import_paths_files(sandbox: Sandbox, tmp_path: Path) -> None:
    mine = tmp_path / "data.txt"
    mine.write_text("12345", encoding="utf-8")
    assert call(sandbox, "read", path=str(mine))["why"].startswith("open '/")
    assert call(sandbox, "listing", path=str(tmp_path))["why"].startswith("os.listdir '/")
    assert call(sandbox, "read", path="relative.txt")["why"] == "open 'relative.txt'"
    assert call(sandbox, "read", path=str(ROOT / "faults.py"))["outcome"] == "return"  # on the import path
    assert call(sandbox, "read", path=os.__file__)["outcome"] == "return"  # the interpreter's


def test_reading_the_command_line_is_no_observation(sandbox: Sandbox) -> None:
    assert call(sandbox, "arguments") == {"outcome": "skip", "why": "reading sys.argv"}


def test_running_out_of_memory_costs_the_call(sandbox: Sandbox) -> None:
    assert call(sandbox, "allocate", gigabytes=10) == {"outcome": "skip", "why": "MemoryError"}
    assert call(sandbox, "arguments")["outcome"] == "skip" and call(sandbox, "pid")["outcome"] == "return"


@pytest.mark.parametrize("name, args, fault", [
    ("crash", {"x": 1}, "the worker was killed by signal 11"),
    ("exit_now", {"code": 3}, "the worker exited with code 3"),
    ("spin", {"n": 13}, "no answer within 2 s"),
])
def test_a_dying_or_hanging_worker_costs_the_call(name: str, args: dict[str, Any], fault: str) -> None:
    with Sandbox(ROOT) as box:
        before = call(box, "pid")
        assert call(box, name, seconds=2.0, **args) == {"fault": fault}
        after = call(box, "pid")
        assert after["outcome"] == "return" and after != before  # a new worker
        assert box.started == 2


def test_a_call_that_sleeps_past_its_time_is_stopped_in_the_worker(sandbox: Sandbox) -> None:
    assert call(sandbox, "sleep_forever", x=1) == {"outcome": "skip", "why": "took more than 1 s"}


def test_a_recursion_near_the_limit_is_no_observation(sandbox: Sandbox) -> None:
    # the worker keeps 300 frames back: under pytest, its own frames come on top of the call's
    assert call(sandbox, "depth", n=600) == {"outcome": "return", "value": ["int", "600"]}
    assert call(sandbox, "depth", n=800) == {"outcome": "skip", "why": "RecursionError"}


def test_only_the_call_is_observed_not_pathcrafts_look_at_its_result(sandbox: Sandbox) -> None:
    # a test never asks the result's `__class__`; its answer (an error here) is no outcome of the code
    assert call(sandbox, "odd") == {"outcome": "return", "type": ["faults", "Odd"]}


def test_sys_exit_is_the_codes_own_outcome(sandbox: Sandbox) -> None:
    assert call(sandbox, "exits", code=4) == {"outcome": "raise", "type": ["builtins", "SystemExit"]}


def test_the_worker_is_another_process(sandbox: Sandbox) -> None:
    outcome = call(sandbox, "pid")
    assert outcome["outcome"] == "return" and int(outcome["value"][1]) != os.getpid()
    assert "faults" not in sys.modules


def test_a_replaying_worker_runs_calls_and_searches_nothing() -> None:
    # it starts without Hypothesis: the search is another worker's
    with Sandbox(ROOT, searching=False) as box:
        assert call(box, "depth", n=3) == {"outcome": "return", "value": ["int", "3"]}
        answer = box.request({"op": "observe", "module": "faults", "qualname": "depth", "seconds": 1.0}, 20.0)
    assert answer == {"refused": "this worker only replays"}


def test_a_call_that_changes_the_packages_state_is_no_observation(sandbox: Sandbox) -> None:
    # its test would change the outcome of the tests pytest runs after it, in the same process
    assert call(sandbox, "remember", key="k") == {"outcome": "skip", "why": "changed the state of faults.SEEN"}
    assert call(sandbox, "remember_nothing", key="k") == {"outcome": "return", "value": ["int", "0"]}


def test_a_call_that_draws_from_the_shared_random_generator_is_no_observation(sandbox: Sandbox) -> None:
    # pytest's process does not fix the generator's state: a fresh worker may agree by chance
    assert call(sandbox, "pick", items=[1, 2, 3, 4]) == {
        "outcome": "skip", "why": "changed the state of random.the shared generator"}


def test_search_workers_share_hypothesis_s_unicode_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # each worker's folder is new: without a shared cache every search recomputes the tables (about 3 s)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    with Sandbox(ROOT, memory_mb=1024) as box:
        assert "outcomes" in box.request({"op": "replay", "module": "faults", "qualname": "spin", "calls": []}, 60)
    written = sorted(p.name for p in (tmp_path / "pathcraft" / "hypothesis").rglob("*.json.gz"))
    assert written == ["charmap.json.gz", "codec-v2-utf-8.json.gz"]
