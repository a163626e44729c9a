"""The HTML report of a run (`--report FILE.html`): one static page, opened
from disk, no server and no script. Per module, its functions with their
tests and those refused with why; per function, its source with the lines
its tests reach highlighted (as coverage.py's HTML does), the cost table
and, for a symbolic cost, a plot of cost against input size
(pathcraft/report/costplot.py); per test, its inputs, outcome, path, and its
object graphs before and after the call (pathcraft/report/heapsvg.py).

The tests come as `TestCase.to_json()` dicts (plus `cost_values`), which
is what a package run's workers send back.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from pathcraft import __version__
from pathcraft.report.costplot import cost_plot
from pathcraft.report.heapsvg import SVG_DEFS, changed_rows, heap_svg
from pathcraft.sourcedefs import find_function

PICTURED = 40  # tests per function drawn in full; the rest are listed


@dataclass(frozen=True)
class FunctionReport:
    qualname: str
    tests: list[dict[str, Any]]
    # why paths were dropped (and, with no test, why none was written: every path cut, a budget)
    dropped: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ModuleReport:
    name: str
    source: str  # the file, to show its lines
    status: str
    functions: list[FunctionReport]
    refused: dict[str, str] = field(default_factory=dict)  # function -> why
    message: str = ""


def function_lines(tree: ast.Module, qualname: str) -> tuple[int, int, set[int]] | None:
    """The first and last line of `qualname`'s definition and the lines of
    its own statements (not those of functions nested in it), or None."""
    node = find_function(tree, qualname)
    if node is None:
        return None
    lines: set[int] = set()
    todo: list[ast.stmt] = list(node.body)
    if todo and isinstance(todo[0], ast.Expr) and isinstance(todo[0].value, ast.Constant) \
            and isinstance(todo[0].value.value, str):
        todo = todo[1:]  # the docstring
    while todo:
        statement = todo.pop()
        lines.add(statement.lineno)
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for child in ast.iter_child_nodes(statement):
            if isinstance(child, ast.stmt):
                todo.append(child)
            elif isinstance(child, (ast.ExceptHandler, ast.match_case)):
                todo.extend(child.body)
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return first, node.end_lineno or node.lineno, lines


def _reached(tests: Sequence[Mapping[str, Any]], qualname: str) -> set[int]:
    return {int(e[2]) for t in tests for e in t.get("path", ()) if len(e) == 3 and e[0] == "line"
            and e[1] == qualname}


def _value(value: Any) -> str:
    if isinstance(value, dict) and "$ref" in value:
        return f"→ {escape(str(value['$ref']))}"
    return escape(json.dumps(value) if not isinstance(value, str) else repr(value))


def _outcome(test: Mapping[str, Any]) -> str:
    outcome = test.get("outcome", {})
    if outcome.get("kind") == "raise":
        message = f": {outcome['message']}" if outcome.get("message") else ""
        return f"raises {escape(str(outcome.get('type')))}{escape(message)}"
    return f"returns {_value(outcome.get('value'))}"


def _test_html(test: Mapping[str, Any], pictured: bool) -> str:
    inputs = test.get("inputs", {})
    rows = "".join(f"<tr><td>{escape(k)}</td><td>{_value(v)}</td></tr>" for k, v in inputs.items())
    constraint = " and ".join(test.get("constraints", ())) or "True"
    body = [f'<table class="inputs"><tr><th>input</th><th>value</th></tr>{rows}</table>',
            f'<p class="outcome">{_outcome(test)}</p>',
            f'<p class="constraint"><b>path:</b> <code>{escape(constraint)}</code></p>']
    if test.get("costs"):
        body.append('<p class="costs"><b>costs:</b> ' + ", ".join(
            f"{escape(k)} = <code>{escape(str(v))}</code>" for k, v in test["costs"].items()) + "</p>")
    before, after = test.get("heap_in") or {}, test.get("heap_final") or {}
    if pictured and (before or after):
        roots = {k: v for k, v in inputs.items() if isinstance(v, dict) and "$ref" in v}
        body.append('<div class="graphs"><figure>'
                    + heap_svg(before, roots, label=f"{test.get('name')}: objects before the call")
                    + '<figcaption>before the call</figcaption></figure><figure>'
                    + heap_svg(after, roots, changed_rows(before, after),
                               label=f"{test.get('name')}: objects after the call")
                    + '<figcaption>after the call (changed fields in bold)</figcaption></figure></div>')
    return (f'<details class="test"><summary><code>{escape(str(test.get("name")))}</code> {_outcome(test)}'
            f'</summary>{"".join(body)}</details>')


def _source_html(lines: list[str], span: tuple[int, int, set[int]], reached: set[int]) -> str:
    first, last, statements = span
    out = []
    for number in range(first, min(last, len(lines)) + 1):
        kind = "run" if number in reached else "mis" if number in statements else ""
        out.append(f'<span class="line {kind}"><span class="no">{number}</span>{escape(lines[number - 1])}</span>')
    return '<pre class="source">' + "".join(out) + "</pre>"


def _costs_html(tests: Sequence[Mapping[str, Any]]) -> str:
    names = list(dict.fromkeys(name for t in tests for name in (t.get("costs") or {})))
    if not names:
        return ""
    head = "".join(f"<th>{escape(n)}</th>" for n in names)
    rows = "".join(f"<tr><td><code>{escape(str(t.get('name')))}</code></td>"
                   + "".join(f"<td>{escape(str((t.get('costs') or {}).get(n, '')))}</td>" for n in names) + "</tr>"
                   for t in tests)
    plots = [plot for n in names if any(isinstance((t.get("costs") or {}).get(n), str) for t in tests)
             if (plot := cost_plot(tests, n)) is not None]
    return (f'<h4>Costs</h4><table class="costs"><tr><th>test</th>{head}</tr>{rows}</table>'
            + "".join(f"<figure>{p}</figure>" for p in plots))


def _anchor(*parts: str) -> str:
    return "-".join(p.replace("/", "-").replace(".", "-") for p in parts)


def _module_html(module: ModuleReport) -> str:
    try:
        text = Path(module.source).read_text(encoding="utf-8")
        tree: ast.Module | None = ast.parse(text)
        lines = text.splitlines()
    except (OSError, SyntaxError, ValueError):
        tree, lines = None, []
    rows, sections = [], []
    for function in module.functions:
        span = function_lines(tree, function.qualname) if tree is not None else None
        reached = _reached(function.tests, function.qualname)
        coverage = f"{len(reached & span[2])} of {len(span[2])}" if span else "-"
        anchor = _anchor(module.name, function.qualname)
        why = "; ".join(function.dropped)
        rows.append(f'<tr><td><a href="#{anchor}">{escape(function.qualname)}</a></td>'
                    f'<td class="n">{len(function.tests)}</td><td class="n">{coverage}</td>'
                    f'<td class="why">{escape(why)}</td></tr>')
        tests = "".join(_test_html(t, i < PICTURED) for i, t in enumerate(function.tests))
        more = f"<p>(graphs drawn for the first {PICTURED} tests)</p>" if len(function.tests) > PICTURED else ""
        sections.append(f'<details class="function" id="{anchor}"><summary><h3>{escape(function.qualname)}</h3> '
                        f'{len(function.tests)} tests, lines reached: {coverage}</summary>'
                        + (_source_html(lines, span, reached) if span else "") + _dropped_html(function)
                        + _costs_html(function.tests) + f"<h4>Tests</h4>{more}{tests}</details>")
    refused = "".join(f"<li><code>{escape(q)}</code>: {escape(why)}</li>" for q, why in module.refused.items())
    return (f'<section class="module" id="{_anchor(module.name)}"><h2>{escape(module.name)} '
            f'<span class="status {escape(module.status)}">{escape(module.status)}</span></h2>'
            + (f'<p class="message">{escape(module.message)}</p>' if module.message else "")
            + ('<table class="functions"><tr><th>function</th><th>tests</th><th>lines reached</th>'
               '<th>paths dropped, or why no test</th></tr>' + "".join(rows) + "</table>" if rows else "")
            + (f'<h4>Refused</h4><ul class="refused">{refused}</ul>' if refused else "")
            + "".join(sections) + "</section>")


def _dropped_html(function: FunctionReport) -> str:
    """Why paths of the function were dropped (why it has no test, if none)."""
    if not function.dropped:
        return ""
    heading = "No test: why" if not function.tests else "Paths dropped"
    return f"<h4>{heading}</h4><ul class=\"dropped\">" + "".join(
        f"<li>{escape(reason)}</li>" for reason in function.dropped) + "</ul>"


_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:0 2em 3em;color:#222;max-width:80em}
h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
h3{display:inline;font-size:1em}h4{margin:.8em 0 .3em}
table{border-collapse:collapse;margin:.3em 0}td,th{border:1px solid #ddd;padding:2px 8px;text-align:left}
td.n{text-align:right}td.why{font-size:12px;color:#555}code{font:12px ui-monospace,monospace}
.status{font-size:.75em;padding:1px 6px;border-radius:4px;background:#eee}
.status.written{background:#d7f0d7}.status.failed{background:#f6d0d0}.status.unchanged{background:#e4e8f4}
details.function{margin:.6em 0;padding:.3em .6em;border:1px solid #ddd;border-radius:6px}
details.test{margin:.3em 0 .3em 1em}summary{cursor:pointer}
pre.source{background:#fafafa;border:1px solid #eee;padding:.4em 0;overflow-x:auto;font-size:12px}
pre.source .line{display:block;padding:0 .6em}pre.source .no{display:inline-block;width:3.5em;color:#999}
pre.source .run{background:#ddffdd}pre.source .mis{background:#ffe2e2}
.graphs{display:flex;flex-wrap:wrap;gap:1.5em}figure{margin:.4em 0}figcaption{font-size:12px;color:#555}
svg.heap{background:#fcfcff;border:1px solid #e4e4f0;border-radius:4px}
svg.heap rect{fill:#fff;stroke:#557;stroke-width:1}svg.heap .aliased rect{stroke:#84c;stroke-width:3}
svg.heap text{font:11px ui-monospace,monospace}svg.heap .cls{font-weight:bold}
svg.heap .changed{font-weight:bold;fill:#a40}svg.heap .root{font-weight:bold}
svg.heap .edge{fill:none;stroke:#445;stroke-width:1.2}svg.heap .edge.back{stroke:#c60;stroke-dasharray:4 2}
svg.plot .axis{stroke:#333}svg.plot circle{fill:#36c;opacity:.7}svg.plot text{font:11px sans-serif}
"""


