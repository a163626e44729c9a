"""Module-level `if`s decided by the interpreter's version:
`if sys.version_info >= (3, 12):`, `if hexversion < 0x03000000:`.

Why: libraries import or define a name one way per Python version
(`from functools import reduce` in the `else` of a Python 2 check,
`batched = _batched` below 3.13). The generated tests state what CPython
does in the version that made them (their header says so), so the branch
that version takes is the module's code and the others do not exist: the
`if` is replaced by the statements of its taken branch, at load, for
every pass alike. A test that reads anything else (`sys.platform`, an
import that may fail) leaves the `if` as it is.
"""

from __future__ import annotations

import ast
import operator
import sys
from collections.abc import Callable
from typing import Any

_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
    ast.Eq: operator.eq, ast.NotEq: operator.ne,
}


class _Undecided(Exception):
    """The test reads something other than the interpreter's version."""


def fold_version_branches(tree: ast.Module) -> None:
    """Replace each module-level `if` whose test only compares the
    interpreter's version by the statements of the branch it takes."""
    sys_names = {a.asname or a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names
                 if a.name == "sys"}
    from_sys = {a.asname or a.name: a.name for n in tree.body if isinstance(n, ast.ImportFrom)
                and n.module == "sys" and not n.level for a in n.names if a.name in ("version_info", "hexversion")}
    tree.body = _folded(tree.body, sys_names, from_sys)


def _folded(body: list[ast.stmt], sys_names: set[str], from_sys: dict[str, str]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for statement in body:
        if isinstance(statement, ast.If):
            try:
                taken = statement.body if _truth(statement.test, sys_names, from_sys) else statement.orelse
            except _Undecided:
                out.append(statement)
                continue
            out.extend(_folded(taken, sys_names, from_sys) or [ast.copy_location(ast.Pass(), statement)])
        else:
            out.append(statement)
    return out


def _truth(test: ast.expr, sys_names: set[str], from_sys: dict[str, str]) -> bool:
    if isinstance(test, ast.BoolOp):
        values = [_truth(v, sys_names, from_sys) for v in test.values]  # every part must be decided
        return all(values) if isinstance(test.op, ast.And) else any(values)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return not _truth(test.operand, sys_names, from_sys)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _COMPARE:
        left = _value(test.left, sys_names, from_sys)
        right = _value(test.comparators[0], sys_names, from_sys)
        return _COMPARE[type(test.ops[0])](left, right)
    raise _Undecided


def _value(node: ast.expr, sys_names: set[str], from_sys: dict[str, str]) -> Any:
    """A constant (an int or a tuple of ints), or the version read as
    `sys.version_info` (also indexed, sliced, `.major`/`.minor`) or
    `sys.hexversion`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Constant) and type(e.value) is int for e in node.elts):
        return tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
    if isinstance(node, ast.Name) and node.id in from_sys:
        return _version(from_sys[node.id])
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in sys_names \
            and node.attr in ("version_info", "hexversion"):
        return _version(node.attr)
    if isinstance(node, ast.Attribute) and node.attr in ("major", "minor"):
        info = _value(node.value, sys_names, from_sys)
        if isinstance(info, tuple) and len(info) == 5:
            return info[0] if node.attr == "major" else info[1]
    if isinstance(node, ast.Subscript):
        info = _value(node.value, sys_names, from_sys)
        if isinstance(info, tuple):
            index = node.slice
            if isinstance(index, ast.Constant) and type(index.value) is int:
                return info[index.value]
            if isinstance(index, ast.Slice) and index.step is None:
                bounds: list[Any] = [None if b is None else b.value if isinstance(b, ast.Constant)
                                     and type(b.value) is int else _Undecided for b in (index.lower, index.upper)]
                if _Undecided not in bounds:
                    return info[slice(*bounds)]
    raise _Undecided


def _version(name: str) -> Any:
    """The running interpreter's version, as `sys` gives it (a plain tuple
    for `version_info`, so it compares with tuples as the real one does)."""
    return tuple(sys.version_info) if name == "version_info" else sys.hexversion
