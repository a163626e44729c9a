"""`typing.NamedTuple` classes: tuples whose items have names.

A class `C(NamedTuple)` whose body only declares annotated fields (with
constant defaults, and a docstring) is no object class here: `C(a, b=1)`
is a tuple of its items in field order (`NewList(..., named=...)`), tagged
with the class and field names so that `x.field` reads an item, `type(x)`
and `isinstance` know it, and the tests construct and compare it as
`mod.C(a=..., b=...)`. Everything else a tuple does (unpacking, indexing,
`len`, `==` with any tuple, ordering, hashing) is the tuple's own. A
NamedTuple with methods, or a parameter annotated with one, is not
modelled (the class stays a refused class, the parameter type unknown).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pathcraft.ir.nodes import Const, Expr, Text

# the item defaults a field may have: what a test can write back as a literal
Default = int | bool | float | str | None


@dataclass(frozen=True)
class NamedTupleInfo:
    name: str
    fields: tuple[str, ...]
    defaults: tuple[tuple[str, Default], ...]  # the trailing fields that have one

    @property
    def tag(self) -> tuple[str, tuple[str, ...]]:
        """What a tuple cell of this class carries (`ListCell.named`)."""
        return self.name, self.fields


def _is_namedtuple_base(base: ast.expr, imported: set[str]) -> bool:
    if isinstance(base, ast.Name):
        return base.id == "NamedTuple" and "NamedTuple" in imported
    return isinstance(base, ast.Attribute) and base.attr == "NamedTuple" \
        and isinstance(base.value, ast.Name) and base.value.id == "typing" and "typing" in imported


def namedtuple_info(cls: ast.ClassDef, imported: set[str]) -> NamedTupleInfo | None:
    """The fields of `cls` if it is a NamedTuple of the modelled kind."""
    if len(cls.bases) != 1 or cls.keywords or cls.decorator_list \
            or not _is_namedtuple_base(cls.bases[0], imported):
        return None
    fields: list[str] = []
    defaults: list[tuple[str, Default]] = []
    for k, item in enumerate(cls.body):
        if k == 0 and isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant) \
                and isinstance(item.value.value, str):
            continue  # the docstring
        if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
            return None
        name = item.target.id
        if name.startswith("_"):
            return None  # Python refuses field names with an underscore first
        fields.append(name)
        if item.value is None:
            if defaults:
                return None  # a field without a default after one with: Python refuses the class
            continue
        if not (isinstance(item.value, ast.Constant) and
                (item.value.value is None or isinstance(item.value.value, (int, bool, float, str)))):
            return None
        defaults.append((name, item.value.value))
    if not fields:
        return None
    return NamedTupleInfo(cls.name, tuple(fields), tuple(defaults))


def namedtuple_literal(node: ast.expr, classes: Mapping[str, NamedTupleInfo],
                       constant: Callable[[ast.expr], bool]) -> bool:
    """`C(1, b=2.5)`: a NamedTuple of the module built from constants (as
    immutable as a literal: an item of a read-only module container)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in classes \
        and all(constant(a) for a in node.args) and all(k.arg is not None and constant(k.value) for k in node.keywords)


class ArgumentError(Exception):
    """Arguments the class does not take (Python's TypeError at the call):
    the frontend refuses the call."""


def arguments(info: NamedTupleInfo, positional: list[Expr], keywords: list[tuple[str, Expr]]) -> tuple[Expr, ...]:
    """The items of `C(*positional, **keywords)`, in field order."""
    if len(positional) > len(info.fields):
        raise ArgumentError(f"too many arguments to {info.name}()")
    given = dict(zip(info.fields, positional))
    for name, value in keywords:
        if name not in info.fields or name in given:
            raise ArgumentError(f"bad keyword argument '{name}' to {info.name}()")
        given[name] = value
    defaults = dict(info.defaults)
    items: list[Expr] = []
    for name in info.fields:
        if name in given:
            items.append(given[name])
        elif name in defaults:
            default = defaults[name]
            items.append(Const(Text(default) if isinstance(default, str) else default))
        else:
            raise ArgumentError(f"missing argument '{name}' to {info.name}()")
    return tuple(items)

