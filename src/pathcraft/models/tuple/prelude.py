"""`tuple` methods and `in`, as CPython defines them.

Lowered by `pathcraft.frontend.prelude` (see there for the naming).
"""


def tuple____contains__(self: tuple[int, ...], item: int) -> bool:
    for x in self:
        if x == item:
            return True
    return False


def tuple__index(self: tuple[int, ...], item: int) -> int:
    i = 0
    while i < len(self):
        if self[i] == item:
            return i
        i += 1
    raise ValueError("tuple.index(x): x not in tuple")


def tuple__count(self: tuple[int, ...], item: int) -> int:
    n = 0
    for x in self:
        if x == item:
            n += 1
    return n
