"""`list` methods beyond append/pop/copy, as CPython defines them.

Lowered by `pathcraft.frontend.prelude` (see there for the naming).
Messages are asserted only where CPython's is a constant.
"""


def list____contains__(self: list[int], item: int) -> bool:
    for x in self:
        if x == item:
            return True
    return False


def list__index(self: list[int], item: int) -> int:
    i = 0
    while i < len(self):
        if self[i] == item:
            return i
        i += 1
    raise ValueError(f"{item} is not in list")


def list__count(self: list[int], item: int) -> int:
    n = 0
    for x in self:
        if x == item:
            n += 1
    return n
