"""Python patterns as Z3 regular expressions (solver/regex.py), against
CPython's `re` itself: for every pattern, mode and small string over an
alphabet (newlines and non-letters included), Z3's membership agrees with
whether `re.<mode>` finds a match. Patterns outside the subset are
refused with a reason, never approximated."""

from __future__ import annotations

import itertools
import re

import pytest
import z3

from pathcraft.solver import regex

PATTERNS = [
    ("a", 0), ("ab|c", 0), ("a*b", 0), ("a+", 0), ("a?b", 0), ("a{2}", 0), ("a{1,2}b", 0), ("a{2,}", 0),
    ("[a-c]", 0), ("[^a]", 0), ("[ab1]+", 0), (".", 0), (".", re.DOTALL), ("^a", 0), ("a$", 0), ("^a$", 0),
    (r"a\Z", 0), (r"\Aa", 0), (r"\d+", 0), (r"\D", 0), (r"\w\W", 0), (r"\s", 0), (r"[\d_]", 0), ("A", re.I),
    ("[a-b]", re.I), ("(?:ab)+", 0), ("(a|b)c", 0), ("a*?", 0), ("^$", 0), ("", 0), ("[-a]", 0),
    ("#([a-f0-9]{1}|[a-f0-9]{2})$", 0), ("a b", re.X), ("ab", re.I | re.X), ("(?i)a", 0),
]
ALPHABET = "aAb1_ \n#-"


def _member(text: str, mode: str, pattern: str, flags: int) -> bool:
    """Z3's own answer: the membership term of the constant, simplified (a
    ground term evaluates to true or false), else solved."""
    term = regex.z3_member(z3, z3.StringVal(text), z3.StringVal(regex.spec(mode, flags, pattern)))
    answer = z3.simplify(term)
    if z3.is_true(answer) or z3.is_false(answer):
        return z3.is_true(answer)
    solver = z3.Solver()
    solver.add(term)
    return solver.check() == z3.sat


@pytest.mark.parametrize(("pattern", "flags"), PATTERNS)
def test_membership_is_cpythons(pattern: str, flags: int) -> None:
    assert regex.refusal(pattern, flags) is None
    compiled = re.compile(pattern, flags)
    strings = ["".join(p) for n in range(4) for p in itertools.product(ALPHABET, repeat=n)]
    for mode in regex.MODES:
        for text in strings[:: 7 if len(strings) > 200 else 1] + ["a\n", "\na", "ab\n", "#a0\n"]:
            expected = getattr(compiled, mode)(text) is not None
            assert _member(text, mode, pattern, flags) == expected, (pattern, flags, mode, text)
            assert regex.py_member(text, regex.spec(mode, flags, pattern)) == expected


@pytest.mark.parametrize(("pattern", "flags"), [
    (r"(a)\1", 0), ("a(?=b)", 0), ("(?<!a)b", 0), ("a++", 0), ("(?>a)", 0), (r"\ba", 0), ("a$b", 0),
    ("^a", re.MULTILINE), ("(?m)^a", 0), ("(", 0),
])
def test_what_is_not_a_regular_language_of_matches_is_refused(pattern: str, flags: int) -> None:
    assert regex.refusal(pattern, flags) is not None


def test_a_spec_survives_z3_for_any_pattern() -> None:
    for pattern in ("é+", r"\u{41}", "a:b:c", r"[\u0000-\u002c]", r"\\u0041", r"\x41\d", "[\x00-\x2c\t]"):
        text = regex.spec("search", 0, pattern)
        assert regex.read_spec(z3.StringVal(text).as_string()) == ("search", 0, pattern)
