"""Mutants of one function: its source with one operator or constant
changed, as mutation testing tools make them.

`--suite compact` keeps the tests that kill every mutant the whole suite
kills (`suite/compact.py`). The operators are cosmic-ray's core ones,
which `bench/mutation.py` measures with: an arithmetic or bitwise
operator replaced by each other one, a comparison by each other one
(as cosmic-ray limits it when the right operand is None or a number; `in`
and `not in` swapped), one `and`/`or` made the other, `not`, `-` and `~` removed (`-` also made
`+`), an int constant moved by one either way, `True`/`False` swapped,
`break`/`continue` swapped, a condition negated, a `for` loop given no
iteration. Each mutant is the function's own definition, unparsed, with one
node changed; the worker compiles it and swaps its code into the real
function (`execute/mutant_runs.py`).
"""

from __future__ import annotations

import ast
import copy
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass

_ARITHMETIC: tuple[type[ast.operator], ...] = (
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.LShift, ast.RShift, ast.BitAnd,
    ast.BitOr, ast.BitXor)
# cosmic-ray's replacements: an arithmetic operator by each other one; a comparison among these eight by
# each other one, except where the right operand is None or a number (`_comparison_targets`); `in` and
# `not in` (which cosmic-ray leaves) by each other
_COMPARED: tuple[type[ast.cmpop], ...] = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot)
_BINARY: dict[type[ast.operator], tuple[type[ast.operator], ...]] = {
    op: tuple(other for other in _ARITHMETIC if other is not op) for op in _ARITHMETIC}
# right operand None: only the identity of the opposite sense
_AGAINST_NONE: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Eq: (ast.IsNot,), ast.NotEq: (ast.Is,), ast.Is: (ast.IsNot,), ast.IsNot: (ast.Is,)}


def _comparison_targets(op: ast.cmpop, right: ast.expr) -> tuple[type[ast.cmpop], ...]:
    """The operators `op` is replaced by, given its right operand."""
    if isinstance(op, (ast.In, ast.NotIn)):
        return (ast.NotIn,) if isinstance(op, ast.In) else (ast.In,)
    if type(op) not in _COMPARED:
        return ()
    if isinstance(right, ast.Constant) and right.value is None:
        return _AGAINST_NONE.get(type(op), ())
    others = tuple(other for other in _COMPARED if other is not type(op))
    if isinstance(right, ast.Constant) and isinstance(right.value, (int, float, complex)) \
            and not isinstance(right.value, bool):  # a number: no identity comparison
        return tuple(other for other in others if other not in (ast.Is, ast.IsNot))
    return others


@dataclass(frozen=True)
class Mutant:
    """One change: where, what, and the whole mutated definition."""

    number: int
    line: int
    what: str  # `+ -> -`, `< -> <=`, `3 -> 4`
    source: str  # the function's definition with the change, decorators left out


Change = Callable[[ast.AST], ast.AST]  # a node of the copy -> what takes its place


