"""Python regular expressions as Z3 regular expressions, for membership:
does `re.fullmatch` / `re.match` / `re.search` find a match?

Why membership only: whether a match exists is a property of the
pattern's language when the pattern is regular: backtracking tries every
way to match at a position, so `fullmatch(s)` holds when s is in L(R),
`match(s)` when some prefix is, `search(s)` when some substring is.
Groups, spans and what `sub` builds need the match itself, which Z3's
regexes do not give; they stay unmodelled (the paths that read them are
dropped).

The pattern is read by CPython's own parser (`re._parser`, never run on
data). Refused, with a reason: backreferences, lookarounds, possessive
repeats and atomic groups (not regular, or not the language of the
match), inline flags, MULTILINE, anchors other than a leading `^`/`\\A` and
a trailing `$`/`\\Z`, word boundaries. `\\d`, `\\w`, `\\s` and IGNORECASE are
stated over ASCII (the engine checks the subject's constants are ASCII,
as for `str.isdigit`). A trailing `$` matches before a final newline too,
as in Python.

A pattern travels in a term as a string constant (`spec`): the mode, the
flags and the pattern, so a term stays self-contained (the summary store
writes terms as JSON).
"""

from __future__ import annotations

import base64
import functools
import re
from collections.abc import Callable
from typing import Any

import re._constants as _c  # CPython's own parser of patterns (3.11+)
import re._parser as _parser

MODES = ("fullmatch", "match", "search")
_FLAGS = re.IGNORECASE | re.DOTALL | re.VERBOSE | re.ASCII | re.UNICODE
_SPACE = " \t\n\r\f\v"


class Refused(Exception):
    """The pattern is outside what membership in a Z3 regex states."""


def spec(mode: str, flags: int, pattern: str) -> str:
    """The string constant a term carries for `mode` (a name of MODES)."""
    text = f"{mode}:{int(flags)}:{pattern}"
    if all(" " <= c <= "~" for c in text) and "\\u" not in text:  # what Z3 gives back as it was: printable
        return text  # ASCII (it escapes other characters) without `\u0041` or `\u{41}` (it decodes those)
    return "b64:" + base64.b64encode(text.encode("utf-8")).decode("ascii")


def read_spec(text: str) -> tuple[str, int, str]:
    if text.startswith("b64:"):
        text = base64.b64decode(text[4:]).decode("utf-8")
    mode, flags, pattern = text.split(":", 2)
    return mode, int(flags), pattern


@functools.lru_cache(maxsize=256)
def _parsed(pattern: str, flags: int) -> tuple[tuple[Any, ...], int]:
    """The pattern's items and its flags, those it sets itself at its
    start (`(?i)`) included (parsed once: the engine asks at each step)."""
    parsed = _parser.parse(pattern, flags)
    return tuple(parsed), int(parsed.state.flags)


def refusal(pattern: str, flags: int) -> str | None:
    """Why the pattern cannot be stated (None: it can); never raises."""
    try:
        items, flags = _parsed(pattern, flags)
    except (re.error, RecursionError, OverflowError) as exc:
        return f"a regular expression that does not compile ({exc})"
    if flags & ~_FLAGS:
        return "a regular expression with MULTILINE or another flag the model does not take"
    try:
        _Builder(None, flags).top(list(items), "fullmatch")
    except Refused as exc:
        return str(exc)
    return None


@functools.lru_cache(maxsize=256)
def uses_classes(pattern: str, flags: int) -> bool:
    """Does the pattern state something over ASCII only (`\\d`, `\\w`, `\\s`,
    IGNORECASE)? Then the subject must hold no non-ASCII constant."""
    items, flags = _parsed(pattern, flags)
    if flags & re.IGNORECASE:
        return True
    return any(op is _c.CATEGORY for op, _ in _walk(list(items)))


def _walk(items: list[Any]) -> list[tuple[Any, Any]]:
    out = []
    for op, av in items:
        out.append((op, av))
        if op is _c.IN:
            out.extend(av)
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
            out.extend(_walk(list(av[2])))
        elif op is _c.SUBPATTERN:
            out.extend(_walk(list(av[3])))
        elif op is _c.BRANCH:
            for alternative in av[1]:
                out.extend(_walk(list(alternative)))
    return out


def py_member(s: str, text: str) -> bool:
    """The operator's meaning on Python values: CPython's own answer."""
    mode, flags, pattern = read_spec(text)
    return getattr(re.compile(pattern, flags), mode)(s) is not None


def z3_member(z3: Any, x: Any, text: Any) -> Any:
    """`x` (a Z3 string) has a match of the spec `text` (a Z3 string constant)."""
    mode, flags, pattern = read_spec(text.as_string())
    items, flags = _parsed(pattern, flags)
    return z3.InRe(x, _Builder(z3, flags, x.ctx).top(list(items), mode))


