"""Unannotated parameters typed str or dict from their use
(`frontend/module.py`, `builtin_receiver` and `infer_from_use`): the
guess announced, and the engine against the real code, by replay of every
generated test and by enumeration of small inputs of the guessed types."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from heap_enum import Bounds
from oracle import RealCode, generated, missed_heap_paths, replay_mismatches

from pathcraft.frontend import translate

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "untyped_receivers.py"
GUESSED: dict[str, list[tuple[str, Any]]] = {
    "trimmed": [("text", str), ("tail", str)],
    "count_rising": [("mapping", dict[int, int])],
    "suffix_kind": [("name", str)],
    "walked_len": [("items", list[int]), ("steps", int)],
    "clamped": [("x", int), ("lower", int), ("upper", int)],
    "quoted_words": [("words", list[str]), ("sep", str)],
}
BOX = Bounds(ints=tuple(range(-1, 2)), max_str=2, alphabet="ax -", max_dict=2)


@pytest.mark.parametrize("name", sorted(GUESSED))
def test_replay(name: str) -> None:
    assert replay_mismatches(FIXTURE, name, generated(FIXTURE, name)) == []


@pytest.mark.parametrize("name", sorted(GUESSED))
def test_enumeration(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    init = RealCode.__init__

    def typed(self: RealCode, path: Path, qualname: str) -> None:  # the types pathcraft guessed
        init(self, path, qualname)
        self.types = GUESSED[name]

    monkeypatch.setattr(RealCode, "__init__", typed)
    missed, runs = missed_heap_paths(FIXTURE, name, generated(FIXTURE, name), k=2, bounds=BOX)
    assert runs > 0
    assert missed == []


def test_the_guess_is_announced() -> None:
    program = translate(str(FIXTURE)).program
    notes = {q: program.functions[q].inferred for q in GUESSED}
    assert notes["trimmed"] == ("text: str (its methods are a str's)", "tail: str")
    assert notes["count_rising"] == ("mapping: dict[int, int] (its methods are a dict's)",)
    assert notes["quoted_words"] == ("words: list[str]", "sep: str")


LEFT_AT_NONE = '''
from typing import IO

def pick(xs: list[int], key=None) -> int:
    if key is None:
        return len(xs)
    return key.weird(xs)


def use(n: int, helper=None) -> int:
    if helper is not None:
        helper.run()
    if n > 1:
        return n
    return n + 1


def without(n: int, helper) -> int:
    return n + helper.run()


def annotated(n: int, helper: IO[str] = None) -> int:  # type: ignore[assignment]
    if helper is None:
        return -n
    return len(helper.read())
'''


@pytest.mark.parametrize("name", ["pick", "use", "annotated"])
def test_a_parameter_whose_type_nothing_tells_is_left_at_its_none_default(tmp_path: Path, name: str) -> None:
    """Its use reads no type (an object of no class of the module), or its
    annotation names a type not modelled: with None as its default, the tests leave it there (announced), and the
    paths that None takes get tests; without a default it still refuses."""
    path = tmp_path / "defaults.py"
    path.write_text(LEFT_AT_NONE)
    result = translate(str(path), ["pick", "use", "without", "annotated"])
    assert "without" in result.errors and name not in result.errors
    assert any("None only (its default" in note for note in result.program.functions[name].inferred)
    cases = generated(path, name)
    assert cases and all(dict(case.inputs).get("key", dict(case.inputs).get("helper")) is None for case in cases)
    assert replay_mismatches(path, name, cases) == []
