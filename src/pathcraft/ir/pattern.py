"""Trace patterns: trace terms written by the user, partial where they have
variables (paper 001, Def. 4; paper 000, Def. 5).

The syntax is the one `pathcraft gen` prints in each test's `# trace:`
comment, with Prolog's variables and list tails:

    lcm(2, [lcm_join2(1, [G, lcm_try6(1, [_, int_floordiv(2, []), H])])])
    multiples(1, [_, loop1(1, [body2(1, [A | _])]) | _])

`_` matches anything; a named variable (a word that starts with a capital
or `_` and is not followed by `(`: `R_simplify(1, [...])` is a term)
matches anything too, but all its occurrences must match equal trace terms; `K` in
`p(K, ...)` may be a variable; a list `[P1, ..., Pn]` has exactly n items,
`[P1, ..., Pn | T]` at least n. A pattern is checked against the program
it will guide (`check_names`): every predicate must exist and every rule
number must be one of its rules, so a typo is an error, not an empty run.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from pathcraft.errors import PathcraftError
from pathcraft.ir.trace import TraceTerm


@dataclass(frozen=True)
class PVar:
    """A variable: `_` (anonymous) or a name."""

    name: str
    offset: int


@dataclass(frozen=True)
class PList:
    items: tuple[Pattern, ...]
    tail: PVar | None  # `| T`: any further items


@dataclass(frozen=True)
class PTerm:
    predicate: str
    rule: int | PVar
    children: PList | PVar
    offset: int  # where the term starts in the pattern text (for messages)
    raised: bool | None = None  # whether the frame ended by raising (None: either; patterns of traces say)


Pattern = PTerm | PVar


class PatternError(PathcraftError):
    """A trace pattern that cannot be read, or names what the program lacks."""

    def __init__(self, text: str, offset: int, problem: str) -> None:
        pointer = " " * offset + "^"
        super().__init__(f"--trace: {problem} at column {offset + 1}:\n  {text}\n  {pointer}")
        self.offset = offset
        self.problem = problem


_TOKEN = re.compile(r"\s*(?:(?P<num>\d+)|(?P<word>[A-Za-z_$][\w$.:<>\-]*)|(?P<punct>[()\[\],|]))")


class _Reader:
    """A recursive-descent reader over the tokens of one pattern."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens: list[tuple[str, str, int]] = []
        pos = 0
        while pos < len(text):
            if text[pos:].strip() == "":
                break
            match = _TOKEN.match(text, pos)
            if match is None or match.end() == pos:
                at = pos + len(text[pos:]) - len(text[pos:].lstrip())
                raise PatternError(text, at, f"unexpected character {text[at]!r}")
            kind = match.lastgroup
            assert kind is not None
            self.tokens.append((kind, match.group(kind), match.start(kind)))
            pos = match.end()
        self.index = 0

    def peek(self) -> tuple[str, str, int] | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def where(self) -> int:
        token = self.peek()
        return token[2] if token is not None else len(self.text)

    def take(self, value: str) -> None:
        token = self.peek()
        if token is None or token[1] != value:
            found = "the end of the pattern" if token is None else repr(token[1])
            raise PatternError(self.text, self.where(), f"expected {value!r}, found {found}")
        self.index += 1

    def pattern(self) -> Pattern:
        token = self.peek()
        if token is None or token[0] != "word":
            found = "the end of the pattern" if token is None else repr(token[1])
            raise PatternError(self.text, self.where(), f"expected a trace term or a variable, found {found}")
        _, word, offset = token
        self.index += 1
        following = self.peek()
        if following is None or following[1] != "(":
            if _is_variable(word):
                return PVar(word, offset)
            raise PatternError(self.text, offset, f"'{word}' is neither a trace term p(K, [...]) nor a "
                                                  "variable (variables start with a capital or _)")
        self.take("(")
        rule = self.rule_number()
        token = self.peek()
        if token is None or token[1] != ",":
            raise PatternError(self.text, self.where(), f"'{word}' needs two arguments: {word}(K, [T1, ..., Tn])")
        self.take(",")
        children = self.children()
        token = self.peek()
        if token is not None and token[1] == ",":
            raise PatternError(self.text, token[2], f"'{word}' takes two arguments: {word}(K, [T1, ..., Tn])")
        self.take(")")
        return PTerm(word, rule, children, offset)

    def rule_number(self) -> int | PVar:
        token = self.peek()
        if token is not None and token[0] == "num":
            self.index += 1
            return int(token[1])
        if token is not None and token[0] == "word" and _is_variable(token[1]):
            self.index += 1
            return PVar(token[1], token[2])
        raise PatternError(self.text, self.where(), "expected a rule number or a variable")

    def children(self) -> PList | PVar:
        token = self.peek()
        if token is not None and token[0] == "word" and _is_variable(token[1]):
            self.index += 1
            return PVar(token[1], token[2])
        self.take("[")
        items: list[Pattern] = []
        tail: PVar | None = None
        token = self.peek()
        if token is not None and token[1] == "]":
            self.index += 1
            return PList((), None)
        while True:
            items.append(self.pattern())
            token = self.peek()
            if token is not None and token[1] == ",":
                self.index += 1
                continue
            if token is not None and token[1] == "|":
                self.index += 1
                rest = self.pattern()
                if not isinstance(rest, PVar):
                    raise PatternError(self.text, rest.offset, "after '|' comes a variable (the rest of the list)")
                tail = rest
            self.take("]")
            return PList(tuple(items), tail)


