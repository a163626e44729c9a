"""Local aliases of a bound method: `seen_add = seen.add`, then
`seen_add(x)` in a loop (the speed idiom of toolz, more_itertools and the
standard library).

Why: the alias holds the method bound to the object `seen` had when the
alias was made. Where nothing can rebind `seen` afterwards, calling the
alias is calling `seen.add` afresh, so the calls are rewritten to that
(at load, for every pass alike), and the alias's own statement keeps
only what it does that a call would not: the attribute lookup, which
raises AttributeError there (`CheckMethod`, see `stmt_assign.assign`).

The rewrite holds when, in the function:
* the alias is bound once, by that statement, which is a statement of the
  function's body itself (not under a loop or a branch), and it is never
  used but as the callee of a call placed after it;
* the object is a parameter nothing rebinds, or a local bound once, by an
  earlier statement of the body itself;
* nothing in the module stores an attribute of the method's name (an
  instance attribute would shadow the method after the alias was made).
"""

from __future__ import annotations

import ast


def inline_method_aliases(tree: ast.Module) -> dict[ast.Assign, tuple[str, str]]:
    """Rewrite the calls of every alias that qualifies, in place; the alias
    statements, each with the object's name and the method's."""
    stored = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load)}
    checks: dict[ast.Assign, tuple[str, str]] = {}
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for statement, obj, method in _aliases(fn, stored):
                checks[statement] = (obj, method)
    return checks


def _aliases(fn: ast.FunctionDef | ast.AsyncFunctionDef, stored: set[str]) -> list[tuple[ast.Assign, str, str]]:
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)} | \
        {a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None}
    bindings = _bindings(fn)
    found = []
    for index, statement in enumerate(fn.body):
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name) and isinstance(statement.value, ast.Attribute)
                and isinstance(statement.value.value, ast.Name) and isinstance(statement.value.ctx, ast.Load)):
            continue
        alias, obj, method = statement.targets[0].id, statement.value.value.id, statement.value.attr
        if alias in params or alias == obj or len(bindings.get(alias, [])) != 1 or method in stored:
            continue
        if obj in params:
            if bindings.get(obj):
                continue
        elif len(bindings.get(obj, [])) != 1 or bindings[obj][0] not in fn.body[:index]:
            continue
        calls = _calls_after(fn, alias, statement)
        if calls is None:
            continue
        for call in calls:
            call.func = ast.copy_location(
                ast.Attribute(ast.copy_location(ast.Name(obj, ast.Load()), call.func), method, ast.Load()), call.func)
        found.append((statement, obj, method))
    return found


def _calls_after(fn: ast.AST, alias: str, statement: ast.Assign) -> list[ast.Call] | None:
    """The calls of `alias`, if it is read nowhere else and each call comes
    after the statement that binds it; else None."""
    end = (statement.end_lineno or statement.lineno, statement.end_col_offset or 0)
    callees = {id(n.func): n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
               and n.func.id == alias}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id == alias and isinstance(node.ctx, ast.Load):
            if id(node) not in callees or (node.lineno, node.col_offset) < end:
                return None
    return list(callees.values())


def _bindings(fn: ast.AST) -> dict[str, list[ast.AST]]:
    """Each name's binding statements in `fn` and the functions it holds
    (any store, delete, `global`/`nonlocal`, import, definition, handler or
    parameter of a nested function counts; a body statement is recorded for
    a plain assignment of the body)."""
    out: dict[str, list[ast.AST]] = {}
    owner: dict[int, ast.AST] = {}
    for statement in getattr(fn, "body", []):
        for node in ast.walk(statement):
            owner.setdefault(id(node), statement)
    for node in ast.walk(fn):
        names: list[str] = []
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names = [node.id]
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names = list(node.names)
        elif isinstance(node, ast.alias):
            names = [(node.asname or node.name).split(".")[0]]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not fn:
            names = [node.name]
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names = [node.name]
        elif isinstance(node, ast.arg) and node not in _own_args(fn):
            names = [node.arg]
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names = [node.name]
        for name in names:
            out.setdefault(name, []).append(owner.get(id(node), node))
    return out


def _own_args(fn: ast.AST) -> list[ast.arg]:
    args = getattr(fn, "args", None)
    if not isinstance(args, ast.arguments):
        return []
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *(a for a in (args.vararg, args.kwarg) if a)]
