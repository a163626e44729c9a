"""The frontend half of the `itertools` model: which calls of the library
become calls of the prelude's generators (`prelude.py`), and the
arguments each gets in the prelude function's order
(`frontend/stdlib.Stdlib.itertool` evaluates the call's own first, in
the call's order)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pathcraft.ir.builtin_names import function_predicate
from pathcraft.ir.nodes import Const, Expr


@dataclass(frozen=True)
class Signature:
    """The prelude function's parameters, how many a call must give by
    position, the values of those left out, and those CPython also takes
    by keyword."""

    params: tuple[str, ...]
    least: int
    most: int
    defaults: tuple[int | None, ...] = ()  # of the parameters after `least`
    keywords: frozenset[str] = frozenset()


_SIGNATURES: dict[str, Signature] = {
    "repeat": Signature(("object", "times"), 1, 2, (None,), frozenset({"object", "times"})),
    "count": Signature(("start", "step"), 0, 2, (0, 1), frozenset({"start", "step"})),
    "compress": Signature(("data", "selectors"), 2, 2, (), frozenset({"data", "selectors"})),
    "filterfalse": Signature(("function", "iterable"), 2, 2),
    "takewhile": Signature(("predicate", "iterable"), 2, 2),
    "dropwhile": Signature(("predicate", "iterable"), 2, 2),
    "accumulate": Signature(("iterable", "initial"), 1, 1, (None,), frozenset({"initial"})),  # no `func`
    "cycle": Signature(("iterable",), 1, 1),
    "tee": Signature(("iterable", "n"), 1, 2, (2,)),
    "zip_longest": Signature(("first", "second", "fillvalue"), 2, 2, (None,), frozenset({"fillvalue"})),
    "groupby": Signature(("iterable", "key"), 1, 2, (None,), frozenset({"iterable", "key"})),
    "pairwise": Signature(("iterable",), 1, 1),
    "combinations": Signature(("iterable", "r"), 2, 2, (), frozenset({"iterable", "r"})),
}
# the ones that call their first argument on each item (a callable parameter's `__call__`)
CALLING = frozenset({"filterfalse", "takewhile", "dropwhile", "groupby"})


def takes(name: str, count: int, keywords: list[str]) -> bool:
    """Does the model take `itertools.name` called with `count` positional
    arguments and these keywords?"""
    if name in ("chain", "islice"):
        return not keywords and (name == "chain" or 2 <= count <= 4)
    signature = _SIGNATURES.get(name)
    if signature is None or not signature.least <= count <= signature.most:
        return False
    named = set(signature.params[:count])
    return all(k in signature.keywords and k not in named for k in keywords) and len(set(keywords)) == len(keywords)


def arguments(name: str, args: list[Expr], keywords: dict[str, Expr], as_tuple: Callable[[list[Expr]], Expr],
              from_iterable: bool = False) -> list[Expr]:
    """The prelude generator's arguments: `chain(a, b)`'s sources as one
    tuple (`as_tuple` builds it), `islice(it, stop)` with start and step
    None, keywords in their places, the defaults of the others."""
    if name == "chain":
        return args if from_iterable else [as_tuple(args)]
    if name == "islice":
        return [args[0], Const(None), args[1], Const(None)] if len(args) == 2 else [*args, Const(None)][:4]
    signature = _SIGNATURES[name]
    out = list(args)
    for index in range(len(args), len(signature.params)):
        param = signature.params[index]
        out.append(keywords[param] if param in keywords else Const(signature.defaults[index - signature.least]))
    return out


def predicate(name: str) -> str:
    return function_predicate(f"itertools_{name}")
