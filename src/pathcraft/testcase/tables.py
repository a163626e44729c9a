"""Tests that differ only in values, written as one parametrized table.

A compact suite (`--suite compact`) reads as a developer writes tests:
the calls of one function with plain values in and a plain value (or one
exception) out become one `@pytest.mark.parametrize` test, a row per path,
each row's id the test's own name without its function (`3_returns_12`)
and, as `--comments` asks, the row's path constraint above it. A test
that builds objects, checks what the call changed, reads a property or
checks a float by its `repr` stays a test of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pathcraft.testcase.emit_pytest import (PytestText, by_repr, call_text, holds_ref, local_imports, named_members,
                                          render)
from pathcraft.layout import within_limit
from pathcraft.testcase.model import TestCase
from pathcraft.testcase.records import NamedValue


def tabled(writer: PytestText, cases: Sequence[TestCase]) -> tuple[list[str], dict[str, str]]:
    """The texts of one function's tests, in order: each group of two or
    more plain tests of one shape as a table where its first test was, the
    rest as `writer` writes them; and each tabled test's name -> the id
    pytest runs its row as (`test_f_returns[3_returns_12]`)."""
    groups: dict[tuple[object, ...], list[TestCase]] = {}
    for case in cases:
        key = _shape(writer, case)
        if key is not None:
            groups.setdefault(key, []).append(case)
    tables = {key: rows for key, rows in groups.items() if len(rows) > 1}
    placed: set[tuple[object, ...]] = set()
    names: set[str] = set()
    out: list[str] = []
    runs_as: dict[str, str] = {}
    for case in cases:
        key = _shape(writer, case)
        if key not in tables:
            out.append(writer.test(case))
        elif key not in placed:
            placed.add(key)
            text, ids = _table(writer, tables[key], names)
            out.append(text)
            runs_as.update(ids)
    return out, runs_as


def _shape(writer: PytestText, case: TestCase) -> tuple[object, ...] | None:
    """What a table's rows share (None: the test is written alone)."""
    if case.construction is not None or case.heap_in or case.heap_out or case.extra.get("invariant") \
            or case.extra.get("binding") not in (None, "static") or case.extra.get("varargs") \
            or case.extra.get("kwargs") or any(not _plain(v) for _, v in case.inputs):
        return None
    if case.kind == "raise":
        return (case.qualname, "raise", writer.exception(case), writer.message(case) is None)
    if not _plain(case.value) or by_repr(case.value) or isinstance(case.value, tuple) \
            and any(by_repr(v) for v in case.value):
        return None
    return (case.qualname, "return", case.value is None or isinstance(case.value, bool))


def _plain(value: Any) -> bool:
    """A value a row writes as a literal."""
    if isinstance(value, tuple):
        return all(_plain(v) for v in value)
    return not isinstance(value, (dict, list, set, NamedValue)) and not holds_ref(value)


def _table(writer: PytestText, rows: list[TestCase], taken: set[str]) -> tuple[str, dict[str, str]]:
    first = rows[0]
    parameters = [name for name, _ in first.inputs]
    expected = _fresh("expected", parameters)
    message = _fresh("message", parameters)
    with_message = first.kind == "raise" and writer.message(first) is not None
    columns = parameters + ([expected] if first.kind == "return" else [message] if with_message else [])
    placeholder = TestCase(name=first.name, qualname=first.qualname, kind=first.kind, extra=first.extra,
                           inputs=tuple((name, {"$ref": name}) for name in parameters))
    call = call_text(placeholder, writer.alias, first.qualname in writer.positional)
    if first.kind == "raise":
        raises = writer.exception(first) + (f", match={message}" if with_message else "")
        body = [f"    with pytest.raises({raises}):", f"        {call}"]
    else:
        body = [f"    assert {call} {'is' if _shape(writer, first)[-1] else '=='} {expected}"]  # type: ignore[index]
    prefix = f"test_{first.qualname.replace('.', '_')}_"
    outcome = first.name[len(prefix):].split("_", 1)[-1] if first.kind == "raise" else "returns"
    name = _unique(f"{prefix}{outcome}" if first.kind == "raise" else f"{prefix}returns", taken)
    lines = ["", "", "@pytest.mark.parametrize(", f"    {_names(columns)},", "    ["]
    ids: dict[str, str] = {}
    for case in rows:
        lines += [f"    {line}" for line in writer.comment(case)]
        values = [render(v) for _, v in case.inputs]
        values += [render(case.value)] if case.kind == "return" else [repr(writer.message(case))] if with_message \
            else []
        row_id = case.name[len(prefix):] if case.name.startswith(prefix) else case.name
        lines.append(f"        pytest.param({', '.join(values)}, id={row_id!r}),")
        ids[case.name] = f"{name}[{row_id}]"
    body = [f"    {line}" for line in local_imports(body)] + body
    lines += ["    ],", ")", f"def {name}({', '.join(columns)}) -> None:", *body]
    spellings = first.extra.get("spellings", {})
    return within_limit("\n".join(named_members(line, writer.alias, spellings) for line in lines) + "\n"), ids


def _names(columns: list[str]) -> str:
    """The parametrize names: a tuple of strings (one column: its string)."""
    return repr(columns[0]) if len(columns) == 1 else "(" + ", ".join(repr(c) for c in columns) + ")"


def _fresh(word: str, taken: Sequence[str]) -> str:
    name = word
    while name in taken:
        name = f"{name}_"
    return name


def _unique(name: str, taken: set[str]) -> str:
    found, n = name, 1
    while found in taken:
        n += 1
        found = f"{name}_{n}"
    taken.add(found)
    return found
