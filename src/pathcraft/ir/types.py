"""Types of the subset: `int`, `bool`, `None`, user classes `C`,
`C | None`, and `list[T]` of those."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Type:
    kind: str  # "int" | "bool" | "float" | "str" | "none" | "obj" | "list"
    cls: str | None = None
    optional: bool = False
    elem: Type | None = None

    def __str__(self) -> str:
        if self.kind == "none":
            return "None"
        if self.kind == "obj":
            base = str(self.cls)
        elif self.kind == "list":
            base = f"list[{self.elem}]"
        else:
            base = self.kind
        return f"{base} | None" if self.optional else base

    @property
    def is_ref(self) -> bool:
        return self.kind in ("obj", "list", "none")

    def nullable(self) -> Type:
        return Type(self.kind, self.cls, True, self.elem)


INT = Type("int")
BOOL = Type("bool")
FLOAT = Type("float")
STR = Type("str")
NONE = Type("none", optional=True)


