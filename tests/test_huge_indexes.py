"""An index beyond a C ssize_t: CPython raises IndexError with another
message ("cannot fit 'int' into an index-sized integer"), which the model
does not tell apart, so such a test asserts the type alone; `list.pop` and
`list.insert` raise OverflowError. The model once asserted "list index out
of range" for one (TheAlgorithms' frequent_pattern_graph_miner, a failing test)."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import generated, replay_mismatches

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "huge_indexes.py"
NAMES = ["get", "put", "popped", "inserted", "tup", "char", "forced", "forced_pop"]


@pytest.mark.parametrize("name", NAMES)
def test_replay(name: str) -> None:
    assert replay_mismatches(FIXTURE, name, generated(FIXTURE, name)) == []


def test_a_huge_index_asserts_the_type_alone() -> None:
    raised = [(c.exc_type, c.exc_message) for c in generated(FIXTURE, "forced") if c.kind == "raise"]
    assert raised == [("IndexError", None)]
    popped = {(c.exc_type, c.exc_message) for c in generated(FIXTURE, "forced_pop") if c.kind == "raise"}
    assert ("OverflowError", "Python int too large to convert to C ssize_t") in popped
