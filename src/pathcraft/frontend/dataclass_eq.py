"""The `__eq__` a `@dataclass` generates, written as Python and lowered silently.

CPython 3.11's is `if other.__class__ is self.__class__: return (self.a,
...) == (other.a, ...)`, else NotImplemented. The class test is the
engine's (`engine/objeq.py` calls this method only on two instances of the
class; otherwise Python falls back to identity). The tuple comparison
compares item by item, each first by identity (`PyObject_RichCompareBool`),
and stops at the first unequal pair; so the method written here is

    def __eq__(self, other):
        if self is other: return True          # every item identical
        if self.a != other.a: return False     # annotated int, bool or str: identity adds nothing
        if self.r is not other.r and self.r != other.r: return False  # anything else (Any too)
        return True

where `!=` between references goes through the same dispatch (a nested
dataclass compares its fields, a cycle recurses until the engine's depth
bound drops the path: CPython would raise RecursionError). A float field
(`x is y` for floats is not modelled: nan) leaves the class without one.
The predicates are silent (builtin, no line marks): generated code has no
lines of its own.
"""

from __future__ import annotations

import ast

from pathcraft.frontend.lower import synthetic_function
from pathcraft.ir.nodes import ClassInfo, FunctionInfo
from pathcraft.ir.types import Type

# the fields of a dataclass that take part in `==`, in order (own class body)
Fields = tuple[str, ...]


def generated(cls: ast.ClassDef, info: ClassInfo) -> bool:
    """Does `@dataclass` write the class's `__eq__` (none in its body)?"""
    return info.dataclass and not any(isinstance(item, ast.FunctionDef) and item.name == "__eq__"
                                      for item in cls.body)


def _plain(cls: ast.ClassDef) -> set[str]:
    """Fields annotated exactly `int`, `bool` or `str` (not `Any`, which the
    model also types int but may hold anything: its identity test stays)."""
    out = set()
    for item in cls.body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            note = item.annotation
            text = note.value if isinstance(note, ast.Constant) and isinstance(note.value, str) else \
                note.id if isinstance(note, ast.Name) else None
            if text in ("int", "bool", "str"):
                out.add(item.target.id)
    return out


def source(fields: Fields, types: dict[str, Type], plain: set[str]) -> str | None:
    """The method's source, None when a field's type is not modelled."""
    lines = ["def __eq__(self, other):", "    if self is other:", "        return True"]
    for name in fields:
        kind = types.get(name)
        if kind is None or kind.kind == "float":
            return None
        if kind.kind in ("int", "bool", "str") and not kind.optional and name in plain:
            lines += [f"    if self.{name} != other.{name}:", "        return False"]
        else:
            lines += [f"    if self.{name} is not other.{name} and self.{name} != other.{name}:",
                      "        return False"]
    lines.append("    return True")
    return "\n".join(lines)


def synthesize(node: ast.ClassDef, fields: Fields, info: ClassInfo) -> tuple[FunctionInfo, ast.FunctionDef] | None:
    """The FunctionInfo and def of `cls.__eq__`, to lower as a method of `cls`."""
    cls, line = node.name, node.lineno
    text = source(fields, dict(info.fields), _plain(node))
    if text is None:
        return None
    parsed = ast.parse(text).body[0]
    assert isinstance(parsed, ast.FunctionDef)
    fn = synthetic_function("__eq__", ["self", "other"], parsed.body, line)
    kind = Type("obj", cls)
    return FunctionInfo("__eq__", f"{cls}.__eq__", ("self", "other"), (kind, kind), "bool", (), line, line,
                        f"{cls}___eq__"), fn


