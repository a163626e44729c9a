"""Generated code within the line limit, as a linter reads it.

A generated test is kept in a project, where `ruff check` (or flake8)
holds it to a line length: 100 columns here (`LINE_LIMIT`). Most tests are
short lines already and are left as written. A long list of numbers at
the end of a line is filled over several lines (`fold`). A test with a
longer line still is laid out by Black (the formatter most Python projects use, called as a
library; quotes left as `repr` wrote them); where a string is still too
long for its line, it is split into an implicit concatenation of shorter
ones, after a space where it has one, and laid out again (Black breaks
lines, never strings). What still overruns is a single token no formatter
can break, a 300-digit int: alone on its line, linters exempt it; after
an operator (`== 4506...`), the line says `# noqa: E501` (`_exempt_numbers`).
"""

from __future__ import annotations

import ast
import io
import textwrap
import tokenize
from functools import cache
from typing import Any

LINE_LIMIT = 100  # no generated line is longer (where a formatter can split it)
_PIECE = 48  # characters of a long string's value per piece


def within_limit(text: str) -> str:
    """`text` (one or more complete statements or definitions), laid out so
    that no line is longer than `LINE_LIMIT` where one can be split."""
    if all(len(line) <= LINE_LIMIT for line in text.splitlines()):
        return text
    filled = "".join(part + "\n" for line in text.splitlines() for part in fold(line))
    if all(len(line) <= LINE_LIMIT for line in filled.splitlines()):
        return filled
    module, mode = _black()
    code = text.lstrip("\n")  # Black drops a leading blank line: the blank lines between tests are kept here
    try:
        laid = str(module.format_str(code, mode=mode))
        if any(len(line) > LINE_LIMIT for line in laid.splitlines()):  # a string too long for its line
            laid = str(module.format_str(_split_strings(laid), mode=mode))
        return text[:len(text) - len(code)] + _exempt_numbers(laid)
    except Exception:  # noqa: BLE001  (a formatter's failure costs the layout, never the test)
        return text


def _split_strings(text: str) -> str:
    """`text` with each string literal of a line over the limit written as
    parenthesized pieces: `('abc...' 'xyz...')`, the same value."""
    long_rows = {n for n, line in enumerate(text.splitlines(), 1) if len(line) > LINE_LIMIT}
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    lines = text.splitlines(keepends=True)
    edits: list[tuple[int, int, int, str]] = []  # row, start column, end column, new text (one-line tokens)
    for token in tokens:
        (row, start), (end_row, end) = token.start, token.end
        if token.type != tokenize.STRING or row not in long_rows or row != end_row or end - start <= _PIECE + 8:
            continue
        pieces = _pieces(token.string)
        if pieces is not None:
            edits.append((row, start, end, "(" + " ".join(pieces) + ")"))
    for row, start, end, new in reversed(edits):  # right to left: earlier columns stay valid
        line = lines[row - 1]
        lines[row - 1] = line[:start] + new + line[end:]
    return "".join(lines)


def _exempt_numbers(text: str) -> str:
    """`text` with `  # noqa: E501` after each line still over the limit
    because of a number literal longer than half of it that shares the
    line with other code (`== 4506...`): ruff exempts a line that is one
    word only, and nothing can split the number."""
    long_rows = {n for n, line in enumerate(text.splitlines(), 1) if len(line) > LINE_LIMIT}
    if not long_rows:
        return text
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    rows = {t.start[0] for t in tokens if t.type == tokenize.NUMBER and t.start[0] in long_rows
            and len(t.string) > LINE_LIMIT // 2}
    rows -= {t.start[0] for t in tokens if t.type == tokenize.COMMENT}
    lines = text.splitlines(keepends=True)
    for row in rows:
        line = lines[row - 1]
        if line.strip().rstrip(",") != line.strip().split()[-1].rstrip(","):  # not the number alone
            lines[row - 1] = line.rstrip("\n") + "  # noqa: E501\n"
    return "".join(lines)


def _pieces(literal: str) -> list[str] | None:
    """The literal's value as `repr`s of consecutive slices, or None for
    one that is no plain str or bytes literal (an f-string, say)."""
    if literal[:1] not in "'\"bB" or literal[:2].lower() in ("br", "rb"):
        return None
    try:
        value: Any = ast.literal_eval(literal)
    except (ValueError, SyntaxError):
        return None
    if not isinstance(value, (str, bytes)) or len(value) <= _PIECE:
        return None
    pieces, start = [], 0
    while start < len(value):
        end = start + _PIECE
        if end < len(value):  # after a space near the end of the piece, where there is one
            space = value.rfind(b" ", end - 16, end) if isinstance(value, bytes) else value.rfind(" ", end - 16, end)
            end = space + 1 if space > start else end
        pieces.append(repr(value[start:end]))
        start = end
    return pieces


def fold(line: str) -> list[str]:
    """`line`, or, when it is longer than `LINE_LIMIT` and ends with a
    bracketed expression without strings (`assert result == [0, 1, 4,
    ...]`), what is inside the brackets filled over several lines (Black
    would give each item a line of its own)."""
    if len(line) <= LINE_LIMIT or "'" in line or '"' in line or line.lstrip().startswith("#"):
        return [line]
    closing = line[-1]
    opening = {"]": "[", ")": "(", "}": "{"}.get(closing)
    if opening is None:
        return [line]
    depth, start = 0, -1
    for i in range(len(line) - 1, -1, -1):  # the bracket that the last one closes
        if line[i] == closing:
            depth += 1
        elif line[i] == opening:
            depth -= 1
            if depth == 0:
                start = i
                break
    if start < 0:
        return [line]
    indent = len(line) - len(line.lstrip())
    inner = textwrap.wrap(line[start + 1:-1], LINE_LIMIT - indent - 4, break_long_words=False,
                          break_on_hyphens=False)
    return [line[:start + 1], *(" " * (indent + 4) + part for part in inner), " " * indent + closing]


@cache
def _black() -> tuple[Any, Any]:
    """Black and its mode, imported when a test first needs them (it takes
    a tenth of a second)."""
    import black

    return black, black.Mode(line_length=LINE_LIMIT, string_normalization=False)
