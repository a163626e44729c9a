"""Output formats (testcase/stream.py, testcase/writers.py): looked up by
name, written in pieces that give the bytes one stream would, and the same
tests in a package run as for one module (json included)."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, get_args

import pytest

from pathcraft.config import FORMATS as SETTINGS_FORMATS
from pathcraft.errors import PathcraftError
from pathcraft.settings import Format
from pathcraft.testcase.emit_json import JsonText, JsonWriter
from pathcraft.testcase.model import TestCase
from pathcraft.testcase.writers import FORMATS, output_format

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "pkg_batch"


def case(name: str, value: Any) -> TestCase:
    return TestCase(name, "f", (("x", 1), ("s", "a\nb")), "return", value, trace="f([1])")


def test_formats_are_found_by_name() -> None:
    assert list(FORMATS) == ["pytest", "json"] and SETTINGS_FORMATS == ("pytest", "json")
    assert get_args(Format) == tuple(FORMATS)  # the declared choice of `--format` is the registry's names
    assert output_format("json").suffix == ".json" and output_format("pytest").runs
    with pytest.raises(PathcraftError, match="unknown format 'yaml'"):
        output_format("yaml")


@pytest.mark.parametrize("count", [0, 1, 3])
def test_json_pieces_are_the_document_json_dump_writes(count: int) -> None:
    """A package run puts a module's document together from its pieces;
    they must be the bytes of `json.dump(document, indent=2)`."""
    cases = [case(f"test_f_{i}", {"nested": [i, 2.5, None], "é": {}}) for i in range(1, count + 1)]
    stats = {"f": {"paths": count, "answered_by": {"constant": 2}, "points": {}}}
    out = io.StringIO()
    writer = JsonWriter(out, "m.py::f", "loop-2")
    for c in cases:
        writer.add(c)
    assert out.getvalue() == ""  # one document, written at close
    writer.close(stats)
    document = {"target": "m.py::f", "python": f"{sys.version_info.major}.{sys.version_info.minor}",
                "criterion": "loop-2", "tests": [c.to_json() for c in cases], "stats": stats}
    assert out.getvalue() == json.dumps(document, indent=2) + "\n"
    text = JsonText("m.py::f", "loop-2")
    layout = output_format("json").layout
    pieces = text.head() + layout.between.join(text.test(c) for c in cases) + layout.end(count, stats)
    assert pieces == out.getvalue()


def _gen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pathcraft", "gen", *args, "--timeout", "20"],
                          capture_output=True, text=True, cwd=cwd)


def _tests(document: Path | str) -> list[dict[str, Any]]:
    text = document.read_text(encoding="utf-8") if isinstance(document, Path) else document
    tests: list[dict[str, Any]] = json.loads(text)["tests"]
    return tests


def test_a_package_run_writes_json_as_one_module_does(tmp_path: Path) -> None:
    package = tmp_path / "pkg_batch"
    shutil.copytree(FIXTURE, package, ignore=shutil.ignore_patterns("__pycache__"))
    out, split = tmp_path / "generated", tmp_path / "split"
    done = _gen(str(package), "-o", str(out), "--format", "json", "--exclude", "skipped_*", "--jobs", "1",
                cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("test_*"))
    assert written == ["sub/test_sub__arith.json", "sub/test_sub__uses.json", "test_arith.json"]
    one = _gen(str(package / "arith.py"), "--format", "json", cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    assert _tests(out / "test_arith.json") == _tests(one.stdout)
    document = json.loads((out / "test_arith.json").read_text(encoding="utf-8"))
    assert list(document) == ["target", "python", "criterion", "tests", "stats"]
    assert set(document["stats"]) == set(json.loads(one.stdout)["stats"])  # by function, as one module has them
    split.mkdir()
    for form in ("json", "pytest"):
        done = _gen(str(package), "-o", str(split / form), "--format", form, "--exclude", "skipped_*", "--jobs", "2",
                    "--split-depth", "1", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    for name in written:  # a split search numbers its tests again, in the whole search's order, in either format
        pytest_file = (split / "pytest" / name).with_suffix(".py").read_text(encoding="utf-8")
        defs = re.findall(r"^def (test_\w+)\(", pytest_file, re.MULTILINE)
        assert [t["name"] for t in _tests(split / "json" / name)] == defs, name
