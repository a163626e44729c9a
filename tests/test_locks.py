"""`threading.Lock()` and `RLock()` the code makes (frontend/locks.py,
models/threading/classes.py): taken, released, taken again by their
thread; a test passes a fresh lock. The engine against the real code:
replay, and the written file under pytest."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import generated, replay_mismatches
from test_library_claims import generate_and_run

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "locks.py"


@pytest.mark.parametrize("name", ["make", "Box.bump", "Box.twice", "Box.loose", "Box.held", "Box.lock"])
def test_replay(name: str) -> None:
    cases = generated(FIXTURE, name, "loop-2")
    assert cases
    assert replay_mismatches(FIXTURE, name, cases) == []


def test_a_released_unheld_lock_raises_and_a_held_lock_taken_again_drops() -> None:
    raised = {(c.exc_type, c.exc_message) for c in generated(FIXTURE, "Box.loose") if c.kind == "raise"}
    assert raised == {("RuntimeError", "release unlocked lock")}
    run = generate(translate(str(FIXTURE), ["Box.twice"]).program, "Box.twice", GenerateOptions.of())
    assert [c.value for c in run.cases] == [0] and any("a Lock its thread holds" in n for n in run.notes)


def test_the_written_tests_pass_fresh_locks(tmp_path: Path) -> None:
    copy = tmp_path / "locks.py"
    copy.write_text(FIXTURE.read_text())
    text = generate_and_run(copy, tmp_path, tmp_path / "test_locks_out.py")
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert "threading.RLock()" in code and "threading.Lock()" in code and "Pathcraft" not in code
    assert "def test_Box_lock_1_returns_lock" in code


FALLBACK = '''
try:
    from threading import RLock
except Exception:
    class RLock:  # never made: threading is always there
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False


class Cache:
    def __init__(self) -> None:
        self._lock = RLock()
        self.hits = 0

    def hit(self, k: int) -> int:
        with self._lock:
            if k > 0:
                self.hits += 1
        return self.hits
'''


def test_an_import_with_a_fallback_class_is_the_lock(tmp_path: Path) -> None:
    """`try: from threading import RLock / except: class RLock` (boltons'
    cacheutils): the import never fails, so `RLock()` is the lock."""
    path = tmp_path / "fallback.py"
    path.write_text(FALLBACK)
    cases = generated(path, "Cache.hit")
    assert len(cases) >= 2 and replay_mismatches(path, "Cache.hit", cases) == []
