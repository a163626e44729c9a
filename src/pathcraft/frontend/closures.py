"""Nested functions (closures): which ones a function defines, what each reads
of its enclosing function, and where calls of them are exact.

A nested `def g(...)` at the top of its function's body becomes a function
of its own (`f.<locals>.g`, with call and return events, as CPython names
it) whose free variables (read from CPython's own symbol table,
`symtable`) are passed after its parameters at every call. A closure reads
its cells when it runs, and a call passes the enclosing frame's variables
as they are at that moment, so this is exact as long as nothing rebinds
them while the closure runs: `nonlocal` is refused (its statement), and a
heap object a closure reads is the same reference either way, so what it
does to it is exact. A nested function is only called by name (never used
as a value), its name is bound only by its `def`, and every call of it
from its enclosing function comes after its `def` (and after those of the
nested functions it may call) and after every variable it reads is bound.

A variable a nested function rebinds (`nonlocal x`) lives in a cell, a
one-item list `__pc_cell_x`, while nested functions run: the enclosing
function fills it with `x` before each call of a nested function that
reads `x` and takes `x` back from it when the call returns; the nested
functions read and write `__pc_cell_x[0]` (their code is rewritten so).
Such a call is a statement of its own (`g(...)`, `y = g(...)`,
`return g(...)`, outside any `try`, comprehension or deeper function):
nothing else of the statement reads `x` around it, and an exception
leaves the enclosing function, whose `x` is then dead.

`@functools.cache` (or `lru_cache(maxsize=None)`) on a nested function is
its memo, a dict made when the `def` runs and passed like a capture: calls
go through a silent wrapper (`memo_source`) that answers a key it has seen
without running the function (no frame, as the C wrapper) and stores what
the function returns; keys are its positional arguments (nested dicts).
"""

from __future__ import annotations

import ast
import builtins
import copy
import symtable
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace

from pathcraft.files import read_source
from pathcraft.frontend.source import ModuleSource
from pathcraft.frontend.yields import is_generator
from pathcraft.ir.nodes import FunctionInfo
from pathcraft.ir.types import INT

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)

Refuse = Callable[[ast.AST, str], Exception]


@dataclass(frozen=True)
class NestedFunction:
    """A nested function: `info` is what a call binds (its own parameters
    and their defaults); `captures` are the enclosing variables passed after
    them; `reach` the nested functions a call of it may run (itself too)."""

    node: ast.FunctionDef
    info: FunctionInfo
    captures: tuple[str, ...]
    reach: frozenset[str]
    position: int  # index of its `def` among the enclosing body's statements
    scope: symtable.SymbolTable
    memo: str | None = None  # the enclosing variable holding its cache (`@functools.cache`)
    raw_entry: str = ""  # the function's own entry (its calls enter `info.entry`, the memo's wrapper)
    code: ast.FunctionDef | None = None  # what is lowered, when not `node` (cells rewritten)

    @property
    def full(self) -> FunctionInfo:
        """The predicate's own signature: parameters, then captures."""
        params = self.info.params + self.captures
        return replace(self.info, params=params, param_types=tuple(INT for _ in params), entry=self.raw_entry)


