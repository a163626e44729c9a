"""The writer protocol: a format's text for one module's tests, in the
pieces its file is made of, and the stream that writes them as a run goes.

A file is `Writer.head()`, then each test's `Writer.test(case)` with the
layout's `between` between two of them, then the layout's `end`. Pieces
rather than a stream, so that a package run's workers can write the tests
(they have the translated program) while its coordinator writes the file
(it has the order and the count): the two give the same bytes
(app/batch.py). The formats, by name, are in `testcase/writers.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

from pathcraft.testcase.model import TestCase

Stats = Mapping[str, Any]  # each tested function's search statistics, by qualname


class Writer(Protocol):
    """The text a format gives one module's tests."""

    def head(self) -> str:
        """What comes before the first test."""
        ...

    def test(self, case: TestCase) -> str:
        """One test, as it is written (without `between`)."""
        ...

    def without_tests(self) -> str:
        """What ends a file that got no test (after the layout's `end`)."""
        ...


@dataclass(frozen=True)
class Layout:
    """What a format's file needs besides its writer: known without the
    program, so the coordinator of a package run can end a file."""

    between: str  # between two tests
    end: Callable[[int, Stats], str]  # after the tests: from their count and the statistics
    whole: bool = False  # one document, written at close (not test by test)


class TestStream:
    """Writes a run's tests to `out` as they come (a `whole` layout: all at
    close, or when interrupted, with what was found)."""

    __test__ = False  # not a pytest test class

    def __init__(self, out: TextIO, writer: Writer, layout: Layout) -> None:
        self.out = out
        self.writer = writer
        self.layout = layout
        self.count = 0
        self.texts_added: list[str] = []  # the tests made elsewhere (`add_text`), as given
        self._held: list[str] = []
        self._put(writer.head())

    def add(self, case: TestCase) -> None:
        text = self.writer.test(case)
        piece = self.layout.between + text if self.count else text
        self.count += 1  # next to the write, so that an interruption finds both done or neither
        self._put(piece)

    def add_text(self, text: str) -> None:
        """A test whose text was made elsewhere (an observed test, `--execute`)."""
        self.texts_added.append(text)
        piece = self.layout.between + text if self.count else text
        self.count += 1
        self._put(piece)

    def close(self, stats: Stats | None = None) -> None:
        """The end of the file; `stats` for a format that has a place for them."""
        end = self.layout.end(self.count, stats or {}) + ("" if self.count else self.writer.without_tests())
        if self.layout.whole:
            self._held.append(end)
            self.out.write("".join(self._held))
            self._held.clear()
        else:
            self.out.write(end)
        self.out.flush()

    def _put(self, text: str) -> None:
        if self.layout.whole:
            self._held.append(text)
        else:
            self.out.write(text)
            self.out.flush()
