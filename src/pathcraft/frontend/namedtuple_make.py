"""`C._make(iterable)` of a NamedTuple class: its silent function.

`collections.namedtuple`'s `_make` builds the tuple from any iterable and
raises `TypeError("Expected N arguments, got M")` when the count is wrong
(webcolors' `IntegerRGB._make(f(v) for v in triplet)`). It is Python code
of the standard library, so it runs silent (no events of the user's file);
written here as the function it amounts to, lowered as the module's own
code (as `functools.reduce` is, frontend/reduces.py): the argument is
evaluated in the caller, `tuple()` walks it, and the class is built from
the items (`models/namedtuple/lowering.py`). It lives here, not in the
model's folder: it lowers with the frontend's function lowerer, which
imports the model's `lowering` (a cycle there).
"""

from __future__ import annotations

import ast

from pathcraft.frontend.callables import nested_types
from pathcraft.frontend.stmthost import StatementLowering
from pathcraft.frontend.synthetic import synthetic_function
from pathcraft.ir.nodes import Call, Expr, FunctionInfo, Var
from pathcraft.models.namedtuple.lowering import NamedTupleInfo


def _template(info: NamedTupleInfo) -> ast.FunctionDef:
    count = len(info.fields)
    items = ", ".join(f"__pc_t[{i}]" for i in range(count))
    source = (f"def _make(__pc_S):\n"
              f"    __pc_t = tuple(__pc_S)\n"
              f"    if len(__pc_t) != {count}:\n"
              f"        raise TypeError(f'Expected {count} arguments, got {{len(__pc_t)}}')\n"
              f"    return {info.name}({items})\n")
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    return function


def make_call(lw: StatementLowering, info: NamedTupleInfo, node: ast.Call) -> Expr | None:
    """`C._make(x)` as a call of its silent function; None for another form
    (`_make` with keywords or several arguments: refused by the caller)."""
    if node.keywords or len(node.args) != 1 or isinstance(node.args[0], ast.Starred):
        return None
    line = node.lineno
    value = lw.blocks.stable(lw.expressions.expr(node.args[0]), line)
    template = _template(info)
    params = [a.arg for a in template.args.args]
    number = len([p for p in lw.nested if "$make" in p and p.rsplit("$make", 1)[1].isdigit()])
    function = FunctionInfo("_make", lw.info.qualname, tuple(params),
                            nested_types(lw.info, lw.expressions.reassigned, params), None, (), line, line,
                            f"{lw.info.entry}$make{number}")
    lw.nested_function(synthetic_function("_make", params, template.body, line), function, line,
                       entry_mark=False, builtin=True, marks=False)
    tmp = lw.blocks.temp()
    lw.blocks.emit(Call(tmp, function.entry, (value,), line))
    return Var(tmp)
