"""`@abc.abstractproperty` (deprecated, still in libraries): a property,
abstract under an `ABC` base (no instance of the class exists), plain
elsewhere. The engine against the real code (replay)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from oracle import generated, replay_mismatches

from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "abstract_property.py"


@pytest.mark.parametrize("name", ["Square.sides", "Plain.width", "Plain.wide"])
def test_read_as_a_property_it_replays(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # abstractproperty's own, on use
        cases = generated(FIXTURE, name, "loop-1")
        assert cases
        assert replay_mismatches(FIXTURE, name, cases) == []


def test_under_abc_it_leaves_the_class_abstract() -> None:
    classes = translate(str(FIXTURE)).program.classes
    assert classes["Shape"].abstract == ("sides",) and classes["Square"].abstract == ()
    assert classes["Plain"].properties == ("width",) and classes["Shape"].properties == ("sides",)
