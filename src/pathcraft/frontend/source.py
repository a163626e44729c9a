"""What the frontend knows of a module: its parsed tree and the facts of
its top level (`ModuleSource`), filled in by `frontend/module.py`.

Its own module so that the readers `module.py` calls (imports, siblings,
untyped parameters, the stdlib table) can take a `ModuleSource` without
importing the module that calls them.
"""

from __future__ import annotations

import ast
import builtins
import functools
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from pathcraft.errors import PathcraftError
from pathcraft.frontend.alterations import Alteration
from pathcraft.frontend.fields import ForeignWrite, foreign_assignments
from pathcraft.frontend.lines import statement_lines
from pathcraft.models.namedtuple.lowering import NamedTupleInfo
from pathcraft.frontend.nativetable import Natives
from pathcraft.frontend.yields import module_has_generators
from pathcraft.ir.nodes import ClassInfo, CompiledPattern, Sentinel, Text
from pathcraft.ir.types import Type


class NoDefault(Enum):
    """A dataclass field without a default (None is a default value)."""

    NO_DEFAULT = "NO_DEFAULT"

    def __repr__(self) -> str:
        return "NO_DEFAULT"


NO_DEFAULT: Final = NoDefault.NO_DEFAULT

Literal = int | bool | float | Text | Sentinel | CompiledPattern | None
"""A value written in the source that the engine takes as it is: a
parameter's default, a module-level constant."""


