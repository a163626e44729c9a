"""Lowering the bitwise operators `& | ^ ~ << >>` and `int.bit_length`/
`int.bit_count`, exactly on Python's unbounded ints.

What is linear stays linear and unbounded: `~x` is `-x - 1`; a shift by a
constant count multiplies or floor-divides by a power of two; `&` with a
non-negative constant is a sum of remainders by powers of two (bit runs),
and `|`/`^` with one follow from it (`x | c == x + c - (x & c)`,
`x ^ c == x + c - 2 * (x & c)`). The rest goes through builtin predicates
whose guards bound the operands: both operands of `& | ^` in signed 64
bits (where Python's infinite two's complement is the 64-bit result: see
`solver/bitops.py`), a shift count in 0..MAX_SHIFT (a negative one raises
ValueError as Python does); out of the bounds the path is dropped.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from pathcraft.ir.builtin_names import UNSUPPORTED
from pathcraft.frontend.sink import BlockSink
from pathcraft.ir.nodes import Binary, Call, Const, Expr, Predicate, Raise, Return, Rule, Unary, Var
from pathcraft.solver.bitops import HIGH, LOW, MAX_SHIFT

NEGATIVE_SHIFT = "negative shift count"
BIT_OPERATORS = (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)
_PREDICATE = {ast.BitAnd: "int_bitand", ast.BitOr: "int_bitor", ast.BitXor: "int_bitxor",
              ast.LShift: "int_lshift", ast.RShift: "int_rshift"}
# builtin predicates over ints: the engine enters them only with int/bool operands
BIT_PREDICATES = frozenset(_PREDICATE.values())
_MAX_RUNS = 4  # bit runs of a constant mask worth a sum of remainders
_MAX_CONSTANT_SHIFT = 1024


def invert(operand: Expr) -> Expr:
    """`~x` is `-x - 1` on every int."""
    return Binary("sub", Unary("neg", int_operand(operand)), Const(1))


def int_operand(e: Expr) -> Expr:
    """`e` as an operand of a bitwise operator: an int or bool passes; a
    float raises TypeError, None too (the evaluator's `bitint`)."""
    return Unary("bitint", e)


def lower_binop(blocks: BlockSink, op: ast.operator, left: Expr, right: Expr, line: int) -> Expr:
    """`left OP right` for a bitwise operator: a pure expression when exact
    and linear, else a call of the operator's builtin predicate."""
    if isinstance(op, (ast.LShift, ast.RShift)):
        count = _constant(right)
        if count is not None and 0 <= count <= _MAX_CONSTANT_SHIFT:
            return Binary("mul" if isinstance(op, ast.LShift) else "floordiv", int_operand(left), Const(2 ** count))
    else:
        for value, constant in ((left, _constant(right)), (right, _constant(left))):
            if constant is not None and constant >= 0 and len(_runs(constant)) <= _MAX_RUNS:
                value = blocks.stable(int_operand(value), line)
                masked = _masked(value, constant)
                if isinstance(op, ast.BitAnd):
                    return masked
                total = Binary("add", value, Const(constant))
                twice = masked if isinstance(op, ast.BitOr) else Binary("mul", Const(2), masked)
                return Binary("sub", total, twice)
    tmp = blocks.temp()
    blocks.emit(Call(tmp, _PREDICATE[type(op)], (left, right), line))
    return Var(tmp)


def _constant(e: Expr) -> int | None:
    if isinstance(e, Const) and type(e.value) is int:
        return e.value
    return None


def _runs(mask: int) -> list[tuple[int, int]]:
    """The maximal runs of ones of `mask >= 0`, as (low, high) bit positions."""
    runs, position = [], 0
    while mask:
        while not mask & 1:
            mask >>= 1
            position += 1
        start = position
        while mask & 1:
            mask >>= 1
            position += 1
        runs.append((start, position))
    return runs


def _masked(value: Expr, mask: int) -> Expr:
    """`value & mask` for `mask >= 0`: per run of ones [low, high), the bits
    `value % 2**high - value % 2**low` (exact on every int)."""
    result: Expr = Const(0)
    for low, high in _runs(mask):
        run: Expr = Binary("mod", value, Const(2 ** high))
        if low:
            run = Binary("sub", run, Binary("mod", value, Const(2 ** low)))
        result = run if result == Const(0) else Binary("add", result, run)
    return result


def _fits(e: Expr) -> Expr:
    return Binary("and", Binary("ge", e, Const(LOW)), Binary("le", e, Const(HIGH)))


def _pred(name: str, params: tuple[str, ...], *rules: Rule) -> Predicate:
    return Predicate(name, name, params, rules, builtin=True)


def bit_predicates(int_method: Callable[[str], str]) -> list[Predicate]:
    """The predicates of the operators, and of the int methods named by
    `int_method` (the prelude's naming, which imports the lowerer)."""
    a, b = Var("a"), Var("b")
    preds = []
    for op, word in (("bitand", "&"), ("bitor", "|"), ("bitxor", "^")):
        both = Binary("and", _fits(a), _fits(b))
        preds.append(_pred(
            f"int_{op}", ("a", "b"),
            Rule(1, both, (Return(Binary(op, a, b), 0),)),
            Rule(2, Unary("not", both), (Raise(UNSUPPORTED, f"'{word}' beyond signed 64 bits", 0),)),
        ))
    for name, op in (("int_lshift", "shl"), ("int_rshift", "shr")):
        preds.append(_pred(
            name, ("a", "b"),
            Rule(1, Binary("lt", b, Const(0)), (Raise("ValueError", NEGATIVE_SHIFT, 0),)),
            Rule(2, Binary("and", Binary("ge", b, Const(0)), Binary("le", b, Const(MAX_SHIFT))),
                 (Return(Binary(op, a, b), 0),)),
            Rule(3, Binary("gt", b, Const(MAX_SHIFT)), (Raise(UNSUPPORTED, f"a shift by more than {MAX_SHIFT}", 0),)),
        ))
    this = Var("self")
    for method in ("bit_length", "bit_count"):
        name = int_method(method)
        preds.append(_pred(
            name, ("self",),
            Rule(1, _fits(this), (Return(Unary(method, this), 0),)),
            Rule(2, Unary("not", _fits(this)), (Raise(UNSUPPORTED, f"int.{method}() beyond signed 64 bits", 0),)),
        ))
    return preds
