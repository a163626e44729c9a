"""One loop deeper: a few tests from a loop-(K+1) search, for the functions
long probes cannot seed (strategies/probes.py: object inputs).

A loop-K search of a method on a linked structure sees structures of
about K nodes, because every walk over them (`len(self)`, a search for the
n-th node) is a loop. Some of the method's own decisions need one node
more: deleting the middle node of a circular list needs three nodes, so
`index == len(self) - 1` is never false after `index == 0` is, and a slip
in it goes unnoticed. Probes run fixed inputs, and there is no fixed
object graph to run; instead the same search runs again with every loop
allowed one more iteration, and a path is kept when the function's *own*
decisions on it (its rules, not those of the functions it calls) differ
from those of every test: a walk one node longer in `__len__` is not a
new decision of `delete_nth`, reaching its middle-node branch is.

The second search is bounded by a number of paths (the first search's
plus a floor) and by the Z3 work it may spend (Z3's deterministic
resource count: `rational.simp` at loop-3 asks nonlinear questions worth
tens of seconds), not by a clock, so the same tests come out on any
machine; the function's deadline still stops it.
"""

from __future__ import annotations

from collections.abc import Iterable

from pathcraft.engine.criteria import Criteria, Criterion, CriterionSpec
from pathcraft.ir.trace import TraceTerm

# paths the deeper search may complete, per path of the first search (plus a floor)
PATHS_PER_PATH = 1
PATHS_FLOOR = 50
# and Z3 work it may spend (its deterministic resource count; a hard
# nonlinear query may take a few million)
SOLVER_WORK = 2_000_000  # one hard query's rlimit (solver/chain.py): about 3 s of Z3

Signature = tuple[object, ...]


def one_deeper(criterion: CriterionSpec) -> CriterionSpec:
    """`criterion` with its loop-K part at K + 1."""
    if isinstance(criterion, Criteria):
        return Criteria(tuple(Criterion("loop", p.k + 1) if p.kind == "loop" else p for p in criterion.parts))
    return Criterion("loop", criterion.k + 1) if criterion.kind == "loop" else criterion


def own_signature(trace: TraceTerm, entries: Iterable[str]) -> Signature:
    """The rules of `trace`'s own function (the root's predicate and the
    blocks under it), each call to another function (a predicate in
    `entries`, or one of the runtime's) reduced to its name: two paths
    with one signature make the same decisions in the function itself."""
    prefix = f"{trace.predicate}_"
    callees = set(entries)
    out: list[object] = []
    stack: list[TraceTerm | str] = [trace]
    while stack:  # iterative, as TraceTerm.__str__: loops nest traces deeply
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        own = item is trace or (item.predicate.startswith(prefix) and item.predicate not in callees)
        if not own:
            out.append(("call", item.predicate))
            continue
        out.append((item.predicate, item.rule, item.raised))
        stack.append(")")
        stack.extend(reversed(item.children))
    return tuple(out)
