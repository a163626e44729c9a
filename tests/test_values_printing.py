"""`print()`: arguments evaluated, output not asserted; printing an object
whose class says how it prints runs module code the model does not follow,
so that path is dropped (and reported), never guessed."""

from __future__ import annotations

from pathlib import Path

from oracle import generated, replay_mismatches

from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

PRINTING = Path(__file__).resolve().parent / "fixtures" / "values" / "printing.py"


def test_printing_functions_replay() -> None:
    for name in ("report", "show"):
        cases = generated(PRINTING, name)
        assert cases
        assert replay_mismatches(PRINTING, name, cases) == []


def test_printing_an_object_with_a_repr_drops_its_path() -> None:
    program = translate(str(PRINTING), ["show"]).program
    result = generate(program, "show", GenerateOptions.of())
    assert {c.value for c in result.cases} == {1}  # the k <= 0 path prints a Loud
    assert any("Loud" in note for note in result.notes)


def test_print_to_a_file_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("import sys\n\ndef f(x: int) -> int:\n    print(x, file=sys.stderr)\n    return x\n")
    errors = translate(str(source), ["f"]).errors
    assert "print() to a file" in errors["f"].message
