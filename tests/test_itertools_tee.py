"""`itertools.tee(src, 0)` returns `()` before it asks `src` for an
iterator: boltons' `windowed_iter(3, 0)` was claimed to raise "'int'
object is not iterable"."""

from __future__ import annotations

from pathlib import Path

from oracle import generated, replay_mismatches

SOURCE = '''
import itertools


def copies(src, n: int) -> int:
    return len(itertools.tee(src, n))
'''


def test_no_copies_never_iterate_the_source(tmp_path: Path) -> None:
    path = tmp_path / "tees.py"
    path.write_text(SOURCE)
    cases = generated(path, "copies")
    assert cases and replay_mismatches(path, "copies", cases) == []
    assert any(c.kind == "return" and c.value == 0 for c in cases)
