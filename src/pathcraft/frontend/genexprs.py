"""Generator expressions: consumed where they are made (`sum(x for x in
xs)`, frontend/generators.py) or made as generator objects of their own.

Why two ways: a consumer that walks one simple iterable resumes the
generator's frame in silent code the frontend writes (each resumption a
call and a return event, as CPython's); anything else is a generator
function `<genexpr>` the engine runs as generators are run.
"""

from __future__ import annotations

import ast
import copy
import re
import sys
from dataclasses import replace

from pathcraft.frontend import arith, generators
from pathcraft.frontend.stmt_loops import REVERSED, iterate
from pathcraft.frontend.callables import nested_types
from pathcraft.frontend.stmthost import StatementLowering, makes_fresh
from pathcraft.frontend.synthetic import copy_with_call_positions, frame_scope, free_names, synthetic_function
from pathcraft.ir.nodes import Call, Expr, FunctionInfo, ListOp, Mark, Var
from pathcraft.ir.types import INT


def _first_iterable(lw: StatementLowering, iterable: ast.expr, line: int) -> tuple[str | None, list[Expr]]:
    """The first clause's iterable, evaluated as CPython does when the
    generator is made: `range(...)`, `enumerate(...)`, `zip(...)`,
    `reversed(...)` by their arguments (the builtin they name, and those
    values), anything else by itself (None and its value)."""
    wrapper = iterable.func.id if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) \
        and iterable.func.id in ("range", "enumerate", "zip", "reversed") and iterable.func.id not in lw.locals \
        and iterable.func.id not in lw.module.functions and not iterable.keywords \
        and not any(isinstance(a, ast.Starred) for a in iterable.args) else None
    backwards = arith.reversed_range(lw.expressions, iterable, line) if wrapper == "reversed" else None
    if backwards is not None:  # `reversed(range(a, b))` is `range(b - 1, a - 1, -1)`
        return "range", backwards
    sources = list(iterable.args) if wrapper is not None and isinstance(iterable, ast.Call) else [iterable]
    args: list[Expr] = []
    for index, part in enumerate(sources):
        value = lw.blocks.stable(lw.expressions.expr(part), line)
        if wrapper == "reversed":  # a sequence walked backwards (TypeError on a set, a generator)
            lw.blocks.emit(ListOp("iter", lw.blocks.temp("n"), value, (REVERSED,), line))
        elif wrapper != "range" and not (wrapper == "enumerate" and index == 1):
            lw.blocks.emit(ListOp("iter", lw.blocks.temp("n"), value, (), line))  # TypeError here
            value = iterate(lw, value, line)
        args.append(value)
    return wrapper, args


