"""`dict.update` (models/dict/prelude.py) of a dict or an iterable of
pairs, as CPython takes them, and a loop over `d.items()` into one name
(a tuple per entry): the engine against the real code (replay, and
enumeration of small inputs)."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "dict_update.py"
NAMES = ["merged", "zipped", "from_pairs", "from_rows", "valmap", "itemfilter", "pairs_of"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(0, 1), max_list=3, max_dict=2,
                                                                     max_object_list=2))


def test_a_pair_of_another_length_is_a_value_error() -> None:
    assert "ValueError" in {c.exc_type for c in generated(FIXTURE, "from_rows")}
