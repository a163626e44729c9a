"""`*args` parameters: the arguments a call passes past the positional
parameters, as the tuple Python makes of them.

An annotation types the items (`*args: int` is `tuple[int, ...]`).
Without one, the items are typed from the loops that walk the tuple
(`for other in others:` and how `other` is used: a list of ints when it
is iterated or indexed, an int when it is only computed with), and are
ints when nothing walks it; a guess, announced as one. Inputs hold up to
the list bound's number of items (`heap/tuples.py`); a call of analysed
code packs what it passes there (`frontend/callargs.py`,
`engine/methods.py`); a test spreads them (`testcase/callshape.py`).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from pathcraft.ir.types import INT, Type

# types one parameter from its annotation, or from its use (None: the use does not tell)
Annotated = Callable[[ast.arg, ast.expr], Type]
FromUse = Callable[[ast.FunctionDef, str], Type | None]


class VarargsError(Exception):
    """The items' type cannot be told."""


def parameter_type(fn: ast.FunctionDef, arg: ast.arg, annotated: Annotated, from_use: FromUse
                   ) -> tuple[Type, str | None]:
    """The tuple type of `*arg`, and a note when its items' type is a guess."""
    if arg.annotation is not None:
        return Type("tuple", elem=annotated(arg, arg.annotation)), None
    walkers = loop_names(fn, arg.arg)
    kinds = {from_use(fn, name) for name in walkers}
    if None in kinds or len(kinds) > 1:
        raise VarargsError(f"*{arg.arg} without a type annotation (the use of its items does not tell their type)")
    item = kinds.pop() if kinds else INT
    return Type("tuple", elem=item), f"*{arg.arg}: {item} items (from their use)"


def loop_names(fn: ast.FunctionDef, name: str) -> list[str]:
    """The names `for v in name:` loops (and comprehensions) bind to the items."""
    found: list[str] = []
    for node in ast.walk(fn):
        if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.iter, ast.Name) \
                and node.iter.id == name and isinstance(node.target, ast.Name):
            found.append(node.target.id)
    return found
