"""A class derived from `dict` or `list` is analysed with the model base of
models/builtins: its own methods get tests built with the builtin's
`__new__`; what `dict` gives (items, protocols, `dict.m(self, ...)`,
`super()`) is followed (models/builtins/dict_base.py), every path through
what `list` gives is dropped; `isinstance` with the builtin is true; once
each of these classes was refused whole."""

from __future__ import annotations

from pathlib import Path

from oracle import generated, replay_mismatches

from pathcraft.app.cli import main
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "builtin_bases.py"


def _run(qualname: str) -> list[object]:
    return list(generate(translate(str(FIXTURE), [qualname]).program, qualname, GenerateOptions()).cases)


def test_the_classes_own_methods_get_tests_that_replay() -> None:
    for name in ("Registry.bump", "Registry.lookup", "Registry.stored", "Registry.kind", "Rows.first_or"):
        cases = generated(FIXTURE, name)
        assert cases and replay_mismatches(FIXTURE, name, cases) == [], name
    assert sorted(c.value for c in generated(FIXTURE, "Registry.kind")) == [False, True]


def test_a_dict_bases_items_are_followed_and_a_lists_dropped() -> None:
    """`dict`'s behaviour is modelled (models/builtins/dict_base.py): an
    input is empty of items, so `key in self` is false, `dict.__setitem__`
    stores, and an empty instance is false; `list`'s still drops the path."""
    assert sorted(c.value for c in generated(FIXTURE, "Registry.lookup")) == [-1, 0]
    assert sorted(c.value for c in generated(FIXTURE, "Registry.stored")) == [9, 10]
    assert [c.value for c in generated(FIXTURE, "Rows.first_or")] == [4]  # list's items: dropped
    assert [c.value for c in _run("Registry.truthy")] == [False]


def test_a_name_the_class_body_deletes_is_no_method() -> None:
    result = translate(str(FIXTURE))
    assert "Frozen._refuse" not in result.targets and "Frozen.size_or" in result.targets


def test_the_written_tests_build_instances_with_the_builtins_new(tmp_path: Path) -> None:
    out = tmp_path / "test_builtin_bases.py"
    assert main(["gen", str(FIXTURE), "-o", str(out)]) == 0
    text = out.read_text()
    assert "registry = dict.__new__(builtin_bases.Registry)" in text
    assert "rows = list.__new__(builtin_bases.Rows)" in text and "object.__new__" not in text
