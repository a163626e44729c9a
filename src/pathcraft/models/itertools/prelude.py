"""`itertools`' iterators as generator functions.

A call of one in the tested code calls the function here of the same name
(`frontend/stdlib.py: ITERTOOLS`), which checks its arguments and takes
`iter()` of its sources as CPython's constructor does, at the call, then
returns a generator (`engine/generators.py`) that yields the items the C
iterator yields, reading its sources in the same order and no further
(an `islice` that has given its last item takes no other from its source:
a shared iterator keeps it). Like all prelude code the functions are
silent: a C iterator has no frame. Messages CPython words by the
argument's type are not claimed (`raise TypeError` alone).

The generators' loops are loops of the path, bounded by the criterion
like the tested code's own: an infinite `count()` or `repeat(x)` yields
as many items as its consumer takes within that bound.
"""

from collections.abc import Callable, Iterable, Iterator
from typing import Any


def fn__itertools_repeat(item: int, times: int | None) -> Iterator[int]:
    if times is None:
        return fn__itertools_repeat_forever(item)
    n = times  # a local: `isinstance` decided at run time, not by the annotation
    if not isinstance(n, int):
        raise TypeError
    return fn__itertools_repeat_n(item, n)


def fn__itertools_repeat_forever(item: int) -> Iterator[int]:
    while True:
        yield item


def fn__itertools_repeat_n(item: int, n: int) -> Iterator[int]:
    i = 0
    while i < n:
        yield item
        i += 1


def fn__itertools_count(start: int, step: int) -> Iterator[int]:
    first = start  # locals: `isinstance` decided at run time
    by = step
    if not isinstance(first, (int, float)) or not isinstance(by, (int, float)):
        raise TypeError
    return fn__itertools_count_from(first, by)


def fn__itertools_count_from(n: int, step: int) -> Iterator[int]:
    while True:
        yield n
        n += step


def fn__itertools_chain(iterables: list[list[int]]) -> Iterator[int]:
    """`chain(a, b, ...)` (the arguments as a tuple) and `chain.from_iterable(x)`:
    `iter()` of the outer source now, of each inner one when it is reached."""
    source = iter(iterables)
    return fn__itertools_chain_items(source)


def fn__itertools_chain_items(source: Iterable[Iterable[int]]) -> Iterator[int]:
    for inner in source:
        for item in inner:
            yield item


def fn__itertools_compress(data: list[int], selectors: list[int]) -> Iterator[int]:
    items = iter(data)
    flags = iter(selectors)
    return fn__itertools_compress_items(items, flags)


def fn__itertools_compress_items(items: Iterable[int], flags: Iterable[int]) -> Iterator[int]:
    for item in items:  # CPython takes a datum, then its selector
        for flag in flags:
            if flag:
                yield item
            break
        else:
            return


def fn__itertools_filterfalse(pred: Callable[[int], bool] | None, iterable: list[int]) -> Iterator[int]:
    items = iter(iterable)
    return fn__itertools_filterfalse_items(pred, items)


def fn__itertools_filterfalse_items(pred: Callable[[int], bool] | None, items: Iterable[int]) -> Iterator[int]:
    for item in items:
        if pred is None:
            if not item:
                yield item
        elif not pred(item):
            yield item


def fn__itertools_takewhile(pred: Callable[[int], bool], iterable: list[int]) -> Iterator[int]:
    items = iter(iterable)
    return fn__itertools_takewhile_items(pred, items)


def fn__itertools_takewhile_items(pred: Callable[[int], bool], items: Iterable[int]) -> Iterator[int]:
    for item in items:
        if not pred(item):
            return
        yield item


def fn__itertools_dropwhile(pred: Callable[[int], bool], iterable: list[int]) -> Iterator[int]:
    items = iter(iterable)
    return fn__itertools_dropwhile_items(pred, items)


