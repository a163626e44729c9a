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
Statements are lowered by rules looked up by node type (`statements.py`:
`stmt_assign`, `stmt_loops`, `stmt_try`, `stmt_flow`, `stmt_simple`), and
the functions the frontend writes for comprehensions, generator
expressions and key functions by `comprehensions`, `genexprs`,
`keyfuncs`; they see this class as a `StatementLowering` (stmthost.py).

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
import symtable
from collections.abc import Mapping
from dataclasses import replace

from pathcraft.errors import UnsupportedError, construct_name, unsupported
from pathcraft.frontend import closures, comprehensions, genexprs, keyfuncs, namedtuple_make, reduces
from pathcraft.frontend.expressions import CallsMade, ExpressionLowerer
from pathcraft.frontend.lines import statement_lines
from pathcraft.frontend.names import assigned_names
from pathcraft.frontend.sink import FunctionBlocks
from pathcraft.frontend.source import ModuleSource
from pathcraft.frontend.statements import STATEMENTS
from pathcraft.frontend.stmthost import Finally, Loop
from pathcraft.frontend.synthetic import synthetic_function
from pathcraft.frontend.yields import yields_in_try
from pathcraft.ir.builtin_names import MEMO_WRAPPER
from pathcraft.frontend.stdlib import FOREIGN
from pathcraft.ir.nodes import Call, Const, FunctionInfo, Goto, Instr, Mark, Predicate, Return, Text
from pathcraft.ir.types import INT

__all__ = ["FunctionLowerer", "synthetic_function"]


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
        self.loops: list[Loop] = []
        self.finallies: list[Finally] = []
        self.handled: list[str] = []
        self.caught: list[str] = []  # the `as` names of the except clauses around the statement
        self.owner = owner
        self.signatures = signatures
        # the expressions that are loops: lowered as functions this lowerer writes
        self.expressions.comprehension = lambda node: comprehensions.comprehension(self, node)
        self.expressions.generator = lambda consumer, node: genexprs.generator_call(self, consumer, node)
        self.expressions.keyed = lambda consumer, items, key, reverse, node: keyfuncs.keyed_call(
            self, consumer, items, key, reverse, node)
        self.expressions.generator_value = lambda node: genexprs.generator_object(self, node)
        self.expressions.iterator_value = lambda node: genexprs.generator_object(self, node, silent=True)
        self.expressions.reduce = lambda node: reduces.reduce_call(self, node)
        self.expressions.namedtuple_make = lambda info, node: namedtuple_make.make_call(self, info, node)
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
        if info.alternatives:  # a union parameter: its value's kind is known at run time only (frontend/unions.py)
            self.expressions.opaque = self.expressions.opaque | {name for name, _ in info.alternatives}
        if owner is not None and fn.name == "__eq__" and len(info.params) == 2:  # `==` passes any value
            self.expressions.opaque = self.expressions.opaque | {info.params[1]}  # (engine/objeq.py)

    def error(self, node: ast.AST, what: str) -> Exception:
        return unsupported(self.module.path, node, what)

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

    def statements(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            if self.blocks.current is None:
                return  # the rest is unreachable
            self.statement(stmt)

    def statement(self, s: ast.stmt) -> None:
        """One statement, by the rule for its node type (statements.py). A
        statement outside the subset drops the paths that reach it, not the
        function (`give_up`); a declaration, which changes what every other
        statement means, still refuses it."""
        point = self.blocks.checkpoint()
        stacks = (self.loops[:], self.finallies[:], self.handled[:], self.caught[:])
        try:
            rule = STATEMENTS.get(type(s))
            if rule is None:
                raise self.error(s, construct_name(s))
            rule(self, s)
        except UnsupportedError as exc:
            if isinstance(s, (ast.Global, ast.Nonlocal)) or self.always_reached(s):
                raise
            self.blocks.rewind(point)
            self.loops[:], self.finallies[:], self.handled[:], self.caught[:] = stacks
            self.give_up(s, exc)

    def always_reached(self, s: ast.stmt) -> bool:
        """Does every path that does not raise reach `s` (a statement of the
        function's body after none that returns or raises)? Then giving it
        up would leave no path: the function is refused, with the place."""
        if s not in self.fn.body:
            return False
        earlier = self.fn.body[:self.fn.body.index(s)]
        return not any(isinstance(node, (ast.Return, ast.Raise, ast.Yield, ast.YieldFrom))
                       for statement in earlier for node in ast.walk(statement))

    def give_up(self, s: ast.stmt, exc: UnsupportedError) -> None:
        """Every path reaching `s` is dropped with `exc`'s reason (the
        engine's `foreign` call raises it); code after it is unreachable."""
        reason = exc.message.removeprefix("unsupported ")
        self.blocks.emit(Call(self.blocks.temp(), FOREIGN, (Const(Text(reason)),), s.lineno))
        self.blocks.close(Return(Const(None), s.lineno))
