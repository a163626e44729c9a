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


def tuple____getslice__(self: tuple[int, ...], start: int, has_start: bool, stop: int, has_stop: bool,
                        step: int) -> tuple[int, ...]:
    """`self[start:stop:step]`: the same items a list's slice takes, frozen
    (the frontend passes a flag for each bound the slice leaves out)."""
    items = list(self)
    if has_start and has_stop:
        part = items[start:stop:step]
    elif has_start:
        part = items[start::step]
    elif has_stop:
        part = items[:stop:step]
    else:
        part = items[::step]
    return tuple(part)


def tuple____add__(self: tuple[int, ...], other: tuple[int, ...]) -> tuple[int, ...]:
    """`a + b` of two tuples, a new one; a tuple and anything else is
    CPython's TypeError (its message names the other type: not claimed)."""
    given = other  # a local: `isinstance` decided at run time, not by the annotation
    if not isinstance(given, tuple):
        raise TypeError
    return tuple(list(self) + list(given))
