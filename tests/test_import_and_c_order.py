"""Two wrong claims of the library sweep, fixed at their causes:
* `bisect.insort(x, v)` on an int was claimed an AttributeError (no
  `insert`): its model looked `insert` up first, where the C code bisects
  first and fails in `len()`. Models of C functions keep lookups that may
  fail as dropped paths, and insort bisects first.
* a module whose package's `__init__.py` rebinds its name
  (`from .slugify import *` binds `slugify` to the function) was imported
  as `from pkg import mod`, which gives that function: such a module is
  imported with `importlib.import_module`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from heap_enum import Bounds
from oracle import generated, oracle_tests

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "structure" / "insort_order.py"

test_replay, test_enumeration = oracle_tests(FIXTURE, ["put", "put_sorted"], Bounds(ints=(-1, 0, 1), max_list=2))


def test_insort_on_an_int_fails_in_len() -> None:
    raised = {(c.exc_type, c.exc_message) for c in generated(FIXTURE, "put") if c.kind == "raise"}
    assert {kind for kind, _ in raised} == {"TypeError"}
    assert {message for _, message in raised} <= {None, "object of type 'int' has no len()"}


def _package(root: Path) -> Path:
    pkg = root / "slug"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .slug import *\nfrom .other import helper\n")
    (pkg / "slug.py").write_text("def slug(x: int) -> int:\n    if x > 0:\n        return x\n    return -x\n")
    (pkg / "other.py").write_text("__all__ = ['helper']\n\n\ndef helper(x: int) -> int:\n    return x\n\n\n"
                                  "def other(x: int) -> int:\n    return x\n")
    return pkg


def test_a_module_its_package_rebinds_is_imported_by_name(tmp_path: Path) -> None:
    pkg = _package(tmp_path)
    for module in ("slug", "other"):
        made = subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(pkg / f"{module}.py"), "-q",
                               "-o", str(tmp_path / f"test_{module}.py")], capture_output=True, text=True,
                              cwd=tmp_path)
        assert made.returncode == 0, made.stderr
    assert "importlib.import_module('slug.slug')" in (tmp_path / "test_slug.py").read_text()
    assert "from slug import other" in (tmp_path / "test_other.py").read_text()  # its package leaves it alone
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_slug.py",
                          "test_other.py"], capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert ran.returncode == 0, ran.stdout
