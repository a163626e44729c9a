"""Loops: `while`, `for` over a range, a sequence, `enumerate`, `zip`,
`reversed`, and `break`/`continue`.

Why: a loop is a header block entered from outside (restarting its
iteration count, for loop-K) and on every back edge, with CPython's line
event for the header each time; a `for` walks its iterable by index,
reading the length on every step as Python's iterators do, and closes a
generator it leaves early.
"""

from __future__ import annotations

import ast

from pathcraft.frontend import arith
from pathcraft.frontend.blocks import BlockBuilder
from pathcraft.frontend.stmt_assign import store, target_name
from pathcraft.frontend.stmt_try import leave_finallies
from pathcraft.frontend.stmthost import Loop, StatementLowering, close, makes_fresh
from pathcraft.ir.builtin_names import ITERATE, LOOP_KEY, LOOP_LATER, LOOP_REVERSED, LOOP_STEP, LOOP_VALUE
from pathcraft.ir.nodes import Assign, Binary, Call, Const, Expr, ListOp, Mark, NewList, Text, Var

ITERATORS = ("enumerate", "reversed", "zip")
ZIP_MOST = 6  # `zip(a, b, c)`: the sources a loop walks side by side, at most
STEP = Const(Text(LOOP_STEP))  # marks a loop's own `len` and `get` (see ir/builtin_names)
_LATER = Const(Text(LOOP_LATER))
REVERSED = Const(Text(LOOP_REVERSED))


def open_loop(lw: StatementLowering, s: ast.While | ast.For) -> tuple[BlockBuilder, ...]:
    """The blocks of a loop (header, body, exit, else), entered at the
    header, which becomes the current block. The loop is known by its
    header's name (as the builtins' loops are): entering the header
    from outside restarts its iteration count, each run of the body
    adds one."""
    header = lw.blocks.new_block("loop")
    body = lw.blocks.new_block("body", iterates=header.name)
    after = lw.blocks.new_block("exit")
    orelse = lw.blocks.new_block("else") if s.orelse else after
    lw.blocks.jump(header, enters_loop=header.name)
    lw.blocks.enter(header)
    return header, body, after, orelse


def while_loop(lw: StatementLowering, s: ast.While) -> None:
    lw.blocks.emit(Mark(s.lineno))
    header, body, after, orelse = open_loop(lw, s)
    lw.expressions.condition(s.test, body, orelse)
    loop_body(lw, s.body, body, Loop(header.name, after.name, s.lineno, len(lw.finallies)))
    loop_else(lw, s, orelse, after)


def loop_else(lw: StatementLowering, s: ast.While | ast.For, orelse: BlockBuilder, after: BlockBuilder) -> None:
    """The `else:` of a loop runs when the loop ends without `break`."""
    if s.orelse:
        lw.blocks.resume(orelse)
        lw.statements(s.orelse)
        lw.blocks.jump(after)
    lw.blocks.resume(after)


def loop_body(lw: StatementLowering, stmts: list[ast.stmt], body: BlockBuilder, loop: Loop) -> None:
    lw.loops.append(loop)
    lw.blocks.resume(body)
    lw.statements(stmts)
    if lw.blocks.current is not None:
        lw.blocks.emit(Mark(loop.line))  # CPython reports the header on every back edge
        lw.blocks.jump(loop.header)
    lw.loops.pop()