def own_statements(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of a function body outside its nested scopes (a nested
    scope's node itself is yielded, its inside is not)."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _SCOPES):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def defines_functions(fn: ast.FunctionDef) -> bool:
    return any(isinstance(n, ast.FunctionDef) for n in own_statements(fn.body))


def function_scope(module: ModuleSource, fn: ast.FunctionDef) -> symtable.SymbolTable | None:
    """The symbol table of a function of the module (None when it is not in
    the module's source: a function the frontend wrote)."""
    try:
        top = symtable.symtable(read_source(module.path), module.path, "exec")
    except (OSError, SyntaxError, ValueError):
        return None
    stack = [top]
    while stack:
        table = stack.pop()
        if table.get_type() == "function" and table.get_name() == fn.name and table.get_lineno() == fn.lineno:
            return table
        stack.extend(table.get_children())
    return None


def _child(scope: symtable.SymbolTable, node: ast.FunctionDef) -> symtable.Function | None:
    for table in scope.get_children():
        if isinstance(table, symtable.Function) and table.get_name() == node.name \
                and table.get_lineno() == node.lineno:
            return table
    return None


def _module_names(module: ModuleSource) -> set[str]:
    """Names the module binds at its top level (an annotation evaluated when
    a nested `def` runs must find them)."""
    names: set[str] = set()
    for node in module.tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def _postponed(module: ModuleSource) -> bool:
    """`from __future__ import annotations`: annotations are never evaluated."""
    return any(isinstance(n, ast.ImportFrom) and n.module == "__future__"
               and any(a.name == "annotations" for a in n.names) for n in module.tree.body)


def _safe_annotation(node: ast.expr, known: set[str]) -> bool:
    """An annotation whose evaluation surely succeeds: names the module or
    Python binds, subscripts and `|` of them (a string in `|` is a TypeError)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) or node.value is None
    if isinstance(node, ast.Name):
        return node.id in known
    if isinstance(node, ast.Attribute):
        return isinstance(node.value, ast.Name) and node.value.id in known
    if isinstance(node, ast.Subscript):
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return _safe_annotation(node.value, known) and all(_safe_annotation(p, known) for p in parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        sides = (node.left, node.right)
        return all(_safe_annotation(s, known) and not (isinstance(s, ast.Constant) and isinstance(s.value, str))
                   for s in sides)
    return False


def _bound_by(stmt: ast.stmt) -> set[str]:
    """Names a top-level statement surely binds when it completes."""
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        targets = [stmt.target]
    elif isinstance(stmt, ast.AugAssign):
        targets = [stmt.target]
    out: set[str] = set()
    for target in targets:
        stack = [target]
        while stack:
            t = stack.pop()
            if isinstance(t, ast.Name):
                out.add(t.id)
            elif isinstance(t, (ast.Tuple, ast.List)):
                stack.extend(t.elts)
            elif isinstance(t, ast.Starred):
                stack.append(t.value)
    return out


def nested_functions(module: ModuleSource, fn: ast.FunctionDef, info: FunctionInfo, scope: symtable.SymbolTable,
                     known: Mapping[str, NestedFunction], local_names: frozenset[str],
                     refuse: Refuse) -> dict[str, NestedFunction]:
    """The functions `fn` defines (checked as the module docstring says);
    `known` are those of the enclosing functions, visible in `fn`."""
    defs = _definitions(fn, info, local_names, refuse)
    if not defs:
        return {}
    _check_uses(fn, set(defs), refuse)
    tables, frees, memos = _scopes(module, scope, defs, known, local_names, refuse)
    for call in ast.walk(fn):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in memos and call.keywords:
            raise refuse(call, f"keyword arguments to cached nested function '{call.func.id}' (a key of their own)")
    for name in memos:
        _check_single_keys(fn, info, defs, name, local_names, refuse)
    cells = _cells(fn, scope, defs, tables, refuse)
    visible = {**known, **{n: None for n in defs}}
    reach = _reach(defs, frees, known, set(visible))
    out: dict[str, NestedFunction] = {}
    for name, (pos, node) in defs.items():
        captures: set[str] = set()
        for callee in reach[name]:
            captures |= frees[callee] - set(visible) if callee in defs else set(known[callee].captures)
            if callee in memos:
                captures.add(memos[callee])
        captures = {cell_name(c) if c in cells else c for c in captures}
        code = None
        if frees[name] & cells:
            code = _CellRewriter(frees[name] & cells).visit(copy.deepcopy(node))
            ast.fix_missing_locations(code)
        defaults = _defaults(node, refuse)
        params = tuple(a.arg for a in node.args.args)
        entry = f"{info.entry}$fn${name}"
        generator = is_generator(module.path, node)
        if generator and (captures or name in memos):  # it runs later, when iterated: its captures may have moved
            raise refuse(node, f"nested generator function '{name}' that uses the enclosing function's variables")
        called = FunctionInfo(node.name, f"{info.qualname}.<locals>.{name}", params, tuple(INT for _ in params),
                              None, defaults, node.lineno, node.end_lineno or node.lineno,
                              entry + "$memo" if name in memos else entry, generator=generator)
        out[name] = NestedFunction(node, called, tuple(sorted(captures)), frozenset(reach[name]), pos, tables[name],
                                   memos.get(name), entry, code)
    _check_calls(fn, info, out, refuse, cells)
    return out


def _definitions(fn: ast.FunctionDef, info: FunctionInfo, local_names: frozenset[str],
                 refuse: Refuse) -> dict[str, tuple[int, ast.FunctionDef]]:
    """The nested `def`s of `fn`, each with its position in the body: at
    the top of the body only, each once, named unlike a variable or a
    builtin."""
    defs: dict[str, tuple[int, ast.FunctionDef]] = {}
    position = {id(stmt): k for k, stmt in enumerate(fn.body)}
    for node in own_statements(fn.body):
        if not isinstance(node, ast.FunctionDef):
            continue
        if id(node) not in position:
            raise refuse(node, f"nested function '{node.name}' defined inside a block "
                               "(only at the top of its function's body)")
        if node.name in defs:
            raise refuse(node, f"nested function '{node.name}' defined twice")
        if node.name in local_names or node.name in info.params:
            raise refuse(node, f"nested function '{node.name}' whose name is also a variable")
        if node.name in dir(builtins):  # calls of builtins are lowered by their names
            raise refuse(node, f"nested function '{node.name}' named like a builtin")
        defs[node.name] = (position[id(node)], node)
    return defs


def _scopes(module: ModuleSource, scope: symtable.SymbolTable, defs: Mapping[str, tuple[int, ast.FunctionDef]],
            known: Mapping[str, NestedFunction], local_names: frozenset[str], refuse: Refuse
            ) -> tuple[dict[str, symtable.Function], dict[str, set[str]], dict[str, str]]:
    """Each nested function's symbol table and free names (read only from
    its function or the enclosing nested functions), and the memo table of
    each cached one."""
    annotation_names = None if _postponed(module) else _module_names(module) | set(dir(builtins))
    tables: dict[str, symtable.Function] = {}
    frees: dict[str, set[str]] = {}
    memos: dict[str, str] = {}
    for name, (_, node) in defs.items():
        if node.decorator_list and _is_cache(module, node, local_names, refuse):
            memos[name] = f"$memo_{name}"
        _check_signature(node, annotation_names, refuse, name in memos)
        table = _child(scope, node)
        if table is None:
            raise refuse(node, f"nested function '{name}' (its scope was not found)")
        tables[name] = table
        frees[name] = set(table.get_frees())
        for free in sorted(frees[name] - set(defs) - set(known)):
            if free not in local_names:
                raise refuse(node, f"nested function '{name}' reading '{free}' of a scope other than its function's")
    return tables, frees, memos


def _reach(defs: Mapping[str, object], frees: Mapping[str, set[str]], known: Mapping[str, NestedFunction],
           visible: set[str]) -> dict[str, set[str]]:
    """The nested functions a call of each may run, transitively."""
    reach: dict[str, set[str]] = {n: {n} | (frees[n] & visible) for n in defs}
    changed = True
    while changed:
        changed = False
        for name in defs:
            more: set[str] = set()
            for callee in reach[name]:
                more |= reach[callee] if callee in defs else set(known[callee].reach)
            if not more <= reach[name]:
                reach[name] |= more
                changed = True
    return reach


def _check_uses(fn: ast.FunctionDef, names: set[str], refuse: Refuse) -> None:
    """A nested function's name is only ever called, nowhere rebound."""
    called = {id(n.func) for n in ast.walk(fn) if isinstance(n, ast.Call)}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id in names:
            if not isinstance(node.ctx, ast.Load):
                raise refuse(node, f"nested function '{node.id}' rebound")
            if id(node) not in called:
                raise refuse(node, f"nested function '{node.id}' used as a value (only called directly)")
        elif isinstance(node, ast.arg) and node.arg in names:
            raise refuse(node, f"nested function '{node.arg}' shadowed by a parameter")
        elif isinstance(node, (ast.Global, ast.Nonlocal)) and set(node.names) & names:
            raise refuse(node, "global or nonlocal naming a nested function")
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node is not fn and node.name in names \
                and node not in fn.body:
            raise refuse(node, f"nested function '{node.name}' shadowed by an inner definition")


def cell_name(var: str) -> str:
    return f"__pc_cell_{var}"


class _CellRewriter(ast.NodeTransformer):
    """`x` -> `__pc_cell_x[0]` for the cell variables; `nonlocal` goes (it runs no code)."""

    def __init__(self, cells: set[str]) -> None:
        self.cells = cells

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id not in self.cells:
            return node
        cell = ast.copy_location(ast.Name(cell_name(node.id), ast.Load()), node)
        return ast.copy_location(ast.Subscript(cell, ast.copy_location(ast.Constant(0), node), node.ctx), node)

    def visit_Nonlocal(self, node: ast.Nonlocal) -> ast.stmt | None:
        kept = [n for n in node.names if n not in self.cells]
        return ast.copy_location(ast.Nonlocal(kept), node) if kept else None


def _cells(fn: ast.FunctionDef, scope: symtable.SymbolTable, defs: Mapping[str, tuple[int, ast.FunctionDef]],
           tables: Mapping[str, symtable.Function], refuse: Refuse) -> set[str]:
    """The variables of `fn` its nested functions declare `nonlocal`, checked:
    bound in `fn` itself, and no scope deeper than its own functions reads them."""
    cells: set[str] = set()
    for name, (_, node) in defs.items():
        for symbol in tables[name].get_symbols():
            if not symbol.is_nonlocal():
                continue
            var = symbol.get_name()
            try:
                local = scope.lookup(var).is_local()
            except KeyError:
                local = False
            if not local:
                raise refuse(node, f"nonlocal '{var}' of a scope other than the enclosing function's")
            cells.add(var)
    for name, (_, node) in defs.items():
        stack = list(tables[name].get_children())
        while stack:
            table = stack.pop()
            if isinstance(table, symtable.Function) and set(table.get_frees()) & cells:
                raise refuse(node, f"nonlocal variable read by a scope nested in '{name}'")
            stack.extend(table.get_children())
    return cells


def _is_cache(module: ModuleSource, node: ast.FunctionDef, local_names: frozenset[str], refuse: Refuse) -> bool:
    """`@functools.cache`, `@cache`, `@functools.lru_cache(maxsize=None)` alone (from the module's imports)."""
    if len(node.decorator_list) != 1:
        raise refuse(node.decorator_list[0], "several decorators on a nested function")
    deco = node.decorator_list[0]
    call = deco if isinstance(deco, ast.Call) else None
    func = call.func if call is not None else deco
    imports: dict[str, str] = {}  # local name -> functools' name
    for stmt in module.tree.body:
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "functools" and not stmt.level:
            imports.update({a.asname or a.name: a.name for a in stmt.names})
        elif isinstance(stmt, ast.Import):
            imports.update({a.asname or a.name: "" for a in stmt.names if a.name == "functools"})
    name = None
    if isinstance(func, ast.Name) and func.id not in local_names:
        name = imports.get(func.id) or None
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
            and imports.get(func.value.id) == "" and func.value.id not in local_names:
        name = func.attr
    unbounded = call is not None and not call.keywords and len(call.args) == 1 \
        and isinstance(call.args[0], ast.Constant) and call.args[0].value is None \
        or call is not None and not call.args and len(call.keywords) == 1 and call.keywords[0].arg == "maxsize" \
        and isinstance(call.keywords[0].value, ast.Constant) and call.keywords[0].value.value is None
    if name == "cache" and call is None or name == "lru_cache" and unbounded:
        return True
    raise refuse(deco, "decorator on a nested function (other than functools.cache)")


_INT_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.LShift, ast.RShift)


