"""The JSON emitter: the whole run as one document, written at the end
(or when interrupted, with what was found).

The document is `json.dump(document, indent=2)` of the target, the Python
version, the criterion, the tests and the statistics; its pieces (the head,
each test, the end) are written here so that a package run can put a
module's document together from tests its workers wrote (testcase/stream.py).
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from pathcraft.testcase.model import TestCase
from pathcraft.testcase.stream import Layout, Stats, TestStream


def _indented(value: Any, depth: int) -> str:
    """`value` as `json.dumps(..., indent=2)` writes it `depth` levels down."""
    return json.dumps(value, indent=2).replace("\n", "\n" + "  " * depth)


class JsonText:
    """The head of the document and each test (a `Writer`)."""

    def __init__(self, target: str, criterion: str) -> None:
        self.target = target
        self.criterion = criterion

    def head(self) -> str:
        python = f"{sys.version_info.major}.{sys.version_info.minor}"
        return (f'{{\n  "target": {json.dumps(self.target)},\n  "python": {json.dumps(python)},\n'
                f'  "criterion": {json.dumps(self.criterion)},\n  "tests": [')

    def without_tests(self) -> str:
        return ""

    def test(self, case: TestCase) -> str:
        return "\n    " + _indented(case.to_json(), 2)


def _end(count: int, stats: Stats) -> str:
    closing = "\n  ]" if count else "]"
    return f'{closing},\n  "stats": {_indented(dict(stats), 1)}\n}}\n'


LAYOUT = Layout(between=",", end=_end, whole=True)


class JsonWriter(TestStream):
    def __init__(self, out: TextIO, target: str, criterion: str) -> None:
        super().__init__(out, JsonText(target, criterion), LAYOUT)
