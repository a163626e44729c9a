"""Classes whose members module-level code changes once they are bound.

`delattr(Stats, '_calc_' + name)` in a loop after `class Stats:`, `C.x =
f`, `setattr(C, "y", g)`, `del C.z`: the class the tests import is then not
quite the class its body defines. Which members change is read off the
statement: a constant name, or a constant prefix (`'_calc_' + name`, an
f-string that starts with text); only when the name is computed with no
constant start can any member have changed, and then the class is refused
as a whole. Otherwise the class is read as usual and the members that may
have changed are the unknown part: a method among them is not tested nor
followed (its callers' paths that reach it are dropped), and an instance's
read of such a name drops the path (ClassInfo.descriptors).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from pathcraft.frontend.names import module_level
from pathcraft.frontend.yields import running_with


@dataclass(frozen=True)
class Alteration:
    """What module-level code may change on one class: these names, names
    starting with these prefixes, or (`unbounded`) any name; `statement`:
    the first statement (or decorator) that changes it, `by`: what that is."""

    statement: ast.stmt | ast.expr
    names: frozenset[str] = frozenset()
    prefixes: tuple[str, ...] = ()
    unbounded: bool = False
    by: str = "module-level code"

    def covers(self, member: str) -> bool:
        return self.unbounded or member in self.names or any(member.startswith(p) for p in self.prefixes)

    def joined(self, other: Alteration) -> Alteration:
        return Alteration(self.statement, self.names | other.names,
                          tuple(dict.fromkeys(self.prefixes + other.prefixes)), self.unbounded or other.unbounded,
                          self.by)


def altered_names(body: list[ast.stmt]) -> dict[str, Alteration]:
    """Names whose attributes module-level code sets or deletes once they
    are bound (not under `if __name__ == "__main__":`), with what it may
    change on each."""
    altered: dict[str, Alteration] = {}
    imported = [s for s in body if not (isinstance(s, ast.If) and "__main__" in ast.unparse(s.test))]
    for statement in module_level(imported):
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.Try)):
            continue  # an `if`'s or `try`'s statements come on their own
        for node in running_with([statement]):
            found = _changed(node, statement)
            if found is not None:
                name, change = found
                altered[name] = altered[name].joined(change) if name in altered else change
    return altered


def _changed(node: ast.AST, statement: ast.stmt) -> tuple[str, Alteration] | None:
    """The name `node` changes an attribute of, and which attributes."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr") \
            and node.args and isinstance(node.args[0], ast.Name):
        member = node.args[1] if len(node.args) > 1 else None
        if isinstance(member, ast.Constant) and isinstance(member.value, str):
            return node.args[0].id, Alteration(statement, names=frozenset({member.value}))
        prefix = _constant_start(member)
        if prefix:
            return node.args[0].id, Alteration(statement, prefixes=(prefix,))
        return node.args[0].id, Alteration(statement, unbounded=True)
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)) \
            and isinstance(node.value, ast.Name):
        return node.value.id, Alteration(statement, names=frozenset({node.attr}))
    return None


def _constant_start(node: ast.expr | None) -> str:
    """The text a computed str surely starts with (`'_calc_' + name`,
    `f"_calc_{name}"`), or ''."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _constant_start(node.left)
    if isinstance(node, ast.JoinedStr) and node.values:
        return _constant_start(node.values[0]) if isinstance(node.values[0], ast.Constant) else ""
    return ""


def class_returning(decorator: ast.FunctionDef) -> frozenset[str] | None:
    """The attributes a class decorator sets on the class it is given, when
    all it does is set them (to names, constants or attributes: no call
    runs) and return that class; else None."""
    args = decorator.args
    if len(args.args) != 1 or args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs \
            or decorator.decorator_list:
        return None
    me = args.args[0].arg
    body = decorator.body[1:] if ast.get_docstring(decorator) is not None else decorator.body
    if not body or not (isinstance(body[-1], ast.Return) and isinstance(body[-1].value, ast.Name)
                        and body[-1].value.id == me):
        return None
    names: set[str] = set()
    for statement in body[:-1]:
        if not (isinstance(statement, ast.Assign) and all(
                isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me
                for t in statement.targets)):
            return None
        if any(isinstance(n, (ast.Call, ast.Lambda, ast.NamedExpr)) or isinstance(n, ast.Name) and n.id == me
               for n in ast.walk(statement.value)):
            return None
        names.update(t.attr for t in statement.targets if isinstance(t, ast.Attribute))
    return frozenset(names)
