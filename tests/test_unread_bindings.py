"""A module-level name bound in a way the model does not read (a `def`
under an undecided `if`, an object built at import, a name a function
declares `global`) drops the paths that read it, not the function; a name
bound nowhere still refuses it (its NameError is not modelled either)."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import replay_mismatches

from pathcraft.errors import UnsupportedError
from pathcraft.frontend import translate
from pathcraft.frontend.names import module_bindings
from pathcraft.generate import GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "unread_bindings.py"


def test_paths_not_reading_the_names_keep_their_tests() -> None:
    run = generate(translate(str(FIXTURE), ["branchy"]).program, "branchy", GenerateOptions.of())
    assert run.cases and all(c.kind == "return" and c.value % 2 == 0 for c in run.cases)
    assert all(0 <= c.value // 2 <= 10 and c.value // 2 not in (5, 6) for c in run.cases)
    assert replay_mismatches(FIXTURE, "branchy", run.cases) == []


def test_each_unread_name_is_named_where_its_paths_are_dropped() -> None:
    run = generate(translate(str(FIXTURE), ["branchy"]).program, "branchy", GenerateOptions.of())
    notes = " ".join(run.notes)
    for name in ("helper", "LIMIT", "TABLE", "MODE"):
        assert f"unknown name '{name}'" in notes


def test_a_name_bound_nowhere_refuses_the_function() -> None:
    translated = translate(str(FIXTURE), ["unbound", "unbound_first"])
    with pytest.raises(UnsupportedError, match="unknown name 'never_bound_anywhere'"):
        raise translated.errors["unbound_first"]
    run = generate(translate(str(FIXTURE), ["unbound"]).program, "unbound", GenerateOptions.of())
    assert [c.value <= 0 for c in run.cases] == [True]  # the statement under `if` drops its paths only
    assert any("unknown name 'never_bound_anywhere'" in note for note in run.notes)


def test_the_bindings_read_from_the_module() -> None:
    import ast
    tree = ast.parse(FIXTURE.read_text(encoding="utf-8"))
    assert {"os", "helper", "Box", "LIMIT", "TABLE", "MODE", "configure", "branchy"} <= module_bindings(tree)
    assert "never_bound_anywhere" not in module_bindings(tree) and "x" not in module_bindings(tree)