def _exact_key(node: ast.expr, exact: set[str]) -> bool:
    """Surely an exact int or str (or None), never a bool or a float: a
    one-argument cache keys those by the value itself and others by a
    1-tuple, so `g(True)` and `g(1)` are two entries though `True == 1`."""
    if isinstance(node, ast.Constant):
        return node.value is None or type(node.value) in (int, str)
    if isinstance(node, ast.Name):
        return node.id in exact
    if isinstance(node, ast.BinOp) and isinstance(node.op, _INT_OPS):
        return _exact_key(node.left, exact) and _exact_key(node.right, exact)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)):
        return _exact_key(node.operand, exact)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("len", "int") \
        and len(node.args) == 1 and not node.keywords


def _range_names(body: list[ast.stmt], stores: Callable[[str], int]) -> set[str]:
    """Names bound only as the target of `for NAME in range(...)`."""
    out: set[str] = set()
    for node in own_statements(body):
        if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name) \
                and isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name) \
                and node.iter.func.id == "range" and stores(node.target.id) == 1:
            out.add(node.target.id)
    return out


def _stores(body: list[ast.stmt]) -> Callable[[str], int]:
    counts: dict[str, int] = {}
    for node in own_statements(body):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            counts[node.id] = counts.get(node.id, 0) + 1
        elif isinstance(node, (ast.ExceptHandler)) and node.name:
            counts[node.name] = counts.get(node.name, 0) + 2
    return lambda name: counts.get(name, 0)


