"""A Ctrl-C passed on to the work's thread can be lost: an exception set on
a thread is raised at whatever line it runs, and inside a finalizer (Z3's
`__del__`, run by the collector) Python prints it and goes on. The main
thread also notes it (`depth.interrupted`); the search asks as it steps,
and the hook that would print the lost one stays quiet while it is noted."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pathcraft import depth
from pathcraft.__main__ import _quiet_z3_finalizers
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

WIDE = "def wide(" + ", ".join(f"x{i}: int" for i in range(12)) + ") -> int:\n    n = 0\n" + "".join(
    f"    if x{i} > 0:\n        n += {1 << i}\n" for i in range(12)) + "    return n\n"


@pytest.fixture
def noted() -> Iterator[None]:
    depth._INTERRUPTED.set()
    try:
        yield
    finally:
        depth._INTERRUPTED.clear()


def test_the_search_stops_at_a_noted_interruption(tmp_path: Path, noted: None) -> None:
    (tmp_path / "wide.py").write_text(WIDE)
    program = translate(str(tmp_path / "wide.py"), ["wide"]).program
    with pytest.raises(KeyboardInterrupt):
        generate(program, "wide", GenerateOptions.of())


def test_without_one_the_same_search_runs_to_its_end(tmp_path: Path) -> None:
    (tmp_path / "wide.py").write_text(WIDE)
    program = translate(str(tmp_path / "wide.py"), ["wide"]).program
    assert len(generate(program, "wide", GenerateOptions.of()).cases) == 2 ** 12


class _Raises:
    """An object whose finalizer raises, as a Ctrl-C landing in `__del__` does."""

    def __init__(self, exc_type: type[BaseException]) -> None:
        self.exc_type = exc_type

    def __del__(self) -> None:
        raise self.exc_type()


def _finalize(exc_type: type[BaseException], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "unraisablehook", _quiet_z3_finalizers)
    _Raises(exc_type)  # dropped at once: its finalizer runs here


def test_a_noted_interruption_lost_in_a_finalizer_is_not_printed(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, noted: None) -> None:
    _finalize(KeyboardInterrupt, monkeypatch)
    assert capsys.readouterr().err == ""


def test_other_lost_exceptions_are_printed(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                           noted: None) -> None:
    _finalize(ValueError, monkeypatch)
    assert "ValueError" in capsys.readouterr().err


def test_an_interruption_not_noted_is_printed(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    _finalize(KeyboardInterrupt, monkeypatch)
    assert "KeyboardInterrupt" in capsys.readouterr().err