def generator_object(lw: StatementLowering, node: ast.GeneratorExp, silent: bool = False) -> Expr:
    """A generator expression as a value (or with several `for` clauses, or
    over what the consumers' resumptions do not walk): a generator
    function of its own, `f.<locals>.<genexpr>(source, free...)`, whose
    loops yield each item (engine/generators.py); the first iterable is
    evaluated here, as CPython does. Its frame's line events are the
    statement's line on entry and on every back edge (each resumption).
    `silent`: the frontend's own rewriting of a C iterator (`map(f, xs)`,
    frontend/iterators.py): no frame, so no events (its loops are bounded
    by the criterion like any loop)."""
    if any(g.is_async for g in node.generators) or any(
            isinstance(n, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Lambda, ast.Await))
            for n in ast.walk(node)):
        raise lw.error(node, "generator expression with 'async', ':=', yield or lambda")
    line = node.lineno
    first = node.generators[0]
    free = free_names(lw, node, [node.elt])
    wrapper, args = _first_iterable(lw, first.iter, line)
    names = [f"__pc_S{k}" for k in range(len(args))]
    loaded: list[ast.expr] = [ast.Name(n, ast.Load()) for n in names]
    body: list[ast.stmt] = [ast.Expr(ast.Yield(copy_with_call_positions(node.elt)))]
    for index in range(len(node.generators) - 1, -1, -1):
        clause = node.generators[index]
        for cond in reversed(clause.ifs):
            body = [ast.If(copy_with_call_positions(cond), body, [])]
        walked = (loaded[0] if wrapper is None else ast.Call(ast.Name(wrapper, ast.Load()), loaded, [])) \
            if index == 0 else copy_with_call_positions(clause.iter)
        body = [ast.For(copy.deepcopy(clause.target), walked, body, [])]
    params = [*names, *free]
    number = len([p for p in lw.nested if re.search(r"\$genfn\d+$", p)])  # entries: `...$genfn<n>`
    scope = frame_scope(lw.info.qualname)
    info = FunctionInfo("<genexpr>", f"{lw.info.qualname}{scope}<genexpr>", tuple(params),
                        nested_types(lw.info, lw.expressions.reassigned, params), None, (), line, line,
                        f"{lw.info.entry}$genfn{number}", generator=True)
    before = set(lw.nested)
    lw.nested_function(synthetic_function("<genexpr>", params, body, line), info, line,
                       entry_mark=not silent, builtin=silent, marks=not silent)
    lw.nested[info.entry] = replace(lw.nested[info.entry], generator=True)
    if silent:  # not even the line CPython reports again when a call returns: it returns into C
        for name, pred in list(lw.nested.items()):  # its own predicates: a genexpr of the user's shares its name
            if name not in before and pred.function == info.qualname:
                rules = tuple(replace(r, body=tuple(i for i in r.body if not isinstance(i, Mark))) for r in pred.rules)
                lw.nested[name] = replace(pred, rules=rules)
    tmp = lw.blocks.temp()
    lw.blocks.emit(Call(tmp, info.entry, (*args, *(Var(f) for f in free)), line))
    return Var(tmp)


def consume_generator_object(lw: StatementLowering, consumer: str, node: ast.GeneratorExp) -> Expr:
    """`consumer(genexpr)` where the genexpr is a generator object of its
    own (see `generator_object`): a silent loop over it folds the items
    as the builtin does and closes it where it stops early."""
    line = node.lineno
    made = generator_object(lw, node)
    number = len([p for p in lw.nested if p.endswith("$fold")])
    consume = FunctionInfo(consumer, lw.info.qualname, ("__pc_G",), (INT,), None, (), line, line,
                           f"{lw.info.entry}$gen{number}$fold")
    fn = ast.parse(generators.folding_source(consumer)).body[0]
    assert isinstance(fn, ast.FunctionDef)
    lw.nested_function(synthetic_function(consumer, ["__pc_G"], fn.body, line), consume, line,
                         entry_mark=False, builtin=True, marks=False)
    tmp = lw.blocks.temp()
    lw.blocks.emit(Call(tmp, consume.entry, (made,), line))
    return Var(tmp)