def _check_single_keys(fn: ast.FunctionDef, info: FunctionInfo, defs: Mapping[str, tuple[int, ast.FunctionDef]],
                       name: str, local_names: frozenset[str], refuse: Refuse) -> None:
    """Every argument of a one-parameter cached function is an exact int or
    str (see `_exact_key`): parameters of the enclosing function annotated
    so (its inputs are made from annotations) and never rebound, `range`
    loop variables, its own parameter in its own calls, and arithmetic of those."""
    node = defs[name][1]
    if len(node.args.args) != 1:
        return
    outer_stores = _stores(fn.body)
    exact = {p for p, t in zip(info.params, info.param_types) if t.kind in ("int", "str") and not t.optional
             and not info.qualname.count("<locals>") and outer_stores(p) == 0}
    exact |= _range_names(fn.body, outer_stores)
    scopes: list[tuple[list[ast.stmt], set[str]]] = [(fn.body, exact)]
    for other, (_, d) in defs.items():
        own = _stores(d.body)
        names = _range_names(d.body, own)
        if other == name and own(node.args.args[0].arg) == 0:
            names.add(node.args.args[0].arg)
        scopes.append((d.body, names))
    checked: set[int] = set()
    for body, names in scopes:
        for call in own_statements(body):
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == name:
                checked.add(id(call))
                if call.args and not _exact_key(call.args[0], names):
                    raise refuse(call.args[0], f"argument of cached nested function '{name}' that may be a bool "
                                               "or a float (one-argument caches key them apart from ints)")
    for call in ast.walk(fn):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == name \
                and id(call) not in checked:
            raise refuse(call, f"call of cached nested function '{name}' from a deeper scope")