@dataclass
class ModuleSource:
    """A parsed module and the facts the lowerer needs from its top level."""

    path: str
    name: str
    tree: ast.Module
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    constants: dict[str, Literal] = field(default_factory=dict)
    frozen: dict[str, ast.expr] = field(default_factory=dict)  # read-only containers (see frontend/frozen.py)
    # `add = seen.add` statements whose calls were inlined: the object's and the method's names
    method_checks: dict[ast.Assign, tuple[str, str]] = field(default_factory=dict)  # frontend/method_aliases.py
    exception_bases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    class_infos: dict[str, ClassInfo] = field(default_factory=dict)
    class_errors: dict[str, PathcraftError] = field(default_factory=dict)
    imported: set[str] = field(default_factory=set)
    from_math: dict[str, str] = field(default_factory=dict)  # `from math import sqrt as root`: root -> sqrt
    class_defaults: dict[str, dict[str, object]] = field(default_factory=dict)
    dataclasses: dict[str, tuple[tuple[str, int | bool | None | NoDefault], ...]] = field(default_factory=dict)
    keyword_only_dataclasses: set[str] = field(default_factory=set)  # @dataclass(kw_only=True): keywords only
    type_aliases: dict[str, ast.expr] = field(default_factory=dict)  # `type X = ...` (3.12+)
    new_types: set[str] = field(default_factory=set)  # aliases bound to `NewType(...)`: a call is its argument
    replaced_at_import: set[str] = field(default_factory=set)  # see Program.replaced_at_import
    star_import: ast.ImportFrom | None = None  # `from _x import *`: any name may be replaced
    deleted: dict[str, ast.stmt] = field(default_factory=dict)  # `del name` when the module is imported
    rebound: set[str] = field(default_factory=set)  # of those, functions bound again instead (`f = wrap(f)`)
    natives: Natives = field(default_factory=Natives)  # the user's native summaries (frontend/natives.py)
    _foreign: dict[str, list[ForeignWrite]] | None = None
    attribute_types: dict[tuple[str, bool], dict[str, Type]] = field(default_factory=dict)
    typing_classes: list[tuple[str, bool]] = field(default_factory=list)  # `_attribute_types` at work, outermost first
    partial: set[tuple[str, bool]] = field(default_factory=set)  # typed while a class they need was at work
    # partial typings of one outermost `_attribute_types` call, by (class, classes and parameters at work):
    # the same question in the same state has the same answer (and marks the same askers partial)
    partial_typings: dict[tuple[object, ...], tuple[dict[str, Type], frozenset[tuple[str, bool]]]] = \
        field(default_factory=dict)
    namedtuples: dict[str, NamedTupleInfo] = field(default_factory=dict)  # see models/namedtuple/lowering.py
    enum_aliases: dict[str, dict[str, str]] = field(default_factory=dict)  # class -> alias -> member (enums.py)
    # definitions merged from other modules of the project (frontend/imports.py):
    # top-level name -> the file defining it, that file's tree, views of the module from it
    origins: dict[str, str] = field(default_factory=dict)
    trees: dict[str, ast.Module] = field(default_factory=dict)
    views: dict[str, ModuleSource] = field(default_factory=dict)
    unmerged: dict[str, str] = field(default_factory=dict)  # a project import not merged, and why
    hidden: set[str] = field(default_factory=set)  # merged classes this module does not bind (Program.hidden_classes)
    model_classes: set[str] = field(default_factory=set)  # merged from a model of the stdlib (frontend/modelclasses.py)
    spellings: dict[str, str] = field(default_factory=dict)  # a hidden nested class as a bound class's attribute
    # a sibling module's class the module is read as importing (frontend/siblings.py) -> that module's dotted name
    homes: dict[str, str] = field(default_factory=dict)
    # a statement that fails when the module is imported, and why (frontend/importable.py)
    import_failure: tuple[ast.stmt, str] | None = None
    # a class whose attributes module-level code sets or deletes after its body ran -> that statement
    altered: dict[str, Alteration] = field(default_factory=dict)

    @property
    def value_equality(self) -> bool:
        """Does a class of the module compare by value (its own `__eq__`, or a
        dataclass's)? Then `==` goes through the engine's dispatch."""
        return any(info.dataclass or "__eq__" in info.methods for info in self.class_infos.values())

    @property
    def value_truth(self) -> bool:
        """Does a class of the module define `__bool__` or `__len__`? Then
        the truth of a value that may be an object asks the engine (a
        `ListOp("truth")`: the method Python calls, or plain truth)."""
        return any(m in info.methods for info in self.class_infos.values() for m in ("__bool__", "__len__"))

    @property
    def value_ordering(self) -> bool:
        """Does a class of the module define `__lt__` or kin? Then `<` and
        kin go through the engine's dispatch (engine/objorder.py)."""
        return any(m in info.methods for info in self.class_infos.values()
                   for m in ("__lt__", "__le__", "__gt__", "__ge__"))

    def foreign_writes(self) -> dict[str, list[ForeignWrite]]:
        """`x.f = value` outside `x`'s own methods, by attribute (computed once)."""
        if self._foreign is None:
            self._foreign = foreign_assignments(self.tree)
        return self._foreign

    @functools.cached_property
    def statement_lines(self) -> dict[int, int]:
        """Each source line's statement line, as the tracer reports it."""
        return statement_lines(self.tree)

    @functools.cached_property
    def has_generators(self) -> bool:
        """Does a function of the module, or of a model class merged into it
        (`dict`'s `__iter__`, models/builtins/dict_base.py), yield (see
        frontend/yields.py)?"""
        return module_has_generators(self.tree) or any(
            module_has_generators(ast.Module(body=[self.classes[name]], type_ignores=[]))
            for name in self.model_classes if name in self.classes)

    @property
    def user_classes(self) -> set[str]:
        return {c for c in self.classes if c not in self.exception_bases}

    @property
    def annotation_classes(self) -> set[str]:
        """Classes an annotation may name: not a model's (a `Sequence` is a list)."""
        return self.user_classes - self.model_classes

    def method(self, cls: str, name: str) -> ast.FunctionDef | None:
        node = self.classes.get(cls)
        if node is None:
            return None
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and item.name == name:
                return item
        return None

    def is_subclass(self, cls: str, base: str) -> bool:
        """Whether user class `cls` is `base` or inherits from it."""
        seen = set()
        current: str | None = cls
        while current is not None and current not in seen:
            info = self.class_infos.get(current)
            if current == base or info is not None and base in info.abcs:  # a merged model class (frontend/mro.py)
                return True
            seen.add(current)
            current = info.base if info else None
        return False

    def is_exception(self, name: str) -> bool:
        if name in self.exception_bases:
            return True
        if name in self.imported and name[:1].isupper():
            # an imported class raised or caught: taken as an Exception subclass
            self.exception_bases[name] = ("Exception",)
            return True
        return builtin_exception(name)


def builtin_exception(name: str) -> bool:
    builtin = getattr(builtins, name, None)
    return isinstance(builtin, type) and issubclass(builtin, BaseException)
