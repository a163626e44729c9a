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


def list__pop(self: list[int], index: int) -> int:
    """`pop(index)` (`pop()` is the heap's own operation); an index no C
    ssize_t holds fails its conversion first."""
    if index >= 9223372036854775808 or index < -9223372036854775808:
        raise OverflowError("Python int too large to convert to C ssize_t")
    n = len(self)
    if n == 0:
        raise IndexError("pop from empty list")
    if index < 0:
        index += n
    if index < 0 or index >= n:
        raise IndexError("pop index out of range")
    item = self[index]
    while index < n - 1:
        self[index] = self[index + 1]
        index += 1
    self.pop()
    return item


def list__insert(self: list[int], index: int, item: int) -> None:
    if index >= 9223372036854775808 or index < -9223372036854775808:
        raise OverflowError("Python int too large to convert to C ssize_t")
    n = len(self)
    if index < 0:
        index += n
        if index < 0:
            index = 0
    if index > n:
        index = n
    self.append(item)
    i = n
    while i > index:
        self[i] = self[i - 1]
        i -= 1
    self[index] = item


def list__remove(self: list[int], item: int) -> None:
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
    raise ValueError("list.remove(x): x not in list")


def list__extend(self: list[int], other: list[int]) -> None:
    given = other  # a local: `isinstance` decided at run time, not by the annotation
    if isinstance(given, (list, tuple)):  # CPython's fast path: the size first (`xs.extend(xs)` adds each item once)
        n = len(other)
        i = 0
        while i < n:
            self.append(other[i])
            i += 1
    else:  # any other iterable (an iterator, a generator, a str, a dict, a set): walked
        for item in given:
            self.append(item)


def list____add__(self: list[int], other: list[int]) -> list[int]:
    """`a + b` (the engine has checked that b is a list)."""
    out = self.copy()
    out.extend(other)
    return out


def list____eq__(self: list[int], other: list[int]) -> bool:
    """`a == b` (the engine has checked that b is a list and that no item
    is a float: CPython compares items by identity first, nan included)."""
    n = len(self)
    if n != len(other):
        return False
    i = 0
    while i < n:
        if self[i] != other[i]:
            return False
        i += 1
    return True


def list____iadd__(self: list[int], other: list[int]) -> list[int]:
    """`a += b`: extends a in place (b any iterable) and rebinds it."""
    self.extend(other)
    return self


def list__reverse(self: list[int]) -> None:
    i = 0
    j = len(self) - 1
    while i < j:
        self[i], self[j] = self[j], self[i]
        i += 1
        j -= 1


def list__clear(self: list[int]) -> None:
    while len(self) > 0:
        self.pop()


def list____getslice__(self: list[int], start: int, has_start: bool, stop: int, has_stop: bool,
                       step: int) -> list[int]:
    """`self[start:stop:step]`, bounds clipped as `slice.indices` does
    (the frontend passes a flag for each bound the slice leaves out)."""
    n = len(self)
    if step == 0:
        raise ValueError("slice step cannot be zero")
    out = []
    if step > 0:
        lo = 0
        if has_start:
            lo = start
            if lo < 0:
                lo += n
                if lo < 0:
                    lo = 0
            if lo > n:
                lo = n
        hi = n
        if has_stop:
            hi = stop
            if hi < 0:
                hi += n
                if hi < 0:
                    hi = 0
            if hi > n:
                hi = n
        while lo < hi:
            out.append(self[lo])
            lo += step
        return out
    lo = n - 1
    if has_start:
        lo = start
        if lo < 0:
            lo += n
            if lo < 0:
                lo = -1
        if lo >= n:
            lo = n - 1
    hi = -1
    if has_stop:
        hi = stop
        if hi < 0:
            hi += n
            if hi < 0:
                hi = -1
        if hi >= n:
            hi = n - 1
    while lo > hi:
        out.append(self[lo])
        lo += step
    return out


