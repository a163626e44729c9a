"""Native summaries (frontend/natives.py, paper 002 §3.3): the user's
models of library functions pathcraft cannot read. The generated tests run
against the real library (a stand-in for a C extension, outside the
analysed tree) and must pass."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "fixtures" / "natives"
SITE, PROJECT = HERE / "site", HERE / "proj"
MODELS = PROJECT / "fastlib_models.py"
USES = PROJECT / "uses.py"


def gen(tmp_path: Path, *options: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SITE), *sys.path])}
    return subprocess.run([sys.executable, "-m", "pathcraft", "gen", str(USES), "-o", str(tmp_path / "test_uses.py"),
                           *options], capture_output=True, text=True, cwd=cwd or tmp_path, env=env)


def run_tests(tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SITE), str(PROJECT)])}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_uses.py"],
                          capture_output=True, text=True, cwd=tmp_path, env=env)


def test_models_stand_for_the_library_and_the_tests_pass_on_the_real_one(tmp_path: Path) -> None:
    done = gen(tmp_path, "--native-summaries", str(MODELS))
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "test_uses.py").read_text()
    for name in ("reduced", "level", "ordered", "summed", "root"):
        assert f"def test_{name}_" in text, name
    assert "pytest.raises(ValueError" in text  # clamp's precondition and isqrt's, raised through the call
    assert "checksum" in done.stderr and "left out" in done.stderr  # the model's gap drops only its paths
    assert "uses.summed(flag=False) == 0" in text
    ran = run_tests(tmp_path)
    assert ran.returncode == 0 and " passed" in ran.stdout and "failed" not in ran.stdout, ran.stdout


def test_without_models_only_the_paths_that_call_the_library_are_dropped(tmp_path: Path) -> None:
    done = gen(tmp_path)  # fastlib is installed (on the path) but has no model
    assert done.returncode == 0, done.stderr
    for call in ("fastlib.gcd()", "fastlib.clamp()", "fastlib.checksum()", "math.isqrt"):
        assert call in done.stderr, call  # each call drops the paths that reach it, named
    text = (tmp_path / "test_uses.py").read_text()
    assert "uses.summed(flag=False) == 0" in text and "def test_reduced_" not in text
    ran = run_tests(tmp_path)
    assert ran.returncode == 0 and "1 passed" in ran.stdout, ran.stdout


def test_the_setting_in_pyproject_is_read_beside_it(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(f'[tool.pathcraft]\nnative_summaries = ["{MODELS.name}"]\n')
    (tmp_path / MODELS.name).write_text(MODELS.read_text())
    work = tmp_path / "work"
    work.mkdir()
    done = gen(tmp_path, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "def test_reduced_" in (tmp_path / "test_uses.py").read_text()


@pytest.mark.parametrize(("text", "said"), [
    ("from pathcraft.assume import summary_of\n\n@summary_of('fastlib')\ndef f(a: int) -> int:\n    return a\n",
     ":3:2: @summary_of takes the library function's dotted name"),
    ("def f(a: int) -> int:\n    return a\n", "no function is marked @summary_of"),
    ("def f(:\n", ":1:7: syntax error"),
    ("from pathcraft.assume import summary_of\n\n@summary_of('m.f')\ndef f(a: int) -> int:\n    return a\n\n"
     "@summary_of('m.f')\ndef g(a: int) -> int:\n    return a\n", "a second native summary of m.f"),
])
def test_a_bad_summary_file_is_one_line_and_exit_2(tmp_path: Path, text: str, said: str) -> None:
    models = tmp_path / "models.py"
    models.write_text(text)
    done = gen(tmp_path, "--native-summaries", str(models))
    assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    missing = gen(tmp_path, "--native-summaries", str(tmp_path / "nowhere.py"))
    assert missing.returncode == 2 and "no such file" in missing.stderr
