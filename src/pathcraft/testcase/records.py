"""A NamedTuple value in a test case's result: a tuple that also knows its
class and field names, so the test checks its type and constructs the
expected value as `mod.C(a=..., b=...)` (it equals the plain tuple too)."""

from __future__ import annotations

from typing import Any


class NamedValue(tuple[Any, ...]):
    cls: str
    fields: tuple[str, ...]

    def __new__(cls, name: str, fields: tuple[str, ...], items: list[Any]) -> NamedValue:
        made = super().__new__(cls, items)
        made.cls = name
        made.fields = fields
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return NamedValue, (self.cls, self.fields, list(self))
