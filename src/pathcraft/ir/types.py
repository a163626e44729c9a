"""Types of the subset: `int`, `bool`, `None`, user classes `C`,
`C | None`, unions of classes (`A | B | None`, a field's), `list[T]`,
`dict[K, V]` and `set[K]` of those, and tuples of ints and bools
(`tuple[int, bool]`: `items`; `tuple[int, ...]`: `elem`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Type:
    kind: str  # "int" | "bool" | "float" | "str" | "none" | "obj" | "list" | "tuple" | "dict" | "set"
    cls: str | None = None
    optional: bool = False
    elem: Type | None = None  # items of a list or set, values of a dict
    items: tuple[Type, ...] | None = None  # the item types of a tuple of fixed length
    key: Type | None = None  # keys of a dict
    deque: bool = False  # a list type that is `collections.deque[T]` (`heap/deques.py`)
    # the other classes an object of a union of classes may be (`A | B | None` is A, alternatives (B,), optional)
    alternatives: tuple[Type, ...] = ()

    def __str__(self) -> str:
        if self.kind == "none":
            return "None"
        if self.kind == "obj":
            base = " | ".join(str(t.cls) for t in (self, *self.alternatives))
        elif self.kind == "list":
            base = f"{'deque' if self.deque else 'list'}[{self.elem}]"
        elif self.kind == "tuple":
            base = f"tuple[{', '.join(map(str, self.items)) if self.items is not None else f'{self.elem}, ...'}]"
        elif self.kind == "dict":
            base = f"dict[{self.key}, {self.elem}]"
        elif self.kind == "set":
            base = f"set[{self.elem}]"
        else:
            base = self.kind
        return f"{base} | None" if self.optional else base

    @property
    def is_ref(self) -> bool:
        return self.kind in ("obj", "list", "none", "tuple", "dict", "set")

    def nullable(self) -> Type:
        return Type(self.kind, self.cls, True, self.elem, self.items, self.key, self.deque, self.alternatives)


INT = Type("int")
BOOL = Type("bool")
FLOAT = Type("float")
STR = Type("str")
NONE = Type("none", optional=True)


