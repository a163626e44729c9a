"""List, dict and set comprehensions, as CPython runs them: the first
iterable evaluated in the holding frame, then a function of its own (up
to 3.11; inlined from 3.12, PEP 709) whose loops fill a new container.

Why a function the frontend writes: the comprehension's loops and
conditions are then lowered by the same statement rules as the user's
own loops, with CPython's line events added where it reports them.
"""

from __future__ import annotations

import ast
import copy
import sys

from pathcraft.errors import construct_name
from pathcraft.frontend import arith
from pathcraft.frontend.stmt_loops import ITERATORS, items_call, pair
from pathcraft.frontend.callables import nested_types
from pathcraft.frontend.stmthost import StatementLowering
from pathcraft.frontend.synthetic import copy_with_call_positions, free_names, synthetic_function
from pathcraft.ir.nodes import EXC_VAR, Call, Expr, FunctionInfo, ListOp, Predicate, Raise, Rule, Var

COMPREHENSIONS = {ast.ListComp: "<listcomp>", ast.DictComp: "<dictcomp>", ast.SetComp: "<setcomp>"}

Comprehension = ast.ListComp | ast.DictComp | ast.SetComp


def comprehension(lw: StatementLowering, node: Comprehension) -> Expr:
    """`[elt for target in it if cond ...]` as CPython runs it: `it` is
    evaluated here, then a function of its own (`f.<locals>.<listcomp>`,
    with call and return events; inlined from 3.12, PEP 709) loops over
    it appending to a new list. Its only line events are CPython's: the
    statement's line on entry (3.11) and on every back edge. A dict
    (set) comprehension is the same with a dict (set) it stores into."""
    what = construct_name(node)  # "list comprehension", ...
    kind = COMPREHENSIONS[type(node)]
    if any(g.is_async for g in node.generators) or any(
            isinstance(n, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Lambda)) for n in ast.walk(node)):
        raise lw.error(node, f"{what} with 'async', ':=', yield or lambda")
    parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
    free = free_names(lw, node, parts)
    line = node.lineno
    args, names, loop_iter = _sources(lw, node)
    params = names + free
    inlined = sys.version_info >= (3, 12)
    # CPython names a comprehension inside a comprehension without `<locals>`
    scope = "." if lw.info.name in COMPREHENSIONS.values() else ".<locals>."
    qualname = lw.info.qualname if inlined else f"{lw.info.qualname}{scope}{kind}"
    fn = synthetic_function(kind, params, _body(node, loop_iter), line)
    entry = f"{lw.info.entry}${kind[1:-1]}{len([p for p in lw.nested if p.endswith('$entry')])}$entry"
    info = FunctionInfo(kind, qualname, tuple(params), nested_types(lw.info, lw.expressions.reassigned, params),
                        None, (), line, line, entry)
    mark = lw.nested_function(fn, info, line, entry_mark=not inlined, builtin=inlined,
                              handler=info.entry + "$cleanup" if inlined else None)
    if inlined:  # an exception leaving an inlined comprehension runs its cleanup at the statement's line
        cleanup = Rule(1, None, (mark, Raise(None, None, line, reraise=EXC_VAR)))
        lw.nested[info.entry + "$cleanup"] = Predicate(
            info.entry + "$cleanup", qualname, (EXC_VAR,), (cleanup,), builtin=True)
    tmp = lw.blocks.temp()
    lw.blocks.emit(Call(tmp, info.entry, tuple(args) + tuple(Var(n) for n in free), line))
    return Var(tmp)


def _sources(lw: StatementLowering, node: Comprehension) -> tuple[list[Expr], list[str], ast.expr]:
    """The first iterable evaluated here (each argument of `range`,
    `enumerate`, `zip`, `reversed` around it), the parameters they are
    passed as, and what the comprehension's first loop walks."""
    gen = node.generators[0]
    line = node.lineno
    iterable = gen.iter
    wrapper = iterable.func.id if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) \
        and iterable.func.id in (*ITERATORS, "range") and iterable.func.id not in lw.locals \
        and iterable.func.id not in lw.module.functions else None
    sources = list(iterable.args) if wrapper is not None and isinstance(iterable, ast.Call) else [iterable]
    if wrapper is not None and isinstance(iterable, ast.Call) and (
            iterable.keywords or any(isinstance(a, ast.Starred) for a in iterable.args)):
        raise lw.error(iterable, f"{wrapper}() with these arguments")
    args: list[Expr] = []
    backwards = arith.reversed_range(lw.expressions, iterable, line) if wrapper == "reversed" else None
    if backwards is not None:  # `reversed(range(a, b))` is `range(b - 1, a - 1, -1)`
        args, wrapper, sources = backwards, "range", []
    for index, source in enumerate(sources):
        value = lw.blocks.stable(lw.expressions.expr(source), line)
        if wrapper != "range" and not (wrapper == "enumerate" and index == 1):  # not iterated themselves
            lw.blocks.emit(ListOp("iter", lw.blocks.temp("n"), value, (), line))  # TypeError here
        args.append(value)
    names = [f"$it{i}" for i in range(len(args))]
    if wrapper is None and items_call(iterable) and pair(gen.target):
        names = ["$items0"]  # `for k, v in d.items()`: the loop takes each entry's key and value
    loaded: list[ast.expr] = [ast.Name(n, ast.Load()) for n in names]
    loop_iter: ast.expr = loaded[0] if wrapper is None else ast.Call(ast.Name(wrapper, ast.Load()), loaded, [])
    return args, names, loop_iter


def _body(node: Comprehension, loop_iter: ast.expr) -> list[ast.stmt]:
    """The comprehension's function: a new container, the loops filling
    it (copies of the user's code), and its return."""
    result = ast.Name("$result", ast.Load())
    inner: list[ast.stmt]
    start: ast.expr
    copied = copy_with_call_positions  # the module's tree is not touched
    if isinstance(node, ast.DictComp):  # the key first, then the value (as CPython 3.8+)
        start = ast.Dict([], [])
        inner = [ast.Assign([ast.Name("$key", ast.Store())], copied(node.key)),
                 ast.Assign([ast.Subscript(result, ast.Name("$key", ast.Load()), ast.Store())],
                            copied(node.value))]
    else:
        start = ast.List([], ast.Load()) if isinstance(node, ast.ListComp) else \
            ast.Call(ast.Name("set", ast.Load()), [], [])
        added = "append" if isinstance(node, ast.ListComp) else "add"
        inner = [ast.Expr(ast.Call(ast.Attribute(result, added, ast.Load()), [copied(node.elt)], []))]
    for index in range(len(node.generators) - 1, -1, -1):
        clause = node.generators[index]
        for cond in reversed(clause.ifs):
            inner = [ast.If(copied(cond), inner, [])]
        walked = loop_iter if index == 0 else copied(clause.iter)
        inner = [ast.For(copy.deepcopy(clause.target), walked, inner, [])]
    return [
        ast.Assign([ast.Name("$result", ast.Store())], start),
        *inner,
        ast.Return(result),
    ]
