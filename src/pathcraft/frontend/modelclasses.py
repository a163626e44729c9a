"""Standard-library base classes read from plain-Python models.

A library class derives from `collections.abc.MutableMapping`, `Generic[T]`
or `abc.ABC` as often as from its own classes. Those bases are written as
plain Python in the model folders (`models/*/classes.py`, each saying in
`STANDS_FOR` which module's names it stands for) and merged into the
module like a class imported from another module of the project
(frontend/imports.py): their mixin methods are lowered like the library's
own code, silently (no line of them reaches a trace), with `raise
NotImplementedError(why)` dropping the path that reaches it.

Before linking, a class statement's bases are put in the form the linker
reads (`normalize_bases`): `collections.abc.Sequence` and `t.Generic` (an
imported module's attribute) become the bare name, imported; `Base[KT,
VT]` is `Base` (a subscripted base has the same MRO); `metaclass=ABCMeta`
with no other base is the base `ABC`, the same behaviour; several model
bases (`MutableSet, Sequence`; `Mapping[K, V], Generic[K, V]`) are the one
model class standing for their C3 order (frontend/mro.py). The rewritten
bases are the model's own business: the tests import the real module.

A model class is never a type an annotation names (a `Sequence[int]`
parameter stays a list), never a class a test names (they are hidden: an
abstract class cannot be built), and `isinstance` with one is refused (a
builtin list is a `Sequence`, which the model's class does not know).
"""

from __future__ import annotations

import abc
import ast
import collections
import collections.abc
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from pathcraft.frontend import library_bases, mro
from pathcraft.frontend.names import module_level, stored_names
from pathcraft.frontend.nested import dotted
from pathcraft.ir.builtin_names import BASE_BUILTINS, BUILTIN_BASES

if TYPE_CHECKING:
    from pathcraft.frontend.source import ModuleSource
    from pathcraft.ir.types import Type

_MODELS = Path(__file__).resolve().parent.parent / "models"
CLASS_FILES = tuple(sorted(_MODELS.glob("*/classes.py")))
ABC_ROOT = "ABC"  # the model class of `abc.ABC`: below it, unimplemented abstract methods make a class abstract


@cache
def stands_for() -> dict[str, tuple[Path, frozenset[str]]]:
    """Standard-library module -> the model file and the names it models
    there, read from each file's `STANDS_FOR` literal."""
    out: dict[str, tuple[Path, frozenset[str]]] = {}
    for file in CLASS_FILES:
        tree = ast.parse(file.read_text(encoding="utf-8"))
        constants = {t.id: s.value for s in tree.body if isinstance(s, ast.Assign)
                     for t in s.targets if isinstance(t, ast.Name)}
        table = constants["STANDS_FOR"]
        assert isinstance(table, ast.Dict)
        for key, value in zip(table.keys, table.values):
            assert isinstance(key, ast.Constant) and isinstance(key.value, str)
            out[key.value] = (file, frozenset(_names(value, constants)))
    return out


def _names(node: ast.expr, constants: dict[str, ast.expr]) -> list[str]:
    """The strings of a tuple literal, `A + (...)` and names of such tuples."""
    if isinstance(node, ast.Name):
        return _names(constants[node.id], constants)
    if isinstance(node, ast.BinOp):
        return _names(node.left, constants) + _names(node.right, constants)
    assert isinstance(node, ast.Tuple)
    return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]


def model_import(module: str | None) -> tuple[Path, frozenset[str]] | None:
    """The model file standing for standard-library `module`, and its names there."""
    return stands_for().get(module or "")


@cache  # asked for every class of every module read
def is_model_file(path: str) -> bool:
    return Path(path).resolve() in CLASS_FILES


