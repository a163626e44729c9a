"""A test's object graph as an SVG picture (for the HTML report): the
inputs' objects and lists as boxes, references as arrows. An object two
references reach (aliasing) has a thick border and says how many reach it;
a reference back to an earlier column (a cycle, or a self reference) is
drawn as a curve in another colour, so both are seen at a glance.

The heap is a test's description (`TestCase.to_json`'s `heap_in` or
`heap_final`): name -> {"class": C, "fields": {...}} or {"list": [...]}
(also "dict", "set", "deque"); a reference is {"$ref": name}.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

COLUMN = 190  # px between columns
BOX = 150  # box width
ROW = 17  # px per field row
GAP = 18  # px between boxes of a column
# the arrowheads, once per page (the pictures refer to them by id)
SVG_DEFS = ('<svg width="0" height="0" style="position:absolute" aria-hidden="true"><defs>'
            '<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
            'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#445"/></marker>'
            '<marker id="arrowback" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
            'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#c60"/></marker></defs></svg>')


def _ref(value: Any) -> str | None:
    return value.get("$ref") if isinstance(value, dict) and isinstance(value.get("$ref"), str) else None


def _short(value: Any) -> str:
    if value is None:
        return "None"
    if isinstance(value, dict) and "$ref" not in value:
        return escape(str(value.get("repr", value)))[:18]
    text = repr(value)
    return escape(text if len(text) <= 18 else text[:16] + "…")


def _rows(desc: Mapping[str, Any]) -> tuple[str, list[tuple[str, Any]]]:
    """The box's title and its rows (label, value)."""
    if "fields" in desc or "class" in desc:
        return str(desc.get("class", "object")), sorted(desc.get("fields", {}).items())
    if "dict" in desc:
        return "dict", [(_short(k), v) for k, v in desc["dict"]]
    for kind in ("list", "set", "deque"):
        if kind in desc:
            return kind, [(f"[{i}]", v) for i, v in enumerate(desc[kind])]
    return "value", []


def heap_svg(heap: Mapping[str, Any], roots: Mapping[str, Any], changed: frozenset[str] = frozenset(),
             label: str = "") -> str:
    """The picture of the objects `roots` (parameter -> value) reach in
    `heap`; `changed`: "name.field" rows to highlight (what the call wrote)."""
    order, column = _columns(heap, roots)
    place, heights = _layout(heap, order, column)
    incoming = _incoming(heap, order, roots, place)
    width = 130 + max(column.values(), default=0) * COLUMN
    height = max([*heights.values(), 20.0 * (len(roots) + 1) + 10])
    parts: list[str] = []
    edges: list[str] = []
    _draw_roots(roots, place, parts, edges)
    for name in order:
        _draw_object(heap, name, place, column, incoming, changed, parts, edges)
    top = 60 if any("back" in e for e in edges) else 0
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="heap" role="img" aria-label="{escape(label)}" '
            f'width="{width:.0f}" height="{height + top:.0f}" viewBox="0 {-top} {width:.0f} {height + top:.0f}">'
            + "".join(parts) + "".join(edges) + "</svg>")


def _columns(heap: Mapping[str, Any], roots: Mapping[str, Any]) -> tuple[list[str], dict[str, int]]:
    """The objects the roots reach, breadth first, and each one's column
    (its distance from the roots)."""
    order: list[str] = []
    column: dict[str, int] = {}
    frontier = [name for value in roots.values() if (name := _ref(value)) is not None and name in heap]
    for name in frontier:
        column.setdefault(name, 1)
    while frontier:
        following: list[str] = []
        for name in frontier:
            if name in order:
                continue
            order.append(name)
            for _, value in _rows(heap[name])[1]:
                target = _ref(value)
                if target is not None and target in heap and target not in column:
                    column[target] = column[name] + 1
                    following.append(target)
        frontier = following
    return order, column


def _layout(heap: Mapping[str, Any], order: list[str], column: Mapping[str, int]
            ) -> tuple[dict[str, tuple[float, float, float]], dict[int, float]]:
    """Each box's x, y and height (stacked down its column), and how far
    down each column goes."""
    place: dict[str, tuple[float, float, float]] = {}  # name -> x, y, height
    heights: dict[int, float] = {c: 10.0 for c in set(column.values())}
    for name in order:
        rows = _rows(heap[name])[1]
        height = float(ROW * (len(rows) + 1) + 6)
        c = column[name]
        place[name] = (10 + c * COLUMN - COLUMN + 110, heights[c], height)
        heights[c] += height + GAP
    return place, heights


