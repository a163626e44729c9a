"""A str method given an argument of another type raises TypeError before
it reads the text: optparse's `expand_prog_name` (`s.replace("%prog",
self.get_prog_name())`, with `prog` an untyped attribute taken for an int)
was claimed to return `s` unchanged when it holds no "%prog"."""

from __future__ import annotations

from pathlib import Path

from oracle import generated, replay_mismatches

SOURCE = '''
class Parser:
    def __init__(self, prog=None):
        self.prog = prog

    def get_prog_name(self):
        if self.prog is None:
            return "tool"
        return self.prog

    def expand_prog_name(self, s: str) -> str:
        return s.replace("%prog", self.get_prog_name())


def first(s: str, n: int) -> int:
    return s.find(n)  # type: ignore[arg-type]


def stripped(s: str, chars: str | None) -> str:
    return s.strip(chars)
'''


def test_a_non_str_argument_raises_type_error_whatever_the_text(tmp_path: Path) -> None:
    path = tmp_path / "prog.py"
    path.write_text(SOURCE)
    for name in ("Parser.expand_prog_name", "first", "stripped"):
        cases = generated(path, name)
        assert cases and replay_mismatches(path, name, cases) == []
    assert {c.exc_type for c in generated(path, "first")} == {"TypeError"}
    assert all(c.exc_message is None for c in generated(path, "first"))  # CPython's wording is not modelled
    assert "TypeError" not in {c.exc_type for c in generated(path, "stripped")}  # None is a strip argument
