"""Functions the module binds again at import, and cached functions the
tests could not call with an unhashable argument: pathlib's
`_make_selector` (`_make_selector = functools.lru_cache()(_make_selector)`
under an `if`) got tests calling it with a list, which the cache refuses
with TypeError; heapq's `nsmallest(n, xs)` (its `key=None`) was claimed to
call None as the key."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import generated, replay_mismatches

from pathcraft.errors import UnsupportedError
from pathcraft.frontend import translate

SOURCE = '''
import functools


def sel(parts: list[int]) -> int:
    if parts[0] > 0:
        return 1
    return 0


sel = functools.lru_cache()(sel)


def twice(n: int) -> int:
    return 2 * n


twice = functools.lru_cache(maxsize=None)(twice)


def other(n: int) -> int:
    return n


if n := 3:
    other = lambda n: n + 1  # noqa: E731


def smallest(xs: list[int], key=None) -> list[int]:
    return sorted(xs, key=key)[:1]
'''


def _write(tmp_path: Path) -> Path:
    path = tmp_path / "rebound.py"
    path.write_text(SOURCE)
    return path


def test_a_wrap_after_the_def_is_read_as_its_decorator(tmp_path: Path) -> None:
    path = _write(tmp_path)
    cases = generated(path, "twice")
    assert cases and replay_mismatches(path, "twice", cases) == []
    assert translate(str(path), ["twice"]).program.functions["twice"].cached


def test_a_cached_function_taking_a_list_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UnsupportedError, match="cached function with a list"):
        raise translate(str(_write(tmp_path)), ["sel"]).errors["sel"]


def test_a_function_bound_again_otherwise_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UnsupportedError, match="'other': bound again when the module is imported"):
        raise translate(str(_write(tmp_path)), ["other"]).errors["other"]


def test_a_key_parameter_that_is_none_is_no_key(tmp_path: Path) -> None:
    path = _write(tmp_path)
    cases = generated(path, "smallest")
    assert any(dict(c.inputs).get("key") is None and c.kind == "return" for c in cases)
    assert replay_mismatches(path, "smallest", cases) == []