def page(title: str, modules: Sequence[ModuleReport], summary: Mapping[str, Any]) -> str:
    tests = sum(len(f.tests) for m in modules for f in m.functions)
    functions = sum(len(m.functions) for m in modules)
    untested = sum(1 for m in modules for f in m.functions if not f.tests)
    refused = sum(len(m.refused) for m in modules)
    index = "".join(f'<tr><td><a href="#{_anchor(m.name)}">{escape(m.name)}</a></td>'
                    f'<td>{escape(m.status)}</td><td class="n">{len(m.functions)}</td>'
                    f'<td class="n">{sum(len(f.tests) for f in m.functions)}</td>'
                    f'<td class="n">{len(m.refused)}</td></tr>' for m in modules)
    facts = "".join(f"<li>{escape(str(k))}: {escape(str(v))}</li>" for k, v in summary.items())
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>{SVG_DEFS}"
            f"<h1>{escape(title)}</h1><p>{len(modules)} modules, {functions} functions searched "
            f"({untested} of them without a test), {tests} tests, {refused} functions refused. "
            f"pathcraft {__version__}.</p><ul class=\"facts\">{facts}</ul>"
            '<table class="index"><tr><th>module</th><th>status</th><th>functions</th><th>tests</th>'
            f"<th>refused</th></tr>{index}</table>" + "".join(_module_html(m) for m in modules)
            + "</body></html>\n")


def write_html(path: Path, title: str, modules: Sequence[ModuleReport], summary: Mapping[str, Any]) -> None:
    path.write_text(page(title, modules, summary), encoding="utf-8")