def for_loop(lw: StatementLowering, s: ast.For) -> None:
    if s.type_comment:
        raise lw.error(s, "type comment")
    it = s.iter
    called = it.func.id if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) \
        and it.func.id not in lw.expressions.local_names and it.func.id not in lw.module.functions else None
    backwards = arith.range_call(lw.expressions, it.args[0]) if called == "reversed" and isinstance(it, ast.Call) \
        and len(it.args) == 1 and not it.keywords else None
    if called == "zip" and isinstance(it, ast.Call) and any(arith.range_call(lw.expressions, a) for a in it.args):
        for_list(lw, s)  # `zip(range(n), xs)`: the silent generator `zip` is, walking the range (iterators.py)
        return
    if called in ITERATORS and isinstance(it, ast.Call) and backwards is None:
        for_iterator(lw, s, it, called)
        return
    range_call = backwards or (arith.range_call(lw.expressions, it) if called == "range" else None)
    if range_call is None:
        for_list(lw, s)
        return
    target = target_name(lw, s.target)
    lw.blocks.emit(Mark(s.lineno))
    if isinstance(step_node := (range_call.args[2] if len(range_call.args) == 3 else None), ast.Constant) \
            and isinstance(step_node.value, str):
        raise lw.error(step_node, "range() step other than an int")
    if backwards is not None and len(backwards.args) == 3:
        raise lw.error(it, "reversed() of a range with a step")
    start, stop, step = arith.range_bounds(lw.expressions, range_call, s.lineno)
    if backwards is not None:  # reversed(range(a, b)) is range(b - 1, a - 1, -1)
        start, stop, step = Binary("sub", stop, Const(1)), Binary("sub", start, Const(1)), Const(-1)
    counter = lw.blocks.temp("it")
    lw.blocks.emit(Assign(counter, start, s.lineno))
    header, body, after, orelse = open_loop(lw, s)
    if isinstance(step, Const) and isinstance(step.value, int):
        more: Expr = Binary("lt" if step.value > 0 else "gt", Var(counter), stop)
    else:
        more = Binary(
            "or",
            Binary("and", Binary("gt", step, Const(0)), Binary("lt", Var(counter), stop)),
            Binary("and", Binary("lt", step, Const(0)), Binary("gt", Var(counter), stop)),
        )
    lw.blocks.branch(more, body, orelse)
    body.instrs.append(Assign(target, Var(counter), s.lineno))
    body.instrs.append(Assign(counter, Binary("add", Var(counter), step), s.lineno))
    loop_body(lw, s.body, body, Loop(header.name, after.name, s.lineno, len(lw.finallies)))
    loop_else(lw, s, orelse, after)


def for_list(lw: StatementLowering, s: ast.For) -> None:
    """`for x in lst`: an index walks the list; its length is read on
    every step, as Python's list iterator does."""
    lw.blocks.emit(Mark(s.lineno))
    lst = lw.blocks.stable(lw.expressions.expr(s.iter), s.lineno, across_statements=True)
    counter = lw.blocks.temp("it")
    lw.blocks.emit(Assign(counter, Const(0), s.lineno))
    length = lw.blocks.temp("n")
    lw.blocks.emit(ListOp("iter", length, lst, (), s.lineno))  # TypeError when not iterable
    lst = iterate(lw, lst, s.lineno)
    iterator = lst.name if lw.walks_iterators and isinstance(lst, Var) else None
    header, body, after, orelse = open_loop(lw, s)
    lw.blocks.emit(ListOp("len", length, lst, (STEP,), s.lineno))
    lw.blocks.branch(Binary("lt", Var(counter), Var(length)), body, orelse)
    if dict_items(s):  # `for k, v in d.items()`: the key and the value of each entry
        assert isinstance(s.target, (ast.Tuple, ast.List))
        parts = [lw.blocks.temp(), lw.blocks.temp()]
        for part, flag in zip(parts, (LOOP_KEY, LOOP_VALUE)):
            body.instrs.append(ListOp("get", part, lst, (Var(counter), Const(Text(flag))), s.lineno))
        body.instrs.append(Assign(counter, Binary("add", Var(counter), Const(1)), s.lineno))
        lw.blocks.enter(body)
        for element, part in zip(s.target.elts, parts):
            store(lw, element, Var(part), s.lineno)
    else:
        item = lw.blocks.temp()
        body.instrs.append(ListOp("get", item, lst, (Var(counter), STEP), s.lineno))
        body.instrs.append(Assign(counter, Binary("add", Var(counter), Const(1)), s.lineno))
        lw.blocks.enter(body)
        store(lw, s.target, Var(item), s.lineno)
    loop_body(lw, s.body, body, Loop(header.name, after.name, s.lineno, len(lw.finallies), iterator,
                                       fresh=makes_fresh(s.iter)))
    loop_else(lw, s, orelse, after)


def iterate(lw: StatementLowering, iterable: Expr, line: int) -> Expr:
    """What a loop walks: in a module with generators, `$iterate(x)` (a
    generator for an object whose `__iter__` is one; see ir/builtin_names)."""
    if not lw.walks_iterators:
        return iterable
    lw.calls.methods_called.add("__iter__")
    walked = lw.blocks.temp("iter")
    lw.blocks.emit(Call(walked, ITERATE, (iterable,), line))
    return Var(walked)


