"""Format specs with a width (`{n:04X}`, `{s:<10}`): the part of Python's
format-spec mini-language whose text the model computes, read when the
module is lowered (frontend/strformat.py) and applied by the engine
(models/str/formatspec.py, which says what is computed and why).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

MAX_WIDTH = 40  # one `ite` arm per character the text may fall short by
_SPEC = re.compile(r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<zero>0)?(?P<width>[0-9]*)(?P<kind>[dsxXob]?)\Z",
                   re.DOTALL)
DIGIT_KINDS = frozenset("xXob")  # the digits computed by models/int/lowering.py, then padded


@dataclass(frozen=True)
class Spec:
    """A parsed spec: `fill` None when not written (a space, or `0` with
    the zero flag), `align` "" when not written (the type's default)."""

    fill: str | None
    align: str
    zero: bool
    width: int
    kind: str


@functools.lru_cache(maxsize=512)  # asked at each evaluation of a field: a program has few specs
def parse(spec: str) -> Spec | None:
    """The spec if it lies in the part computed here, else None."""
    found = _SPEC.match(spec)
    if found is None:
        return None
    width = int(found["width"]) if found["width"] else 0
    if width > MAX_WIDTH or found["fill"] is not None and ord(found["fill"]) > 0x2FFFF:  # beyond Z3's alphabet
        return None
    return Spec(found["fill"], found["align"] or "", found["zero"] is not None, width, found["kind"])
