"""`heapq` and `bisect` functions as CPython's C modules (`_heapq.c`,
`_bisectmodule.c`) compute them: the same comparisons (`<` only) in the
same order, so the resulting list order, which a test observes, is
CPython's. Lowered by `pathcraft.frontend.prelude` (see there for the
naming); the frontend calls them for `heapq.heappush(h, x)` and the like
(`frontend/stdlib.py`). Messages are asserted where CPython's is a
constant; argument-type errors (worded by argument clinic, which changes
between versions) raise the type only.
"""


def fn__heapq_siftdown(heap: list[int], startpos: int, pos: int) -> None:
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) // 2
        parent = heap[parentpos]
        if newitem < parent:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem


def fn__heapq_siftup(heap: list[int], pos: int) -> None:
    endpos = len(heap)
    startpos = pos
    limit = endpos // 2
    while pos < limit:  # move the smaller child up until a leaf
        childpos = 2 * pos + 1
        if childpos + 1 < endpos:
            if not heap[childpos] < heap[childpos + 1]:
                childpos += 1
        heap[pos], heap[childpos] = heap[childpos], heap[pos]
        pos = childpos
    fn__heapq_siftdown(heap, startpos, pos)


def fn__heappush(heap: list[int], item: int) -> None:
    if not isinstance(heap, list):
        raise TypeError
    heap.append(item)
    fn__heapq_siftdown(heap, 0, len(heap) - 1)


def fn__heappop(heap: list[int]) -> int:
    if not isinstance(heap, list):
        raise TypeError
    if len(heap) == 0:
        raise IndexError("index out of range")
    last = heap.pop()
    if len(heap) == 0:
        return last
    returnitem = heap[0]
    heap[0] = last
    fn__heapq_siftup(heap, 0)
    return returnitem


def fn__heapreplace(heap: list[int], item: int) -> int:
    if not isinstance(heap, list):
        raise TypeError
    if len(heap) == 0:
        raise IndexError("index out of range")
    returnitem = heap[0]
    heap[0] = item
    fn__heapq_siftup(heap, 0)
    return returnitem


def fn__heappushpop(heap: list[int], item: int) -> int:
    if not isinstance(heap, list):
        raise TypeError
    if len(heap) == 0:
        return item
    top = heap[0]
    if not top < item:
        return item
    heap[0] = item
    fn__heapq_siftup(heap, 0)
    return top


def fn__heapify(heap: list[int]) -> None:
    if not isinstance(heap, list):
        raise TypeError
    i = len(heap) // 2 - 1
    while i >= 0:
        fn__heapq_siftup(heap, i)
        i -= 1


def fn__bisect_bounds(a: list[int], lo: int, hi: int) -> int:
    """`hi` as the C code takes it: None (or -1, the C default) is len(a)."""
    if lo < 0:
        raise ValueError("lo must be non-negative")
    if hi is None:
        return len(a)
    if hi == -1:
        return len(a)
    return hi


def fn__bisect_left(a: list[int], x: int, lo: int, hi: int) -> int:
    top = fn__bisect_bounds(a, lo, hi)
    while lo < top:
        mid = (lo + top) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            top = mid
    return lo


def fn__bisect_right(a: list[int], x: int, lo: int, hi: int) -> int:
    top = fn__bisect_bounds(a, lo, hi)
    while lo < top:
        mid = (lo + top) // 2
        if x < a[mid]:
            top = mid
        else:
            lo = mid + 1
    return lo


def fn__insort_left(a: list[int], x: int, lo: int, hi: int) -> None:
    a.insert(fn__bisect_left(a, x, lo, hi), x)


def fn__insort_right(a: list[int], x: int, lo: int, hi: int) -> None:
    a.insert(fn__bisect_right(a, x, lo, hi), x)
