"""A function's tests kept in the summary store (engine/summarystore.py).

Paper 002 takes a function's summary to be its test cases. The store keeps
the summaries of callees for composition; with it, a run also keeps the
summary of each function it tests: the tests it wrote, as data. A later run
with the same code and settings reads them back instead of searching,
probing and solving again, so an unchanged module costs its translation
and no more.

The key names everything the tests depend on: the pathcraft and store
versions, every generation setting except the time budget, the code the
function's run can enter (`code_hash`, which counts every class and method
as soon as the code works on objects), the infos of the functions in that
code, and the module's facts the test file is written from (its classes,
exception hierarchy, names taken at import, drivers, class homes). A run is
kept only when nothing in it depended on time: no deadline reached, no
solver query unknown.

Values are written with a tag per Python type (tuples stay tuples, floats
are exact, big ints are exact), never with pickle.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from pathcraft.fingerprint import fingerprint
from pathcraft.engine.summarystore import STORE_VERSION, decode_traces, encode_trace, per_program, reachable
from pathcraft.ir.nodes import Program
from pathcraft.ir.trace import TraceTerm
from pathcraft.testcase.model import Construction, TestCase


class NotStorable(Exception):
    """A value the tagged encoding has no tag for."""


def run_key(program: Program, qualname: str, settings: str) -> dict[str, Any]:
    """The store key of `qualname`'s tests under `settings`, the text of
    the generation options without their time budget (the caller says
    which options a key can name: this layer does not know them)."""
    info = program.functions[qualname]
    entered = reachable(program, info.entry)
    infos = sorted(repr(f) for f in program.functions.values() if f.entry in entered.names or f.qualname == qualname)
    digest = hashlib.sha256()
    for part in (settings, entered.digest, per_program(program, "module facts", lambda: _module_facts(program)),
                 *infos):
        digest.update(part.encode())
        digest.update(b"\0")
    return {"store": STORE_VERSION, "pathcraft": fingerprint(), "kind": "tests", "function": qualname,
            "code": digest.hexdigest()}


def _module_facts(program: Program) -> str:
    """What a module's test file is written from, besides its functions' code."""
    return repr((program.module, program.path, sorted(program.exception_bases.items()),
                 sorted(program.classes.items()), sorted(program.replaced_at_import), program.invariants,
                 sorted(program.drivers.items()), sorted(program.hidden_classes),
                 sorted(program.class_spellings.items()), sorted(program.class_homes.items()),
                 sorted(program.functions)))


# ------------------------------------------------------------------ values


def encode(value: Any, traces: list[Any]) -> Any:
    """`value` as JSON, each non-JSON type under a tag."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return ["i", str(value)]
    if isinstance(value, float):
        return ["f", value.hex()]
    if isinstance(value, tuple):
        return ["t", [encode(v, traces) for v in value]]
    if isinstance(value, list):
        return ["l", [encode(v, traces) for v in value]]
    if isinstance(value, Mapping):
        return ["d", [[encode(k, traces), encode(v, traces)] for k, v in value.items()]]
    if isinstance(value, (set, frozenset)):
        return ["s" if isinstance(value, set) else "z", [encode(v, traces) for v in value]]
    if isinstance(value, bytes):
        return ["b", value.hex()]
    if isinstance(value, TraceTerm):
        return ["r", encode_trace(value, traces)]
    if isinstance(value, Construction):
        return ["c", [encode(getattr(value, f.name), traces) for f in fields(Construction)]]
    raise NotStorable(type(value).__name__)


def decode(data: Any, traces: list[TraceTerm]) -> Any:
    if data is None or isinstance(data, (bool, str)):
        return data
    tag, body = data
    if tag == "i":
        return int(body)
    if tag == "f":
        return float.fromhex(body)
    if tag == "t":
        return tuple(decode(v, traces) for v in body)
    if tag == "l":
        return [decode(v, traces) for v in body]
    if tag == "d":
        return {decode(k, traces): decode(v, traces) for k, v in body}
    if tag in ("s", "z"):
        items = [decode(v, traces) for v in body]
        return set(items) if tag == "s" else frozenset(items)
    if tag == "b":
        return bytes.fromhex(body)
    if tag == "r":
        return traces[body]
    if tag == "c":
        return Construction(*(decode(v, traces) for v in body))
    raise ValueError(f"unknown value tag {tag!r}")


def encode_cases(cases: list[TestCase], extra: Mapping[str, Any]) -> dict[str, Any]:
    """The tests (every field) and `extra` (the rest of the run) as a document."""
    traces: list[Any] = []
    rows = [[encode(getattr(case, f.name), traces) for f in fields(TestCase)] for case in cases]
    return {"fields": [f.name for f in fields(TestCase)], "cases": rows, "run": encode(dict(extra), traces),
            "traces": traces}


def decode_cases(document: Mapping[str, Any]) -> tuple[list[TestCase], dict[str, Any]]:
    names = [f.name for f in fields(TestCase)]
    if document["fields"] != names:
        raise ValueError("the tests were stored with other fields")
    traces = decode_traces(document["traces"])
    cases = [TestCase(**dict(zip(names, (decode(v, traces) for v in row)))) for row in document["cases"]]
    return cases, decode(document["run"], traces)
