"""A module whose import is sure to fail is refused with the reason, never
given a test file that cannot even be collected (frontend/importable.py).
Each case is checked against Python itself: importing the module fails."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pathcraft.frontend import translate

FUNCTION = "\n\ndef f(x: int) -> int:\n    return x + 1\n"

CASES = {
    "not_installed": ("import pathcraft_no_such_package_xyz\n", "no module named pathcraft_no_such_package_xyz"),
    "removed_name": ("from collections import MutableMapping\n", "collections has no 'MutableMapping'"),
    "self_annotation": ("class M:\n    def times(self, other: M) -> M:\n        return self\n",
                        "names M, which is not bound yet"),
    "missing_file": ("import os\n\n\ndef load() -> str:\n    here = os.path.dirname(os.path.realpath(__file__))\n"
                     "    with open(here + '/words.txt') as fh:\n        return fh.read()\n\n\nWORDS = load()\n",
                     "it reads words.txt when imported"),
}


def test_a_file_read_at_import_that_is_there_is_fine(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_text(CASES["missing_file"][0] + FUNCTION)
    (tmp_path / "words.txt").write_text("a\nb\n")
    assert _imports(tmp_path, "mod")
    assert "f" in translate(str(tmp_path / "mod.py"), ["f"]).program.functions


def _imports(folder: Path, module: str) -> bool:
    run = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=folder, capture_output=True, text=True,
                         timeout=60)
    return run.returncode == 0


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_module_that_cannot_be_imported_is_refused(tmp_path: Path, case: str) -> None:
    source, why = CASES[case]
    (tmp_path / "mod.py").write_text(source + FUNCTION)
    assert not _imports(tmp_path, "mod")  # the oracle: Python agrees
    result = translate(str(tmp_path / "mod.py"), ["f"])
    assert "f" not in result.program.functions
    assert "importing it fails here" in str(result.errors["f"]) and why in str(result.errors["f"])


def test_postponed_annotations_may_name_the_class(tmp_path: Path) -> None:
    source = "from __future__ import annotations\n\n" + CASES["self_annotation"][0]
    (tmp_path / "mod.py").write_text(source + FUNCTION)
    assert _imports(tmp_path, "mod")
    assert "f" in translate(str(tmp_path / "mod.py"), ["f"]).program.functions


def test_a_missing_sibling_and_its_importers_are_refused(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("from .gone import thing\n" + FUNCTION)
    (package / "high.py").write_text("from .low import f as _unused\nfrom .low import f\n\n\ndef g(x: int) -> int:\n"
                                     "    return f(x)\n")
    assert not _imports(tmp_path, "pkg.high")
    low = translate(str(package / "low.py"), ["f"])
    assert "no module .gone next to it" in str(low.errors["f"])
    high = translate(str(package / "high.py"), ["g"])
    assert "g" not in high.program.functions and "importing it fails here" in str(high.errors["g"])


def test_imports_inside_try_are_left_to_the_module(tmp_path: Path) -> None:
    source = "try:\n    import pathcraft_no_such_package_xyz\nexcept ImportError:\n    pass\n"
    (tmp_path / "mod.py").write_text(source + FUNCTION)
    assert _imports(tmp_path, "mod")
    assert "f" in translate(str(tmp_path / "mod.py"), ["f"]).program.functions
