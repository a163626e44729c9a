"""`dict` and `set` methods and constructors beyond the engine's own
(`engine/dicts.py`: lookups, insertion, deletion, views), as CPython
defines them. Lowered by `pathcraft.frontend.prelude` (see there for the
naming). A loop here walks its argument like any `for` loop: keys of a
dict, items of a list or set (a set only where its order is certain).
"""


def fn__set(items: list[int]) -> set[int]:
    out = set()
    for x in items:
        out.add(x)
    return out


def fn__dict(items: dict[int, int]) -> dict[int, int]:
    """`dict(d)` of a dict (pairs need tuples: the items of a list are not)."""
    out = {}
    for k, v in items.items():
        out[k] = v
    return out


def fn__dict_fromkeys(items: list[int], value: int) -> dict[int, int]:
    """`dict.fromkeys(items, value)`: each key once, in the order the
    loop meets it, every key holding the one value (the same object)."""
    out = {}
    for k in items:
        out[k] = value
    return out


def dict__update(self: dict[int, int], other: dict[int, int]) -> None:
    """A dict's items; else an iterable of pairs (a list or tuple of two,
    as CPython takes them); any other pair is not modelled."""
    source = other  # a local: `isinstance` decided at run time, not by the annotation
    if isinstance(source, dict):
        for k, v in source.items():
            self[k] = v
        return
    if hasattr(source, "keys"):  # CPython reads any mapping through its keys()
        raise NotImplementedError("dict.update() of a mapping other than a dict")
    for pair in source:
        item = pair
        if not isinstance(item, (tuple, list)):
            raise NotImplementedError("dict.update() with an item other than a tuple or list")
        if len(item) != 2:
            raise ValueError  # "dictionary update sequence element #i has length n; 2 is required"
        self[item[0]] = item[1]


def set__update(self: set[int], other: list[int]) -> None:
    for x in other:
        self.add(x)


def set__union(self: set[int], other: list[int]) -> set[int]:
    out = self.copy()
    for x in other:
        out.add(x)
    return out


def set__intersection(self: set[int], other: set[int]) -> set[int]:
    out = set()
    for x in self:
        if x in other:
            out.add(x)
    return out


def set__difference(self: set[int], other: set[int]) -> set[int]:
    out = set()
    for x in self:
        if x not in other:
            out.add(x)
    return out


def set__issubset(self: set[int], other: set[int]) -> bool:
    for x in self:
        if x not in other:
            return False
    return True


def dict____list__(self: dict[int, int]) -> list[int]:
    """`list(d)`, `sorted(d)`: the keys in insertion order."""
    out = []
    for k in self:
        out.append(k)
    return out


def set____list__(self: set[int]) -> list[int]:
    """`list(s)`: in CPython's order, where it is certain."""
    out = []
    for x in self:
        out.append(x)
    return out


def view____list__(self: list[int]) -> list[int]:
    """`list(d.keys())`, `list(d.values())` (items are tuples: not here)."""
    out = []
    for x in self:
        out.append(x)
    return out
