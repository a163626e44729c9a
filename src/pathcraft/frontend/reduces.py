"""`functools.reduce(f, xs[, initial])`: the C loop written as a silent
function the frontend lowers like the module's own code.

Why: reduce is a fold whose step is a call the model already knows how to
make (a function of the module, a builtin, a callable parameter, an
`operator` function, a method of a local's object: `iterators.applied`);
`reduce(iadd, lists, [])` extends its start in place (`acc += x`). As in
CPython's C code: the arguments are evaluated in the caller, then `iter()`
of the sequence (a TypeError there becomes "reduce() arg 2 must support
iteration"), then one step per item; with no initial value the first item
starts the fold, and an empty sequence is "reduce() of empty iterable with
no initial value". The function has no frame of its own (no events); the
step's calls are the module's events, as in CPython. Its loop is bounded by
the criterion like any loop.
"""

from __future__ import annotations

import ast

from pathcraft.frontend.arith import sequence
from pathcraft.frontend.callables import nested_types
from pathcraft.frontend.iterators import applied
from pathcraft.frontend.stmthost import StatementLowering
from pathcraft.frontend.synthetic import synthetic_function
from pathcraft.ir.nodes import Call, CheckMethod, Expr, FunctionInfo, Var

# `operator`'s in-place functions: `iadd(a, b)` is `a += b` then `a`
_IN_PLACE: dict[str, type[ast.operator]] = {
    "iadd": ast.Add, "isub": ast.Sub, "imul": ast.Mult, "iand": ast.BitAnd, "ior": ast.BitOr, "ixor": ast.BitXor,
    "ifloordiv": ast.FloorDiv, "imod": ast.Mod, "itruediv": ast.Div,
}

_NOT_ITERABLE = "reduce() arg 2 must support iteration"
_EMPTY = "reduce() of empty iterable with no initial value"

_WITH_INITIAL = f"""
def reduce(__pc_S, __pc_acc):
    try:
        __pc_it = iter(__pc_S)
    except TypeError:
        raise TypeError({_NOT_ITERABLE!r})
    for __pc_x in __pc_it:
        STEP
    return __pc_acc
"""

_WITHOUT_INITIAL = f"""
def reduce(__pc_S):
    try:
        __pc_it = iter(__pc_S)
    except TypeError:
        raise TypeError({_NOT_ITERABLE!r})
    __pc_started = False
    __pc_acc = None
    for __pc_x in __pc_it:
        if __pc_started:
            STEP
        else:
            __pc_acc = __pc_x
            __pc_started = True
    if not __pc_started:
        raise TypeError({_EMPTY!r})
    return __pc_acc
"""


def reduce_call(lw: StatementLowering, node: ast.Call) -> Expr | None:
    """`reduce(f, xs[, initial])` as a call of its silent function; None
    for a form the model does not take (its paths are then dropped)."""
    args = node.args
    if node.keywords or not 2 <= len(args) <= 3 or any(isinstance(a, ast.Starred) for a in args):
        return None
    step = _step(lw, args[0], len(args) == 3 and sequence(lw.expressions, args[2]))
    if step is None:
        return None
    line = node.lineno
    function = args[0]
    if isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name):  # `buf.extend`: looked up now
        lw.blocks.emit(CheckMethod(lw.blocks.stable(lw.expressions.expr(function.value), line), function.attr, line))
    values = [lw.blocks.stable(lw.expressions.expr(a), line) for a in args[1:]]
    own = {"__pc_acc", "__pc_x"}
    read = {n.id for n in ast.walk(step) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - own
    free = sorted(read & lw.locals | lw.captures_of(read))
    template = ast.parse(_WITH_INITIAL if len(args) == 3 else _WITHOUT_INITIAL).body[0]
    assert isinstance(template, ast.FunctionDef)
    body = [_put_step(s, step) for s in template.body]
    params = [a.arg for a in template.args.args] + free
    number = len([p for p in lw.nested if "$reduce" in p and p.rsplit("$reduce", 1)[1].isdigit()])
    info = FunctionInfo("reduce", lw.info.qualname, tuple(params),
                        nested_types(lw.info, lw.expressions.reassigned, params), None, (), line, line,
                        f"{lw.info.entry}$reduce{number}")
    lw.nested_function(synthetic_function("reduce", params, body, line), info, line,
                       entry_mark=False, builtin=True, marks=False)
    tmp = lw.blocks.temp()
    lw.blocks.emit(Call(tmp, info.entry, (*values, *(Var(f) for f in free)), line))
    return Var(tmp)


def _step(lw: StatementLowering, function: ast.expr, on_sequence: bool) -> ast.stmt | None:
    """`__pc_acc = f(__pc_acc, __pc_x)`, or `__pc_acc += __pc_x` for
    `operator.iadd` (and the other in-place operators). `on_sequence`: the
    initial value is surely a list or tuple (`[]`), so `+` and `+=` are its
    methods (`__add__`, `__iadd__`: a list extended in place), as the
    frontend lowers them where it sees a sequence (frontend/arith.py)."""
    acc, item = ast.Name("__pc_acc", ast.Load()), ast.Name("__pc_x", ast.Load())
    origin = lw.expressions.stdlib.origin(function)
    if on_sequence and origin in (("operator", "iadd"), ("operator", "add"), ("operator", "concat"),
                                  ("operator", "iconcat")):
        method = "__add__" if origin[1] in ("add", "concat") else "__iadd__"
        lw.calls.methods_called.add(method)
        call = ast.Call(ast.Attribute(acc, method, ast.Load()), [item], [])
        return ast.Assign([ast.Name("__pc_acc", ast.Store())], call)
    if origin is not None and origin[0] == "operator" and origin[1] in _IN_PLACE:
        return ast.AugAssign(ast.Name("__pc_acc", ast.Store()), _IN_PLACE[origin[1]](), item)
    made = applied(lw.expressions, function, [acc, item])
    if made is None:
        return None
    return ast.Assign([ast.Name("__pc_acc", ast.Store())], made)


def _put_step(statement: ast.stmt, step: ast.stmt) -> ast.stmt:
    """The template's statement with its `STEP` placeholder replaced."""
    for node in ast.walk(statement):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                setattr(node, field, [step if _is_placeholder(s) else s for s in block])
    return step if _is_placeholder(statement) else statement


def _is_placeholder(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Name) and statement.value.id == "STEP"
