"""Classes with several bases, put in the single-inheritance form the engine follows.

The engine looks a method up along one chain of bases (`ClassInfo.base`).
Python looks it up along the class's MRO, the C3 linearization of its bases
(`class SortedSet(MutableSet, Sequence)`: MutableSet, Set, Sequence,
Reversible, Collection, Sized, Iterable, Container). When every base is a
model class (models/abc/classes.py) that order is a chain already, of the
real `collections.abc` classes: it is computed here (`c3`, from the real
classes' `__bases__`, asked of the standard library in this process, never
of the analysed code) and stood for by one synthesized model class
(`MutableSet_Sequence`) whose body holds, for each method name, the model's
definition of the first class in the order that defines it (`vars()` of
the real class), `@abstractmethod` kept: so lookup, `super()` from the
user's class and abstract-ness are Python's. The class is merged from the
model file like the others (hidden, silent; `normalize_bases` imports it),
and `isinstance` counts an instance as one of each class of the order
(`ClassInfo.abcs`).

A user class first and model classes after it (`class Tree(Node,
Generic[T])`) keeps the user base alone when the model classes add nothing
to that base's own order (`Generic`; `ABC` under a collections.abc class;
a class already in its order): the chain stays exact. Anything else --
no consistent order, two user bases, a user base after a model one, model
classes a user base's chain lacks, a mixin calling `super()` (its target
would change in the merged body) -- keeps its bases, with the reason
(`REFUSED`) that `module._class_base` refuses the class with.
"""

from __future__ import annotations

import abc
import ast
import collections.abc
import copy
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from pathcraft.frontend.nested import base_name

if TYPE_CHECKING:
    from pathcraft.frontend.source import ModuleSource

MERGED = "pathcraft_merged_mro"  # on a synthesized class: the real classes it stands for, nearest first
LINEARIZED = "pathcraft_linearized"  # on a class whose bases were rewritten: its real MRO without itself
REFUSED = "pathcraft_bases_refused"  # on a class whose bases cannot be put in that form: why
IMPORTS = "pathcraft_imports_merged"  # on an import `normalize_bases` adds: it may name synthesized classes
NO_METHODS = "Generic"  # adds no method: never a reason to merge
ROOT = "ABC"  # the models' root: under any collections.abc class already
MODULE = "collections.abc"  # where `normalize_bases` imports a synthesized class from
MODEL_FILE = Path(__file__).resolve().parent.parent / "models" / "abc" / "classes.py"  # the model of MODULE


class MroError(Exception):
    """Why a class's bases have no single-inheritance form the model keeps exact."""


def c3(head: str, bases_of: Callable[[str], Sequence[str]], fixed: Mapping[str, Sequence[str]] | None = None,
       _active: frozenset[str] = frozenset()) -> list[str]:
    """CPython's C3 linearization of `head` (`object` left out); `fixed`:
    classes whose order below them is known already. MroError as CPython's
    TypeError: a duplicate base, or no consistent order."""
    if fixed is not None and head in fixed:
        return [head, *fixed[head]]
    if head in _active:
        raise MroError(f"class '{head}' derives from itself")
    bases = [b for b in bases_of(head) if b != "object"]
    for i, b in enumerate(bases):
        if b in bases[:i]:
            raise MroError(f"duplicate base class '{b}'")
    pending = [c3(b, bases_of, fixed, _active | {head}) for b in bases] + [list(bases)]
    out = [head]
    while True:
        pending = [s for s in pending if s]
        if not pending:
            return out
        chosen = next((s[0] for s in pending if not any(s[0] in t[1:] for t in pending)), None)
        if chosen is None:
            raise MroError("no consistent method resolution order (C3 linearization fails: Python raises "
                           "TypeError)")
        out.append(chosen)
        pending = [s[1:] if s[0] == chosen else s for s in pending]


def _listed(names: Iterable[str]) -> str:
    return ", ".join(f"'{n}'" for n in names)


