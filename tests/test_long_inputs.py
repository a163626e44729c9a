"""A path whose model needs a list longer than a test can state (a guard
on its length, or on a float computed from it) is dropped and counted: the
run once spent minutes building such a list item by item
(TheAlgorithms' frequent_pattern_graph_miner, past its budget)."""

from __future__ import annotations

from pathlib import Path

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

SOURCE = "def big(xs: list[int]) -> int:\n    if len(xs) > 200000:\n        return 1\n    return len(xs)\n"


def test_a_path_needing_a_list_too_long_to_state_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "long.py"
    path.write_text(SOURCE)
    run = generate(translate(str(path), ["big"]).program, "big", GenerateOptions())
    assert all(case.value != 1 for case in run.cases)  # the path past the guard needs 200,001 items
    assert all(len(dict(case.heap_in).get("xs", {}).get("list", [])) <= 100_000 for case in run.cases)
    assert any("a list of more than 100000 items in a test" in note for note in run.notes)
