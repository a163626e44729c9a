"""Classes defined in a class body (`class LinkedStack: class _Node: ...`).

Python gives such a class the qualified name `LinkedStack._Node` and makes
it reachable as an attribute of the outer class and of its instances
(`self._Node(e, head)`, `isinstance(p, self.Position)`), inherited by
subclasses like any class attribute. The frontend treats it as a class of
the module under that dotted name (a test builds it as
`module.LinkedStack._Node`), and resolves `self.X`, `cls.X` and `Outer.X`
statically along the outer class's bases. That is only sound when no
subclass of the outer class binds `X` again (then `self.X` depends on the
object's class): such uses are refused with the subclass named.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Collection, Iterable, Mapping


def hoist(classes: dict[str, ast.ClassDef]) -> None:
    """Add every class nested in a class body to `classes` under its
    dotted name; the node is a shallow copy whose `name` is that name."""
    todo = list(classes.items())
    while todo:
        outer, node = todo.pop()
        for item in node.body:
            if isinstance(item, ast.ClassDef):
                name = f"{outer}.{item.name}"
                if name in classes:
                    continue
                inner = copy.copy(item)
                inner.name = name
                classes[name] = inner
                todo.append((name, inner))


def dotted(node: ast.expr) -> str | None:
    """`A.B.C` -> "A.B.C" for names and attribute chains over a name."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def short(name: str) -> str:
    """The name a class's own code is written under (`Inner` of `Outer.Inner`):
    private names are mangled with it."""
    return name.rpartition(".")[2]


def lookup(chain: Iterable[str], attr: str, classes: Collection[str]) -> str | None:
    """The nested class `attr` as seen from the first class of `chain` (the
    class and its bases, nearest first), or None when none defines one."""
    for klass in chain:
        if f"{klass}.{attr}" in classes:
            return f"{klass}.{attr}"
    return None


def rebinding_subclass(owner: str, attr: str, subclasses: Iterable[str],
                       defines: Mapping[str, ast.ClassDef]) -> str | None:
    """A subclass of `owner` whose body binds `attr` again (a nested class,
    a method or a class attribute of that name), if any: then `self.attr`
    in `owner`'s code is not always `owner`'s class."""
    for sub in sorted(subclasses):
        node = defines.get(sub)
        if node is None or sub == owner:
            continue
        for item in node.body:
            names = [item.name] if isinstance(item, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) else \
                [t.id for t in item.targets if isinstance(t, ast.Name)] if isinstance(item, ast.Assign) else \
                [item.target.id] if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) else []
            if attr in names:
                return sub
    return None


def base_name(classes: Mapping[str, ast.ClassDef], known: Collection[str], base: ast.expr) -> str | None:
    """The class a base expression names: `Base`, `Outer.Inner`, or
    `Sub.Inner` for the `Inner` that `Sub` inherits from a base."""
    spelled = dotted(base)
    if spelled is None or spelled in classes or not isinstance(base, ast.Attribute):
        return spelled
    outer = dotted(base.value)
    if outer is None or outer not in classes:
        return spelled
    found = lookup([c.name for c in class_chain(classes, known, classes[outer])], base.attr, classes)
    return found or spelled


def class_chain(classes: Mapping[str, ast.ClassDef], known: Collection[str], cls: ast.ClassDef) -> list[ast.ClassDef]:
    """`cls` and its base classes among `known` (user classes), nearest
    first (single inheritance: the first such base)."""
    chain = [cls]
    while True:
        bases = [n for b in chain[-1].bases for n in [base_name(classes, known, b)] if n is not None and n in known]
        if not bases or classes[bases[0]] in chain:
            return chain
        chain.append(classes[bases[0]])
