"""Lowering one Python function to blocks of the CLP-translated program.

Algorithm: a single pass over the statements with a "current block". A
statement appends instructions to it; control flow closes it with a jump or
a branch and opens new blocks. Conditions with `and`/`or`/`not` and chained
comparisons become branch chains (short-circuit is control flow).
Expressions are lowered to pure IR expressions; whatever can branch or fail
(`//`, `%` by a possibly-zero divisor, `abs`, `min`, `max`, user calls)
becomes a `Call` into a fresh temporary, emitted in Python's evaluation
order.

Three collaborators, each owning its state: `FunctionLowerer` (here) lowers
statements and keeps the control context (enclosing loops, `finally`
bodies, handled exceptions); `ExpressionLowerer` (expressions.py) lowers
expressions and conditions; both write into one `FunctionBlocks`
(sink.py), the expression lowerer only through the `BlockSink` interface.

Invariants:
* `Mark(line)` is emitted exactly where CPython would report a line event
  for a statement we track: simple statements, `if`/`elif` tests, loop
  headers on entry and on every back edge. Traces built from marks are
  compared against real runs.
* Every block has a fixed exception handler (the lexical `try` around it);
  entering or leaving a `try` starts a new block.
* `finally` bodies are copied onto each way out of the `try`: normal exit,
  `return`, `break`, `continue`, and the exceptional path (which re-raises).
"""

from __future__ import annotations

import ast
import re
import copy
import symtable
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace

from pathcraft.errors import construct_name, unsupported
from pathcraft.frontend.blocks import BlockBuilder
from pathcraft.frontend import closures
from pathcraft.frontend import generators, keyed
from pathcraft.frontend.builtins import empty_sequence_message
from pathcraft.frontend.expressions import CALL_POSITION, CallsMade, ExpressionLowerer
from pathcraft.frontend.lines import statement_lines
from pathcraft.frontend.source import ModuleSource
from pathcraft.frontend.names import assigned_names
from pathcraft.frontend.sink import FunctionBlocks
from pathcraft.frontend.yields import yields_in_try
from pathcraft.ir.builtin_names import (
    ITERATE, LOOP_KEY, LOOP_LATER, LOOP_REVERSED, LOOP_STEP, LOOP_VALUE, MEMO_WRAPPER, function_predicate,
)
from pathcraft.ir.nodes import (
    EXC_VAR,
    Assign,
    Binary,
    BindException,
    Call,
    CheckExceptionType,
    Const,
    Expr,
    FunctionInfo,
    GetField,
    Goto,
    Instr,
    ListOp,
    Mark,
    Predicate,
    Raise,
    Return,
    Rule,
    SetField,
    Text,
    Var,
    Yield,
)
from pathcraft.ir.types import INT


_ITERATORS = ("enumerate", "reversed", "zip")
_COMPREHENSIONS = {ast.ListComp: "<listcomp>", ast.DictComp: "<dictcomp>", ast.SetComp: "<setcomp>"}
_STEP = Const(Text(LOOP_STEP))  # marks a loop's own `len` and `get` (see ir/builtin_names)
_LATER = Const(Text(LOOP_LATER))
_REVERSED = Const(Text(LOOP_REVERSED))


def _dict_items(s: ast.For) -> bool:
    """`for a, b in EXPR.items():` (two names for each entry of a dict; a
    comprehension's loop gets the view as `$items0`)."""
    it = s.iter
    return _pair(s.target) and (_items_call(it) or isinstance(it, ast.Name) and it.id == "$items0")


def _pair(target: ast.expr) -> bool:
    return isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == 2


def _items_call(it: ast.expr) -> bool:
    return isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "items" \
        and not it.args and not it.keywords


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
            return _copy_with_call_positions(self.elt)
        if node.id == "COND":
            conds = [_copy_with_call_positions(c) for c in self.gen.ifs]
            if not conds:
                return ast.Constant(True)
            return conds[0] if len(conds) == 1 else ast.BoolOp(ast.And(), conds)
        return node


def _copy_with_call_positions(node: ast.expr) -> ast.expr:
    """A copy whose calls remember where they are in the source (as
    `CALL_POSITION`): `synthetic_function` puts every node at one line, but
    the line CPython reports after a call depends on the call's place."""
    copied = copy.deepcopy(node)
    for part in ast.walk(copied):
        if isinstance(part, ast.Call):
            setattr(part, CALL_POSITION, (part.lineno, part.col_offset, part.end_lineno, part.end_col_offset))
    return copied


# the prelude functions a keyed consumer hands items and keys to (frontend/keyed.py)
_PRELUDE_HELPERS = {
    f"__pc_{name}": FunctionInfo(name, function_predicate(name), params, tuple(INT for _ in params), None, (), 0, 0,
                                 function_predicate(name))
    for name, params in (("sorted_by", ("items", "keys", "reverse")), ("least_by", ("items", "keys", "greatest")))
}


_BUILTIN_KEYS = frozenset({"abs", "len", "str", "int", "float", "ord", "bool"})


def _silent_key(key: ast.expr, local: frozenset[str], functions: Mapping[str, object],
                constants: Mapping[str, object]) -> bool:
    """Is the key a builtin function, or a method of a module constant (a
    str), whose calls run no traced code?"""
    if isinstance(key, ast.Name):
        return key.id in _BUILTIN_KEYS and key.id not in local and key.id not in functions
    return isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name) and key.value.id in constants \
        and key.value.id not in local


def makes_fresh(iterable: ast.expr) -> bool:
    """Is the value a `for` walks made there (a call's result), so that
    nothing but the loop refers to it? A name, attribute or item may share it."""
    return not isinstance(iterable, (ast.Name, ast.Attribute, ast.Subscript))


def _close(iterator: str, fresh: bool, line: int) -> ListOp:
    """Close what a loop left early walks: a generator only the loop refers
    to (`fresh`, or made for the loop by its object's `__iter__`)."""
    return ListOp("close", None, Var(iterator), (Const(fresh),), line)


def synthetic_function(name: str, params: list[str], body: list[ast.stmt], line: int) -> ast.FunctionDef:
    """A function the frontend writes, every node of it at `line`."""
    fn = ast.FunctionDef(name, ast.arguments([], [ast.arg(p) for p in params], None, [], [], None, []),
                         body, [], None)
    for part in ast.walk(fn):
        if not isinstance(part, ast.expr_context):
            part.lineno, part.end_lineno = line, line  # type: ignore[attr-defined]
            part.col_offset, part.end_col_offset = 0, 0  # type: ignore[attr-defined]
    return fn


@dataclass
class _Loop:
    header: str
    after: str
    line: int
    finally_depth: int
    iterator: str | None = None  # the iterator a `for` walks, closed where the loop stops early
    fresh: bool = False  # made by the `for` itself (a call): the loop holds the only reference


@dataclass
class _Finally:
    body: list[ast.stmt]
    handler: str | None
    handled: list[str]


