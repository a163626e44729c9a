"""A function's symbolic cost against the size of its tests' inputs, as an
SVG scatter plot (for the HTML report): each test is a point, its cost
(the symbolic cost evaluated at its inputs) over its input size."""

from __future__ import annotations

import re

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

WIDTH, HEIGHT, MARGIN = 360, 220, 44


def input_size(test: Mapping[str, Any]) -> tuple[int, str]:
    """How big a test's input is, and in what unit: objects and container
    items of its input heap if it has any, else the sum of its ints'
    magnitudes (a loop bound is an int)."""
    heap = test.get("heap_in") or {}
    if heap:
        size = 0
        for desc in heap.values():
            size += 1
            for kind in ("list", "set", "deque", "dict"):
                size += len(desc.get(kind, ()))
        return size, "objects and items of the inputs"
    ints = [abs(v) for v in (test.get("inputs") or {}).values() if isinstance(v, int) and not isinstance(v, bool)]
    return sum(ints), "sum of |int inputs|"


def _int_input(tests: Sequence[Mapping[str, Any]], cost: str) -> str | None:
    """The int parameter a symbolic cost is written in (`4*icap + 12`), if
    there is one: its value is then the size to plot against."""
    written: set[str] = {name for t in tests if isinstance(text := (t.get("costs") or {}).get(cost), str)
               for name in re.findall(r"[A-Za-z_]\w*", text)}
    for name in sorted(written):
        values = [(t.get("inputs") or {}).get(name) for t in tests]
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            return name
    return None


def cost_plot(tests: Sequence[Mapping[str, Any]], cost: str) -> str | None:
    """The plot of `cost` over input size (the int parameter the cost is
    written in, if any), or None if no test has a value."""
    points: list[tuple[int, int, str]] = []
    unit = ""
    parameter = _int_input(tests, cost)
    for test in tests:
        value = (test.get("cost_values") or {}).get(cost)
        if isinstance(value, int):
            size, unit = (int(test["inputs"][parameter]), parameter) if parameter else input_size(test)
            points.append((size, value, str(test.get("name", ""))))
    if not points:
        return None
    low_x, high_x = min(p[0] for p in points), max(p[0] for p in points)
    low_y, high_y = min(p[1] for p in points), max(p[1] for p in points)
    span_x, span_y = max(high_x - low_x, 1), max(high_y - low_y, 1)

    def at(x: int, y: int) -> tuple[float, float]:
        return (MARGIN + (x - low_x) / span_x * (WIDTH - MARGIN - 12),
                HEIGHT - MARGIN - (y - low_y) / span_y * (HEIGHT - MARGIN - 12))

    dots = "".join(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="3.5"><title>{escape(name)}: size {x}, {escape(cost)} '
                   f'{y}</title></circle>' for x, y, name in points for cx, cy in [at(x, y)])
    bottom, left = HEIGHT - MARGIN, MARGIN
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="plot" role="img" width="{WIDTH}" height="{HEIGHT}" '
            f'aria-label="{escape(cost)} against input size">'
            f'<line x1="{left}" y1="{bottom}" x2="{WIDTH - 8}" y2="{bottom}" class="axis"/>'
            f'<line x1="{left}" y1="{bottom}" x2="{left}" y2="8" class="axis"/>'
            f'<text x="{left}" y="{bottom + 14}" class="tick">{low_x}</text>'
            f'<text x="{WIDTH - 8}" y="{bottom + 14}" class="tick" text-anchor="end">{high_x}</text>'
            f'<text x="{left - 4}" y="{bottom}" class="tick" text-anchor="end">{low_y}</text>'
            f'<text x="{left - 4}" y="16" class="tick" text-anchor="end">{high_y}</text>'
            f'<text x="{(WIDTH + left) / 2}" y="{HEIGHT - 8}" class="label" text-anchor="middle">'
            f'{escape(unit)}</text>'
            f'<text x="12" y="{bottom / 2}" class="label" transform="rotate(-90 12 {bottom / 2})" '
            f'text-anchor="middle">{escape(cost)}</text>{dots}</svg>')
