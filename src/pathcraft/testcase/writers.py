"""The output formats by name: what `--format NAME` and a package run's
`format` setting look up (one registry, so a single module and a package
write the same bytes).

A format is a writer (testcase/stream.py: the head and each test, made
from the module's program), its layout (what goes between two tests and
at the end) and the suffix of a package run's files. A new format is a
module with its `Writer` and `Layout`, and one `OutputFormat` entry below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TextIO

from pathcraft.errors import PathcraftError
from pathcraft.ir.nodes import Program
from pathcraft.testcase import emit_json, emit_pytest
from pathcraft.testcase.stream import Layout, TestStream, Writer


@dataclass(frozen=True)
class Destination:
    """What a writer is made for: the module's program, its source file,
    the target as the user gave it, the functions tested and the criterion
    label."""

    program: Program
    source: str
    target: str
    functions: tuple[str, ...]
    criterion: str
    comments: str = "full"  # what a pytest test's comment shows: full, path or none (`--comments`)


@dataclass(frozen=True)
class OutputFormat:
    name: str
    suffix: str  # of a package run's file per module
    layout: Layout
    writer: Callable[[Destination], Writer]
    runs: bool  # the file is a pytest module (--verify runs it as it is; else one is written aside)

    def open(self, out: TextIO, where: Destination) -> TestStream:
        return TestStream(out, self.writer(where), self.layout)


def string_inputs(program: Program, functions: list[str]) -> bool:
    """Does a parameter of these functions, or a field of a class they take,
    hold a str (or a list of str)?"""
    types = [t for q in functions if q in program.functions for t in program.functions[q].param_types]
    classes = {t.cls if t.kind == "obj" else t.elem.cls if t.elem is not None else None for t in types}
    fields = [t for cls in sorted(c for c in classes if c in program.classes)
              for klass in program.mro(cls) for _, t in program.classes[klass].fields]
    return any(t.kind == "str" or t.elem is not None and t.elem.kind == "str" for t in types + fields)


def pytest_text(where: Destination) -> emit_pytest.PytestText:
    """The pytest text for the functions of a program: the header says
    what the module's facts need (floats, strings, caches, homes)."""
    program, functions = where.program, list(where.functions)
    known = [q for q in functions if q in program.functions]
    return emit_pytest.PytestText(
        program.module, where.source, functions, where.criterion,
        frozenset(program.exception_bases), frozenset(program.classes),
        frozenset(q for q in functions if not program.takes_keywords(q)),
        floats=any(t.kind == "float" for q in known for t in program.functions[q].param_types),
        string_inputs=string_inputs(program, functions),
        cached=program.cached_functions(), homes=tuple(program.class_homes.values()),
        defaults={q: dict(program.functions[q].defaults) for q in known}, comments=where.comments)


def _json_text(where: Destination) -> emit_json.JsonText:
    return emit_json.JsonText(where.target, where.criterion)


FORMATS: Mapping[str, OutputFormat] = {f.name: f for f in (
    OutputFormat("pytest", ".py", emit_pytest.LAYOUT, pytest_text, runs=True),
    OutputFormat("json", ".json", emit_json.LAYOUT, _json_text, runs=False),
)}


def output_format(name: str) -> OutputFormat:
    if name not in FORMATS:
        raise PathcraftError(f"unknown format '{name}' ({' or '.join(FORMATS)})")
    return FORMATS[name]


def pytest_writer(out: TextIO, program: Program, path: str, functions: list[str], label: str) -> TestStream:
    """The pytest file for `functions` of `program` (criterion `label`),
    written to `out` as tests come."""
    return FORMATS["pytest"].open(out, Destination(program, path, path, tuple(functions), label))