def fn__itertools_dropwhile_items(pred: Callable[[int], bool], items: Iterable[int]) -> Iterator[int]:
    for item in items:
        if not pred(item):
            yield item
            break
    for item in items:
        yield item


def fn__itertools_islice(iterable: list[int], start: int | None, stop: int | None, step: int | None
                         ) -> Iterator[int]:
    """`islice(it, stop)` (start and step None) and `islice(it, start, stop[, step])`."""
    last = stop  # locals: `isinstance` decided at run time
    first = start
    by = step
    if last is not None and (not isinstance(last, int) or last < 0):
        raise ValueError
    if first is None:
        first = 0
    elif not isinstance(first, int) or first < 0:
        raise ValueError
    if by is None:
        by = 1
    elif not isinstance(by, int) or by < 1:
        raise ValueError
    items = iter(iterable)
    return fn__itertools_islice_items(items, first, last, by)


def fn__itertools_islice_items(items: Iterable[int], start: int, stop: int | None, step: int) -> Iterator[int]:
    taken = 0  # items read from the source
    wanted = start  # the index of the next item to give
    while True:
        while taken < wanted:  # skipped
            for _ in items:
                break
            else:
                return
            taken += 1
        if stop is not None and taken >= stop:
            return
        for item in items:
            break
        else:
            return
        taken += 1
        wanted += step
        if stop is not None and wanted > stop:
            wanted = stop
        yield item


def fn__itertools_zip_longest(first: list[int], second: list[int], fillvalue: int | None
                              ) -> Iterator[tuple[int | None, int | None]]:
    """`zip_longest(a, b, fillvalue=...)` of two sources."""
    left = iter(first)
    right = iter(second)
    return fn__itertools_zip_longest_items(left, right, fillvalue)


def fn__itertools_zip_longest_items(left: Iterable[int], right: Iterable[int], fill: int | None
                                    ) -> Iterator[tuple[int | None, int | None]]:
    left_done = False  # an exhausted source is not asked again; the last one to end ends the iterator
    right_done = False
    while True:
        x = fill
        if not left_done:
            for x in left:
                break
            else:
                left_done = True
                x = fill
                if right_done:
                    return
        y = fill
        if not right_done:
            for y in right:
                break
            else:
                right_done = True
                y = fill
                if left_done:
                    return
        yield (x, y)


def fn__itertools_accumulate(iterable: list[int], initial: int | None) -> Iterator[int | None]:
    """`accumulate(xs)` and `accumulate(xs, initial=v)`: running sums with `+`."""
    items = iter(iterable)
    return fn__itertools_accumulate_items(items, initial)


def fn__itertools_accumulate_items(items: Iterable[int], initial: int | None) -> Iterator[int | None]:
    started = initial is not None
    total = initial
    if started:
        yield total
    for item in items:
        if started:
            total = total + item  # type: ignore[operator]  # a number once started
        else:
            total = item
            started = True
        yield total


def fn__itertools_cycle(iterable: list[int]) -> Iterator[int]:
    items = iter(iterable)
    return fn__itertools_cycle_items(items)


def fn__itertools_cycle_items(items: Iterable[int]) -> Iterator[int]:
    saved = []  # the first pass keeps what it gives; the next ones give it again
    for item in items:
        saved.append(item)
        yield item
    if not saved:
        return
    while True:
        for item in saved:
            yield item


def fn__itertools_tee(iterable: list[int], n: int) -> tuple[Iterator[int], ...]:
    """`tee(it, n)`: n iterators over one source, each reading an item from
    it only when none of them has read it yet (the items read are kept for
    the ones behind)."""
    count = n  # a local: `isinstance` decided at run time
    if not isinstance(count, int):
        raise TypeError
    if count < 0:
        raise ValueError("n must be >= 0")
    if count == 0:  # CPython returns before it asks for an iterator (`tee(3, 0)` is `()`)
        return ()
    source = iter(iterable)
    seen: list[int] = []
    made = []
    i = 0
    while i < count:
        made.append(fn__itertools_tee_items(source, seen))
        i += 1
    return tuple(made)


