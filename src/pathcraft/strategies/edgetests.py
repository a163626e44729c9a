"""Edge tests: a few tests after the search that put inputs on the edges
a path-per-test suite misses (`--edge-tests N`, shared by the kinds).

A test per path sits on the edge of the comparison that made its path,
and its values are small and different from each other; mutants that
differ only elsewhere survive. Three kinds, in this order, each a tested
path with one more constraint pinned, emitted when the canonical model
finds the pinned store satisfiable (no run of the code):

* int edges: `x = c - 1, c, c + 1` for a comparison of an int parameter
  with a constant (solver/boundaries.py `boundary_values`);
* the int type's edge: `False` or `True` for an int parameter returned
  as given (frontend/boolsafe.py says which parameters a bool may stand
  in for);
* item twins: beside a found `items[k] == x`, a neighbour equal to `x`
  (solver/boundaries.py `item_twins`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pathcraft.strategies import probes
from pathcraft.strategies.base import Candidate
from pathcraft.engine.state import SymbolicPath
from pathcraft.ir.nodes import FunctionInfo
from pathcraft.solver import terms as T
from pathcraft.solver.boundaries import boundary_values, item_twins
from pathcraft.solver.canonical import CanonicalModels
from pathcraft.solver.path import extend, nodes
from pathcraft.testcase.model import input_symbols


def edge_tests(info: FunctionInfo, models: CanonicalModels, emitted: list[SymbolicPath],
               covered: set[tuple[str, Any]], limit: int, write: Callable[[Candidate], bool]) -> int:
    """All three kinds for the function `info` after its tests `emitted`
    (`covered`: the (parameter, value) pairs they have), up to `limit`
    tests in all, written through `write`. The number written."""
    added = _int_edges(models, emitted, covered, limit, write)
    added += _bool_tests(info, models, emitted, limit - added, write)
    return added + _twin_tests(models, emitted, limit - added, write)


def _int_edges(models: CanonicalModels, emitted: list[SymbolicPath], covered: set[tuple[str, Any]],
               limit: int, write: Callable[[Candidate], bool]) -> int:
    """For each comparison of an int parameter with a constant on the paths
    tested, in test order, the values at and beside the constant that no
    test has yet, each tested on the first of those paths it fits (the
    path's constraint with the parameter pinned to it), up to `limit`. The
    number of tests written."""
    added = 0
    tried: set[tuple[str, int]] = set()
    for path in list(emitted):
        constraints = [node.constraint for node in nodes(path.store)]
        for edge in boundary_values(constraints, path.inputs):
            key = (edge.parameter.name, edge.value)
            if key in covered or key in tried:
                continue
            pinned = replace(path, store=extend(path.store, T.apply("eq", edge.parameter, edge.value)))
            if models.model(pinned.store, input_symbols(pinned)) is None:
                continue  # not on this path: a later one may take it
            tried.add(key)
            added += write(Candidate(pinned, edge=f"{edge.describe()} (--edge-tests)"))
            if added >= limit:
                return added
    return added


def _bool_tests(info: FunctionInfo, models: CanonicalModels, emitted: list[SymbolicPath], limit: int,
                write: Callable[[Candidate], bool]) -> int:
    """Edge tests of the int type itself: for each int parameter a bool may
    stand in for (frontend/boolsafe.py), one test passing `False` (or
    `True`) on the first tested path that returns the parameter from a
    `return p` line and admits 0 (or 1). Its result is the bool, `is`-identical: a version
    that computes an equal int instead (`-a` for `a`) fails it. Cached
    functions share results between `0` and `False`, generators return
    nothing: none for them."""
    if info.cached or info.generator:
        return 0
    added = 0
    for parameter in dict.fromkeys(p for p, _ in info.bool_returns):
        if added >= limit:
            break
        lines = {line for p, line in info.bool_returns if p == parameter}
        for path in list(emitted):
            symbol = dict(path.roots).get(parameter)
            if not isinstance(symbol, T.Sym) or path.outcome.kind != "return" or path.outcome.value != symbol \
                    or _return_line(path) not in lines:
                continue
            for value in (False, True):
                pinned = replace(path, store=extend(path.store, T.apply("eq", symbol, int(value))))
                if models.model(pinned.store, input_symbols(pinned)) is not None:
                    break
            else:
                continue
            added += write(Candidate(pinned, edge=f"{parameter} = {value}, a bool (an int) returned as given "
                                               "(--edge-tests)", as_bool=parameter))
            break
    return added


def _return_line(path: SymbolicPath) -> int | None:
    """The line the tested function returns from on `path` (its last line
    event before its return event)."""
    function = path.events[-1][1] if path.events and path.events[-1][0] == "return" else None
    lines = [e[2] for e in path.events if e[0] == "line" and e[1] == function and len(e) == 3]
    return lines[-1] if lines else None


def _twin_tests(models: CanonicalModels, emitted: list[SymbolicPath], limit: int,
                write: Callable[[Candidate], bool]) -> int:
    """Edge tests of list items (solver/boundaries.py `item_twins`): on a
    tested path that finds `items[k] == x`, a neighbour equal to `x` too,
    where the path admits it and its test does not have it already: one
    per path, the probes' paths first (the longest lists, where a search
    has most places to look from), then the others in test order."""
    added = 0
    tried: set[tuple[str, int]] = set()
    ordered = [p for p in emitted if p.ext.get(probes.PROBED)] + [p for p in emitted if not p.ext.get(probes.PROBED)]
    for path in ordered:
        if added >= limit:
            break
        constraints = [node.constraint for node in nodes(path.store)]
        inputs = input_symbols(path)
        arrays = [s for s in inputs if s.sort == T.ARR_INT]
        if not arrays or not any(isinstance(c, T.App) and c.op == "eq" for c in constraints):
            continue
        probed = bool(path.ext.get(probes.PROBED))
        tested = models.model(path.store, inputs, distinct_items=probed)
        if tested is None:
            continue
        for twin in item_twins(constraints, arrays, tested):
            if (twin.array.name, twin.index) in tried or T.evaluate(twin.pinned(), tested) is True:
                continue  # the path's own test has the twin
            pinned = replace(path, store=extend(path.store, twin.pinned()))
            if models.model(pinned.store, inputs, distinct_items=probed) is None:
                continue
            tried.add((twin.array.name, twin.index))
            added += write(Candidate(pinned, edge=f"{twin.describe()} (--edge-tests)"))
            break
    return added
