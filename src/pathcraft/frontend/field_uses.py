"""An attribute whose stores do not tell its type, typed from how the
class's methods use it.

`Bits.__init__` converts its untyped `val` from a list, bytes or str before
`self.val = val`: the stores alone leave the attribute unknown (frontend/
fields.py), and every method that reads it lost its paths. What the
methods do with `self.val` says more: an operation only numbers have
(`>>`, `//`, `**`, `-x`, `+ 1` with an int literal), an order comparison
with an int literal, a `range` bound, an int format spec (`f"{v:b}"`).
When at least one use is such and none is a use no int has (an attribute
or method of it, a call, an index into it, iterated, `len`, `in`, a
`with`), the attribute is an int: a guess, like an untyped parameter's.
Other uses (compared with a name, handed to a function, returned) fit an
int as well as anything else and decide nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from pathcraft.ir.types import INT, Type

_NUMERIC_ONLY = (ast.FloorDiv, ast.LShift, ast.RShift, ast.Pow)  # no str, list or set has these
_ORDER = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)


def int_by_use(chain: list[ast.ClassDef], name: str, mangle: Callable[[str, str], str],
               methods: Callable[[ast.ClassDef], Iterable[ast.FunctionDef]]) -> Type | None:
    """INT when every read of attribute `name` (as stored: mangled) by the
    methods of the classes in `chain` is an int use and one is; else None."""
    told = False
    for cls in chain:
        for method in methods(cls):
            me = method.args.args[0].arg if method.args.args else None
            parents = {id(child): node for node in ast.walk(method) for child in ast.iter_child_nodes(node)}
            for node in ast.walk(method):
                if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == me
                        and isinstance(node.ctx, ast.Load) and mangle(node.attr, cls.name) == name):
                    continue
                use = _int_use(node, parents.get(id(node)))
                if use is None:
                    return None
                told = told or use
    return INT if told else None


def _int_use(node: ast.expr, parent: ast.AST | None) -> bool | None:
    """True: a use only a number fits (`self.n >> 1`, `self.n + 1`, `self.n
    < 8`, `-self.n`, `range(self.n)`, `f"{self.n:b}"`); None: a use no int
    has (an attribute or method of it, called, indexed, iterated, `len`,
    `in`, `with`); False: any other use, which an int fits as well as
    other types (compared, added to a name, handed to a function, returned)."""
    if isinstance(parent, ast.Attribute) or isinstance(parent, ast.Subscript) and parent.value is node \
            or isinstance(parent, ast.Call) and parent.func is node \
            or isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node \
            or isinstance(parent, ast.withitem) or isinstance(parent, ast.Starred):
        return None
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and node in parent.args:
        if parent.func.id in ("len", "iter", "list", "tuple", "set", "dict", "sorted", "reversed", "next", "sum"):
            return None
        return parent.func.id == "range"
    if isinstance(parent, ast.BinOp):
        other = parent.right if parent.left is node else parent.left
        return isinstance(parent.op, _NUMERIC_ONLY) or isinstance(parent.op, (ast.Add, ast.Sub)) and _int(other)
    if isinstance(parent, ast.AugAssign) and parent.value is node:
        return isinstance(parent.op, _NUMERIC_ONLY)
    if isinstance(parent, ast.UnaryOp):
        return isinstance(parent.op, (ast.USub, ast.Invert))
    if isinstance(parent, ast.Compare):
        if any(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops) and node in parent.comparators:
            return None  # `x in self.items`: a container
        return len(parent.ops) == 1 and isinstance(parent.ops[0], _ORDER) and _int(
            parent.comparators[0] if parent.left is node else parent.left)
    if isinstance(parent, ast.FormattedValue):
        spec = parent.format_spec
        text = "".join(str(v.value) for v in spec.values if isinstance(v, ast.Constant)) \
            if isinstance(spec, ast.JoinedStr) else ""
        return text[-1:] in ("b", "o", "x", "X", "d")
    return False


def _int(node: ast.expr) -> bool:
    """An int literal (`1`, `-1`)?"""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int
