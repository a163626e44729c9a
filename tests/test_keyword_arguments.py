"""`**kwargs` parameters: a dict of str keys that no other parameter a
keyword names; the test spreads its dict last (`f(a, **kwargs)`), and the
function works on a copy; calls of analysed code (dispatched ones too)
pack the keywords no parameter takes. The engine against the real code:
replay, and enumeration of small inputs."""

from __future__ import annotations

from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

from pathcraft.generate import GenerateOptions, generate
from pathcraft.frontend import translate
from pathcraft.testcase.emit_pytest import call_text

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "keyword_arguments.py"
NAMES = ["fill_of", "positives", "caller", "keyed", "Meter.add", "Meter.twice"]

test_replay, test_enumeration = oracle_tests(FIXTURE, NAMES, Bounds(ints=(-1, 0, 1), max_list=1, max_dict=2,
                                                                     max_str=1, alphabet="af"))


def test_the_dict_is_spread_last_and_its_keys_name_no_parameter() -> None:
    cases = generated(FIXTURE, "fill_of")
    calls = [call_text(c, "m") for c in cases]
    assert all(text.endswith("**options)") for text in calls), calls
    keys = {k for c in cases for desc in c.heap_in.values() if "dict" in desc for k, _ in desc["dict"]}
    assert "fill" in keys and "items" not in keys


def test_keywords_no_parameter_takes_are_packed_at_calls() -> None:
    result = translate(str(FIXTURE), ["caller"])
    assert not result.errors
    run = generate(result.program, "caller", GenerateOptions.of())
    cases = [c for c in run.cases if c.kind == "return"]
    assert cases and all(c.value == len(c.heap_in["items"]["list"]) + 3 for c in cases)  # fill 2, one positive
