"""Union parameters: `x: int | str`, `list[int] | int`, `Optional[Union[Node,
int]]`: each member's values, `isinstance` and operators decided by the
value at run time. The engine against the real code: replay, and
enumeration of every small input of every member."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "union_parameters.py"
NAMES = ["describe", "size", "weight", "both", "joined", "added"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1), max_list=2, max_str=1,
                                                                     alphabet="ab"))


def test_every_member_gets_inputs() -> None:
    kinds = {type(dict(c.inputs)["x"]).__name__ for c in generated(FIXTURE, "describe")}
    assert kinds == {"int", "str"}
    weights = {type(dict(c.inputs)["n"]).__name__ for c in generated(FIXTURE, "weight")}
    assert weights == {"NoneType", "dict", "int"}  # None, an object (by reference), an int


def test_a_probe_seeded_by_one_member_skips_the_other_members_start(tmp_path: Path) -> None:
    """A probe's seed values come from one member's path (`x` an int); run
    from the `str` member's start, `printable(x)` met an int: an internal
    error ended the run. A value of another sort is not that start's."""
    from oracle import replay_mismatches
    from pathcraft.frontend import translate
    from pathcraft.generate import GenerateOptions, generate

    source = tmp_path / "mixed.py"
    source.write_text("def g(x: int | str) -> int:\n    if x == 'a':\n        return 1\n    if x == 2:\n"
                      "        return 2\n    return 3\n")
    cases = generate(translate(str(source), ["g"]).program, "g", GenerateOptions(long_probes=3)).cases  # the CLI's
    assert {c.value for c in cases} == {1, 2, 3}
    assert replay_mismatches(source, "g", cases) == []


def test_a_member_the_subset_cannot_build_is_left_out_and_said(tmp_path: Path) -> None:
    """`s: int | bytes`: the tests pass ints (a part of what `s` takes), and
    the note says bytes is left out; the tests take their claimed paths."""
    from oracle import replay_mismatches
    from pathcraft.frontend import translate
    from pathcraft.generate import GenerateOptions, generate

    source = tmp_path / "partly.py"
    source.write_text("def g(s: int | bytes) -> int:\n    if s > 3:\n        return 1\n    return 0\n")
    program = translate(str(source), ["g"]).program
    assert program.functions["g"].inferred == ("s: int (bytes left out: not built as inputs)",)
    cases = generate(program, "g", GenerateOptions()).cases
    assert {c.value for c in cases} == {0, 1} and all(type(dict(c.inputs)["s"]) is int for c in cases)
    assert replay_mismatches(source, "g", cases) == []