def list____delslice__(self: list[int], start: int, has_start: bool, stop: int, has_stop: bool) -> None:
    """`del self[start:stop]`, bounds clipped as `slice.indices` does: the
    items after the slice move down over it, then the tail is popped."""
    n = len(self)
    lo = 0
    if has_start:
        lo = start
        if lo < 0:
            lo += n
            if lo < 0:
                lo = 0
        if lo > n:
            lo = n
    hi = n
    if has_stop:
        hi = stop
        if hi < 0:
            hi += n
            if hi < 0:
                hi = 0
        if hi > n:
            hi = n
    if hi <= lo:
        return None
    gone = hi - lo
    while lo + gone < n:
        self[lo] = self[lo + gone]
        lo += 1
    while gone > 0:
        self.pop()
        gone -= 1
    return None


def fn__any(items: list[int]) -> bool:
    for x in items:
        if x:
            return True
    return False


def fn__all(items: list[int]) -> bool:
    for x in items:
        if not x:
            return False
    return True


def list____list__(self: list[int]) -> list[int]:
    """`list(xs)`: the frontend calls `xs.__list__()`, so each kind of
    sequence says how it becomes a list (a list: a native copy, no loop)."""
    return self.copy()


def list__sort(self: list[int]) -> None:
    """Stable insertion sort comparing with `<` only, as list.sort does
    (the comparisons it makes differ from timsort's, which only matters
    where a comparison runs code: objects' `<` drops the path)."""
    i = 1
    while i < len(self):
        j = i
        while j > 0 and self[j] < self[j - 1]:
            self[j], self[j - 1] = self[j - 1], self[j]
            j -= 1
        i += 1


def fn__range_list(start: int, stop: int, step: int) -> list[int]:
    """`list(range(start, stop, step))`, the step checked non-zero."""
    out = []
    i = start
    if step > 0:
        while i < stop:
            out.append(i)
            i += step
    else:
        while i > stop:
            out.append(i)
            i += step
    return out


def fn__sorted(items: list[int], reverse: bool) -> list[int]:
    out = list(items)
    i = 1
    while i < len(out):
        j = i
        if reverse:  # descending and still stable: equal items keep their order
            while j > 0 and out[j - 1] < out[j]:
                out[j], out[j - 1] = out[j - 1], out[j]
                j -= 1
        else:
            while j > 0 and out[j] < out[j - 1]:
                out[j], out[j - 1] = out[j - 1], out[j]
                j -= 1
        i += 1
    return out


def fn__sorted_by(items: list[int], keys: list[int], reverse: bool) -> list[int]:
    """`sorted(xs, key=f)` once the keys are computed: a stable insertion
    sort of the positions by key (descending, still stable, for `reverse`)."""
    order = []
    n = 0
    while n < len(items):
        order.append(n)
        n += 1
    i = 1
    while i < len(order):
        j = i
        if reverse:
            while j > 0 and keys[order[j - 1]] < keys[order[j]]:
                order[j], order[j - 1] = order[j - 1], order[j]
                j -= 1
        else:
            while j > 0 and keys[order[j]] < keys[order[j - 1]]:
                order[j], order[j - 1] = order[j - 1], order[j]
                j -= 1
        i += 1
    out = []
    for k in order:
        out.append(items[k])
    return out


def list____sort_by__(self: list[int], keys: list[int], reverse: bool) -> None:
    """`xs.sort(key=f)` once the keys are computed: `xs` rearranged in
    place as `sorted` would (frontend/keyed.py)."""
    arranged = fn__sorted_by(self, keys, reverse)
    i = 0
    while i < len(arranged):
        self[i] = arranged[i]
        i += 1


def fn__least_by(items: list[int], keys: list[int], greatest: bool) -> int:
    """`min(xs, key=f)` (`max` with `greatest`): the first item whose key no
    later key beats, as CPython keeps the first of equal keys."""
    best = 0
    i = 1
    while i < len(items):
        if greatest:
            if keys[best] < keys[i]:
                best = i
        elif keys[i] < keys[best]:
            best = i
        i += 1
    return items[best]
