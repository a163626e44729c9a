"""The frontend half of the `itertools` model: which calls of the library
become calls of the prelude's generators (`prelude.py`), and the
arguments each gets (`frontend/stdlib.Stdlib.itertool` evaluates them)."""

from __future__ import annotations

from collections.abc import Callable

from pathcraft.ir.builtin_names import function_predicate
from pathcraft.ir.nodes import Const, Expr

# name -> (fewest and most positional arguments, the values of those left out)
_FIXED: dict[str, tuple[int, int, tuple[int | None, ...]]] = {
    "repeat": (1, 2, (None,)),
    "count": (0, 2, (0, 1)),
    "compress": (2, 2, ()),
    "filterfalse": (2, 2, ()),
    "takewhile": (2, 2, ()),
    "dropwhile": (2, 2, ()),
}
# the ones that call their first argument on each item (a callable parameter's `__call__`)
CALLING = frozenset({"filterfalse", "takewhile", "dropwhile"})


def takes(name: str, count: int) -> bool:
    """Does the model take `itertools.name` called with `count` positional arguments?"""
    if name == "chain":
        return True
    if name == "islice":
        return 2 <= count <= 4
    return name in _FIXED and _FIXED[name][0] <= count <= _FIXED[name][1]


def arguments(name: str, args: list[Expr], as_tuple: Callable[[list[Expr]], Expr], from_iterable: bool = False
              ) -> list[Expr]:
    """The prelude generator's arguments: `chain(a, b)`'s sources as one
    tuple (`as_tuple` builds it), `islice(it, stop)` with start and step
    None, the defaults of the others filled in."""
    if name == "chain":
        return args if from_iterable else [as_tuple(args)]
    if name == "islice":
        return [args[0], Const(None), args[1], Const(None)] if len(args) == 2 else [*args, Const(None)][:4]
    least, _most, missing = _FIXED[name]
    return args + [Const(v) for v in missing[len(args) - least:]]


def predicate(name: str) -> str:
    return function_predicate(f"itertools_{name}")
