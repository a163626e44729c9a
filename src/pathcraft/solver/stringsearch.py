"""Models of string constraints Z3 handles badly, by trying strings.

Two kinds of query go here before Z3:

* `str.lower`/`str.upper` (`CASE_OPS`): Z3 is never asked a query holding
  them (z3backend's `UNBOUNDED_IN_Z3`: their `seq.map` can hold the
  interpreter past any timeout), so without this search every such branch
  but the one the current model takes was unknown: `if word.upper() ==
  word:` got a test for `''` and none for `'a'`.
* a `find` in a string cut where an earlier `find` says (`find(substr(s,
  find(s, '.') + 1, ...), '.')`): the prelude's loops over `find`
  (`str.replace`, `split`, `count`) nest such terms once per turn, and
  Z3's string solver takes seconds on the second turn, past its timeout,
  and gives up on the third: a two-line `s.replace(".", "_").replace("-",
  "_")` kept no test within its budget.

Most of these conditions are met by a short string built from the
constants around them (`"Yes"` and its other cases; `"."`, `".."`, `"a.-"`)
or by one of a few short words, so those are tried, in a fixed order, with
the operators' Python column (`floatsearch.search`): a model found is a
model, exact by construction. It proves nothing: when none is found the
query stays unknown (Z3 is not asked: the path is dropped and counted,
never guessed). A path's canonical model is grown the same way along its
constraints (`grown`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from pathcraft.solver import floatsearch
from pathcraft.solver.terms import App, Model, Term, Value, compile_terms, holds_operator, order_key, symbols

CASE_OPS = frozenset({"lower", "upper"})
FIND = frozenset({"indexof"})
NUMERALS = frozenset({"str_of_nat"})  # an int's digits read as a string
MAX_DIGITS = 6  # the longest numeral tried as an int
# short strings first, each case and none (a digit, a space), then mixed
SMALL_STRINGS = ("a", "A", "", "1", " ", "aA", "ab", "AB", "Ab", "a b", "a1")
MAX_CONSTANTS = 24  # string constants of the constraints taken, with their case variants
MAX_PIECES = 6  # the shortest constants joined in twos and threes (with "a" among them)
MAX_SEED = 16  # a longer string of the current model is not grown
BUDGET = 800  # assignments tried per search (a failing search pays them all; models come in the first hundreds)


class HardForZ3:
    """Does a term apply `lower`/`upper`, or `find` to a string cut where an
    earlier `find` says (a loop's later turn)? The answers are kept per term
    (terms share subterms, and a path's constraints are asked about again
    and again)."""

    def __init__(self) -> None:
        self._hard: dict[Term, bool] = {}
        self._finds: dict[Term, bool] = {}  # does the term apply `find`?

    def __call__(self, t: Term) -> bool:
        if not isinstance(t, App):
            return False
        found = self._hard.get(t)
        if found is None:
            found = t.op in CASE_OPS or t.op == "indexof" and holds_operator(t.args[0], FIND, self._finds) \
                or any(self(a) for a in t.args)
            self._hard[t] = found
        return found


def string_candidates(terms: list[Term], seeds: Iterable[str] = ()) -> list[str]:
    """The constraints' string constants in each case, SMALL_STRINGS, each
    of `seeds` (the current model's strings: they meet all but the newest
    constraint, and a loop's next turn wants one more occurrence) with a
    constant put in at each place, then the shortest constants (and "a")
    joined in twos (and threes, without a seed)."""
    constants: list[str] = []
    seen: set[int] = set()
    stack = list(terms)
    while stack and len(constants) < MAX_CONSTANTS:
        t = stack.pop()
        if isinstance(t, str):
            if t not in constants:
                constants.append(t)
        elif isinstance(t, App) and id(t) not in seen:
            seen.add(id(t))
            stack.extend(reversed(t.args))
    pieces = sorted({c for c in constants if c}, key=lambda c: (len(c), c))[:MAX_PIECES - 1] + ["a"]
    grown = [seed[:i] + piece + seed[i:] for seed in seeds if len(seed) <= MAX_SEED
             for i in range(len(seed) + 1) for piece in pieces]
    sizes = (2,) if grown else (2, 3)  # with a seed to grow, threes cost a failing search more than they find
    joined = ["".join(p) for size in sizes for p in itertools.product(pieces, repeat=size)]
    out: list[str] = []
    for text in (*(v for c in constants for v in (c, c.lower(), c.upper(), c.swapcase())), *SMALL_STRINGS,
                 *grown, *joined):
        if text not in out:
            out.append(text)
    return out


def search(constraints: list[Term], seed: Model) -> dict[str, Value] | None:
    """Values of the constraints' symbols that satisfy them all, changed
    from `seed` where they must be; None when none is found."""
    order = sorted({s for t in constraints for s in symbols(t)}, key=lambda s: (s.name, s.sort))
    seeds = [text for s in order if isinstance(text := seed.get(s.name), str)]
    return floatsearch.search(sorted(constraints, key=order_key), order, seed=seed, budget=BUDGET,
                              strings=string_candidates(constraints, seeds))


def grown(constraints: list[Term]) -> dict[str, Value] | None:
    """A model of a path's `constraints` (oldest first) grown along it as a
    search grows it: from empty strings, each constraint the model so far
    fails is met by a `search` seeded with it (a loop's turn adds one more
    occurrence). It depends on the path alone, so it serves as a canonical
    model (canonical.py); None when some step finds none."""
    model: dict[str, Value] = {}
    checks = compile_terms(constraints)
    for k, check in enumerate(checks):
        if check(model):
            continue
        found = search(constraints[:k + 1], model)
        if found is None:
            return None
        model.update(found)
    return model


def numeral_model(constraints: list[Term]) -> dict[str, Value] | None:
    """A model of a path that reads an int's digits as a string
    (`str(n)[-1] == '1'`): the ints tried are the small ones, every int of
    two digits, then the numerals among the strings built from the
    constants (`'111'`).
    Z3 takes seconds on such a path within the small boxes canonical models
    ask for first; these ints are small too. None when none fits."""
    order = sorted({s for t in constraints for s in symbols(t)}, key=lambda s: (s.name, s.sort))
    texts = string_candidates(constraints)
    numerals = [*range(100), *sorted({int(t) for t in texts if t.isdigit() and t.isascii() and len(t) <= MAX_DIGITS})]
    return floatsearch.search(sorted(constraints, key=order_key), order, budget=BUDGET, strings=texts,
                              more_ints=numerals)
