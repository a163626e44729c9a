"""Functions the frontend writes for an expression of the user's code (a
comprehension, a generator expression, a key function): their syntax
trees and the names they take from the function holding them.

Why: these are lowered as functions of their own (CPython runs most as
frames of their own), and their code is copied from the user's: each
copy keeps where its calls are in the source, since the line CPython
reports after a call depends on the call's place.
"""

from __future__ import annotations

import ast
import copy

from pathcraft.frontend.exprhost import CALL_POSITION
from pathcraft.frontend.stmthost import StatementLowering

# the frames CPython names without `<locals>` when nested in one another
COMPREHENSION_FRAMES = ("<listcomp>", "<genexpr>", "<setcomp>", "<dictcomp>")


def synthetic_function(name: str, params: list[str], body: list[ast.stmt], line: int) -> ast.FunctionDef:
    """A function the frontend writes, every node of it at `line`."""
    fn = ast.FunctionDef(name, ast.arguments([], [ast.arg(p) for p in params], None, [], [], None, []),
                         body, [], None)
    for part in ast.walk(fn):
        if not isinstance(part, ast.expr_context):
            part.lineno, part.end_lineno = line, line  # type: ignore[attr-defined]
            part.col_offset, part.end_col_offset = 0, 0  # type: ignore[attr-defined]
    return fn


def copy_with_call_positions(node: ast.expr) -> ast.expr:
    """A copy whose calls remember where they are in the source (as
    `CALL_POSITION`): `synthetic_function` puts every node at one line, but
    the line CPython reports after a call depends on the call's place."""
    copied = copy.deepcopy(node)
    for part in ast.walk(copied):
        if isinstance(part, ast.Call):
            setattr(part, CALL_POSITION, (part.lineno, part.col_offset, part.end_lineno, part.end_col_offset))
    return copied


def free_names(lw: StatementLowering, node: ast.ListComp | ast.DictComp | ast.SetComp | ast.GeneratorExp,
               parts: list[ast.expr]) -> list[str]:
    """The variables of the holding function that the comprehension's
    `parts`, conditions and inner iterables read (passed as arguments)."""
    more = node.generators[1:]
    bound = {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
    inside = [*parts, *(c for g in node.generators for c in g.ifs), *(g.iter for g in more)]
    used = {n.id for part in inside for n in ast.walk(part)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    inner_bound = {n.id for comp in ast.walk(node) if isinstance(comp, ast.comprehension)
                   for n in ast.walk(comp.target) if isinstance(n, ast.Name)}
    return sorted((used - bound - inner_bound) & lw.locals | lw.captures_of(used - bound - inner_bound))


def frame_scope(qualname: str, frames: tuple[str, ...] = COMPREHENSION_FRAMES) -> str:
    """What joins a nested frame's name to its holder's qualname."""
    return "." if qualname.endswith(frames) else ".<locals>."