def fn__itertools_tee_items(source: Iterable[int], seen: list[int]) -> Iterator[int]:
    at = 0
    while True:
        if at < len(seen):
            yield seen[at]
        else:
            for item in source:
                seen.append(item)
                break
            else:
                return
            yield item
        at += 1


def fn__itertools_groupby(iterable: list[int], key: Callable[[int], int] | None
                          ) -> Iterator[tuple[int, Iterator[int]]]:
    """`groupby(it[, key])`: `(key, group)` pairs over one source, as
    CPython's C object steps it. The state the groups share is a list:
    the current item and its key (when one is held), the target key of the
    last group made, and which group is current (an older group gives
    nothing more once the outer iterator moved on)."""
    items = iter(iterable)
    return fn__itertools_groupby_groups(items, key)


def fn__itertools_groupby_groups(items: Iterable[int], key: Callable[[int], int] | None
                                 ) -> Iterator[tuple[Any, Iterator[int]]]:
    # [current value, current key, one is held, target key, a target is set, the current group's number]
    state: list[Any] = [None, None, False, None, False, 0]
    made = 0
    while True:
        state[5] = 0  # no group is current while the outer iterator steps
        while True:  # skip to the next key (or to the first item)
            if state[2]:
                if not state[4]:
                    break
                if not (state[3] == state[1]):
                    break
            if not fn__itertools_groupby_step(items, key, state):
                return
        state[3] = state[1]
        state[4] = True
        made += 1
        state[5] = made
        yield (state[1], fn__itertools_groupby_group(items, key, state, made, state[3]))


def fn__itertools_groupby_group(items: Iterable[int], key: Callable[[int], int] | None,
                                state: list[Any], number: int, target: Any) -> Iterator[int]:
    while True:
        if state[5] != number:
            return
        if not state[2] and not fn__itertools_groupby_step(items, key, state):
            return
        if not (target == state[1]):
            return
        value = state[0]
        state[0] = None
        state[1] = None
        state[2] = False
        yield value


def fn__itertools_groupby_step(items: Iterable[int], key: Callable[[int], int] | None, state: list[Any]) -> bool:
    """The next item and its key into the shared state; False at the end."""
    for value in items:
        state[0] = value
        state[1] = value if key is None else key(value)
        state[2] = True
        return True
    return False


def fn__itertools_pairwise(iterable: list[int]) -> Iterator[tuple[int, int]]:
    """`pairwise(xs)` anywhere (the consumed-once form is
    `frontend/prelude/stdlib.fn__pairwise`): `iter(xs)` at the call, then
    each item with the one before it, read one at a time."""
    items = iter(iterable)
    return fn__itertools_pairwise_items(items)


def fn__itertools_pairwise_items(items: Iterable[int]) -> Iterator[tuple[int, int]]:
    started = False
    previous = 0
    for item in items:
        if started:
            yield (previous, item)
        previous = item
        started = True


def fn__itertools_combinations(iterable: list[int], r: int) -> Iterator[tuple[int, ...]]:
    """`combinations(xs, r)` anywhere: CPython copies the items and checks
    `r` at the call, then gives index tuples in lexicographic order."""
    pool = list(iterable)
    given = r  # a local: `isinstance` decided at run time, not by the annotation
    if not isinstance(given, int):
        raise TypeError
    if r < 0:
        raise ValueError("r must be non-negative")
    return fn__itertools_combinations_items(pool, r)


def fn__itertools_combinations_items(pool: list[int], r: int) -> Iterator[tuple[int, ...]]:
    n = len(pool)
    if r > n:
        return
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
        yield tuple(chosen)
        i = r - 1
        while i >= 0 and indices[i] == i + n - r:
            i -= 1
        if i < 0:
            return
        indices[i] += 1
        j = i + 1
        while j < r:
            indices[j] = indices[j - 1] + 1
            j += 1
