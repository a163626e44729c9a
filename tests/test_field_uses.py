"""An attribute whose stores leave its type unknown is an int when the
methods use it only as one and at least once in a way only a number fits
(frontend/field_uses.py); a use no int has keeps it unknown."""

from __future__ import annotations

from pathlib import Path

from oracle import generated, replay_mismatches

from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "field_uses.py"


def test_attributes_used_as_ints_are_ints() -> None:
    fields = dict(translate(str(FIXTURE), ["Bits.top"]).program.classes["Bits"].fields)
    assert (str(fields["val"]), str(fields["len"])) == ("int", "int")


def test_an_attribute_used_otherwise_stays_unknown() -> None:
    assert "name" not in dict(translate(str(FIXTURE), ["Named.greet"]).program.classes["Named"].fields)


def test_the_methods_get_tests_that_replay() -> None:
    for name in ("Bits.top", "Bits.shifted"):
        cases = generated(FIXTURE, name)
        assert cases and replay_mismatches(FIXTURE, name, cases) == []
    assert {c.exc_type for c in generated(FIXTURE, "Bits.top")} >= {None, "IndexError"}