@cache
def _models() -> dict[str, ast.ClassDef]:
    """The classes of the collections.abc model file, by name."""
    tree = ast.parse(MODEL_FILE.read_text(encoding="utf-8"))
    return {s.name: s for s in tree.body if isinstance(s, ast.ClassDef)}


def _real(name: str) -> type:
    """The standard-library class model class `name` stands for."""
    if name == ROOT:
        return abc.ABC
    if name == NO_METHODS:
        return typing.Generic
    real = getattr(collections.abc, name, None)
    if name not in _models() or not isinstance(real, type):
        raise MroError(f"'{name}' is no modelled class of collections.abc")
    return real


def real_bases(name: str) -> tuple[str, ...]:
    """CPython's bases of the class model class `name` stands for; each is
    modelled, or MroError."""
    bases = tuple(b.__name__ for b in _real(name).__bases__ if b is not object)
    for b in bases:
        _real(b)
    return bases


def model_order(bases: Sequence[str]) -> list[str]:
    """The MRO below a class whose bases are the model classes `bases`."""
    return c3("", lambda n: bases if n == "" else real_bases(n))[1:]


def _essential(order: Sequence[str]) -> list[str]:
    """The classes of `order` that define methods the model keeps: not
    `Generic`, nor `ABC` below a collections.abc class (its root there)."""
    under_root = any(c in _models() and c not in (NO_METHODS, ROOT) for c in order)
    return [c for c in order if c != NO_METHODS and not (c == ROOT and under_root)]


def merged_base(bases: Sequence[str]) -> tuple[str, list[str]]:
    """The one model class standing for the model bases `bases` (two or
    more): one of them when the others add nothing to its order, else a
    synthesized class's name (its parts joined by '_'); and the real MRO
    below the class. MroError when there is none the model keeps exact."""
    order = model_order(bases)
    essential = _essential(order)
    if not essential:
        return (ROOT if ROOT in order else NO_METHODS), order
    for b in bases:
        if _essential(model_order([b])) == essential:
            return b, order
    parts = tuple(b for b in bases if b not in (NO_METHODS, ROOT))
    _merged_body(parts)  # its problems, now
    return "_".join(parts), order


@cache
def _merged_body(parts: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[ast.FunctionDef, ...]]:
    """The real order of a class with bases `parts`, and for each method
    name any model class of it defines, the model's definition in the
    first class of the order whose real class defines it (`vars()`)."""
    order = model_order(parts)
    models = _models()
    names = list(dict.fromkeys(item.name for c in order for item in models[c].body
                               if isinstance(item, ast.FunctionDef)))
    body = []
    for name in names:
        owner = next((c for c in order if name in vars(_real(c))), None)
        found = None if owner is None else next(
            (i for i in models[owner].body if isinstance(i, ast.FunctionDef) and i.name == name), None)
        if owner is None or found is None:
            raise MroError(f"the model's '{name}' is not the one of {owner or 'no class'} in the merged order")
        if any(isinstance(n, ast.Name) and n.id == "super" for n in ast.walk(found)):
            raise MroError(f"the mixin {owner}.{name} calls super(), whose target the merged order changes")
        body.append(found)
    return tuple(order), tuple(body)


def merged_class(name: str) -> ast.ClassDef | None:
    """The synthesized model class `name` (`MutableSet_Sequence`), or None
    when `name` is no such name."""
    parts = tuple(name.split("_"))
    if len(parts) < 2 or any(p not in _models() or p in (NO_METHODS, ROOT) for p in parts):
        return None
    try:
        order, body = _merged_body(parts)
    except MroError:
        return None
    first = _models()[parts[0]]
    node = ast.ClassDef(name=name, bases=[ast.Name(ROOT, ast.Load())], keywords=[],
                        body=[copy.deepcopy(f) for f in body] or [ast.Pass()], decorator_list=[])
    ast.fix_missing_locations(ast.copy_location(node, first))
    setattr(node, MERGED, order)
    return node