def memo_source(params: tuple[str, ...], passed: list[str]) -> str:
    """The wrapper a cached nested function's calls go through (`passed`:
    its captures as the wrapper names them; `__pc_memo` is its own memo)."""
    keys = list(params) or ["0"]
    lines = [f"def wrapper({', '.join([*params, *passed])}):"]
    if len(keys) > 1:  # the key tuple is hashed, item by item, before anything else
        lines += [f"    __pc_h = {key} in {{}}" for key in keys]
    lines.append("    __pc_d = __pc_memo")
    for depth, key in enumerate(keys):
        pad = "    " * (depth + 1)
        lines.append(f"{pad}if {key} in __pc_d:")
        last = depth == len(keys) - 1
        lines.append(f"{pad}    {'return' if last else '__pc_d ='} __pc_d[{key}]")
    lines.append(f"    __pc_r = __pc_raw({', '.join([*params, *passed])})")
    lines.append("    __pc_d = __pc_memo")
    for key in keys[:-1]:
        lines += [f"    if {key} not in __pc_d:", f"        __pc_d[{key}] = {{}}", f"    __pc_d = __pc_d[{key}]"]
    lines += [f"    __pc_d[{keys[-1]}] = __pc_r", "    return __pc_r"]
    return "\n".join(lines) + "\n"


