"""`str` methods the solver has no operator for, as CPython defines them on
ASCII text (loops: bounded by loop-K like any loop).

Lowered by `pathcraft.frontend.prelude` (see there for the naming).
"""


def str__strip(self: str) -> str:
    i = 0
    j = len(self)
    while i < j and self[i].isspace():
        i += 1
    while j > i and self[j - 1].isspace():
        j -= 1
    return self[i:j]


def str__lstrip(self: str) -> str:
    i = 0
    while i < len(self) and self[i].isspace():
        i += 1
    return self[i:]


def str__rstrip(self: str) -> str:
    j = len(self)
    while j > 0 and self[j - 1].isspace():
        j -= 1
    return self[:j]


def str__count(self: str, sub: str) -> int:
    if sub == "":
        return len(self) + 1
    n = 0
    rest = self
    i = rest.find(sub)
    while i >= 0:
        n += 1
        rest = rest[i + len(sub):]
        i = rest.find(sub)
    return n


def str__replace(self: str, old: str, new: str) -> str:
    if old == "":
        out = new
        for c in self:
            out = out + c + new
        return out
    out = ""
    rest = self
    i = rest.find(old)
    while i >= 0:
        out = out + rest[:i] + new
        rest = rest[i + len(old):]
        i = rest.find(old)
    return out + rest


def str__split(self: str, sep: str) -> list[str]:
    if sep == "":
        raise ValueError("empty separator")
    out = []
    rest = self
    i = rest.find(sep)
    while i >= 0:
        out.append(rest[:i])
        rest = rest[i + len(sep):]
        i = rest.find(sep)
    out.append(rest)
    return out


def str__join(self: str, items: list[str]) -> str:
    if items is None or type(items) is int or type(items) is bool or type(items) is float:  # type: ignore[comparison-overlap]
        raise TypeError("can only join an iterable")  # CPython's words, not a loop's
    out = ""
    first = True
    for item in items:
        if not first:
            out = out + self
        out = out + item
        first = False
    return out


def str___split_spaces(self: str) -> list[str]:
    """`self.split()` for a string whose only whitespace is the space (see
    `models/str/lowering.py`)."""
    out = []
    rest = self
    i = rest.find(" ")
    while i >= 0:
        if i > 0:
            out.append(rest[:i])
        rest = rest[i + 1:]
        i = rest.find(" ")
    if rest != "":
        out.append(rest)
    return out


def str__strip__1(self: str, chars: str) -> str:
    i = 0
    j = len(self)
    while i < j and self[i] in chars:
        i += 1
    while j > i and self[j - 1] in chars:
        j -= 1
    return self[i:j]


def str__lstrip__1(self: str, chars: str) -> str:
    i = 0
    while i < len(self) and self[i] in chars:
        i += 1
    return self[i:]


def str__rstrip__1(self: str, chars: str) -> str:
    j = len(self)
    while j > 0 and self[j - 1] in chars:
        j -= 1
    return self[:j]


def str__capitalize(self: str) -> str:
    """The first character upper case, the rest lower (on ASCII text the
    title case of a letter is its upper case)."""
    return self[:1].upper() + self[1:].lower()


def str__casefold(self: str) -> str:
    """On ASCII text, `lower()` (they differ only beyond it: `ß`)."""
    return self.lower()


def str__title(self: str) -> str:
    """On ASCII text: a letter after a letter is lower case, any other
    letter upper case (a digit or a quote starts a new word: `"1a".title()`
    is `"1A"`, `"it's"` gives `"It'S"`)."""
    out = ""
    after_letter = False
    for c in self:
        if c.isalpha():
            out = out + (c.lower() if after_letter else c.upper())
            after_letter = True
        else:
            out = out + c
            after_letter = False
    return out


def str__isprintable(self: str) -> bool:
    """On ASCII text: every character from the space to `~` (the empty
    string is printable)."""
    for c in self:
        code = ord(c)  # an int for the solver: string order is slow in Z3
        if code < 32 or code > 126:
            return False
    return True


def str__isascii(self: str) -> bool:
    """Every character below 128 (the empty string is ASCII)."""
    for c in self:
        if ord(c) > 127:
            return False
    return True


def str__splitlines(self: str) -> list[str]:
    """The lines without their ends, on ASCII text: `\n`, `\r`, `\r\n`,
    `\v`, `\f` and the separators `\x1c`-`\x1e` end a line; no empty
    last line after a final end."""
    out = []
    start = 0
    i = 0
    while i < len(self):
        c = self[i]
        if c == "\n" or c == "\r" or c == "\x0b" or c == "\x0c" or c == "\x1c" or c == "\x1d" or c == "\x1e":
            out.append(self[start:i])
            if c == "\r" and i + 1 < len(self) and self[i + 1] == "\n":
                i += 1
            start = i + 1
        i += 1
    if start < len(self):
        out.append(self[start:])
    return out


def str__rsplit(self: str, sep: str) -> list[str]:
    """Without a count, the same pieces as `split` (they differ only in
    where a count stops)."""
    return self.split(sep)


def str__rsplit__0(self: str) -> list[str]:
    return self.split()


def str__rfind(self: str, sub: str) -> int:
    """The last match: found again one past each match (they may overlap)."""
    if sub == "":
        return len(self)
    last = -1
    i = self.find(sub)
    while i >= 0:
        last = last + 1 + i
        i = self[last + 1:].find(sub)
    return last


def str__rpartition(self: str, sep: str) -> tuple[str, str, str]:
    if sep == "":
        raise ValueError("empty separator")
    i = self.rfind(sep)
    if i < 0:
        return ("", "", self)
    return (self[:i], sep, self[i + len(sep):])


def str__isidentifier(self: str) -> bool:
    """On ASCII text: a letter or `_`, then letters, digits and `_`."""
    if self == "":
        return False
    if not (self[0].isalpha() or self[0] == "_"):
        return False
    for c in self[1:]:
        if not (c.isalnum() or c == "_"):
            return False
    return True


def str__partition(self: str, sep: str) -> tuple[str, str, str]:
    if sep == "":
        raise ValueError("empty separator")
    i = self.find(sep)
    if i < 0:
        return (self, "", "")
    return (self[:i], sep, self[i + len(sep):])


def fn__str_repeat(text: str, n: int) -> str:
    """`"-" * n` where the string is a literal: n copies (none for n <= 0);
    a count of another type is CPython's TypeError (its message names the
    type: not claimed)."""
    count = n  # a local: `isinstance` decided at run time, not by the annotation
    if not isinstance(count, int):
        raise TypeError
    out = ""
    i = 0
    while i < count:
        out = out + text
        i += 1
    return out
