"""Which names a function binds, read from its AST before lowering.

Lowering needs these facts about the whole body up front: a name is a
local from the start of the function if it is assigned anywhere in it (as
in Python, where the compiler decides it), and an `isinstance` test can be
decided from a parameter's annotation only if nothing rebinds it.
"""

from __future__ import annotations

import ast


def assigned_names(fn: ast.FunctionDef) -> set[str]:
    """Names the function assigns anywhere, `except ... as name` included
    (not those a nested function or class assigns: they are its own)."""
    names: set[str] = set()
    for node in _own_nodes(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


def plainly_assigned(fn: ast.FunctionDef) -> set[str]:
    """Names assigned other than by augmented assignment (`x -= 1` keeps an
    int an int; `x = ...` could make it anything)."""
    augmented = {id(n.target) for n in ast.walk(fn) if isinstance(n, ast.AugAssign)}
    return {n.id for n in ast.walk(fn)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and id(n) not in augmented}


def _own_nodes(fn: ast.FunctionDef) -> list[ast.AST]:
    """The nodes of `fn` outside the functions and classes nested in it."""
    out: list[ast.AST] = []
    stack: list[ast.AST] = [fn]
    while stack:
        node = stack.pop()
        out.append(node)
        if node is not fn and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return out


def module_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """Statements that run when the module is imported (into `if` and
    `try`, not into functions or classes)."""
    out: list[ast.stmt] = []
    pending = list(reversed(body))  # a stack, not recursion: an elif chain nests deeply
    while pending:
        statement = pending.pop()
        out.append(statement)
        inside: list[ast.stmt] = []
        if isinstance(statement, ast.If):
            inside = statement.body + statement.orelse
        elif isinstance(statement, ast.Try):
            inside = statement.body + statement.orelse + statement.finalbody
            for handler in statement.handlers:
                inside += handler.body
        pending.extend(reversed(inside))
    return out


def module_bindings(tree: ast.Module) -> set[str]:
    """Names the module binds when it is imported, however (an assignment
    of any value, a `def` or class under `if` or `try`, an import, a
    `global` statement in a function), so that a read of one the model
    does not follow is no certain NameError: the path reaching it is
    dropped, not the function."""
    names: set[str] = set()
    for statement in module_level(tree.body):
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(statement.name)
        elif isinstance(statement, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).partition(".")[0] for a in statement.names if a.name != "*")
        elif isinstance(statement, ast.Try):
            names.update(h.name for h in statement.handlers if h.name)
        if not isinstance(statement, (ast.If, ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.update(stored_names(statement))
    names.update(name for node in ast.walk(tree) if isinstance(node, ast.Global) for name in node.names)
    return names


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
           ast.GeneratorExp)


def stored_names(statement: ast.stmt, deleted: bool = False) -> set[str]:
    """Names `statement` binds in its own scope (`del` too, if `deleted`):
    not a comprehension's or a lambda's variables, which are their own
    (`{raw: email for email, raw in M.items()}` binds no `email`), save
    what `:=` in a comprehension binds (the enclosing scope's)."""
    contexts = (ast.Store, ast.Del) if deleted else (ast.Store,)
    names: set[str] = set()
    pending: list[tuple[ast.AST, bool]] = [(statement, False)]
    while pending:
        node, inner = pending.pop()
        if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, contexts) and not inner:
            names.add(node.id)
        if isinstance(node, _SCOPES[:4]) and node is not statement:  # a def's or lambda's body is its own
            continue
        pending.extend((child, inner or isinstance(node, _SCOPES)) for child in ast.iter_child_nodes(node))
    return names
