"""A name a class body binds by unpacking is a class attribute (its value
read when the items are constants), and one bound some other way (a
loop) is a name the class has, whose read drops the path: the model once
claimed an AttributeError for `self._html_table_tag` that the real class
has (boltons' Table.to_html, a failing test in the library sweep)."""

from __future__ import annotations

from pathlib import Path

from oracle import generated, replay_mismatches

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "unpacked_class_attributes.py"


def test_an_unpacked_class_attribute_is_read_as_its_value() -> None:
    cases = generated(FIXTURE, "Table.wrapped")
    returned = [c.value for c in cases if c.kind == "return"]
    assert any(isinstance(v, str) and v.startswith("<table>") and v.endswith("</table>") for v in returned)
    assert replay_mismatches(FIXTURE, "Table.wrapped", cases) == []


def test_a_name_bound_by_a_loop_in_the_class_body_claims_no_attribute_error() -> None:
    cases = generated(FIXTURE, "Table.widest")
    assert all(c.exc_type != "AttributeError" for c in cases)
    assert replay_mismatches(FIXTURE, "Table.widest", cases) == []