def _check_signature(node: ast.FunctionDef, annotation_names: set[str] | None, refuse: Refuse,
                     cached: bool = False) -> None:
    if node.decorator_list and not cached:
        raise refuse(node.decorator_list[0], "decorator on a nested function")
    if cached and node.args.defaults:
        raise refuse(node.args.defaults[0], "default of a cached nested function (a key of its own)")
    args = node.args
    if args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg:
        raise refuse(node, f"nested function '{node.name}' with *args, **kwargs, '/' or '*' parameters")
    if node.type_comment or getattr(node, "type_params", None):
        raise refuse(node, f"nested function '{node.name}' with a type comment or type parameters")
    if annotation_names is None:
        return
    annotations = [a.annotation for a in args.args if a.annotation is not None]
    if node.returns is not None:
        annotations.append(node.returns)
    for annotation in annotations:
        if not _safe_annotation(annotation, annotation_names):
            raise refuse(annotation, "annotation of a nested function that may fail when its 'def' runs")


def _defaults(node: ast.FunctionDef, refuse: Refuse) -> tuple[tuple[str, int | bool | None], ...]:
    params = [a.arg for a in node.args.args]
    out: list[tuple[str, int | bool | None]] = []
    for param, default in zip(params[len(params) - len(node.args.defaults):], node.args.defaults):
        if not (isinstance(default, ast.Constant) and (default.value is None or isinstance(default.value, (int, bool)))
                and not isinstance(default.value, float)):
            raise refuse(default, "default of a nested function other than an int, a bool or None")
        out.append((param, default.value))
    return tuple(out)


def _check_calls(fn: ast.FunctionDef, info: FunctionInfo, nested: Mapping[str, NestedFunction],
                 refuse: Refuse, cells: set[str]) -> None:
    """Each call of a nested function in `fn`'s own code runs after the
    `def`s of every nested function it may run and after every variable
    it reads is bound (else CPython raises NameError in it); one that
    passes cells is a statement of its own (see the module docstring)."""
    bound = set(info.params)
    by_cell = {cell_name(c): c for c in cells}
    guarded: set[int] = set()  # calls in a `try`, a comprehension or a lambda
    for node in own_statements(fn.body):
        if isinstance(node, (ast.Try, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)) \
                or type(node).__name__ == "TryStar":
            guarded.update(id(n) for n in ast.walk(node))
    whole = {id(n.value) for n in own_statements(fn.body)
             if isinstance(n, (ast.Expr, ast.Return, ast.Assign, ast.AnnAssign)) and _whole(n)}
    for index, stmt in enumerate(fn.body):
        for node in own_statements([stmt]):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in nested):
                continue
            callee = nested[node.func.id]
            for name in sorted(callee.reach):
                if name in nested and nested[name].position >= index:
                    raise refuse(node, f"call of nested function '{callee.info.name}' before the 'def' of "
                                       f"'{name}'")
            if any(c in by_cell for c in callee.captures) and (id(node) in guarded or id(node) not in whole):
                raise refuse(node, f"call of nested function '{callee.info.name}', which may rebind a nonlocal "
                                   "variable, other than as a statement of its own outside 'try' and comprehensions")
            for name in callee.captures:
                if by_cell.get(name, name) not in bound:
                    raise refuse(node, f"call of nested function '{callee.info.name}' where '{name}', "
                                       "which it reads, may be unbound")
        bound |= _bound_by(stmt)
        if isinstance(stmt, ast.FunctionDef) and stmt.name in nested and nested[stmt.name].memo is not None:
            bound.add(str(nested[stmt.name].memo))


def _whole(stmt: ast.stmt) -> bool:
    """A call is all `stmt` computes: `g(...)`, `y = g(...)`, `return g(...)`."""
    if isinstance(stmt, (ast.Expr, ast.Return)):
        return isinstance(stmt.value, ast.Call)
    if isinstance(stmt, ast.Assign):
        return isinstance(stmt.value, ast.Call) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
    if isinstance(stmt, ast.AnnAssign):
        return isinstance(stmt.value, ast.Call) and isinstance(stmt.target, ast.Name)
    return False
