"""`collections.deque` methods a list does not have, or has with other
messages, as CPython's `_collectionsmodule.c` computes them. A deque is a
list cell marked `is_deque` (`heap/deques.py`): `append`, `pop()`, `copy`,
indexing and `len` are the heap's own, and methods whose list code is
exact for a deque too (`count`, `extend`, `insert`, `__contains__`, ...)
are the list's (`heap/deques.py: DEQUE_AS_LIST`). Lowered by
`pathcraft.frontend.prelude` (see there for the naming). Messages are
asserted only where CPython's is the same in every version.
"""


def deque__popleft(self: list[int]) -> int:
    n = len(self)
    if n == 0:
        raise IndexError("pop from an empty deque")
    item = self[0]
    i = 0
    while i < n - 1:
        self[i] = self[i + 1]
        i += 1
    self.pop()
    return item


def deque__appendleft(self: list[int], item: int) -> None:
    self.append(item)
    i = len(self) - 1
    while i > 0:
        self[i] = self[i - 1]
        i -= 1
    self[0] = item


def deque__extendleft(self: list[int], other: list[int]) -> None:
    items = list(other)  # `d.extendleft(d)` takes a copy first, as CPython does
    i = 0
    while i < len(items):
        self.appendleft(items[i])  # type: ignore[attr-defined]  # a deque
        i += 1


def deque__rotate(self: list[int], n: int) -> None:
    size = len(self)
    if size <= 1:
        return
    k = n % size
    if k == 0:  # CPython counts the rotation as a change all the same
        self.append(self.pop())
        return
    while k > 0:
        self.appendleft(self.pop())  # type: ignore[attr-defined]  # a deque
        k -= 1


def deque__rotate__0(self: list[int]) -> None:
    self.rotate(1)  # type: ignore[attr-defined]  # a deque


def deque__index(self: list[int], item: int) -> int:
    i = 0
    while i < len(self):
        if self[i] == item:
            return i
        i += 1
    raise ValueError(f"{item} is not in deque")


def deque__remove(self: list[int], item: int) -> None:
    n = len(self)
    i = 0
    while i < n:
        if self[i] == item:
            while i < n - 1:
                self[i] = self[i + 1]
                i += 1
            self.pop()
            return
        i += 1
    raise ValueError  # worded differently across versions


def deque____list__(self: list[int]) -> list[int]:
    """`list(d)`, and `deque(d)` before it is marked a deque."""
    out = []
    i = 0
    while i < len(self):
        out.append(self[i])
        i += 1
    return out


def deque____getslice__(self: list[int], start: int, has_start: bool, stop: int, has_stop: bool,
                        step: int) -> list[int]:
    """A deque takes no slice (TypeError; its wording changed across versions)."""
    raise TypeError
