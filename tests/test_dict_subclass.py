"""Classes derived from `dict`: the items `dict` gives them, modelled as
plain Python over a hidden dict (models/builtins/dict_base.py), inputs made
empty of items (`dict.__new__(C)`), the items read by a test as
`dict(dict.items(obj))`. The engine against the real code: replay of
every test."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import generated, replay_mismatches

from test_library_claims import generate_and_run

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "dict_subclass.py"
NAMES = ["lasts", "Last.put", "build", "look", "missing", "logged", "popped", "emptied", "made", "Multi.add",
         "Multi.total", "Multi.first", "Multi.take"]


@pytest.mark.parametrize("name", NAMES)
def test_replay(name: str) -> None:
    cases = generated(FIXTURE, name, "loop-2")
    assert cases
    assert replay_mismatches(FIXTURE, name, cases) == []


def test_dicts_own_methods_never_call_the_subclass_setitem() -> None:
    """`update` and `setdefault` write the table, as CPython's do: one
    `__setitem__` of the three writes is the subclass's."""
    values = {c.value for c in generated(FIXTURE, "logged", "loop-2") if c.kind == "return"}
    assert values and all(v // 100 == 1 for v in values)


def test_missing_runs_for_a_subscript_only() -> None:
    values = {dict(c.inputs)["k"]: c.value for c in generated(FIXTURE, "missing", "loop-2")}
    assert values and all(v == (10 if k == 1 else 7) for k, v in values.items())


def test_the_written_tests_build_inputs_empty_and_read_items_as_dict(tmp_path: Path) -> None:
    """The file pytest runs: inputs by `dict.__new__(C)`, items checked
    as `dict(dict.items(obj))` (past `Last`'s own `__iter__` and
    `__getitem__`), never through the model's own attribute."""
    copy = tmp_path / "dict_subclass.py"
    copy.write_text(FIXTURE.read_text())
    text = generate_and_run(copy, tmp_path, tmp_path / "test_dict_subclass_out.py")
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert "dict.__new__(dict_subclass.Multi)" in code and "dict(dict.items(result)) == {" in code
    assert "dict(dict.items(last))" in code
    assert "_pathcraft_items" not in code