def add_merged(source: ModuleSource, statement: ast.ImportFrom) -> frozenset[str]:
    """Add to the loaded model module `source` the synthesized classes
    `statement` imports (one `normalize_bases` wrote: `IMPORTS`); their names."""
    if not getattr(statement, IMPORTS, False) or Path(source.path).resolve() != MODEL_FILE:
        return frozenset()
    names = [a.name for a in statement.names]
    added = set()
    for name in names:
        if name not in source.classes:
            node = merged_class(name)
            if node is None:
                continue
            source.classes[name] = node
        if hasattr(source.classes[name], MERGED):
            added.add(name)
    return frozenset(added)


def single_user_base(module: ModuleSource) -> None:
    """A class whose first base is a user class and whose other bases are
    model classes keeps that base alone when the others add nothing to
    its order; otherwise the reason is recorded (`REFUSED`)."""
    models = module.model_classes
    for cls in module.classes.values():
        real = [b for b in cls.bases if not (isinstance(b, ast.Name) and b.id == "object")]
        if cls.name in models or len(real) < 2 or hasattr(cls, REFUSED):
            continue
        names = [base_name(module.classes, module.classes, b) for b in real]
        users = [n for n in names if n is not None and n in module.classes and n not in models]
        if not users:
            continue  # model classes only (merged by `normalize_bases`), or an unknown base: refused as such
        why: str | None
        if len(users) > 1:
            why = f"several user base classes ({_listed(users)}): the engine follows single inheritance"
        elif names[0] != users[0]:
            why = f"user base class '{users[0]}' after another base (the engine follows single inheritance)"
        else:
            why = _user_first(module, cls, users[0], names[1:])
        if why is not None:
            setattr(cls, REFUSED, why)


def _user_first(module: ModuleSource, cls: ast.ClassDef, first: str, others: list[str | None]) -> str | None:
    """Rewrite `cls(first, *rest)` (rest: model classes) to `cls(first)`
    when `rest` adds nothing to `first`'s order; else why not."""
    rest = [n for n in others if n is not None and n in module.model_classes]
    if len(rest) != len(others):
        return None  # an unknown base: refused as such
    try:
        order = c3(cls.name, lambda n: _bases(module, n), _fixed(module))[1:]
        below = c3(first, lambda n: _bases(module, n), _fixed(module))
    except MroError as exc:
        return f"bases {_listed([first, *rest])}: {exc}"
    shadowed = sorted(set(_models()) & (set(module.classes) - module.model_classes) & {*order, *below})
    if shadowed:  # the real classes' bases name the module's own class: the orders above mix them up
        return f"bases {_listed([first, *rest])}, where the module's own class '{shadowed[0]}' shadows a model class"
    if _essential(order) != _essential(below):
        return (f"model bases {_listed(rest)} beside the user base class '{first}', whose own chain lacks them "
                "(the engine follows single inheritance)")
    cls.bases = [b for b in cls.bases if not (isinstance(b, ast.Name) and b.id == "object")][:1]
    setattr(cls, LINEARIZED, tuple(order))
    return None


def _bases(module: ModuleSource, name: str) -> list[str]:
    """The bases of class `name` (a user class's as written, a model
    class's as CPython has them)."""
    cls = module.classes.get(name)
    if cls is not None and name not in module.model_classes:
        names = [base_name(module.classes, module.classes, b) for b in cls.bases]
        if any(n is None or n != "object" and n not in module.classes for n in names):
            raise MroError(f"a base of '{name}' is no class the model reads")
        return [n for n in names if n is not None]
    return list(real_bases(name))


def _fixed(module: ModuleSource) -> dict[str, tuple[str, ...]]:
    """Classes whose order is known already: rewritten ones and the synthesized."""
    out: dict[str, tuple[str, ...]] = {}
    for name, cls in module.classes.items():
        for attr in (LINEARIZED, MERGED):
            if hasattr(cls, attr):
                out[name] = getattr(cls, attr)
    return out
