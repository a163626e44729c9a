"""Canonical models: the values a test case is built from, independent of
the search that found its path.

The search's own model of a path depends on what the solver saw before (the
incremental Z3 session, the slicing cache, models reused from the parent
state), so the same path found by another search order, or by another
process of a parallel run, would get other inputs. A canonical model is
solved afresh from the path's constraints alone, in a new Z3 context,
preferring small ints: the same path always gives the same test.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType

from pathcraft.solver.path import PathNode, nodes
from pathcraft.solver.terms import Model, Sym, evaluate, within
from pathcraft.solver.z3backend import Z3Session, path_symbols


# The empty model: `evaluate` reads every symbol it does not name as 0 / False.
_ZERO: Model = MappingProxyType({})


def canonical_model(store: PathNode | None, inputs: Iterable[Sym], bounds: tuple[int, ...],
                    timeout_ms: int, rlimit: int) -> Model | None:
    """A model of the path constraints `store`: all zeros if that is one,
    else Z3's, covering `inputs` and every symbol of the path, with every
    int in [-b, b] for the first bound `b` that allows one (then unbounded);
    None if Z3 finds none in its limits."""
    constraints = [node.constraint for node in nodes(store)]
    if all(evaluate(c, _ZERO) for c in constraints):
        return _ZERO  # every int 0, every bool False, every array all 0: no solver needed
    wanted = sorted(set(path_symbols(store, [])) | set(inputs), key=lambda s: (s.name, s.sort))
    session = Z3Session(timeout_ms, rlimit)
    for constraint in constraints:  # one shot: no scope per constraint
        session.solver.add(session.translate(constraint))
    for bound in (*bounds, None):
        extra = within(wanted, bound) if bound is not None else []
        verdict, model = session.check(None, extra, wanted)
        if verdict == "sat":
            return model
    return None
