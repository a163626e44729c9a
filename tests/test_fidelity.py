"""Python fidelity on code nobody wrote for us: each case is a real-code
pattern that once produced a test claiming what Python does not do. The
oracle is the real code (replay): every generated test, run for real,
must return or raise what it claims and take the path it claims."""

from __future__ import annotations

from pathlib import Path

import pytest

from oracle import replay_mismatches
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

SOURCE = '''
def count_label(n: int) -> int:
    label = "%d items" % n
    if n > 3:
        return n
    return 0


def via_variable(n: int) -> int:
    fmt = "%d"
    text = fmt % n
    if n < 0:
        return -1
    return 1


def checked(n: int) -> int:
    if n < 0:
        raise ValueError("negative: %d" % n)
    return n // 2
'''


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fidelity") / "formats.py"
    path.write_text(SOURCE, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["count_label", "via_variable", "checked"])
def test_string_formatting_is_not_integer_modulo(module: Path, name: str) -> None:
    """`"%d" % n` formats; it never raises ZeroDivisionError for n == 0."""
    result = translate(str(module), [name])
    assert not result.errors, result.errors
    cases = generate(result.program, name, GenerateOptions()).cases
    assert cases
    assert all(c.exc_type != "ZeroDivisionError" for c in cases)
    assert replay_mismatches(module, name, cases) == []


def test_a_formatted_message_is_asserted_by_type(module: Path) -> None:
    cases = generate(translate(str(module), ["checked"]).program, "checked", GenerateOptions()).cases
    raising = [c for c in cases if c.kind == "raise"]
    assert [(c.exc_type, c.exc_message) for c in raising] == [("ValueError", None)]