class FunctionLowerer:
    """Lowers one function's statements; `calls` collects what it calls.

    Block plumbing is delegated to `blocks`, expressions and conditions to
    `expressions`, which writes into the same blocks."""

    def __init__(self, module: ModuleSource, fn: ast.FunctionDef, info: FunctionInfo,
                 signatures: dict[str, FunctionInfo], owner: str | None = None, *,
                 scope: symtable.SymbolTable | None = None,
                 known: Mapping[str, closures.NestedFunction] | None = None) -> None:
        self.module = module
        self.fn = fn
        self.info = info
        self.locals = frozenset(set(info.params) | assigned_names(fn))
        order = list(info.params) + sorted(self.locals - set(info.params))
        self.blocks = FunctionBlocks(info.entry, order)
        self.calls = CallsMade()
        self.expressions = ExpressionLowerer(
            self.blocks, module=module, fn=fn, info=info, signatures=signatures,
            local_names=self.locals, owner=owner, calls=self.calls,
        )
        self.loops: list[_Loop] = []
        self.finallies: list[_Finally] = []
        self.handled: list[str] = []
        self.owner = owner
        self.signatures = signatures
        self.expressions.comprehension = self.comprehension
        self.expressions.generator = self.generator_call
        self.expressions.keyed = self.keyed_call
        self.expressions.generator_value = self.generator_object
        if owner is not None and fn.args.args and any(
                isinstance(d, ast.Name) and d.id == "classmethod" for d in fn.decorator_list):
            self.expressions.class_alias = {fn.args.args[0].arg: owner}  # `cls`: the class itself
        self.nested: dict[str, Predicate] = {}  # the predicates of comprehensions in this function
        # loops may walk generators (frontend/yields.py): they iterate `$iterate(x)` and close it
        self.walks_iterators = module.has_generators
        self.try_yields = yields_in_try(fn) if info.generator else set()
        self._lines: dict[int, int] | None = None
        self.scope = scope  # its symbol table, when it is a nested function (closures.py)
        self.known: dict[str, closures.NestedFunction] = dict(known or {})  # nested functions it sees
        self.own: dict[str, closures.NestedFunction] = {}  # those it defines
        if known is not None:  # a nested function's parameters are what its callers pass, not annotations
            self.expressions.opaque = frozenset(info.params)
        if owner is not None and fn.name == "__eq__" and len(info.params) == 2:  # `==` passes any value
            self.expressions.opaque = self.expressions.opaque | {info.params[1]}  # (engine/objeq.py)

    def error(self, node: ast.AST, what: str) -> Exception:
        return unsupported(self.module.path, node, what)

    # ---------------------------------------------------------- entry point

    def lower(self) -> dict[str, Predicate]:
        self.blocks.enter(self.blocks.new_block("entry"))
        self.find_nested_functions()
        body = list(self.fn.body)
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]  # docstring: not executed
        self.statements(body)
        if self.blocks.current is not None:
            self.blocks.close(Return(Const(None), self.fn.end_lineno or self.fn.lineno))
        self.lower_nested_functions()
        own = self.blocks.finish(self.info.qualname, self.info.params)
        if self.info.generator:  # calling it makes a generator (engine/generators.py)
            own[self.info.entry] = replace(own[self.info.entry], generator=True)
        return {**own, **self.nested}

    # ----------------------------------------------------- nested functions

    def find_nested_functions(self) -> None:
        """The functions this one defines (see closures.py), callable by name here."""
        if closures.defines_functions(self.fn):
            scope = self.scope or closures.function_scope(self.module, self.fn)
            if scope is None:
                raise self.error(self.fn, "nested function (its function's scope was not found)")
            self.own = closures.nested_functions(self.module, self.fn, self.info, scope, self.known,
                                                 self.locals, self.error)
            self.known.update(self.own)
            self.blocks.order.extend(f.memo for f in self.own.values() if f.memo is not None)
            cells = {c for f in self.own.values() for c in f.captures if c.startswith(closures.cell_name(""))}
            self.blocks.order.extend(sorted(cells - set(self.blocks.order)))
            self.expressions.cells = {c: c[len(closures.cell_name("")):] for c in cells}
        self.expressions.nested_calls = {name: (f.info, f.captures) for name, f in self.known.items()}

    def captures_of(self, names: set[str]) -> set[str]:
        """What the nested functions among `names` read (a comprehension calling one passes it on)."""
        return {c for n in names if n in self.known for c in self.known[n].captures}

    def stmt_FunctionDef(self, s: ast.FunctionDef) -> None:
        """A nested `def` makes the function object: a line event, no effect we model."""
        own = self.own.get(s.name)
        if own is None or own.node is not s:
            raise self.error(s, "nested function")
        if own.memo is None:
            self.blocks.emit(Mark(s.lineno))
            return
        # `@cache`: the decorator's line, the def's, the decorator's call, the name's store
        decorator = s.decorator_list[0].lineno
        self.blocks.emit(Mark(decorator))
        self.blocks.emit(Mark(s.lineno))
        memo = self.expressions.dict_or_set(ast.Dict([], [], lineno=decorator))
        self.blocks.emit(Assign(own.memo, memo, decorator))
        self.blocks.emit(Mark(decorator))
        self.blocks.emit(Mark(s.lineno))

    def lower_nested_functions(self) -> None:
        """Each nested function is a function of its own: parameters, then captures."""
        for nested in self.own.values():
            sub = FunctionLowerer(self.module, nested.code or nested.node, nested.full, self.signatures, self.owner,
                                  scope=nested.scope, known=self.known)
            self.nested.update(sub.lower())
            self.calls.callees |= sub.calls.callees
            self.calls.methods_called |= sub.calls.methods_called
            self.calls.classes_built |= sub.calls.classes_built
            if nested.memo is not None:
                self.memo_wrapper(nested)

    def memo_wrapper(self, nested: closures.NestedFunction) -> None:
        """The silent wrapper a cached nested function's calls enter (closures.memo_source)."""
        def passed(capture: str) -> str:
            if capture == nested.memo:
                return "__pc_memo"
            return "__pc_memo_" + capture[len("$memo_"):] if capture.startswith("$memo_") else capture

        params = nested.info.params
        names = [passed(c) for c in nested.captures]
        parsed = ast.parse(closures.memo_source(params, names)).body[0]
        assert isinstance(parsed, ast.FunctionDef)
        line = nested.node.lineno
        fn = synthetic_function("wrapper", [*params, *names], parsed.body, line)
        everything = (*params, *names)
        info = FunctionInfo("wrapper", f"{MEMO_WRAPPER}.{self.info.qualname}", everything,
                            tuple(INT for _ in everything), None, (), line, line, nested.info.entry)
        raw = replace(nested.full, params=everything)
        self.nested_function(fn, info, line, entry_mark=False, builtin=True, marks=False, helpers={"__pc_raw": raw})

    # -------------------------------------------------------- comprehensions

    def comprehension(self, node: ast.ListComp | ast.DictComp | ast.SetComp) -> Expr:
        """`[elt for target in it if cond ...]` as CPython runs it: `it` is
        evaluated here, then a function of its own (`f.<locals>.<listcomp>`,
        with call and return events; inlined from 3.12, PEP 709) loops over
        it appending to a new list. Its only line events are CPython's: the
        statement's line on entry (3.11) and on every back edge. A dict
        (set) comprehension is the same with a dict (set) it stores into."""
        what = construct_name(node)  # "list comprehension", ...
        kind = _COMPREHENSIONS[type(node)]
        gen, *more = node.generators  # several `for` clauses: loops nested in the comprehension's function
        if any(g.is_async for g in node.generators) or any(
                isinstance(n, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Lambda)) for n in ast.walk(node)):
            raise self.error(node, f"{what} with 'async', ':=', yield or lambda")
        bound = {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        inside = [*parts, *(c for g in node.generators for c in g.ifs), *(g.iter for g in more)]
        used = {n.id for part in inside for n in ast.walk(part)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        inner_bound = {n.id for comp in ast.walk(node) if isinstance(comp, ast.comprehension)
                       for n in ast.walk(comp.target) if isinstance(n, ast.Name)}
        free = sorted((used - bound - inner_bound) & self.locals | self.captures_of(used - bound - inner_bound))
        line = node.lineno
        iterable = gen.iter
        wrapper = iterable.func.id if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) \
            and iterable.func.id in (*_ITERATORS, "range") and iterable.func.id not in self.locals \
            and iterable.func.id not in self.module.functions else None
        sources = list(iterable.args) if wrapper is not None and isinstance(iterable, ast.Call) else [iterable]
        if wrapper is not None and isinstance(iterable, ast.Call) and (
                iterable.keywords or any(isinstance(a, ast.Starred) for a in iterable.args)):
            raise self.error(iterable, f"{wrapper}() with these arguments")
        args: list[Expr] = []
        for index, source in enumerate(sources):
            value = self.blocks.stable(self.expressions.expr(source), line)
            if wrapper != "range" and not (wrapper == "enumerate" and index == 1):  # not iterated themselves
                self.blocks.emit(ListOp("iter", self.blocks.temp("n"), value, (), line))  # TypeError here
            args.append(value)
        names = [f"$it{i}" for i in range(len(sources))]
        if wrapper is None and _items_call(iterable) and _pair(gen.target):
            names = ["$items0"]  # `for k, v in d.items()`: the loop takes each entry's key and value
        loaded: list[ast.expr] = [ast.Name(n, ast.Load()) for n in names]
        loop_iter: ast.expr = loaded[0] if wrapper is None else ast.Call(ast.Name(wrapper, ast.Load()), loaded, [])
        result = ast.Name("$result", ast.Load())
        inner: list[ast.stmt]
        start: ast.expr
        copied = _copy_with_call_positions  # the module's tree is not touched
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
        body: list[ast.stmt] = [
            ast.Assign([ast.Name("$result", ast.Store())], start),
            *inner,
            ast.Return(result),
        ]
        params = names + free
        inlined = sys.version_info >= (3, 12)
        # CPython names a comprehension inside a comprehension without `<locals>`
        scope = "." if self.info.name in _COMPREHENSIONS.values() else ".<locals>."
        qualname = self.info.qualname if inlined else f"{self.info.qualname}{scope}{kind}"
        fn = synthetic_function(kind, params, body, line)
        entry = f"{self.info.entry}${kind[1:-1]}{len([p for p in self.nested if p.endswith('$entry')])}$entry"
        info = FunctionInfo(kind, qualname, tuple(params), tuple(INT for _ in params), None, (),
                            line, line, entry)
        mark = self.nested_function(fn, info, line, entry_mark=not inlined, builtin=inlined,
                                    handler=info.entry + "$cleanup" if inlined else None)
        if inlined:  # an exception leaving an inlined comprehension runs its cleanup at the statement's line
            cleanup = Rule(1, None, (mark, Raise(None, None, line, reraise=EXC_VAR)))
            self.nested[info.entry + "$cleanup"] = Predicate(
                info.entry + "$cleanup", qualname, (EXC_VAR,), (cleanup,), builtin=True)
        tmp = self.blocks.temp()
        self.blocks.emit(Call(tmp, info.entry, tuple(args) + tuple(Var(n) for n in free), line))
        return Var(tmp)

    def keyed_call(self, consumer: str, items: ast.expr, key: ast.expr, reverse: bool, node: ast.Call) -> Expr:
        """`sorted(xs, key=f)`, `min`/`max(xs, key=f)`, `xs.sort(key=f)`: see
        `frontend/keyed.py`. `f` is a lambda (lowered as a nested function
        `<lambda>`, its free variables passed at each call) or a function
        of the module taking one argument."""
        line = node.lineno
        number = len([p for p in self.nested if "$key" in p and p.endswith("$consume")])
        key_info, free = self.key_function(key, number)
        source = self.blocks.stable(self.expressions.expr(items), line)
        self.blocks.emit(ListOp("iter", self.blocks.temp("n"), source, (), line))  # TypeError here
        params = ["__pc_S0", *free]
        consume = FunctionInfo(consumer, self.info.qualname, tuple(params), tuple(INT for _ in params), None, (),
                               line, line, f"{self.info.entry}$key{number}$consume")
        helpers = {keyed.KEY: key_info, **_PRELUDE_HELPERS}
        text = keyed.consumer_source(consumer, free, reverse, empty_sequence_message(consumer))
        fn = ast.parse(text).body[0]
        assert isinstance(fn, ast.FunctionDef)
        self.nested_function(synthetic_function(consumer, params, fn.body, line), consume, line,
                             entry_mark=False, builtin=True, marks=False, helpers=helpers)
        tmp = self.blocks.temp()
        self.blocks.emit(Call(tmp, consume.entry, (source, *(Var(f) for f in free)), line))
        return Var(tmp)

    def key_function(self, key: ast.expr, number: int) -> tuple[FunctionInfo, list[str]]:
        """The key function's signature, and the enclosing variables it reads."""
        if isinstance(key, ast.Name) and key.id in self.module.functions and key.id not in self.locals:
            info = self.signatures.get(key.id)
            if info is None or len(info.params) - len(info.defaults) > 1 or not info.params:
                raise self.error(key, f"key function '{key.id}' that does not take one argument")
            self.calls.callees.add(key.id)
            return info, []
        if _silent_key(key, self.locals, self.module.functions, self.module.constants):
            # a builtin (`abs`, `len`) or a method of a module constant (`ORDER.find`): no frame of its own
            param = "__pc_item"
            body = ast.Return(ast.Call(copy.deepcopy(key), [ast.Name(param, ast.Load())], []))
            info = FunctionInfo("key", f"{self.info.qualname}$key", (param,), (INT,), None, (), key.lineno,
                                key.lineno, f"{self.info.entry}$builtinkey{number}")
            fn = ast.FunctionDef("key", ast.arguments([], [ast.arg(param)], None, [], [], None, []), [body], [], None)
            ast.copy_location(fn, key)
            ast.fix_missing_locations(fn)
            self.nested_function(fn, info, key.lineno, entry_mark=False, builtin=True, marks=False)
            return info, []
        if not isinstance(key, ast.Lambda):
            raise self.error(key, "key other than a lambda, a builtin or a function of the module")
        args = key.args
        if len(args.args) != 1 or args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults \
                or any(isinstance(n, (ast.Lambda, ast.Yield, ast.YieldFrom, ast.NamedExpr, ast.Await))
                       for n in ast.walk(key.body)):
            raise self.error(key, "lambda other than one parameter and a plain expression")
        param = args.args[0].arg
        used = {n.id for n in ast.walk(key.body) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        free = sorted((used - {param}) & self.locals | self.captures_of(used - {param}))
        scope = "." if self.info.qualname.endswith(("<listcomp>", "<genexpr>", "<setcomp>", "<dictcomp>")) \
            else ".<locals>."
        params = [param, *free]
        info = FunctionInfo("<lambda>", f"{self.info.qualname}{scope}<lambda>", tuple(params),
                            tuple(INT for _ in params), None, (), key.lineno, key.end_lineno or key.lineno,
                            f"{self.info.entry}$lambda{number}")
        body = ast.Return(_copy_with_call_positions(key.body))
        fn = ast.FunctionDef("<lambda>", ast.arguments([], [ast.arg(p) for p in params], None, [], [], None, []),
                             [body], [], None)
        ast.copy_location(fn, key)
        ast.copy_location(body, key.body)
        ast.fix_missing_locations(fn)
        self.nested_function(fn, info, key.lineno, entry_mark=True, builtin=False)
        return info, free

    def generator_object(self, node: ast.GeneratorExp) -> Expr:
        """A generator expression as a value (or with several `for` clauses, or
        over what the consumers' resumptions do not walk): a generator
        function of its own, `f.<locals>.<genexpr>(source, free...)`, whose
        loops yield each item (engine/generators.py); the first iterable is
        evaluated here, as CPython does. Its frame's line events are the
        statement's line on entry and on every back edge (each resumption)."""
        if any(g.is_async for g in node.generators) or any(
                isinstance(n, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Lambda, ast.Await))
                for n in ast.walk(node)):
            raise self.error(node, "generator expression with 'async', ':=', yield or lambda")
        line = node.lineno
        first, *more = node.generators
        bound = {n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)}
        inside = [node.elt, *(c for g in node.generators for c in g.ifs), *(g.iter for g in more)]
        used = {n.id for part in inside for n in ast.walk(part)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        inner_bound = {n.id for comp in ast.walk(node) if isinstance(comp, ast.comprehension)
                       for n in ast.walk(comp.target) if isinstance(n, ast.Name)}
        free = sorted((used - bound - inner_bound) & self.locals | self.captures_of(used - bound - inner_bound))
        iterable = first.iter  # `range(...)`, `enumerate(...)`, `zip(...)`: their arguments evaluated here
        wrapper = iterable.func.id if isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) \
            and iterable.func.id in ("range", "enumerate", "zip", "reversed") and iterable.func.id not in self.locals \
            and iterable.func.id not in self.module.functions and not iterable.keywords \
            and not any(isinstance(a, ast.Starred) for a in iterable.args) else None
        sources = list(iterable.args) if wrapper is not None and isinstance(iterable, ast.Call) else [iterable]
        args: list[Expr] = []
        for index, part in enumerate(sources):
            value = self.blocks.stable(self.expressions.expr(part), line)
            if wrapper == "reversed":  # a sequence walked backwards (TypeError on a set, a generator)
                self.blocks.emit(ListOp("iter", self.blocks.temp("n"), value, (_REVERSED,), line))
            elif wrapper != "range" and not (wrapper == "enumerate" and index == 1):
                self.blocks.emit(ListOp("iter", self.blocks.temp("n"), value, (), line))  # TypeError here
                value = self.iterator(value, line)
            args.append(value)
        names = [f"__pc_S{k}" for k in range(len(sources))]
        loaded: list[ast.expr] = [ast.Name(n, ast.Load()) for n in names]
        body: list[ast.stmt] = [ast.Expr(ast.Yield(_copy_with_call_positions(node.elt)))]
        for index in range(len(node.generators) - 1, -1, -1):
            clause = node.generators[index]
            for cond in reversed(clause.ifs):
                body = [ast.If(_copy_with_call_positions(cond), body, [])]
            walked = (loaded[0] if wrapper is None else ast.Call(ast.Name(wrapper, ast.Load()), loaded, [])) \
                if index == 0 else _copy_with_call_positions(clause.iter)
            body = [ast.For(copy.deepcopy(clause.target), walked, body, [])]
        params = [*names, *free]
        number = len([p for p in self.nested if re.search(r"\$genfn\d+$", p)])  # entries: `...$genfn<n>`
        scope = "." if self.info.qualname.endswith(("<listcomp>", "<genexpr>", "<setcomp>", "<dictcomp>")) \
            else ".<locals>."
        info = FunctionInfo("<genexpr>", f"{self.info.qualname}{scope}<genexpr>", tuple(params),
                            tuple(INT for _ in params), None, (), line, line, f"{self.info.entry}$genfn{number}",
                            generator=True)
        self.nested_function(synthetic_function("<genexpr>", params, body, line), info, line,
                             entry_mark=True, builtin=False)
        self.nested[info.entry] = replace(self.nested[info.entry], generator=True)
        tmp = self.blocks.temp()
        self.blocks.emit(Call(tmp, info.entry, (*args, *(Var(f) for f in free)), line))
        return Var(tmp)

    def consume_generator_object(self, consumer: str, node: ast.GeneratorExp) -> Expr:
        """`consumer(genexpr)` where the genexpr is a generator object of its
        own (see `generator_object`): a silent loop over it folds the items
        as the builtin does and closes it where it stops early."""
        line = node.lineno
        made = self.generator_object(node)
        number = len([p for p in self.nested if p.endswith("$fold")])
        consume = FunctionInfo(consumer, self.info.qualname, ("__pc_G",), (INT,), None, (), line, line,
                               f"{self.info.entry}$gen{number}$fold")
        fn = ast.parse(generators.folding_source(consumer)).body[0]
        assert isinstance(fn, ast.FunctionDef)
        self.nested_function(synthetic_function(consumer, ["__pc_G"], fn.body, line), consume, line,
                             entry_mark=False, builtin=True, marks=False)
        tmp = self.blocks.temp()
        self.blocks.emit(Call(tmp, consume.entry, (made,), line))
        return Var(tmp)

    def generator_call(self, consumer: str, node: ast.GeneratorExp) -> Expr:
        """`consumer(elt for target in it if cond)`: see `frontend/generators.py`."""
        if len(node.generators) != 1 or not generators.source_kind(
                node.generators[0].iter, lambda name: name in self.locals or name in self.module.functions)[0]:
            return self.consume_generator_object(consumer, node)
        gen = node.generators[0]
        if gen.is_async or any(isinstance(n, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Lambda,
                                              ast.GeneratorExp, ast.ListComp)) and n is not node
                               for n in ast.walk(node)):
            raise self.error(node, "generator expression with 'async', ':=', yield, lambda or nested comprehensions")
        kind, sources = generators.source_kind(
            gen.iter, lambda name: name in self.locals or name in self.module.functions)
        if not kind:
            raise self.error(gen.iter, "generator expression over this iterable")
        bound = {n.id for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
        used = {n.id for part in (node.elt, *gen.ifs) for n in ast.walk(part)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        free = sorted((used - bound) & self.locals | self.captures_of(used - bound))
        line = node.lineno
        args: list[Expr] = []
        for index, source in enumerate(sources):
            value = self.blocks.stable(self.expressions.expr(source), line)
            if not kind.startswith("range") and not (kind == "enumerate" and index == 1):
                self.blocks.emit(ListOp("iter", self.blocks.temp("n"), value, (), line))  # TypeError here
                if kind == "seq" and self.walks_iterators:
                    value = self.iterator(value, line)
            args.append(value)
        if kind == "seq" and self.walks_iterators:
            kind = "iter"  # walked item by item, as a loop walks a generator
        number = len([p for p in self.nested if p.endswith("$genexpr")])
        base = f"{self.info.entry}$gen{number}"
        names = {generators.RESUME: f"__pc_resume{number}", generators.CLOSE: f"__pc_close{number}"}
        scope = "." if self.info.qualname.endswith(("<listcomp>", "<genexpr>")) else ".<locals>."
        qualname = f"{self.info.qualname}{scope}<genexpr>"

        def parsed(text: str) -> list[ast.stmt]:
            for old, new in names.items():
                text = text.replace(old + "(", new + "(")
            fn = ast.parse(text).body[0]
            assert isinstance(fn, ast.FunctionDef)
            return _Placeholders(gen, node.elt).visit_all(fn.body)

        resume_params = [f"__pc_S{k}" for k in range(len(sources))] + ["__pc_state"] + free
        resume = FunctionInfo("<genexpr>", qualname, tuple(resume_params), tuple(INT for _ in resume_params),
                              None, (), line, line, base + "$resume")
        close = FunctionInfo("<genexpr>", qualname, (), (), None, (), line, line, base + "$close")
        consume_params = [f"__pc_S{k}" for k in range(len(sources))] + free
        consume = FunctionInfo(consumer, self.info.qualname, tuple(consume_params),
                               tuple(INT for _ in consume_params), None, (), line, line, base + "$genexpr")
        helpers = {names[generators.RESUME]: resume, names[generators.CLOSE]: close}
        self.nested_function(synthetic_function("<genexpr>", resume_params, parsed(
            generators.resumption_source(kind, len(sources), free)), line), resume, line,
            entry_mark=True, builtin=False)
        # closing a suspended generator runs its frame (a call and a return event) up to 3.12;
        # 3.13 closes one suspended at a plain yield without running it
        self.nested_function(synthetic_function("<genexpr>", [], [ast.Return(ast.Constant(None))], line),
                             close, line, entry_mark=False, builtin=sys.version_info >= (3, 13))
        self.nested_function(synthetic_function(consumer, consume_params, parsed(
            generators.consumer_source(consumer, len(sources), free, kind == "iter", makes_fresh(gen.iter))), line),
            consume, line,
            entry_mark=False, builtin=True, marks=False, helpers=helpers)
        tmp = self.blocks.temp()
        self.blocks.emit(Call(tmp, consume.entry, tuple(args) + tuple(Var(n) for n in free), line))
        return Var(tmp)

    def nested_function(self, fn: ast.FunctionDef, info: FunctionInfo, line: int, *, entry_mark: bool,
                        builtin: bool, handler: str | None = None, marks: bool = True,
                        helpers: Mapping[str, FunctionInfo] | None = None) -> Mark:
        """Lower a function the frontend wrote for an expression of this one
        (a comprehension, a generator expression) into `nested`, with line
        events only where CPython reports them: on entry (when `entry_mark`)
        and on every back edge, at the line of the statement holding it.
        `handler` receives what its blocks raise. Returns that line's mark."""
        signatures = {**self.signatures, **helpers} if helpers else self.signatures
        sub = FunctionLowerer(self.module, fn, info, signatures, self.owner, known=self.known or None)
        sub.expressions.opaque = frozenset(info.params)  # typed int for the lowering, not by the user
        lowered = sub.lower()
        self.calls.callees |= sub.calls.callees - set(helpers or ())
        self.calls.methods_called |= sub.calls.methods_called
        self.calls.classes_built |= sub.calls.classes_built
        if self._lines is None:
            self._lines = statement_lines(self.module.tree)
        mark = Mark(self._lines.get(line, line))
        headers = {p.iterates for p in lowered.values() if p.iterates}
        self.nested.update(sub.nested)  # what is nested in it: marked already
        for pred in lowered.values():
            if pred.name in sub.nested:
                continue
            rules = []
            for rule in pred.rules:
                instrs: list[Instr] = []
                if pred.name == info.entry and entry_mark:
                    instrs.append(mark)  # the new frame's first line event
                for instr in rule.body:
                    if isinstance(instr, Mark):
                        if instr.after_call:  # the holding statement's line, again after a call returns
                            instrs.append(replace(mark, after_call=True))
                        continue
                    if marks and isinstance(instr, Goto) and instr.block in headers and instr.enters_loop is None:
                        instrs.append(mark)  # a back edge
                    instrs.append(instr)
                rules.append(replace(rule, body=tuple(instrs)))
            self.nested[pred.name] = replace(pred, rules=tuple(rules), marks=(), builtin=builtin,
                                             is_entry=False, handler=pred.handler or handler)
        return mark

    # ------------------------------------------------------------ statements

    def statements(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            if self.blocks.current is None:
                return  # the rest is unreachable
            self.statement(stmt)

    def statement(self, s: ast.stmt) -> None:
        method = getattr(self, "stmt_" + type(s).__name__, None)
        if method is None:
            raise self.error(s, construct_name(s))
        method(s)

    def stmt_Pass(self, s: ast.Pass) -> None:
        self.blocks.emit(Mark(s.lineno))

    def stmt_Expr(self, s: ast.Expr) -> None:
        self.blocks.emit(Mark(s.lineno))
        if isinstance(s.value, ast.Constant):
            return
        if isinstance(s.value, ast.Yield):
            value = self.expressions.expr(s.value.value) if s.value.value is not None else Const(None)
            self.blocks.emit(Yield(value, s.lineno, closable=s.lineno not in self.try_yields))
            return
        if isinstance(s.value, ast.YieldFrom):
            self.yield_from(s.value, s.lineno)
            return
        if not isinstance(s.value, ast.Call):
            raise self.error(s.value, "expression statement (only calls)")
        self.expressions.expr(s.value, discard=True)

    def stmt_Assign(self, s: ast.Assign) -> None:
        self.blocks.emit(Mark(s.lineno))
        if len(s.targets) == 1 and isinstance(s.targets[0], ast.Tuple):
            self.tuple_assign(s.targets[0], s.value, s)
            return
        value = self.expressions.expr(s.value)
        if len(s.targets) > 1 and not isinstance(value, (Const, Var)):
            tmp = self.blocks.temp()
            self.blocks.emit(Assign(tmp, value, s.lineno))
            value = Var(tmp)
        for target in s.targets:
            self.store(target, value, s.lineno)

    def store(self, target: ast.expr, value: Expr, line: int) -> None:
        """`target = value` for a name, an attribute or a list element."""
        if isinstance(target, ast.Attribute):
            obj = self.expressions.expr(target.value)
            self.expressions.note_attribute(target.attr)
            self.blocks.emit(SetField(obj, self.expressions.attr(target.attr), value, line))
        elif isinstance(target, ast.Subscript):
            lst = self.expressions.expr(target.value)
            index = self.expressions.index(target.slice)
            self.blocks.emit(ListOp("set", None, lst, (index, value), line))
        elif isinstance(target, (ast.Tuple, ast.List)):
            self.unpack(target, value, line)
        else:
            self.blocks.emit(Assign(self.target_name(target), value, line))

    def unpack(self, target: ast.Tuple | ast.List, value: Expr, line: int) -> None:
        """`a, b = value` for a tuple or list value: its length checked
        (ValueError), then the items read and stored left to right."""
        if any(isinstance(e, ast.Starred) for e in target.elts):
            raise self.error(target, "starred assignment target")
        sequence = self.blocks.stable(value, line)
        self.blocks.emit(ListOp("unpack", None, sequence, (Const(len(target.elts)),), line))
        items = []
        for k in range(len(target.elts)):
            item = self.blocks.temp()
            self.blocks.emit(ListOp("get", item, sequence, (Const(k),), line))
            items.append(item)
        for name_node, item in zip(target.elts, items):
            self.store(name_node, Var(item), line)

    def tuple_assign(self, target: ast.Tuple, value: ast.expr, s: ast.stmt) -> None:
        if not isinstance(value, ast.Tuple) or len(value.elts) != len(target.elts) \
                or any(isinstance(e, ast.Starred) for e in value.elts):
            self.store(target, self.expressions.expr(value), s.lineno)
            return
        temps = []
        for elt in value.elts:
            tmp = self.blocks.temp()
            self.blocks.emit(Assign(tmp, self.expressions.expr(elt), s.lineno))
            temps.append(tmp)
        for name_node, tmp in zip(target.elts, temps):
            self.store(name_node, Var(tmp), s.lineno)

    def stmt_AnnAssign(self, s: ast.AnnAssign) -> None:
        if s.value is None:
            return
        self.blocks.emit(Mark(s.lineno))
        self.store(s.target, self.expressions.expr(s.value), s.lineno)

    def stmt_AugAssign(self, s: ast.AugAssign) -> None:
        self.blocks.emit(Mark(s.lineno))
        target = s.target
        if isinstance(target, ast.Attribute):
            obj = self.blocks.stable(self.expressions.expr(target.value), s.lineno)
            old = self.blocks.temp()
            name = self.expressions.attr(target.attr)
            self.expressions.note_attribute(target.attr)
            self.blocks.emit(GetField(old, obj, name, s.lineno))
            self.blocks.emit(SetField(obj, name, self.expressions.binop(s.op, Var(old), s.value, s, inplace=True),
                                      s.lineno))
        elif isinstance(target, ast.Subscript):
            lst = self.blocks.stable(self.expressions.expr(target.value), s.lineno)
            index = self.expressions.index(target.slice)
            old = self.blocks.temp()
            self.blocks.emit(ListOp("get", old, lst, (index,), s.lineno))
            new = self.expressions.binop(s.op, Var(old), s.value, s, inplace=True)
            self.blocks.emit(ListOp("set", None, lst, (index, new), s.lineno))
        else:
            name = self.target_name(target)
            new = self.expressions.binop(s.op, Var(name), s.value, s, left_node=target, inplace=True)
            self.blocks.emit(Assign(name, new, s.lineno))

    def target_name(self, node: ast.expr) -> str:
        if not isinstance(node, ast.Name):
            raise self.error(node, f"assignment to {construct_name(node)}")
        return node.id

    def stmt_Return(self, s: ast.Return) -> None:
        self.blocks.emit(Mark(s.lineno))
        value = self.expressions.expr(s.value) if s.value is not None else Const(None)
        # the value first, then the loops' iterators, innermost first
        if any(loop.iterator is not None for loop in self.loops) and not self.finallies:
            value = self.blocks.stable(value, s.lineno, across_statements=True)
            for loop in reversed(self.loops):
                if loop.iterator is not None:
                    self.blocks.emit(_close(loop.iterator, loop.fresh, s.lineno))
        if self.finallies:
            tmp = self.blocks.temp("ret")
            self.blocks.emit(Assign(tmp, value, s.lineno))
            value = Var(tmp)
            self.leave_finallies(0)
            if self.blocks.current is None:
                return
        self.blocks.close(Return(value, s.lineno))

    def stmt_Raise(self, s: ast.Raise) -> None:
        self.blocks.emit(Mark(s.lineno))
        if s.cause is not None:
            raise self.error(s.cause, "raise ... from ...")
        self.blocks.close(self.raise_of(s.exc, s))

    def raise_of(self, exc: ast.expr | None, s: ast.stmt) -> Raise:
        if exc is None:
            if not self.handled:
                raise self.error(s, "bare 'raise' outside an except block")
            return Raise(None, None, s.lineno, reraise=self.handled[-1])
        if isinstance(exc, ast.Name) and exc.id in self.locals:
            return Raise(None, None, s.lineno, reraise=exc.id)
        call_args: list[ast.expr] = []
        if isinstance(exc, ast.Call):
            if exc.keywords:
                raise self.error(exc, "keyword arguments to an exception")
            call_args = list(exc.args)
            exc = exc.func
        if not isinstance(exc, ast.Name) or not self.module.is_exception(exc.id):
            raise self.error(exc, "raise of anything but an exception class")
        message: str | None = None
        if len(call_args) == 1 and isinstance(call_args[0], ast.Constant) \
                and isinstance(call_args[0].value, str):
            message = call_args[0].value
        elif len(call_args) == 1 and isinstance(call_args[0], ast.Name) and call_args[0].id in self.locals:
            return Raise(exc.id, None, s.lineno, message_var=call_args[0].id)
        elif len(call_args) == 1 and isinstance(call_args[0], ast.BinOp) and isinstance(call_args[0].op, ast.Mod):
            # "bad value %d" % x: evaluated as Python would (the text is not computed)
            text = self.blocks.temp("msg")
            self.blocks.emit(Assign(text, self.expressions.expr(call_args[0]), s.lineno))
            return Raise(exc.id, None, s.lineno, message_var=text)
        elif call_args and not all(_plain_message(a) for a in call_args):
            raise self.error(call_args[0], "exception argument other than a string or an f-string")
        return Raise(exc.id, message, s.lineno)

    def stmt_Assert(self, s: ast.Assert) -> None:
        self.blocks.emit(Mark(s.lineno))
        message: str | None = None
        if s.msg is not None:
            if isinstance(s.msg, ast.Constant) and isinstance(s.msg.value, str):
                message = s.msg.value
            elif not _plain_message(s.msg):
                raise self.error(s.msg, "assert message other than a string or an f-string")
        ok, fail = self.blocks.new_block("assert_ok"), self.blocks.new_block("assert_fail")
        self.expressions.condition(s.test, ok, fail)
        self.blocks.enter(fail)
        self.blocks.close(Raise("AssertionError", message, s.lineno))
        self.blocks.resume(ok)

    def stmt_If(self, s: ast.If) -> None:
        """`if/elif/else`. An `elif` is an `If` alone in the `orelse` of the
        one before, so a 1000-branch chain is 1000 nested nodes: it is
        walked in a loop, making the same blocks in the same order as
        lowering each `elif` as a statement of its `else` would."""
        joins: list[BlockBuilder] = []
        node: ast.If | None = s
        while node is not None:
            self.blocks.emit(Mark(node.lineno))
            then = self.blocks.new_block("then")
            join = self.blocks.new_block("join")
            other = self.blocks.new_block("else") if node.orelse else join
            self.expressions.condition(node.test, then, other)
            self.blocks.enter(then)
            self.statements(node.body)
            self.blocks.jump(join)
            joins.append(join)
            orelse, node = node.orelse, None
            if orelse:
                self.blocks.resume(other)
                if len(orelse) == 1 and isinstance(orelse[0], ast.If):
                    if self.blocks.current is not None:  # else the elif is unreachable
                        node = orelse[0]
                else:
                    self.statements(orelse)
        for join in reversed(joins):
            self.blocks.jump(join)
            self.blocks.resume(join)

    def open_loop(self, s: ast.While | ast.For) -> tuple[BlockBuilder, ...]:
        """The blocks of a loop (header, body, exit, else), entered at the
        header, which becomes the current block. The loop is known by its
        header's name (as the builtins' loops are): entering the header
        from outside restarts its iteration count, each run of the body
        adds one."""
        header = self.blocks.new_block("loop")
        body = self.blocks.new_block("body", iterates=header.name)
        after = self.blocks.new_block("exit")
        orelse = self.blocks.new_block("else") if s.orelse else after
        self.blocks.jump(header, enters_loop=header.name)
        self.blocks.enter(header)
        return header, body, after, orelse

    def stmt_While(self, s: ast.While) -> None:
        self.blocks.emit(Mark(s.lineno))
        header, body, after, orelse = self.open_loop(s)
        self.expressions.condition(s.test, body, orelse)
        self.loop_body(s.body, body, _Loop(header.name, after.name, s.lineno, len(self.finallies)))
        self.loop_else(s, orelse, after)

    def loop_else(self, s: ast.While | ast.For, orelse: BlockBuilder, after: BlockBuilder) -> None:
        """The `else:` of a loop runs when the loop ends without `break`."""
        if s.orelse:
            self.blocks.resume(orelse)
            self.statements(s.orelse)
            self.blocks.jump(after)
        self.blocks.resume(after)

    def loop_body(self, stmts: list[ast.stmt], body: BlockBuilder, loop: _Loop) -> None:
        self.loops.append(loop)
        self.blocks.resume(body)
        self.statements(stmts)
        if self.blocks.current is not None:
            self.blocks.emit(Mark(loop.line))  # CPython reports the header on every back edge
            self.blocks.jump(loop.header)
        self.loops.pop()

    def stmt_For(self, s: ast.For) -> None:
        if s.type_comment:
            raise self.error(s, "type comment")
        it = s.iter
        called = it.func.id if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) \
            and it.func.id not in self.expressions.local_names and it.func.id not in self.module.functions else None
        backwards = self.expressions.range_call(it.args[0]) if called == "reversed" and isinstance(it, ast.Call) \
            and len(it.args) == 1 and not it.keywords else None
        if called in _ITERATORS and isinstance(it, ast.Call) and backwards is None:
            self.for_iterator(s, it, called)
            return
        range_call = backwards or (self.expressions.range_call(it) if called == "range" else None)
        if range_call is None:
            self.for_list(s)
            return
        target = self.target_name(s.target)
        self.blocks.emit(Mark(s.lineno))
        if isinstance(step_node := (range_call.args[2] if len(range_call.args) == 3 else None), ast.Constant) \
                and isinstance(step_node.value, str):
            raise self.error(step_node, "range() step other than an int")
        if backwards is not None and len(backwards.args) == 3:
            raise self.error(it, "reversed() of a range with a step")
        start, stop, step = self.expressions.range_bounds(range_call, s.lineno)
        if backwards is not None:  # reversed(range(a, b)) is range(b - 1, a - 1, -1)
            start, stop, step = Binary("sub", stop, Const(1)), Binary("sub", start, Const(1)), Const(-1)
        counter = self.blocks.temp("it")
        self.blocks.emit(Assign(counter, start, s.lineno))
        header, body, after, orelse = self.open_loop(s)
        if isinstance(step, Const) and isinstance(step.value, int):
            more: Expr = Binary("lt" if step.value > 0 else "gt", Var(counter), stop)
        else:
            more = Binary(
                "or",
                Binary("and", Binary("gt", step, Const(0)), Binary("lt", Var(counter), stop)),
                Binary("and", Binary("lt", step, Const(0)), Binary("gt", Var(counter), stop)),
            )
        self.blocks.branch(more, body, orelse)
        body.instrs.append(Assign(target, Var(counter), s.lineno))
        body.instrs.append(Assign(counter, Binary("add", Var(counter), step), s.lineno))
        self.loop_body(s.body, body, _Loop(header.name, after.name, s.lineno, len(self.finallies)))
        self.loop_else(s, orelse, after)

    def for_list(self, s: ast.For) -> None:
        """`for x in lst`: an index walks the list; its length is read on
        every step, as Python's list iterator does."""
        self.blocks.emit(Mark(s.lineno))
        lst = self.blocks.stable(self.expressions.expr(s.iter), s.lineno, across_statements=True)
        counter = self.blocks.temp("it")
        self.blocks.emit(Assign(counter, Const(0), s.lineno))
        length = self.blocks.temp("n")
        self.blocks.emit(ListOp("iter", length, lst, (), s.lineno))  # TypeError when not iterable
        lst = self.iterator(lst, s.lineno)
        iterator = lst.name if self.walks_iterators and isinstance(lst, Var) else None
        header, body, after, orelse = self.open_loop(s)
        self.blocks.emit(ListOp("len", length, lst, (_STEP,), s.lineno))
        self.blocks.branch(Binary("lt", Var(counter), Var(length)), body, orelse)
        if _dict_items(s):  # `for k, v in d.items()`: the key and the value of each entry
            assert isinstance(s.target, (ast.Tuple, ast.List))
            parts = [self.blocks.temp(), self.blocks.temp()]
            for part, flag in zip(parts, (LOOP_KEY, LOOP_VALUE)):
                body.instrs.append(ListOp("get", part, lst, (Var(counter), Const(Text(flag))), s.lineno))
            body.instrs.append(Assign(counter, Binary("add", Var(counter), Const(1)), s.lineno))
            self.blocks.enter(body)
            for element, part in zip(s.target.elts, parts):
                self.store(element, Var(part), s.lineno)
        else:
            item = self.blocks.temp()
            body.instrs.append(ListOp("get", item, lst, (Var(counter), _STEP), s.lineno))
            body.instrs.append(Assign(counter, Binary("add", Var(counter), Const(1)), s.lineno))
            self.blocks.enter(body)
            self.store(s.target, Var(item), s.lineno)
        self.loop_body(s.body, body, _Loop(header.name, after.name, s.lineno, len(self.finallies), iterator,
                                           fresh=makes_fresh(s.iter)))
        self.loop_else(s, orelse, after)

    def iterator(self, iterable: Expr, line: int) -> Expr:
        """What a loop walks: in a module with generators, `$iterate(x)` (a
        generator for an object whose `__iter__` is one; see ir/builtin_names)."""
        if not self.walks_iterators:
            return iterable
        self.calls.methods_called.add("__iter__")
        walked = self.blocks.temp("iter")
        self.blocks.emit(Call(walked, ITERATE, (iterable,), line))
        return Var(walked)

    def yield_from(self, node: ast.YieldFrom, line: int) -> None:
        """`yield from x`: each item of `x`'s iterator yielded in turn, with no
        line event of its own after the first (CPython stays on the line);
        a loop for loop-K. Closing the generator while it delegates is not
        modelled (its yields are not closable)."""
        source = self.blocks.stable(self.expressions.expr(node.value), line, across_statements=True)
        length = self.blocks.temp("n")
        self.blocks.emit(ListOp("iter", length, source, (), line))
        walked = self.iterator(source, line)
        assert isinstance(walked, Var)
        counter = self.blocks.temp("it")
        self.blocks.emit(Assign(counter, Const(0), line))
        header = self.blocks.new_block("loop")
        body = self.blocks.new_block("body", iterates=header.name)
        after = self.blocks.new_block("exit")
        self.blocks.jump(header, enters_loop=header.name)
        self.blocks.enter(header)
        self.blocks.emit(ListOp("len", length, walked, (_STEP,), line))
        self.blocks.branch(Binary("lt", Var(counter), Var(length)), body, after)
        self.blocks.resume(body)
        item = self.blocks.temp()
        self.blocks.emit(ListOp("get", item, walked, (Var(counter), _STEP), line))
        self.blocks.emit(Assign(counter, Binary("add", Var(counter), Const(1)), line))
        self.blocks.emit(Yield(Var(item), line, closable=False))
        self.blocks.jump(header)
        self.blocks.resume(after)

    def for_iterator(self, s: ast.For, it: ast.Call, called: str) -> None:
        """`for i, x in enumerate(xs[, start])`, `for x in reversed(xs)`,
        `for a, b in zip(xs, ys)`: an index walks the sequences, their
        lengths read on every step as the iterators do; `reversed` starts
        at the end and stops below 0 or past a list that shrank."""
        arity = {"enumerate": (1, 2), "reversed": (1, 1), "zip": (2, 2)}[called]
        if it.keywords or not arity[0] <= len(it.args) <= arity[1] or any(
                isinstance(a, ast.Starred) for a in it.args):
            raise self.error(it, f"{called}() with these arguments")
        names = 1 if called == "reversed" else 2
        if names == 2 and not (isinstance(s.target, (ast.Tuple, ast.List)) and len(s.target.elts) == 2):
            raise self.error(s.target, f"loop over {called}() into one name (a tuple per item)")
        self.blocks.emit(Mark(s.lineno))
        seqs = [self.blocks.stable(self.expressions.expr(a), s.lineno, across_statements=True)
                for a in it.args[:2 if called == "zip" else 1]]
        start: Expr = Const(0)
        if called == "enumerate" and len(it.args) == 2:
            start = self.blocks.stable(self.expressions.expr(it.args[1]), s.lineno, across_statements=True)
        lengths = [self.blocks.temp("n") for _ in seqs]
        for seq, length in zip(seqs, lengths):  # TypeError when not iterable (a set is not reversible)
            self.blocks.emit(ListOp("iter", length, seq, (_REVERSED,) if called == "reversed" else (), s.lineno))
        if called != "reversed":
            seqs = [self.iterator(seq, s.lineno) for seq in seqs]
        counter = self.blocks.temp("it")
        first = Binary("sub", Var(lengths[0]), Const(1)) if called == "reversed" else Const(0)
        self.blocks.emit(Assign(counter, first, s.lineno))
        header, body, after, orelse = self.open_loop(s)
        more: Expr | None = None
        for k, (seq, length) in enumerate(zip(seqs, lengths)):  # zip stops at its first exhausted argument
            self.blocks.emit(ListOp("len", length, seq, (_STEP if k == 0 else _LATER,), s.lineno))
            test = Binary("lt", Var(counter), Var(length))
            if called == "reversed":
                test = Binary("and", Binary("ge", Var(counter), Const(0)), test)
            more = test if more is None else Binary("and", more, test)
        assert more is not None
        self.blocks.branch(more, body, orelse)
        items = [self.blocks.temp() for _ in seqs]
        for seq, item in zip(seqs, items):
            body.instrs.append(ListOp("get", item, seq, (Var(counter), _STEP), s.lineno))
        position = self.blocks.temp("i")
        body.instrs.append(Assign(position, Binary("add", Var(counter), start), s.lineno))
        step = -1 if called == "reversed" else 1
        body.instrs.append(Assign(counter, Binary("add", Var(counter), Const(step)), s.lineno))
        self.blocks.enter(body)
        if called == "reversed":
            self.store(s.target, Var(items[0]), s.lineno)
        else:
            assert isinstance(s.target, (ast.Tuple, ast.List))
            values = [Var(position), Var(items[0])] if called == "enumerate" else [Var(i) for i in items]
            for element, value in zip(s.target.elts, values):
                self.store(element, value, s.lineno)
        self.loop_body(s.body, body, _Loop(header.name, after.name, s.lineno, len(self.finallies)))
        self.loop_else(s, orelse, after)

    def stmt_Delete(self, s: ast.Delete) -> None:
        """`del d[k]` (dicts; `del` of list items and names is refused or dropped)."""
        self.blocks.emit(Mark(s.lineno))
        for target in s.targets:
            if not isinstance(target, ast.Subscript) or isinstance(target.slice, ast.Slice):
                raise self.error(target, f"del of {construct_name(target)}")
            obj = self.blocks.stable(self.expressions.expr(target.value), s.lineno)
            self.blocks.emit(ListOp("del", None, obj, (self.expressions.index(target.slice),), s.lineno))

    def stmt_Break(self, s: ast.Break) -> None:
        self.blocks.emit(Mark(s.lineno))
        loop = self.loops[-1]
        self.leave_finallies(loop.finally_depth)
        if loop.iterator is not None and self.blocks.current is not None:
            self.blocks.emit(_close(loop.iterator, loop.fresh, s.lineno))
        self.blocks.jump(loop.after)

    def stmt_Continue(self, s: ast.Continue) -> None:
        self.blocks.emit(Mark(s.lineno))
        loop = self.loops[-1]
        self.leave_finallies(loop.finally_depth)
        if self.blocks.current is not None:
            self.blocks.emit(Mark(loop.line))
            self.blocks.jump(loop.header)

    def leave_finallies(self, depth: int) -> None:
        """Run the `finally` bodies above `depth`, innermost first."""
        for index in range(len(self.finallies) - 1, depth - 1, -1):
            if self.blocks.current is None:
                return
            self.inline_finally(index)

    def inline_finally(self, index: int) -> None:
        ctx = self.finallies[index]
        saved = (self.finallies, self.blocks.handler, self.handled)
        self.finallies, self.handled = self.finallies[:index], ctx.handled
        if self.blocks.handler != ctx.handler:
            self.blocks.handler = ctx.handler
            self.blocks.fall_into("finally")
        self.statements(ctx.body)
        self.finallies, self.blocks.handler, self.handled = saved
        if self.blocks.current is not None and self.blocks.current.handler != self.blocks.handler:
            self.blocks.fall_into("after_finally")

    def stmt_Try(self, s: ast.Try) -> None:
        """Handlers are blocks: an exception in the body goes to the `except`
        dispatch block (without clauses, to `finally_exc`), one in a clause
        to `finally_exc` (if any); each normal way out runs its own copy of
        the `finally` body."""
        outer = self.blocks.handler
        fin_block = self.blocks.new_block_under("finally_exc", outer) if s.finalbody else None
        handlers_handler = fin_block.name if fin_block else outer
        dispatch = self.blocks.new_block_under("except", handlers_handler) if s.handlers else None
        body_handler = dispatch.name if dispatch else (fin_block.name if fin_block else outer)
        if fin_block:
            self.finallies.append(_Finally(list(s.finalbody), outer, list(self.handled)))
        after = self.blocks.new_block_under("after_try", outer)
        self.blocks.handler = body_handler
        self.blocks.fall_into("try")
        self.statements(s.body)
        self.blocks.handler = handlers_handler
        if self.blocks.current is not None:
            self.blocks.fall_into("else" if s.orelse else "try_done")
            self.statements(s.orelse)
            self.exit_try(after, fin_block is not None)
        if dispatch is not None:
            self.except_clauses(s, dispatch, after, fin_block is not None)
        if fin_block is not None:
            self.finallies.pop()
            self.blocks.handler = outer
            self.exceptional_finally(s, fin_block)
        self.blocks.handler = outer
        self.blocks.resume(after)

    def except_clauses(self, s: ast.Try, dispatch: BlockBuilder, after: BlockBuilder, has_finally: bool) -> None:
        """At `dispatch`, the clauses are tried in order on the exception;
        when none matches it is raised again."""
        self.blocks.enter(dispatch)
        exc = self.blocks.temp("exc")
        self.blocks.emit(BindException(exc))
        for h in s.handlers:
            types = self.exception_types(h.type)
            matched, rest = self.blocks.new_block("handler"), self.blocks.new_block("except")
            self.blocks.branch(CheckExceptionType(exc, types), matched, rest)
            self.blocks.enter(matched)
            if h.name:
                self.blocks.emit(Assign(h.name, Var(exc), h.lineno))
            self.handled.append(exc)
            self.statements(h.body)
            self.handled.pop()
            self.exit_try(after, has_finally)
            self.blocks.enter(rest)
        self.blocks.close(Raise(None, None, s.lineno, reraise=exc))

    def exceptional_finally(self, s: ast.Try, fin_block: BlockBuilder) -> None:
        """The `finally` body on the way out with an exception, which it
        raises again unless the body leaves by itself (return, break, ...)."""
        self.blocks.enter(fin_block)
        exc = self.blocks.temp("exc")
        self.blocks.emit(BindException(exc))
        self.handled.append(exc)
        self.statements(s.finalbody)
        self.handled.pop()
        if self.blocks.current is not None:
            self.blocks.close(Raise(None, None, s.lineno, reraise=exc))

    def exit_try(self, after: BlockBuilder, has_finally: bool) -> None:
        """Normal completion of a try body, else or handler."""
        if self.blocks.current is None:
            return
        if has_finally:
            self.inline_finally(len(self.finallies) - 1)
        self.blocks.jump(after)

    def exception_types(self, node: ast.expr | None) -> tuple[str, ...]:
        if node is None:
            return ("BaseException",)
        names = node.elts if isinstance(node, ast.Tuple) else [node]
        out = []
        for n in names:
            if not isinstance(n, ast.Name) or not self.module.is_exception(n.id):
                raise self.error(n, "except clause that names no exception class")
            out.append(n.id)
        return tuple(out)


def _plain_message(node: ast.expr) -> bool:
    """A message we need not evaluate: a literal, an f-string or a variable
    (the test then checks the exception type only)."""
    return isinstance(node, (ast.Constant, ast.JoinedStr, ast.Name))