def _is_variable(word: str) -> bool:
    return word[:1] == "_" or word[:1].isupper()


def parse_pattern(text: str) -> Pattern:
    """The pattern written in `text`, or a `PatternError` pointing into it."""
    reader = _Reader(text)
    if not reader.tokens:
        raise PatternError(text, 0, "empty pattern")
    pattern = reader.pattern()
    if reader.peek() is not None:
        raise PatternError(text, reader.where(), "unexpected text after the pattern")
    return pattern


def check_names(pattern: Pattern, text: str, rule_counts: Mapping[str, int], root: str) -> None:
    """Every predicate the pattern names exists (`rule_counts`: predicate ->
    how many rules it has), every rule number is one of its rules, and the
    pattern's root is the target's entry predicate `root`."""
    if isinstance(pattern, PTerm) and pattern.predicate != root:
        raise PatternError(text, pattern.offset, f"the trace of this target starts with '{root}', "
                                                 f"not '{pattern.predicate}'")
    stack: list[Pattern] = [pattern]
    while stack:
        node = stack.pop()
        if isinstance(node, PVar):
            continue
        if node.predicate not in rule_counts:
            raise PatternError(text, node.offset, f"no predicate '{node.predicate}' in the CLP-translated "
                                                  "program (`pathcraft clp TARGET` prints them)")
        count = rule_counts[node.predicate]
        if isinstance(node.rule, int) and not 1 <= node.rule <= count:
            rules = "rule 1" if count == 1 else f"rules 1 to {count}"
            raise PatternError(text, node.offset, f"'{node.predicate}' has {rules}, not {node.rule}")
        if isinstance(node.children, PList):
            stack.extend(node.children.items)


ANY = PVar("_", -1)


def child_pattern(node: Pattern, index: int) -> Pattern | None:
    """What the `index`-th child of a term matching `node` must match (None:
    the pattern allows no such child)."""
    if isinstance(node, PVar) or isinstance(node.children, PVar):
        return ANY
    items = node.children.items
    if index < len(items):
        return items[index]
    return ANY if node.children.tail is not None else None


def admits(node: Pattern, predicate: str, rule: int) -> bool:
    """Whether a term `predicate(rule, ...)` may match `node` (its children
    not looked at)."""
    if isinstance(node, PVar):
        return True
    return node.predicate == predicate and (isinstance(node.rule, PVar) or node.rule == rule)


def matches(pattern: Pattern, trace: TraceTerm) -> bool:
    """Whether `trace` is an instance of `pattern` (named variables bound
    consistently; iterative, as trace terms can nest deeply)."""
    bound: dict[str, object] = {}

    def bind(var: PVar, value: object) -> bool:
        if var.name == "_":
            return True
        if var.name in bound:
            return bound[var.name] == value
        bound[var.name] = value
        return True

    work: list[tuple[Pattern, TraceTerm]] = [(pattern, trace)]
    while work:
        node, term = work.pop()
        if isinstance(node, PVar):
            if not bind(node, term):
                return False
            continue
        if node.predicate != term.predicate or node.raised is not None and node.raised != term.raised:
            return False
        if isinstance(node.rule, PVar):
            if not bind(node.rule, term.rule):
                return False
        elif node.rule != term.rule:
            return False
        if isinstance(node.children, PVar):
            if not bind(node.children, term.children):
                return False
            continue
        items, tail = node.children.items, node.children.tail
        if len(term.children) < len(items) or (tail is None and len(term.children) != len(items)):
            return False
        if tail is not None and not bind(tail, term.children[len(items):]):
            return False
        work.extend(zip(items, term.children))
    return True


def read_trace(text: str) -> TraceTerm:
    """A trace term as the tests print it, read back (no variables)."""
    pattern = parse_pattern(text)
    out: dict[int, TraceTerm] = {}
    stack: list[tuple[Pattern, bool]] = [(pattern, False)]
    while stack:  # post-order, iterative: traces nest deeply
        node, done = stack.pop()
        if isinstance(node, PVar) or isinstance(node.rule, PVar) or isinstance(node.children, PVar) \
                or node.children.tail is not None:
            raise PatternError(text, max(node.offset, 0), "a trace has no variables")
        if not done:
            stack.append((node, True))
            stack.extend((child, False) for child in node.children.items)
            continue
        out[id(node)] = TraceTerm(node.predicate, node.rule, tuple(out[id(c)] for c in node.children.items))
    return out[id(pattern)]


def pattern_of(trace: TraceTerm) -> PTerm:
    """A trace as the pattern that matches it alone."""
    out: dict[int, PTerm] = {}
    stack: list[tuple[TraceTerm, bool]] = [(trace, False)]
    while stack:
        term, done = stack.pop()
        if not done:
            stack.append((term, True))
            stack.extend((c, False) for c in term.children)
            continue
        items = tuple(out[id(c)] for c in term.children)
        out[id(term)] = PTerm(term.predicate, term.rule, PList(items, None), -1, term.raised)
    return out[id(trace)]
