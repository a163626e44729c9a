"""Long probes: a few tests on inputs longer than the loop bound lets the
search reach.

A loop-K search sees lists of about K items and loops that run at most K
times. On inputs that small, many wrong programs behave like the right
one: a heap sort that skips part of building its heap, or a cocktail
sort whose backward pass compares the wrong neighbours, still sorts three
items (bench/results/mutation-*.md lists such survivors). A probe runs
the function's CLP program on fixed longer inputs with the model brancher
(no solver; the analysed code itself never runs), its loops bounded by a
generous limit instead of the criterion: lists of 2K+2 items ascending,
descending, interleaved and in equal pairs, and ints beyond the edge
values the solver prefers. A path no test took yet gives one more test, up to a few per
function. As for any test, its inputs are then chosen from its path
constraint (solver/canonical.py), with the items of a list different
from each other where the path allows it: the probe's values only pick
the path, the test's values stay small and telling. Concolic testing starts the
same way from a concrete input (DART); here the input is fixed, so runs
are reproducible.

A function that returns a comparison (`return number < 2**n`) takes one
path for both answers, and its test asserts the one its smallest input
gives: a probe that takes such a path with the other answer gives a test
too, the answer pinned in its path constraint.

Probes are made for functions whose parameters are ints, bools and lists
of ints, the inputs whose size the loops follow; object inputs get none.
"""

from __future__ import annotations

import itertools
from types import MappingProxyType

from dataclasses import replace

from pathcraft.engine.state import SymbolicPath
from pathcraft.ir.nodes import FunctionInfo
from pathcraft.solver import terms as T
from pathcraft.solver.path import extend
from pathcraft.solver.sorts import ArrayValue
from pathcraft.solver.terms import Model

PROBED = "probe"  # key of `SymbolicPath.ext`: a probe found the path (its test's list items differ)
MAX_SEEDS = 24  # runs per function, at most: each is one concrete run
# ints the solver's edge and small values (solver/canonical.py) never reach; 1024 (a
# square, a power of two) early, past CPython's cache of small ints (-5..256), where
# `x is y` and `x == y` differ on computed values
_INTS_ALONE = (7, 1024, 13, 25, 36, 100)


def list_shapes(length: int) -> tuple[tuple[int, ...], ...]:
    """Lists of `length` items: ascending, descending and interleaved
    (distinct items: a sort gets real work, a search a sorted list), and
    sorted with each item twice (a search that finds an item twice over
    tells where it looks from)."""
    ascending = tuple(range(1, length + 1))
    interleaved = tuple(v for pair in itertools.zip_longest(ascending[length // 2:], ascending[:length // 2])
                        for v in pair if v is not None)
    pairs = tuple(1 + i // 2 for i in range(length))
    return ascending, tuple(reversed(ascending)), interleaved, pairs


def seeds(info: FunctionInfo, loop_bound: int) -> list[Model]:
    """The probes' input values for `info` under a loop-`loop_bound`
    criterion, at most `MAX_SEEDS`; none if a parameter is of another
    kind than int, bool or list of ints (or may be None)."""
    length = 2 * loop_bound + 2
    shapes = list_shapes(length)
    has_list = False
    choices: list[list[dict[str, object]]] = []
    for name, kind in zip(info.params, info.param_types):
        if kind.optional:
            return []
        if kind.kind == "list" and kind.elem is not None and kind.elem.kind == "int" and not kind.deque:
            has_list = True
            choices.append([{f"len({name})": len(shape), name: ArrayValue(0, tuple(enumerate(shape)))}
                            for shape in shapes])
        elif kind.kind == "int":
            choices.append([])  # filled below: they depend on whether a list is searched
        elif kind.kind == "bool":
            choices.append([{name: False}, {name: True}])
        else:
            return []
    if not choices:
        return []
    # with a list: the item at three quarters of the ascending list (a search goes right, then finds
    # it), one in its left half, one below all, one above all
    ints = (length * 3 // 4 + 1, 2, 0, length + 1) if has_list else _INTS_ALONE
    for i, (name, kind) in enumerate(zip(info.params, info.param_types)):
        if kind.kind == "int":
            choices[i] = [{name: v} for v in ints]
    out: list[Model] = []
    for combination in itertools.islice(itertools.product(*choices), MAX_SEEDS):
        merged: dict[str, object] = {}
        for part in combination:
            merged.update(part)
        out.append(MappingProxyType(merged))  # type: ignore[arg-type]  # ints, bools and arrays
    return out


def other_answer(path: SymbolicPath, asserted: set[bool]) -> SymbolicPath | None:
    """`path`, found by a probe, with its bool answer pinned, if it returns
    a bool the tests of the same path do not assert; else None."""
    value = path.outcome.value
    if path.outcome.kind != "return" or not isinstance(value, T.App) or value.sort != T.BOOL:
        return None
    answer = bool(T.evaluate(value, path.model))
    if not asserted or answer in asserted:
        return None
    pinned = value if answer else T.apply("not", value)
    return replace(path, store=extend(path.store, pinned))