def normalize_bases(module: ModuleSource) -> None:
    """Rewrite the module's class bases into names the linker merges (see
    the module docstring), adding the imports they need."""
    aliases, bound = _module_names(module.tree)
    wanted: dict[str, set[str]] = {}
    imported = _model_imports(module.tree)
    rewritten: set[str] = set()
    synthesized: dict[str, tuple[str, str]] = {}  # a library base's model class -> its module and class

    def modelled(stdlib: str, name: str) -> bool:
        found = model_import(stdlib)
        if found is None or name not in found[1] or bound.get(name, f"{stdlib}.{name}") != f"{stdlib}.{name}":
            return False  # not modelled, or the module binds the name to something else
        wanted.setdefault(stdlib, set()).add(name)
        return True

    for cls in [n for n in ast.walk(module.tree) if isinstance(n, ast.ClassDef)]:
        bases: list[ast.expr] = []
        for base in cls.bases:
            plain = base.value if isinstance(base, ast.Subscript) else base  # `Base[KT, VT]` is `Base`
            spelled = dotted(plain)
            if isinstance(plain, ast.Name) and plain.id in BUILTIN_BASES and plain.id not in bound \
                    and modelled("builtins", BUILTIN_BASES[plain.id]):  # `class C(dict)`: models/builtins
                synthesized[BUILTIN_BASES[plain.id]] = ("builtins", plain.id)  # written by frontend/library_bases.py
                plain = ast.Name(BUILTIN_BASES[plain.id], ast.Load())
                rewritten.add(plain.id)
            elif isinstance(plain, ast.Attribute) and spelled is not None:
                head, _, name = spelled.rpartition(".")
                first, _, rest = head.partition(".")
                stdlib = ".".join(p for p in (aliases.get(first, ""), rest) if p)
                if first in aliases and modelled(stdlib, name):
                    plain = ast.Name(name, ast.Load())
                    rewritten.add(name)
            library = _library_base(module, plain, aliases, bound)
            if library is not None:  # `class C(IOBase)`: an opaque model of the real class (frontend/library_bases.py)
                synthesized[library[0]] = library[1]
                plain = ast.Name(library[0], ast.Load())
                rewritten.add(library[0])
            bases.append(ast.copy_location(plain, base))
        real = [b for b in bases if not (isinstance(b, ast.Name) and b.id == "object")]
        meta = [k for k in cls.keywords if k.arg == "metaclass"]
        if len(cls.keywords) == 1 and meta and not real and _is_abcmeta(meta[0].value, aliases, bound) \
                and modelled("abc", ABC_ROOT):
            cls.keywords = []
            bases = [ast.copy_location(ast.Name(ABC_ROOT, ast.Load()), meta[0])]
        cls.bases = _merged_bases(cls, bases, lambda n: n in rewritten or n in imported and bound.get(n) != "",
                                  lambda n: n in bound, wanted)
    if wanted.get("builtins"):  # `dict.__setitem__(self, k, v)`: the model's method (it drops the path)
        _builtin_methods_called(module.tree, {BASE_BUILTINS[n] for n in wanted["builtins"]
                                              if n in BASE_BUILTINS} - set(bound))
    if synthesized:
        wanted.setdefault(library_bases.MODULE, set()).update(synthesized)
    for stdlib, names in sorted(wanted.items()):
        statement = ast.ImportFrom(module=stdlib, names=[ast.alias(name=n) for n in sorted(names)], level=0)
        setattr(statement, mro.IMPORTS, True)  # it may name a synthesized class (frontend/mro.py)
        if stdlib == library_bases.MODULE:
            setattr(statement, library_bases.WANTED, synthesized)
        module.tree.body.insert(0, ast.fix_missing_locations(ast.copy_location(statement, module.tree)))


def _library_base(module: ModuleSource, plain: ast.expr, aliases: dict[str, str], bound: dict[str, str]
                  ) -> tuple[str, tuple[str, str]] | None:
    """The synthesized model class standing for base `plain` when it names
    a standard-library class no model stands for (`IOBase` imported from
    io, `codecs.Codec`), and that class's module and name."""
    if isinstance(plain, ast.Name) and "." in bound.get(plain.id, ""):
        stdlib, _, name = bound[plain.id].rpartition(".")
    elif isinstance(plain, ast.Attribute) and (spelled := dotted(plain)) is not None \
            and spelled.partition(".")[0] in aliases and spelled.partition(".")[0] not in bound:
        head, _, name = spelled.rpartition(".")
        first, _, rest = head.partition(".")
        stdlib = ".".join(p for p in (aliases[first], rest) if p)
    else:
        return None
    if model_import(stdlib) is not None and name in model_import(stdlib)[1]:  # type: ignore[index]
        return None  # a model stands for it (rewritten above, or deliberately not)
    real, _ = library_bases.library_class(stdlib, name, Path(module.path))
    return None if real is None else (library_bases.synthesized_name(stdlib, name), (stdlib, name))