def for_iterator(lw: StatementLowering, s: ast.For, it: ast.Call, called: str) -> None:
    """`for i, x in enumerate(xs[, start])`, `for x in reversed(xs)`,
    `for a, b in zip(xs, ys)`: an index walks the sequences, their
    lengths read on every step as the iterators do; `reversed` starts
    at the end and stops below 0 or past a list that shrank."""
    arity = {"enumerate": (1, 2), "reversed": (1, 1), "zip": (1, ZIP_MOST)}[called]
    if it.keywords or not arity[0] <= len(it.args) <= arity[1] or any(
            isinstance(a, ast.Starred) for a in it.args):
        raise lw.error(it, f"{called}() with these arguments")
    names = 1 if called == "reversed" else len(it.args) if called == "zip" else 2
    unpacked = isinstance(s.target, (ast.Tuple, ast.List)) and len(s.target.elts) == names
    if called != "reversed" and not unpacked and not (called == "zip" and isinstance(s.target, ast.Name)):
        raise lw.error(s.target, f"loop over {called}() into one name (a tuple per item)")
    lw.blocks.emit(Mark(s.lineno))
    seqs = [lw.blocks.stable(lw.expressions.expr(a), s.lineno, across_statements=True)
            for a in it.args[:len(it.args) if called == "zip" else 1]]
    start: Expr = Const(0)
    if called == "enumerate" and len(it.args) == 2:
        start = lw.blocks.stable(lw.expressions.expr(it.args[1]), s.lineno, across_statements=True)
    lengths = [lw.blocks.temp("n") for _ in seqs]
    for seq, length in zip(seqs, lengths):  # TypeError when not iterable (a set is not reversible)
        lw.blocks.emit(ListOp("iter", length, seq, (REVERSED,) if called == "reversed" else (), s.lineno))
    if called != "reversed":
        seqs = [iterate(lw, seq, s.lineno) for seq in seqs]
    counter = lw.blocks.temp("it")
    first = Binary("sub", Var(lengths[0]), Const(1)) if called == "reversed" else Const(0)
    lw.blocks.emit(Assign(counter, first, s.lineno))
    header, body, after, orelse = open_loop(lw, s)
    more: Expr | None = None
    for k, (seq, length) in enumerate(zip(seqs, lengths)):  # zip stops at its first exhausted argument
        lw.blocks.emit(ListOp("len", length, seq, (STEP if k == 0 else _LATER,), s.lineno))
        test = Binary("lt", Var(counter), Var(length))
        if called == "reversed":
            test = Binary("and", Binary("ge", Var(counter), Const(0)), test)
        more = test if more is None else Binary("and", more, test)
    assert more is not None
    lw.blocks.branch(more, body, orelse)
    items = [lw.blocks.temp() for _ in seqs]
    for seq, item in zip(seqs, items):
        body.instrs.append(ListOp("get", item, seq, (Var(counter), STEP), s.lineno))
    position = lw.blocks.temp("i")
    body.instrs.append(Assign(position, Binary("add", Var(counter), start), s.lineno))
    step = -1 if called == "reversed" else 1
    body.instrs.append(Assign(counter, Binary("add", Var(counter), Const(step)), s.lineno))
    lw.blocks.enter(body)
    if called == "reversed":
        store(lw, s.target, Var(items[0]), s.lineno)
    elif not unpacked:  # `for pair in zip(a, b)`: the tuple itself
        pair = lw.blocks.temp()
        lw.blocks.emit(NewList(pair, tuple(Var(i) for i in items), None, s.lineno, is_tuple=True))
        store(lw, s.target, Var(pair), s.lineno)
    else:
        assert isinstance(s.target, (ast.Tuple, ast.List))
        values = [Var(position), Var(items[0])] if called == "enumerate" else [Var(i) for i in items]
        for element, value in zip(s.target.elts, values):
            store(lw, element, value, s.lineno)
    loop_body(lw, s.body, body, Loop(header.name, after.name, s.lineno, len(lw.finallies)))
    loop_else(lw, s, orelse, after)


def break_loop(lw: StatementLowering, s: ast.Break) -> None:
    lw.blocks.emit(Mark(s.lineno))
    loop = lw.loops[-1]
    leave_finallies(lw, loop.finally_depth)
    if loop.iterator is not None and lw.blocks.current is not None:
        lw.blocks.emit(close(loop.iterator, loop.fresh, s.lineno))
    lw.blocks.jump(loop.after)


def continue_loop(lw: StatementLowering, s: ast.Continue) -> None:
    lw.blocks.emit(Mark(s.lineno))
    loop = lw.loops[-1]
    leave_finallies(lw, loop.finally_depth)
    if lw.blocks.current is not None:
        lw.blocks.emit(Mark(loop.line))
        lw.blocks.jump(loop.header)


def dict_items(s: ast.For) -> bool:
    """`for a, b in EXPR.items():` (two names for each entry of a dict; a
    comprehension's loop gets the view as `$items0`)."""
    it = s.iter
    return pair(s.target) and (items_call(it) or isinstance(it, ast.Name) and it.id == "$items0")


def pair(target: ast.expr) -> bool:
    return isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == 2


def items_call(it: ast.expr) -> bool:
    return isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items" \
        and not it.args and not it.keywords