def generator_call(lw: StatementLowering, consumer: str, node: ast.GeneratorExp) -> Expr:
    """`consumer(elt for target in it if cond)`: see `frontend/generators.py`."""
    if len(node.generators) != 1 or not generators.source_kind(
            node.generators[0].iter, lambda name: name in lw.locals or name in lw.module.functions)[0]:
        return consume_generator_object(lw, consumer, node)
    gen = node.generators[0]
    if gen.is_async or any(isinstance(n, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Lambda,
                                          ast.GeneratorExp, ast.ListComp)) and n is not node
                           for n in ast.walk(node)):
        raise lw.error(node, "generator expression with 'async', ':=', yield, lambda or nested comprehensions")
    kind, sources = generators.source_kind(
        gen.iter, lambda name: name in lw.locals or name in lw.module.functions)
    if not kind:
        raise lw.error(gen.iter, "generator expression over this iterable")
    bound = {n.id for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
    used = {n.id for part in (node.elt, *gen.ifs) for n in ast.walk(part)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    free = sorted((used - bound) & lw.locals | lw.captures_of(used - bound))
    line = node.lineno
    args: list[Expr] = []
    for index, source in enumerate(sources):
        value = lw.blocks.stable(lw.expressions.expr(source), line)
        if not kind.startswith("range") and not (kind == "enumerate" and index == 1):
            lw.blocks.emit(ListOp("iter", lw.blocks.temp("n"), value, (), line))  # TypeError here
            if kind == "seq" and lw.walks_iterators:
                value = iterate(lw, value, line)
        args.append(value)
    if kind == "seq" and lw.walks_iterators:
        kind = "iter"  # walked item by item, as a loop walks a generator
    entry = _resumable_consumer(lw, consumer, node, kind, len(sources), free)
    tmp = lw.blocks.temp()
    lw.blocks.emit(Call(tmp, entry, tuple(args) + tuple(Var(n) for n in free), line))
    return Var(tmp)


def _resumable_consumer(lw: StatementLowering, consumer: str, node: ast.GeneratorExp, kind: str, count: int,
                        free: list[str]) -> str:
    """The generator's resumption and close, and the consumer that drives
    them, lowered into `lw.nested`; returns the consumer's entry."""
    gen = node.generators[0]
    line = node.lineno
    number = len([p for p in lw.nested if p.endswith("$genexpr")])
    base = f"{lw.info.entry}$gen{number}"
    names = {generators.RESUME: f"__pc_resume{number}", generators.CLOSE: f"__pc_close{number}"}
    qualname = f"{lw.info.qualname}{frame_scope(lw.info.qualname, ('<listcomp>', '<genexpr>'))}<genexpr>"

    def parsed(text: str) -> list[ast.stmt]:
        for old, new in names.items():
            text = text.replace(old + "(", new + "(")
        fn = ast.parse(text).body[0]
        assert isinstance(fn, ast.FunctionDef)
        return _Placeholders(gen, node.elt).visit_all(fn.body)

    resume_params = [f"__pc_S{k}" for k in range(count)] + ["__pc_state"] + free
    resume = FunctionInfo("<genexpr>", qualname, tuple(resume_params),
                          nested_types(lw.info, lw.expressions.reassigned, resume_params),
                          None, (), line, line, base + "$resume")
    close = FunctionInfo("<genexpr>", qualname, (), (), None, (), line, line, base + "$close")
    consume_params = [f"__pc_S{k}" for k in range(count)] + free
    consume = FunctionInfo(consumer, lw.info.qualname, tuple(consume_params),
                           tuple(INT for _ in consume_params), None, (), line, line, base + "$genexpr")
    helpers = {names[generators.RESUME]: resume, names[generators.CLOSE]: close}
    lw.nested_function(synthetic_function("<genexpr>", resume_params, parsed(
        generators.resumption_source(kind, count, free)), line), resume, line,
        entry_mark=True, builtin=False)
    # closing a suspended generator runs its frame (a call and a return event) up to 3.12;
    # 3.13 closes one suspended at a plain yield without running it
    lw.nested_function(synthetic_function("<genexpr>", [], [ast.Return(ast.Constant(None))], line),
                       close, line, entry_mark=False, builtin=sys.version_info >= (3, 13))
    lw.nested_function(synthetic_function(consumer, consume_params, parsed(
        generators.consumer_source(consumer, count, free, kind == "iter", makes_fresh(gen.iter))), line),
        consume, line, entry_mark=False, builtin=True, marks=False, helpers=helpers)
    return consume.entry


class _Placeholders(ast.NodeTransformer):
    """Puts a generator expression's parts into a template: `TARGET = ...`
    binds its target, `COND` is its conditions, `ELT` its item (copies: the
    module's tree is not touched)."""

    def __init__(self, gen: ast.comprehension, elt: ast.expr) -> None:
        self.gen, self.elt = gen, elt

    def visit_all(self, body: list[ast.stmt]) -> list[ast.stmt]:
        return [self.visit(stmt) for stmt in body]

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id == "TARGET":
            return copy.deepcopy(self.gen.target)
        if node.id == "ELT":
            return copy_with_call_positions(self.elt)
        if node.id == "COND":
            conds = [copy_with_call_positions(c) for c in self.gen.ifs]
            if not conds:
                return ast.Constant(True)
            return conds[0] if len(conds) == 1 else ast.BoolOp(ast.And(), conds)
        return node