def _builtin_methods_called(tree: ast.Module, builtins: set[str]) -> None:
    """`dict.m(x, ...)` in a module whose classes derive from `dict` calls
    the model class's `m` (models/builtins/classes.py): every attribute
    there drops the path, as the builtin's method on a subclass is not
    modelled; on a plain dict too (a rare spelling, refused before). A
    class method (`dict.fromkeys(...)`) is the builtin's."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args \
                and node.func.attr not in ("fromkeys", "__class_getitem__") \
                and isinstance(node.func.value, ast.Name) and node.func.value.id in builtins:
            node.func.value = ast.copy_location(ast.Name(BUILTIN_BASES[node.func.value.id], ast.Load()),
                                                node.func.value)


def _merged_bases(cls: ast.ClassDef, bases: list[ast.expr], is_model: Callable[[str], bool],
                  is_bound: Callable[[str], bool], wanted: dict[str, set[str]]) -> list[ast.expr]:
    """Several model bases (`MutableSet, Sequence`; `Mapping, Generic`) as
    the one model class standing for their order (frontend/mro.py), which
    `wanted` then imports if synthesized; a combination without one keeps
    its bases, with the reason recorded for `_class_base`."""
    real = [b for b in bases if not (isinstance(b, ast.Name) and b.id == "object")]
    names = [b.id for b in real if isinstance(b, ast.Name) and is_model(b.id)]
    if len(real) < 2 or len(names) != len(real):
        return bases
    try:
        name, order = mro.merged_base(names)
    except mro.MroError as exc:
        setattr(cls, mro.REFUSED, f"bases {', '.join(repr(n) for n in names)}: {exc}")
        return bases
    if name not in names:  # synthesized: merged from the model file like the others
        if is_bound(name):
            setattr(cls, mro.REFUSED, f"bases {', '.join(repr(n) for n in names)}: their merged model class "
                                      f"'{name}' is a name of the module")
            return bases
        wanted.setdefault(mro.MODULE, set()).add(name)
    setattr(cls, mro.LINEARIZED, tuple(order))
    return [ast.copy_location(ast.Name(name, ast.Load()), real[0])]


def _model_imports(tree: ast.Module) -> set[str]:
    """Names the module imports, unaliased, from a standard-library module
    a model stands for, that model's (link_imports merges them)."""
    out: set[str] = set()
    for statement in module_level(tree.body):
        if isinstance(statement, ast.ImportFrom) and statement.level == 0:
            found = model_import(statement.module)
            out.update(a.name for a in statement.names if found is not None and a.name in found[1]
                       and a.asname in (None, a.name))
    return out


def _module_names(tree: ast.Module) -> tuple[dict[str, str], dict[str, str]]:
    """Modules the module imports, by the name it binds (`import
    collections.abc` binds `collections`; `import typing as t`, `t`), and
    what each name `from m import n` binds is (`m.n`; any other binding
    of a name: the empty string)."""
    aliases: dict[str, str] = {}
    bound: dict[str, str] = {}
    for statement in module_level(tree.body):
        if isinstance(statement, ast.Import):
            for a in statement.names:
                if a.asname:
                    aliases[a.asname] = a.name
                else:
                    aliases[a.name.split(".")[0]] = a.name.split(".")[0]
        elif isinstance(statement, ast.ImportFrom):
            for a in statement.names:
                bound[a.asname or a.name] = f"{statement.module}.{a.name}" if statement.level == 0 else ""
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound[statement.name] = ""
        else:
            for name in stored_names(statement, deleted=True):
                bound[name] = ""
    return aliases, bound


def _is_abcmeta(node: ast.expr, aliases: dict[str, str], bound: dict[str, str]) -> bool:
    """Is `node` `abc.ABCMeta` (as `ABCMeta` imported from abc, or `abc.ABCMeta`)?"""
    if isinstance(node, ast.Name):
        return bound.get(node.id) == "abc.ABCMeta"
    return isinstance(node, ast.Attribute) and node.attr == "ABCMeta" and isinstance(node.value, ast.Name) \
        and aliases.get(node.value.id) == "abc"


def abstract_methods(module: ModuleSource, chain: list[ast.ClassDef]) -> tuple[str, ...]:
    """The abstract methods a class (`chain`: it and its bases, nearest
    first) leaves unimplemented, when `abc.ABC` is among its bases; such a
    class cannot be instantiated (`object.__new__` raises TypeError)."""
    if not any(c.name == ABC_ROOT and c.name in module.model_classes for c in chain):
        return ()
    abstract: set[str] = set()
    for cls in reversed(chain):  # the farthest base first: a nearer definition overrides it
        for item in cls.body:
            names: list[str] = []
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = [item.name]
                if any(dotted(d) in ("abstractmethod", "abc.abstractmethod", "abstractproperty",
                                     "abc.abstractproperty") for d in item.decorator_list):
                    abstract.add(item.name)
                    continue
            elif isinstance(item, ast.Assign) or isinstance(item, ast.AnnAssign) and item.value is not None:
                targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                names = [t.id for t in targets if isinstance(t, ast.Name)]
            abstract.difference_update(names)
    return tuple(sorted(abstract))


_BUILTIN_TYPES: dict[str, type] = {"int": int, "bool": bool, "float": float, "str": str, "list": list,
                                   "tuple": tuple, "dict": dict, "set": set, "none": type(None)}


def abstract_instance(declared: Type, name: str, is_subclass: Callable[[str, str], bool]) -> bool | None:
    """Is a value of type `declared` an instance of the model class `name`?
    For a builtin type, CPython's answer (the real ABC, asked here: it is
    the standard library's, not the analysed code); for an object, yes
    when its class derives from it. None when it is not decided that way
    (an object whose class may count as one by its methods or `register`)."""
    if declared.kind == "obj":
        return True if is_subclass(str(declared.cls), name) else None
    real = abc.ABC if name == ABC_ROOT else getattr(collections.abc, name, None)
    python_type = collections.deque if declared.deque else _BUILTIN_TYPES.get(declared.kind)
    if not isinstance(real, type) or python_type is None:
        return None
    return issubclass(python_type, real)
