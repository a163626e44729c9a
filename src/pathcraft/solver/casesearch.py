"""Models of constraints on `str.lower`/`str.upper` by trying strings.

Z3 is never asked a query holding `lower` or `upper` (z3backend's
`UNBOUNDED_IN_Z3`: their `seq.map` can hold the interpreter past any
timeout), so without this search every such branch but the one the
current model already takes was unknown: `if word.upper() == word:` got a
test for `''` and none for `'a'`. Most of these conditions are met by a
short string built from the constants around them (`"Yes"`, its lower and
upper case) or by one of a few short words mixing cases, so those are
tried, in a fixed order, with the operators' Python column
(`floatsearch.search`): a model found is a model, exact by construction.
It proves nothing: when none is found the query stays unknown.
"""

from __future__ import annotations

from collections.abc import Iterable

from pathcraft.solver import floatsearch
from pathcraft.solver.terms import App, Model, Term, Value, holds_operator, symbols

CASE_OPS = frozenset({"lower", "upper"})
# short strings first, each case and none (a digit, a space), then mixed
SMALL_STRINGS = ("a", "A", "", "1", " ", "aA", "ab", "AB", "Ab", "a b", "a1")
MAX_CONSTANTS = 24  # string constants of the constraints taken, with their case variants
BUDGET = 3000  # assignments tried per search


def holds_case(terms: Iterable[Term], memo: dict[Term, bool]) -> bool:
    """Does any of `terms` apply `lower` or `upper`? `memo` keeps the answer
    per term (a path's constraints are asked about again and again)."""
    return any(holds_operator(t, CASE_OPS, memo) for t in terms)


def string_candidates(terms: list[Term]) -> list[str]:
    """The constraints' string constants in each case, then SMALL_STRINGS."""
    constants: list[str] = []
    seen: set[int] = set()
    stack = list(terms)
    while stack and len(constants) < MAX_CONSTANTS:
        t = stack.pop()
        if isinstance(t, str):
            constants.append(t)
        elif isinstance(t, App) and id(t) not in seen:
            seen.add(id(t))
            stack.extend(reversed(t.args))
    out: list[str] = []
    for text in (*(v for c in constants for v in (c, c.lower(), c.upper(), c.swapcase())), *SMALL_STRINGS):
        if text not in out:
            out.append(text)
    return out


def search(constraints: list[Term], seed: Model) -> dict[str, Value] | None:
    """Values of the constraints' symbols that satisfy them all, changed
    from `seed` where they must be; None when none is found."""
    order = sorted({s for t in constraints for s in symbols(t)}, key=lambda s: (s.name, s.sort))
    return floatsearch.search(sorted(constraints, key=repr), order, seed=seed, budget=BUDGET,
                              strings=string_candidates(constraints))
