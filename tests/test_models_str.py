"""The str model's `partition` (models/str/semantics.py), the registry's worked
example: tests replayed on the real code, every small input's path covered,
and the registry answering for the method."""

from __future__ import annotations

from pathlib import Path

import pytest
from heap_enum import Bounds
from oracle import generated, missed_heap_paths, replay_mismatches

from pathcraft.models.catalog import REGISTRY

SOURCE = '''
def split_key(line: str) -> str:
    head, sep, tail = line.partition("=")
    if sep:
        return tail + ":" + head
    return line


def around(text: str, mark: str) -> int:
    before, found, after = text.partition(mark)
    if not found:
        return -1
    return len(before) + len(after)


def bad_separator(text: str, n: int) -> str:
    return text.partition(n)[0]  # type: ignore[arg-type]
'''


@pytest.fixture()
def module(tmp_path: Path) -> Path:
    path = tmp_path / "parts.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["split_key", "around"])
def test_partition_replays_and_covers_small_inputs(module: Path, name: str) -> None:
    cases = generated(module, name)
    assert replay_mismatches(module, name, cases) == []
    missed, count = missed_heap_paths(module, name, cases, bounds=Bounds(max_str=2))
    assert count > 0
    assert missed == []


def test_partition_raises_as_python_does(module: Path) -> None:
    raised = {(c.exc_type, c.exc_message) for c in generated(module, "around") if c.kind == "raise"}
    assert raised == {("ValueError", "empty separator")}
    cases = generated(module, "bad_separator")
    assert [(c.kind, c.exc_type) for c in cases] == [("raise", "TypeError")]
    assert replay_mismatches(module, "bad_separator", cases) == []


def test_the_registry_answers_for_partition() -> None:
    model = REGISTRY.of_kind("str")
    assert model is not None and model.has_method is not None and model.has_method(None, "partition")
