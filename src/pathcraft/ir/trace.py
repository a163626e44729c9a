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
    # the frame ended by raising (not printed: the papers' traces leave the
    # exception flag to the predicate's E argument; guided criteria tell a
    # path that raises inside a rule from one that completes it by it)
    raised: bool = False

    def __str__(self) -> str:
        # iterative: a 300-deep call chain or a 100-times loop nests traces
        # deeper than Python's recursion limit allows a recursive printer
        parts: list[str] = []
        stack: list[TraceTerm | str] = [self]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                parts.append(item)
                continue
            parts.append(f"{item.predicate}({item.rule},[")
            stack.append("])")
            for i in range(len(item.children) - 1, -1, -1):
                stack.append(item.children[i])
                if i:
                    stack.append(",")
        return "".join(parts)

    def rules_used(self) -> list[tuple[str, int]]:
        """Every (predicate, rule) applied, in derivation order (iterative,
        as `__str__`)."""
        out: list[tuple[str, int]] = []
        stack: list[TraceTerm] = [self]
        while stack:
            term = stack.pop()
            out.append((term.predicate, term.rule))
            stack.extend(reversed(term.children))
        return out
