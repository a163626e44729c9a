"""Trace terms `p(k, [T1..Tn])`: which rule of which predicate ran, and the
traces of the calls its body made, in order (Definition 1, item vii)."""

from __future__ import annotations

from dataclasses import dataclass

# A path-signature event: ("line", function, line) | ("call", function) |
# ("return", function). The engine claims them, replay records them.
Event = tuple[str, str] | tuple[str, str, int]


@dataclass(frozen=True)
class TraceTerm:
    predicate: str
    rule: int
    children: tuple[TraceTerm, ...] = ()

    def __str__(self) -> str:
        inner = ",".join(str(c) for c in self.children)
        return f"{self.predicate}({self.rule},[{inner}])"

    def rules_used(self) -> list[tuple[str, int]]:
        """Every (predicate, rule) applied, in derivation order."""
        out = [(self.predicate, self.rule)]
        for child in self.children:
            out.extend(child.rules_used())
        return out
