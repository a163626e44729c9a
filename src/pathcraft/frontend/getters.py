"""`operator.itemgetter(k)` and `operator.attrgetter("a")` as functions:
the expression each applies to its argument.

Why: libraries hand them to `min`/`max`/`sorted` as the key and to `map`
(`min(enumerate(xs), key=itemgetter(1))`, `map(itemgetter(0), pairs)`);
a getter made of constants reads the same item or attribute of each
argument, so it is written as that read (`x[1]`, `x.name`; several
constants give the tuple of reads, as `operator` does). A getter of a
computed key, or a dotted attribute path, is not read here.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable

# what a call's function is: (module, name) of an imported library name, else None
Origin = Callable[[ast.expr], tuple[str, str] | None]


def getter_read(origin: Origin, getter: ast.expr, item: ast.expr) -> ast.expr | None:
    """What `getter(item)` computes, or None when `getter` is no getter of constants."""
    if not isinstance(getter, ast.Call) or getter.keywords or not getter.args \
            or not all(isinstance(a, ast.Constant) for a in getter.args):
        return None
    made = origin(getter.func)
    if made is None or made[0] != "operator" or made[1] not in ("itemgetter", "attrgetter"):
        return None
    keys = [a.value for a in getter.args if isinstance(a, ast.Constant)]
    reads: list[ast.expr] = []
    for key in keys:
        if made[1] == "itemgetter" and isinstance(key, (int, str)) and not isinstance(key, bool):
            reads.append(ast.Subscript(copy.deepcopy(item), ast.Constant(key), ast.Load()))
        elif made[1] == "attrgetter" and isinstance(key, str) and key.isidentifier():
            reads.append(ast.Attribute(copy.deepcopy(item), key, ast.Load()))
        else:
            return None
    read = reads[0] if len(reads) == 1 else ast.Tuple(reads, ast.Load())
    for part in ast.walk(read):
        if "lineno" in part._attributes and not hasattr(part, "lineno"):
            ast.copy_location(part, getter)
    return read