def mutants(definition: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[Mutant]:
    """Each mutant of `definition`, in source order (nested definitions
    are part of it: a change there changes the function)."""
    number = 0
    for site, label, change in _sites(definition):
        mutated = copy.deepcopy(definition)
        mutated.decorator_list = []
        swapped = _Swap(_position(site), change).visit(mutated)
        if not isinstance(swapped, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        number += 1
        yield Mutant(number, getattr(site, "lineno", definition.lineno), label, ast.unparse(swapped))


class _Swap(ast.NodeTransformer):
    """Replaces the node at one position (the first of its type there)."""

    def __init__(self, position: tuple[object, ...], change: Change) -> None:
        self.position = position
        self.change: Change | None = change

    def visit(self, node: ast.AST) -> ast.AST:
        if self.change is not None and _position(node) == self.position:
            change, self.change = self.change, None
            return change(node)
        visited: ast.AST = super().visit(node)
        return visited


def _position(node: ast.AST) -> tuple[object, ...]:
    return (type(node), getattr(node, "lineno", None), getattr(node, "col_offset", None),
            getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None))


def _sites(definition: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[tuple[ast.AST, str, Change]]:
    """(node, description, change) for each mutant."""
    for node in _body_nodes(definition):
        if isinstance(node, (ast.BinOp, ast.AugAssign)):
            for new in _BINARY.get(type(node.op), ()):
                yield node, f"{_symbol(node.op)} -> {_symbol(new())}", _with("op", new)
        elif isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                for new_op in _comparison_targets(op, node.comparators[i]):
                    yield node, f"{_symbol(op)} -> {_symbol(new_op())}", _with_comparison(i, new_op)
        elif isinstance(node, ast.BoolOp):  # one operator at a time, as cosmic-ray replaces it in the text
            other_name = "or" if isinstance(node.op, ast.And) else "and"
            for at in range(len(node.values) - 1):
                yield node, f"{_symbol(node.op).strip()} #{at + 1} -> {other_name}", functools.partial(_bool_at, at)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub, ast.Invert)):
            yield node, f"{_symbol(node.op)}x -> x", _operand
            if isinstance(node.op, ast.USub):
                yield node, "-x -> +x", _with("op", ast.UAdd)
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            yield node, f"{node.value} -> {not node.value}", _with("value", functools.partial(bool, not node.value))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            for step in (1, -1):
                yield node, f"{node.value} -> {node.value + step}", \
                    _with("value", functools.partial(int, node.value + step))
        elif isinstance(node, (ast.Break, ast.Continue)):
            other: type[ast.stmt] = ast.Continue if isinstance(node, ast.Break) else ast.Break
            yield node, f"{_symbol(node)} -> {_symbol(other())}", functools.partial(_as, other)
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):  # the condition negated
            yield node.test, "c -> not c", _negated
        elif isinstance(node, ast.For):  # the loop runs no iteration
            yield node.iter, "for x in xs -> for x in []", _empty_list


def _body_nodes(definition: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of the body, in source order, without the docstring and
    the parameters of nested definitions (their defaults run once)."""
    pending: list[ast.AST] = [s for s in definition.body
                              if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                      and isinstance(s.value.value, str))]
    pending.reverse()
    while pending:
        node = pending.pop()
        if isinstance(node, ast.arguments):
            continue
        yield node
        pending.extend(reversed(list(ast.iter_child_nodes(node))))


def _bool_at(at: int, node: ast.AST) -> ast.AST:
    """`a or b or c` with its `at`-th operator the other one, as Python
    reads the text: `a or (b and c)` (at 1); `a and b and c` at 0 is
    `a or (b and c)`."""
    assert isinstance(node, ast.BoolOp)
    values = node.values

    def joined(op: ast.boolop, items: list[ast.expr]) -> ast.expr:
        return items[0] if len(items) == 1 else ast.BoolOp(op=op, values=items)

    if isinstance(node.op, ast.Or):
        return ast.copy_location(joined(ast.Or(), [*values[:at], joined(ast.And(), values[at:at + 2]),
                                                   *values[at + 2:]]), node)
    return ast.copy_location(ast.BoolOp(op=ast.Or(), values=[joined(ast.And(), values[:at + 1]),
                                                              joined(ast.And(), values[at + 1:])]), node)


def _negated(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.expr)
    return ast.copy_location(ast.UnaryOp(op=ast.Not(), operand=node), node)


def _empty_list(node: ast.AST) -> ast.AST:
    return ast.copy_location(ast.List(elts=[], ctx=ast.Load()), node)


def _operand(node: ast.AST) -> ast.AST:
    """`not x`, `-x` -> `x`."""
    assert isinstance(node, ast.UnaryOp)
    return node.operand


def _as(kind: type[ast.stmt], node: ast.AST) -> ast.AST:
    return ast.copy_location(kind(), node)


def _with(attribute: str, make: Callable[[], object]) -> Change:
    def change(node: ast.AST) -> ast.AST:
        setattr(node, attribute, make())
        return node
    return change


def _with_comparison(index: int, new: type[ast.cmpop]) -> Change:
    def change(node: ast.AST) -> ast.AST:
        assert isinstance(node, ast.Compare)
        node.ops[index] = new()
        return node
    return change


_SYMBOLS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
    ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is",
    ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in", ast.And: "and", ast.Or: "or", ast.Not: "not ",
    ast.USub: "-", ast.Invert: "~", ast.Break: "break", ast.Continue: "continue",
}


def _symbol(op: ast.AST) -> str:
    return _SYMBOLS.get(type(op), type(op).__name__)
