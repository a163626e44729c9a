"""The JSON emitter: the whole run as one document, written at the end
(or when interrupted, with what was found)."""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from pathcraft.testcase.model import TestCase


class JsonWriter:
    def __init__(self, out: TextIO, target: str, criterion: str) -> None:
        self.out = out
        self.target = target
        self.criterion = criterion
        self.cases: list[TestCase] = []
        self.stats: dict[str, Any] = {}

    def add(self, case: TestCase) -> None:
        self.cases.append(case)

    @property
    def count(self) -> int:
        """Test cases the document will hold."""
        return len(self.cases)

    def close(self) -> None:
        document = {
            "target": self.target,
            "python": f"{sys.version_info.major}.{sys.version_info.minor}",
            "criterion": self.criterion,
            "tests": [c.to_json() for c in self.cases],
            "stats": self.stats,
        }
        json.dump(document, self.out, indent=2)
        self.out.write("\n")
        self.out.flush()
