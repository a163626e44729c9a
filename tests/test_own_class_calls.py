"""`self.__class__(...)` / `type(self)(...)` build an instance of the
object's own class, chosen among the method's class and its subclasses
(frontend/own_class.py); the tests replay, and their results have the
class the real code gives."""

from __future__ import annotations

from pathlib import Path

from oracle import generated, replay_mismatches

from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "own_class_calls.py"


def test_own_class_constructions_are_followed_and_replay() -> None:
    result = translate(str(FIXTURE), ["Box.copy", "Box.bigger"])
    assert not result.errors
    for name in ("Box.copy", "Box.bigger"):
        cases = generated(FIXTURE, name)
        assert cases and replay_mismatches(FIXTURE, name, cases) == [], name
    assert len(generated(FIXTURE, "Box.bigger")) == 2


def test_a_method_the_class_body_binds_again_is_no_missing_attribute_of_a_new_object() -> None:
    # the model once claimed AttributeError for `_update` on an object the path made (sortedcontainers'
    # SortedKeyList.copy, a failing test): a class attribute is there however the object was made
    cases = generated(FIXTURE, "filled")
    assert all(c.exc_type != "AttributeError" for c in cases) and [c.value for c in cases] == [0]
    assert replay_mismatches(FIXTURE, "filled", cases) == []
