"""str as a symbolic value: the string operators of the term table (folding,
Python meaning against Z3's), and the replay and enumeration oracles over
the everyday functions of fixtures/values/strings.py."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import z3
from heap_enum import Bounds, strings
from oracle import generated, missed_heap_paths, replay_mismatches

from pathcraft.engine.strings import UNKNOWN_TEXT, Mismatch, percent_format
from pathcraft.errors import Unsupported
from pathcraft.ir.nodes import Text
from pathcraft.solver import terms as T
from pathcraft.solver.strings import CLASSES, read_string, z3_string
from pathcraft.solver.terms import INT, STR, App, Sym
from pathcraft.solver.z3backend import Z3Translator

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "values" / "strings.py"
FUNCTIONS = [
    "is_palindrome", "count_vowels", "capitalize_first", "is_identifier", "caesar_char", "route",
    "reverse", "first_digit", "parse_level", "after", "label", "compare_words", "describe", "last_char",
    "Greeter.greet", "normalize", "shout", "domain", "is_mirror", "title_word", "strip_prefix", "censor",
    "spaces", "slug", "tail", "progress", "badge", "greeting", "longest", "count_starting", "shout_all",
    "first_word", "count_words", "csv", "sentence", "initials", "word_count",
    "strip_zeros", "trim_punctuation", "capitalized", "key_of", "doubled", "repeat_width", "ruler", "case_of",
    "dots", "underscored", "ordinal", "titled", "printable_length", "first_line", "extension", "last_field",
    "identifier_kind",
]
# enumerated over strings up to 2 long: two strings, or a string and an int or bool
TWO_STRINGS = {"after", "compare_words", "strip_prefix", "key_of"}
SHORT_STRINGS = {"badge", "greeting", "count_starting", "repeat_width", "case_of"}
# enumerated over the characters their `find`s look for
ALPHABETS = {"dots": "a.", "underscored": "a.-", "extension": "a.", "last_field": "a,", "identifier_kind": "a_1 "}
S, U, N = Sym("s", STR), Sym("u", STR), Sym("n", INT)


# ------------------------------------------------------------------ terms


def test_string_constants_fold() -> None:
    assert T.apply("concat", "ab", "c") == "abc"
    assert T.apply("strlen", "abc") == 3
    assert T.apply("substr", "abc", 1, 1) == "b"
    assert T.apply("substr", "abc", 3, 1) == ""
    assert T.apply("prefixof", "abc", "ab") is True
    assert T.apply("suffixof", "abc", "ab") is False
    assert T.apply("contains", "abc", "bc") is True
    assert T.apply("indexof", "abcb", "b") == 1
    assert T.apply("str_of_nat", 42) == "42"
    assert T.apply("nat_of_str", "007") == 7
    assert T.apply("nat_of_str", "-7") == -1
    assert T.apply("ord", "A") == 65
    assert T.apply("chr", 97) == "a"
    assert T.relation("lt", "B", "a") is True
    assert T.relation("eq", S, S) is True


def test_string_terms_have_their_sort_and_print_as_python() -> None:
    t = T.apply("concat", S, "!")
    assert isinstance(t, App) and t.sort == STR
    assert T.show(t) == "s + '!'"
    assert T.sort_of(T.apply("strlen", t)) == INT
    assert T.truthy(S) == T.relation("ne", S, "")
    assert T.value_of(t, {"s": "hi"}) == "hi!"
    assert T.value_of(S, {}) == ""


def test_character_classes_are_cpythons_on_ascii() -> None:
    words = ["".join(p) for n in range(3) for p in itertools.product("aZ5 _\t\x1c", repeat=n)]
    for word in words:
        for name in ("isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower"):
            assert CLASSES[name](word) == getattr(word, name)(), (name, word)
        try:
            int(word)
            accepted = True
        except ValueError:
            accepted = False
        assert not accepted or CLASSES["intlike"](word), word


CASES = [
    ("concat", (S, U)), ("strlen", (S,)), ("substr", (S, N, 2)), ("contains", (S, U)),
    ("prefixof", (S, U)), ("suffixof", (S, U)), ("indexof", (S, U)), ("str_of_nat", (N,)),
    ("nat_of_str", (S,)), ("ord", (S,)), ("chr", (N,)), ("lt", (S, U)), ("le", (S, U)),
    *((name, (S,)) for name in CLASSES),
]


@pytest.mark.parametrize("op,args", CASES, ids=[c[0] for c in CASES])
def test_python_meaning_agrees_with_z3(op: str, args: tuple[T.Term, ...]) -> None:
    """Each operator's `py` against Z3's evaluation of its translation, on
    small strings (escapes and a backslash included) and ints."""
    term = T.apply(op, *args)
    translate = Z3Translator(z3.Context())
    expr = translate(term)
    values = ["", "a", "ab", "B1", "\\u{41}", " \t", "007", "a_b", "zz"]
    for s, u, n in itertools.product(values, values[:4], (-1, 0, 1, 2, 65)):
        model = {"s": s, "u": u, "n": n}
        subst = [(translate.var(S), z3_string(z3, s, translate.ctx)),
                 (translate.var(U), z3_string(z3, u, translate.ctx)),
                 (translate.var(N), z3.IntVal(n, translate.ctx))]
        got = z3.simplify(z3.substitute(expr, *subst))
        expected = T.value_of(term, model)
        if z3.is_string_value(got):
            assert read_string(z3, got) == expected, (op, model)
        elif z3.is_int_value(got):
            assert got.as_long() == expected, (op, model)
        else:  # str.< is left to the solver by simplify
            solver = z3.Solver(ctx=translate.ctx)
            solver.add(got != z3.BoolVal(bool(expected), translate.ctx))
            assert solver.check() == z3.unsat, (op, model)


def test_the_str_prelude_is_cpythons_on_ascii() -> None:
    """The str methods the prelude writes in Python (read as source by the
    engine) run as Python against CPython's, on every ASCII string up to 3
    long over letters, a digit, a quote and the line and space characters."""
    from pathcraft.models.str import prelude

    alphabet = "aZ1' \n\r\x0b\x0c\x1c\t\x80é"
    for n in range(4):
        for chars in itertools.product(alphabet, repeat=n):
            word = "".join(chars)
            for name in ("isascii",):
                assert getattr(prelude, f"str__{name}")(word) == getattr(word, name)(), (name, word)
            if not word.isascii():
                continue
            for name in ("title", "isprintable", "splitlines", "strip", "lstrip", "rstrip", "capitalize",
                         "isidentifier"):
                assert getattr(prelude, f"str__{name}")(word) == getattr(word, name)(), (name, word)
            for sub in ("", "a", "1'", "aa", "\n"):
                assert prelude.str__rfind(word, sub) == word.rfind(sub), (sub, word)
            for sep in ("a", "1'", "aa"):
                assert prelude.str__rpartition(word, sep) == word.rpartition(sep), (sep, word)


def test_percent_format_is_pythons_or_unknown() -> None:
    """`fmt % arg` as the engine computes it: Python's text, or Python's
    TypeError, or a text not computed (never another text or error)."""
    formats = ["%d", "%s", "%i", "a%db", "%%%d%%", "%d%%", "%5d", "%x", "%r", "%s%s", "abc", "%.2f", "%%",
               "x%%y", "%-3s", "%c", "%(a)s", "%", "%d %"]
    for fmt, arg in itertools.product(formats, [3, -2, True, "ab", None, ""]):
        try:
            real: object = fmt % arg  # type: ignore[str-format]  # what the format does with it is the point
        except TypeError:
            real = TypeError
        except (ValueError, OverflowError):
            real = ValueError
        try:
            got: object = percent_format(Text(fmt), arg)
        except Mismatch:
            got = TypeError
        except Unsupported:
            continue
        assert got in (real, UNKNOWN_TEXT), (fmt, arg, got, real)
        assert real is not ValueError, (fmt, arg)


def test_enumerated_strings() -> None:
    found = strings(Bounds(max_str=2, alphabet="ab"))
    assert found == ["", "a", "b", "aa", "ab", "ba", "bb"]


# ------------------------------------------------------------------ oracles


@pytest.mark.parametrize("name", FUNCTIONS)
def test_replay(name: str) -> None:
    cases = generated(FIXTURE, name, "loop-2")
    assert cases
    assert replay_mismatches(FIXTURE, name, cases) == []


@pytest.mark.parametrize("name", FUNCTIONS)
def test_enumeration(name: str) -> None:
    cases = generated(FIXTURE, name, "loop-2")
    bounds = Bounds(max_str=2) if name in TWO_STRINGS | SHORT_STRINGS else \
        Bounds(max_str=3, alphabet=ALPHABETS[name]) if name in ALPHABETS else Bounds()
    missed, count = missed_heap_paths(FIXTURE, name, cases, k=2, bounds=bounds)
    assert count > 0
    assert missed == []


def test_every_case_branch_is_reached() -> None:
    """Z3 is not asked about `upper`/`lower`; the case layer finds the
    strings (once only `''` was found, the other three paths unknown)."""
    assert {c.value for c in generated(FIXTURE, "case_of", "loop-2")} == {0, 1, 2, 3}


def test_a_string_parameter_is_no_longer_refused() -> None:
    from pathcraft.frontend import translate

    result = translate(str(FIXTURE))
    assert not result.errors


def test_string_inputs_are_readable_and_said_in_the_header(tmp_path: Path) -> None:
    """Canonical strings: lowercase words without a repeated letter when the
    path allows (a reversed "aa" tells nothing); the header says inputs are
    printable ASCII."""
    from pathcraft.app.cli import main
    from pathcraft.testcase.emit_pytest import STRING_DOMAIN

    for case in generated(FIXTURE, "reverse", "loop-2"):
        s = dict(case.inputs)["s"]
        assert all(c.islower() or c == " " for c in s), s
        assert len(set(s)) == len(s), s
    out = tmp_path / "test_out.py"
    assert main(["gen", f"{FIXTURE}::reverse", "-o", str(out)]) == 0
    assert " ".join(STRING_DOMAIN.split()) in " ".join(out.read_text().split())
    out_ints = tmp_path / "test_ints.py"
    assert main(["gen", f"{FIXTURE}::label", "-o", str(out_ints)]) == 0
    assert "printable ASCII" not in out_ints.read_text()
