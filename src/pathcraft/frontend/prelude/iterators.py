"""`next(iter(x))`, `next(iter(x), default)` and `list(x)` of a tuple or
str, and `next(g)`, as CPython computes them. Lowered by `pathcraft.frontend.prelude`
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



def generator____list__(self: list[int]) -> list[int]:
    """`list(g)`, `tuple(g)` of a generator: it is resumed once per item."""
    out = []
    for x in self:
        out.append(x)
    return out


def generator____next__(self: list[int]) -> int:
    """`next(g)`: resumed once; StopIteration when it has ended."""
    n = __pc_len(self)  # type: ignore[name-defined]  # noqa: F821  # a loop's own step (frontend/calls.py)
    if n == 0:
        raise StopIteration
    return __pc_item(self, n - 1)  # type: ignore[name-defined,no-any-return]  # noqa: F821


def generator____next____1(self: list[int], default: int) -> int:
    """`next(g, default)`."""
    n = __pc_len(self)  # type: ignore[name-defined]  # noqa: F821
    if n == 0:
        return default
    return __pc_item(self, n - 1)  # type: ignore[name-defined,no-any-return]  # noqa: F821