def _incoming(heap: Mapping[str, Any], order: list[str], roots: Mapping[str, Any],
              place: dict[str, tuple[float, float, float]]) -> dict[str, int]:
    """How many references (fields and roots) reach each drawn object."""
    incoming: dict[str, int] = {}
    for name in order:
        for _, value in _rows(heap[name])[1]:
            if (target := _ref(value)) in place:
                incoming[target] = incoming.get(target, 0) + 1
    for value in roots.values():
        if (target := _ref(value)) in place:
            incoming[target] = incoming.get(target, 0) + 1
    return incoming


def _draw_roots(roots: Mapping[str, Any], place: dict[str, tuple[float, float, float]],
                parts: list[str], edges: list[str]) -> None:
    """The parameters down the left: an arrow to an object, or a value."""
    for index, (param, value) in enumerate(roots.items()):
        row = 16 + index * 22
        parts.append(f'<text x="6" y="{row + 4}" class="root">{escape(param)}</text>')
        target = _ref(value)
        if target in place:
            tx, ty, _ = place[target]
            edges.append(f'<path d="M 70 {row} C 95 {row}, {tx - 25} {ty + 10}, {tx} {ty + 10}" class="edge" '
                         'marker-end="url(#arrow)"/>')
        else:
            parts.append(f'<text x="70" y="{row + 4}" class="scalar">= {_short(value)}</text>')


def _draw_object(heap: Mapping[str, Any], name: str, place: dict[str, tuple[float, float, float]],
                 column: dict[str, int], incoming: Mapping[str, int], changed: frozenset[str],
                 parts: list[str], edges: list[str]) -> None:
    """One object's box with its rows, and an arrow for each reference."""
    x, y, h = place[name]
    title, rows = _rows(heap[name])
    aliased = incoming.get(name, 0) > 1
    parts.append(f'<g class="object{" aliased" if aliased else ""}"><title>{escape(name)}: {escape(title)}'
                 f'{f" (reached by {incoming[name]} references)" if aliased else ""}</title>'
                 f'<rect x="{x}" y="{y}" width="{BOX}" height="{h}" rx="5"/>'
                 f'<text x="{x + 6}" y="{y + 13}" class="cls">{escape(title)}'
                 f'{f" ×{incoming[name]}" if aliased else ""}</text>')
    for i, (field, value) in enumerate(rows):
        ry = y + ROW * (i + 1) + 13
        mark = " changed" if f"{name}.{field}" in changed else ""
        target = _ref(value)
        shown = "•" if target in place else _short(value)
        parts.append(f'<text x="{x + 6}" y="{ry}" class="field{mark}">{escape(str(field))} = {shown}</text>')
        if target in place:
            tx, ty, th = place[target]
            sx, sy = x + BOX - 8, ry - 4
            if column[target] > column[name]:
                edges.append(f'<path d="M {sx} {sy} C {sx + 40} {sy}, {tx - 40} {ty + 10}, {tx} {ty + 10}" '
                             'class="edge" marker-end="url(#arrow)"/>')
            else:  # back to an earlier column or to itself: a cycle, drawn around
                bend = 40 + 30 * (column[name] - column[target])
                edges.append(f'<path d="M {sx} {sy} C {sx + bend} {sy - bend}, {tx + BOX / 2} {ty - bend}, '
                             f'{tx + BOX / 2} {ty}" class="edge back" marker-end="url(#arrowback)"/>')
    parts.append("</g>")


def changed_rows(before: Mapping[str, Any], after: Mapping[str, Any]) -> frozenset[str]:
    """The "name.field" rows whose value the call changed (or added)."""
    out: set[str] = set()
    for name, desc in after.items():
        old = dict(_rows(before[name])[1]) if name in before else {}
        for field, value in _rows(desc)[1]:
            if name not in before or old.get(field, object()) != value:
                out.add(f"{name}.{field}")
    return frozenset(out)
