"""`warnings.warn` is a recorded event of the path, stated by its test
with `pytest.warns` (the category; the message where the model knows it),
not a refusal: the generated tests run (a test issuing no warning inside
`pytest.warns` fails) and replay the paths they claim."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from oracle import generated, replay_mismatches

from pathcraft.app.cli import main

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning")  # the replays'

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "warnings_issued.py"


def test_each_warning_of_a_path_is_recorded_with_its_category_and_message() -> None:
    cases = generated(FIXTURE, "encode")
    warned = sorted((c.kind, c.exc_type, tuple(map(tuple, c.extra.get("warnings", [])))) for c in cases)
    assert ("raise", "ValueError", (("DeprecationWarning", "transitional is deprecated"),)) in warned
    assert ("return", None, ()) in warned and ("raise", "ValueError", ()) in warned
    assert replay_mismatches(FIXTURE, "encode", cases) == []


def test_a_warning_of_the_modules_own_class_and_a_computed_message() -> None:
    cases = generated(FIXTURE, "check")
    by_value = {c.value: c.extra.get("warnings") for c in cases}
    assert by_value["old"] == [["StaleWarning", None]]  # the message depends on the input: not asserted
    assert [["UserWarning", "aging"]] in by_value.values() or any(
        c.extra.get("warnings") == [["UserWarning", "aging"]] for c in cases)
    assert replay_mismatches(FIXTURE, "check", cases) == []


def test_a_category_that_is_no_warning_class_drops_the_path() -> None:
    cases = generated(FIXTURE, "not_a_warning")
    assert cases and all(c.kind == "return" and c.value <= 0 and "warnings" not in c.extra for c in cases)


def test_the_written_tests_state_the_warnings_and_pass(tmp_path: Path) -> None:
    out = tmp_path / "test_warnings_issued.py"
    assert main(["gen", str(FIXTURE), "-o", str(out)]) == 0
    text = out.read_text()
    assert "with pytest.warns(DeprecationWarning, match='^transitional is deprecated$'):" in text
    assert "with pytest.warns(warnings_issued.StaleWarning):" in text
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(out)],
                         capture_output=True, text=True, env={"PYTHONPATH": str(FIXTURE.parent), "PATH": ""},
                         cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
