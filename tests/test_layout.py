"""Generated tests within the line limit (layout.py): a linter
with a 100-column limit passes them, and the layout never changes what a
test means (each laid-out text is the same program as before)."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pathcraft.app.cli import main
from pathcraft.layout import LINE_LIMIT, within_limit


def same_program(a: str, b: str) -> bool:
    return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))


def test_short_tests_are_left_as_written() -> None:
    text = "\n\ndef test_f() -> None:\n    assert  m.f(x=1)==2\n"  # not Black's spacing: left alone
    assert within_limit(text) == text


def test_a_long_call_is_split_and_means_the_same() -> None:
    squares = "[" + ", ".join(str(i * i) for i in range(40)) + "]"
    text = (f"\n\ndef test_f() -> None:\n    # path: a comment stays\n"
            f"    assert mod.function(first_argument={squares}, second_argument=3) == {squares}\n")
    out = within_limit(text)
    assert out.startswith("\n\ndef test_f() -> None:\n    # path: a comment stays\n")  # blank lines kept
    assert all(len(line) <= LINE_LIMIT for line in out.splitlines())
    assert same_program(text, out)


def test_a_long_string_is_cut_into_pieces_of_the_same_value() -> None:
    words = " ".join(f"word{i}" for i in range(40))
    text = f"\n\ndef test_f() -> None:\n    assert mod.f(text={words!r}) == {words.upper()!r}\n"
    out = within_limit(text)
    assert all(len(line) <= LINE_LIMIT for line in out.splitlines())
    call = ast.parse(out).body[0].body[0].test  # type: ignore[attr-defined]
    assert ast.literal_eval(call.left.keywords[0].value) == words
    assert ast.literal_eval(call.comparators[0]) == words.upper()
    assert "'" in out and '"' not in out  # repr's quotes are kept


def test_a_huge_int_after_an_operator_says_noqa_and_alone_needs_none() -> None:
    """No formatter splits a 200-digit int: alone on its line ruff exempts
    it; after `==` (TheAlgorithms' `sylvester(number=13)`) the line says
    `# noqa: E501`, and the program is the same."""
    big = str(7 ** 240)
    text = (f"\n\ndef test_f() -> None:\n    assert mod.f(n=13) == {big}\n\n\n"
            f"def test_g() -> None:\n    assert mod.g(n=13) == [{big}, {big}]\n")
    out = within_limit(text)
    assert same_program(text, out)
    long_lines = [line for line in out.splitlines() if len(line) > LINE_LIMIT]
    assert [line.strip() for line in long_lines] == [f"== {big}  # noqa: E501", f"{big},", f"{big},"]


def test_text_that_is_no_python_is_returned_unchanged() -> None:
    text = "def broken(:\n    " + "x" * 120 + "\n"
    assert within_limit(text) == text


@pytest.mark.skipif(shutil.which("ruff") is None and not (Path(sys.executable).parent / "ruff").exists(),
                    reason="ruff is a development dependency")
def test_generated_files_pass_the_linter(tmp_path: Path) -> None:
    # long keyword calls, long strings and deep objects: each once made a line over 100 columns
    (tmp_path / "wide.py").write_text(
        "class Node:\n"
        "    def __init__(self, value: int) -> None:\n"
        "        self.value = value\n"
        "        self.next_node_in_the_chain: Node | None = None\n\n\n"
        "def deep_sum(node_of_the_list: Node) -> int:\n"
        "    total = 0\n"
        "    while node_of_the_list.next_node_in_the_chain is not None:\n"
        "        total += node_of_the_list.value\n"
        "        node_of_the_list = node_of_the_list.next_node_in_the_chain\n"
        "    return total\n\n\n"
        "def conversion(value_to_convert: int, unit_we_come_from: str, unit_we_go_to: str) -> str:\n"
        "    if unit_we_come_from == 'kilograms per cubic metre' and unit_we_go_to == 'grams per litre':\n"
        "        return 'the same number in both units, for any value given'\n"
        "    raise ValueError('unknown units: ' + unit_we_come_from + ' and also ' + unit_we_go_to)\n",
        encoding="utf-8")
    out = tmp_path / "test_wide.py"
    assert main(["gen", str(tmp_path / "wide.py"), "-o", str(out)]) == 0
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    lint = subprocess.run([ruff, "check", "--no-cache", "--isolated", "--select", "E,F,W,I", "--line-length",
                           str(LINE_LIMIT), str(out)], capture_output=True, text=True, cwd=tmp_path)
    assert lint.returncode == 0, lint.stdout
    assert "    assert (\n" in out.read_text(encoding="utf-8")  # a call too long for one line was laid out
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out)],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stdout


@pytest.mark.skipif(shutil.which("ruff") is None and not (Path(sys.executable).parent / "ruff").exists(),
                    reason="ruff is a development dependency")
def test_a_standard_library_module_is_imported_in_the_standard_library_s_section(tmp_path: Path) -> None:
    import colorsys

    out = tmp_path / "test_colorsys.py"
    assert main(["gen", f"{colorsys.__file__}::rgb_to_yiq", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.index("import colorsys") < text.index("import pytest")  # isort's order: stdlib first
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    lint = subprocess.run([ruff, "check", "--no-cache", "--isolated", "--select", "E,F,W,I", "--line-length",
                           str(LINE_LIMIT), str(out)], capture_output=True, text=True, cwd=tmp_path)
    assert lint.returncode == 0, lint.stdout


@pytest.mark.skipif(shutil.which("ruff") is None and not (Path(sys.executable).parent / "ruff").exists(),
                    reason="ruff is a development dependency")
@pytest.mark.parametrize("suite", ["all", "compact"])
def test_a_file_without_tests_passes_the_linter(tmp_path: Path, suite: str) -> None:
    """One blank line between the imports and what follows them when no
    test does (isort's rule; two blank lines made I001 in 3% of the
    standard library's and TheAlgorithms' files)."""
    (tmp_path / "bare.py").write_text("def spin() -> None:\n    while True:\n        pass\n", encoding="utf-8")
    out = tmp_path / "test_bare.py"
    main(["gen", str(tmp_path / "bare.py"), "-o", str(out), "--timeout", "1", "--suite", suite])
    text = out.read_text(encoding="utf-8")
    assert "No test case was found" in text and "\ndef test_" not in text
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    lint = subprocess.run([ruff, "check", "--no-cache", "--isolated", "--select", "E,F,W,I", "--line-length",
                           str(LINE_LIMIT), str(out)], capture_output=True, text=True, cwd=tmp_path)
    assert lint.returncode == 0, lint.stdout
