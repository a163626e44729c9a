"""Values every layer may hold: a raised exception.

It lives at the bottom of the layers because the heap models raise
Python's exceptions (`IndexError`, `AttributeError`) as well as the engine.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExcValue:
    """A raised exception: its class name and its message (None when the
    message is not certain, so the test does not assert it)."""

    type: str
    message: str | None
