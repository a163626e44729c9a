"""`heapq` and `bisect` functions as CPython's C modules (`_heapq.c`,
`_bisectmodule.c`) compute them: the same comparisons (`<` only) in the
same order, so the resulting list order, which a test observes, is
CPython's. Lowered by `pathcraft.frontend.prelude` (see there for the
naming); the frontend calls them for `heapq.heappush(h, x)` and the like
(`frontend/stdlib.py`). Messages are asserted where CPython's is a
constant; argument-type errors (worded by argument clinic, which changes
between versions) raise the type only.
"""


def fn__is_list(value: list[int]) -> bool:
    """`isinstance(value, list)` at run time (of a parameter, the frontend
    would decide it by the annotation): the C functions take only lists."""
    v = value
    return isinstance(v, list)


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
    if not fn__is_list(heap):
        raise TypeError
    heap.append(item)
    fn__heapq_siftdown(heap, 0, len(heap) - 1)


def fn__heappop(heap: list[int]) -> int:
    if not fn__is_list(heap):
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
    if not fn__is_list(heap):
        raise TypeError
    if len(heap) == 0:
        raise IndexError("index out of range")
    returnitem = heap[0]
    heap[0] = item
    fn__heapq_siftup(heap, 0)
    return returnitem


def fn__heappushpop(heap: list[int], item: int) -> int:
    if not fn__is_list(heap):
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
    if not fn__is_list(heap):
        raise TypeError
    i = len(heap) // 2 - 1
    while i >= 0:
        fn__heapq_siftup(heap, i)
        i -= 1


def fn__bisect_bounds(a: list[int], lo: int, hi: int) -> int:
    """`hi` as the C code takes it: None (or -1, the C default) is len(a)."""
    low = lo  # locals: `isinstance` decided at run time, not by the annotations
    high = hi
    if not isinstance(low, int) or high is not None and not isinstance(high, int):
        raise TypeError
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
    """The C code bisects first, then calls `a.insert`: a sequence with
    no `insert` fails after the bisection, as there."""
    i = fn__bisect_left(a, x, lo, hi)
    a.insert(i, x)


def fn__insort_right(a: list[int], x: int, lo: int, hi: int) -> None:
    i = fn__bisect_right(a, x, lo, hi)
    a.insert(i, x)


def fn__pairwise(items: list[int]) -> list[tuple[int, int]]:
    """`itertools.pairwise(items)` taken whole, where one consumer walks it
    and nothing it runs between items can change a list (`frontend/stdlib.py`).
    One step per pair, as the consumer's loop makes (loop bounds agree)."""
    pool = list(items)
    n = len(pool)
    out = []
    i = 1
    while i < n:
        out.append((pool[i - 1], pool[i]))
        i += 1
    return out


def fn__combinations(items: list[int], r: int) -> list[tuple[int, ...]]:
    """`itertools.combinations(items, r)` taken whole (CPython copies the
    items first), in CPython's order: index tuples in lexicographic order."""
    pool = list(items)
    n = len(pool)
    given = r  # a local: `isinstance` decided at run time, not by the annotation
    if not isinstance(given, int):
        raise TypeError
    if r < 0:
        raise ValueError("r must be non-negative")
    out: list[tuple[int, ...]] = []
    if r > n:
        return out
    indices = []
    k = 0
    while k < r:
        indices.append(k)
        k += 1
    while True:
        chosen = []
        k = 0
        while k < r:
            chosen.append(pool[indices[k]])
            k += 1
        out.append(tuple(chosen))
        i = r - 1
        while i >= 0 and indices[i] == i + n - r:
            i -= 1
        if i < 0:
            return out
        indices[i] += 1
        j = i + 1
        while j < r:
            indices[j] = indices[j - 1] + 1
            j += 1


def fn__combinations2(items: list[int]) -> list[tuple[int, int]]:
    """`itertools.combinations(items, 2)`: the same pairs in the same order,
    with fewer branches for the search than the general walk."""
    pool = list(items)
    n = len(pool)
    out = []
    i = 0
    while i < n - 1:
        j = i + 1
        while j < n:
            out.append((pool[i], pool[j]))
            j += 1
        i += 1
    return out


def fn__copy(x: list[int]) -> list[int]:
    """`copy.copy(x)` of a list (a new list of the same items) or of an
    immutable value (itself); dicts, sets, deques and objects are not modelled."""
    v = x  # a local: `isinstance` decided at run time, not by the annotation
    if isinstance(v, list):
        return v.copy()
    if v is None or isinstance(v, (int, float, str, tuple)):
        return v
    raise NotImplementedError("copy.copy() of a dict, set, deque or object")


def fn__deepcopy(x: list[int]) -> list[int]:
    """`copy.deepcopy(x)` of an immutable scalar (itself) or of a list of
    them (a new list); anything holding containers or objects (whose
    sharing the copy keeps) is not modelled."""
    v = x
    if v is None or isinstance(v, (int, float, str)):
        return v
    if isinstance(v, list):
        out = []
        for item in v:
            w = item
            if w is not None and not isinstance(w, (int, float, str)):
                raise NotImplementedError("copy.deepcopy() of a list holding containers or objects")
            out.append(w)
        return out
    raise NotImplementedError("copy.deepcopy() of a tuple, dict, set, deque or object")


def fn__math_gcd(a: int, b: int) -> int:
    """`math.gcd(a, b)`: Euclid's loop on the absolute values."""
    x = a
    y = b
    if not isinstance(x, int) or not isinstance(y, int):
        raise TypeError
    x = abs(int(x))
    y = abs(int(y))
    while y != 0:
        x, y = y, x % y
    return x


def fn__math_lcm(a: int, b: int) -> int:
    """`math.lcm(a, b)`: `abs(a // gcd(a, b) * b)`, 0 when either is 0."""
    x = a
    y = b
    if not isinstance(x, int) or not isinstance(y, int):
        raise TypeError
    if x == 0 or y == 0:
        return 0
    return abs(int(x) // fn__math_gcd(x, y) * int(y))
