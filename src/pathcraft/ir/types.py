"""Types of the subset: `int`, `bool`, `None`, user classes `C`,
`C | None`, `list[T]` of those, and tuples of ints and bools
(`tuple[int, bool]`: `items`; `tuple[int, ...]`: `elem`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Type:
    kind: str  # "int" | "bool" | "float" | "str" | "none" | "obj" | "list" | "tuple"
    cls: str | None = None
    optional: bool = False
    elem: Type | None = None
    items: tuple[Type, ...] | None = None  # a tuple's item types, when it has a fixed length

    def __str__(self) -> str:
        if self.kind == "none":
            return "None"
        if self.kind == "obj":
            base = str(self.cls)
        elif self.kind == "list":
            base = f"list[{self.elem}]"
        elif self.kind == "tuple":
            base = f"tuple[{', '.join(map(str, self.items)) if self.items is not None else f'{self.elem}, ...'}]"
        else:
            base = self.kind
        return f"{base} | None" if self.optional else base

    @property
    def is_ref(self) -> bool:
        return self.kind in ("obj", "list", "none", "tuple")

    def nullable(self) -> Type:
        return Type(self.kind, self.cls, True, self.elem, self.items)


INT = Type("int")
BOOL = Type("bool")
FLOAT = Type("float")
STR = Type("str")
NONE = Type("none", optional=True)


