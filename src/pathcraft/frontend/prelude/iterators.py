"""`next(iter(x))`, `next(iter(x), default)` and `list(x)` of a tuple or
str, as CPython computes them. Lowered by `pathcraft.frontend.prelude`
(see there for the naming). The loop walks `x` like any `for` loop: the
keys of a dict in insertion order, a set only where its order is certain.
"""


def fn__first(items: list[int]) -> int:
    """`next(iter(x))`: the first item, StopIteration when there is none."""
    for x in items:
        return x
    raise StopIteration


def fn__first_or(items: list[int], default: int) -> int:
    """`next(iter(x), default)`."""
    for x in items:
        return x
    return default


def tuple____list__(self: tuple[int, ...]) -> list[int]:
    """`list(t)`, `tuple(t)`: a fresh list of the items."""
    out = []
    for x in self:
        out.append(x)
    return out


def str____list__(self: str) -> list[str]:
    """`list(s)`, `tuple(s)`: the characters."""
    out = []
    for c in self:
        out.append(c)
    return out


def fn__int_base(s: str, base: int) -> int:
    """`int(s, base)` for 2 <= base <= 36 on a string of plain digits of
    the base; a character that no literal of the base may hold is
    ValueError; -1 (then a dropped path, `frontend/powers.py`) where
    Python's grammar (spaces, a sign, a prefix, underscores) would decide.
    Characters are compared by code (ints: cheaper for the solver)."""
    if s == "":
        raise ValueError
    r = 0
    for c in s:
        o = ord(c)
        d = 99
        if 48 <= o <= 57:
            d = o - 48
        elif 97 <= o <= 122:
            d = o - 87
        elif 65 <= o <= 90:
            d = o - 55
        if d >= base:
            if o <= 32 or o == 95 or o == 43 or o == 45 or o == 98 or o == 66 or o == 111 or o == 79 \
                    or o == 120 or o == 88:
                return -1
            raise ValueError
        r = r * base + d
    return r