class _Builder:
    """Builds the Z3 regex of a parsed pattern (or, with `z3` None, only
    checks that it can)."""

    def __init__(self, z3: Any, flags: int, ctx: Any = None) -> None:
        self.z3 = z3
        self.flags = flags
        self.ctx = ctx

    def top(self, items: list[Any], mode: str) -> Any:
        """The language whose membership is the mode's answer: anchors at
        the ends of the whole pattern are read here, and nowhere else."""
        if items and items[0] == (_c.AT, _c.AT_BEGINNING) or items and items[0] == (_c.AT, _c.AT_BEGINNING_STRING):
            items = items[1:]
            mode = "match" if mode == "search" else mode
        tail = None
        if items and items[-1] in ((_c.AT, _c.AT_END), (_c.AT, _c.AT_END_STRING)):
            tail = items[-1][1]
            items = items[:-1]
        body = self.sequence(items)
        if tail is _c.AT_END and mode != "fullmatch":  # `$`: the end, or before a final newline
            body = self.concat([body, self.union([self.text(""), self.text("\n")])])
        if tail is None and mode in ("match", "search"):
            body = self.concat([body, self.anything()])
        if mode == "search":
            body = self.concat([self.anything(), body])
        return body

    # ---------------------------------------------------------------- nodes

    def sequence(self, items: list[Any]) -> Any:
        return self.concat([self.node(op, av) for op, av in items])

    def node(self, op: Any, av: Any) -> Any:
        if op is _c.LITERAL:
            return self.char(chr(av))
        if op is _c.NOT_LITERAL:
            return self.complement(self.char(chr(av)))
        if op is _c.ANY:
            return self.any_char() if self.flags & re.DOTALL else self.complement(self.text("\n"))
        if op is _c.IN:
            return self.char_class(av)
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
            low, high, item = av
            return self.repeat(self.sequence(list(item)), low, None if high is _c.MAXREPEAT else high)
        if op is _c.SUBPATTERN:
            _group, add_flags, del_flags, item = av
            if add_flags or del_flags:
                raise Refused("a regular expression with inline flags")
            return self.sequence(list(item))
        if op is _c.BRANCH:
            return self.union([self.sequence(list(alternative)) for alternative in av[1]])
        if op is _c.CATEGORY:
            return self.char_class([(op, av)])
        if op is _c.AT:
            raise Refused("a regular expression with an anchor or boundary inside it")
        raise Refused(f"a regular expression with {str(op).lower()} (not a regular language "
                      "or not the language of its matches)")

    def char_class(self, items: list[Any]) -> Any:
        negated = bool(items) and items[0][0] is _c.NEGATE
        parts = []
        for op, av in items[1:] if negated else items:
            if op is _c.LITERAL:
                parts.append(self.char(chr(av)))
            elif op is _c.RANGE:
                parts.append(self.char_range(chr(av[0]), chr(av[1])))
            elif op is _c.CATEGORY:
                parts.append(self.category(av))
            else:
                raise Refused(f"a character class with {str(op).lower()}")
        made = self.union(parts)
        return self.complement(made) if negated else made

    def category(self, name: Any) -> Any:
        """`\\d`, `\\w`, `\\s` and their negations, over ASCII."""
        digit = self.char_range("0", "9", fold=False)
        word = self.union([self.char_range("a", "z", fold=False), self.char_range("A", "Z", fold=False), digit,
                           self.char("_", fold=False)])
        space = self.union([self.char(c, fold=False) for c in _SPACE])
        table: dict[Any, Callable[[], Any]] = {
            _c.CATEGORY_DIGIT: lambda: digit, _c.CATEGORY_NOT_DIGIT: lambda: self.complement(digit),
            _c.CATEGORY_WORD: lambda: word, _c.CATEGORY_NOT_WORD: lambda: self.complement(word),
            _c.CATEGORY_SPACE: lambda: space, _c.CATEGORY_NOT_SPACE: lambda: self.complement(space),
        }
        if name not in table:
            raise Refused(f"a regular expression with {str(name).lower()}")
        return table[name]()

    # ------------------------------------------------------------ builders

    def char(self, c: str, fold: bool = True) -> Any:
        if fold and self.flags & re.IGNORECASE and c.isascii() and c.isalpha():
            return self.union([self.text(c.lower()), self.text(c.upper())])
        return self.text(c)

    def char_range(self, low: str, high: str, fold: bool = True) -> Any:
        parts = [self.raw_range(low, high)]
        if fold and self.flags & re.IGNORECASE:  # the letters of the range, in the other case
            for a, z, shift in (("a", "z", -32), ("A", "Z", 32)):
                lo, hi = max(low, a), min(high, z)
                if lo <= hi:
                    parts.append(self.raw_range(chr(ord(lo) + shift), chr(ord(hi) + shift)))
        return self.union(parts)

    def text(self, s: str) -> Any:
        return None if self.z3 is None else self.z3.Re(self.z3.StringVal(s, self.ctx))

    def raw_range(self, low: str, high: str) -> Any:
        return None if self.z3 is None else self.z3.Range(low, high, self.ctx)

    def any_char(self) -> Any:
        return None if self.z3 is None else self.z3.AllChar(self.z3.ReSort(self.z3.StringSort(self.ctx)))

    def anything(self) -> Any:
        return None if self.z3 is None else self.z3.Star(self.any_char())

    def complement(self, chars: Any) -> Any:
        """Every single character but those of `chars` (a class of one-character strings)."""
        return None if self.z3 is None else self.z3.Intersect(self.any_char(), self.z3.Complement(chars))

    def concat(self, parts: list[Any]) -> Any:
        if self.z3 is None:
            return None
        if not parts:
            return self.text("")
        return parts[0] if len(parts) == 1 else self.z3.Concat(*parts)

    def union(self, parts: list[Any]) -> Any:
        if self.z3 is None:
            return None
        if not parts:
            return self.z3.Empty(self.z3.ReSort(self.z3.StringSort(self.ctx)))
        return parts[0] if len(parts) == 1 else self.z3.Union(*parts)

    def repeat(self, item: Any, low: int, high: int | None) -> Any:
        if self.z3 is None:
            return None
        fixed = [item] * low if low <= 16 else None
        if fixed is None or high is not None and high - low > 16:
            hi = 0 if high is None else high
            return self.z3.Loop(item, low, hi) if hi else self.z3.Concat(self.z3.Loop(item, low, low),
                                                                         self.z3.Star(item))
        optional = [] if high is None else [self.z3.Option(item)] * (high - low)
        tail = [self.z3.Star(item)] if high is None else optional
        return self.concat(fixed + tail)
