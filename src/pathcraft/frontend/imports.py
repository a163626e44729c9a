"""Imports within the project: a package analysed as a whole.

A module's `from pkg.mod import C` (absolute, resolved from the root of its
packages) and `from ..exceptions import Empty` (relative) that name a
module of the same source tree are read too, never run: the functions,
classes, literal constants, read-only containers (checked again against
the importing module's code, `module._recheck_frozen`) and type aliases (type variables too) they
bind, and the NamedTuples the importing module binds itself (a test
builds one as `mod.C(...)`), join the importing module's
namespace, with everything those definitions use from their own module
(its other functions and classes, its imports of the standard library).

Sound only when the merged namespace means what each module's own does, so
an imported name is left unresolved (today's "unknown name", refusing only
what uses it) when a name its definitions use is bound differently by the
importing module, or when it has a functools cache. A class among them that
the tested module does not bind (a base class of an imported class, say)
is merged but hidden: the tests name classes as attributes of the tested
module, so a path whose test would mention it is dropped. Each module is loaded once per translation
(`Linker`), and an import cycle stops at the module being loaded.

Code of another file is lowered against a view of the merged namespace with
that file's path and tree (its refusals name its own lines) and runs silent
(`Predicate.foreign`): the real trace keeps the target file's events only.

Which file an import names, and how tests import a module of a package
(a root folder without an identifier name under an alias), is
`frontend/packages.py`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pathcraft.errors import PathcraftError
from pathcraft.frontend import unions
from pathcraft.frontend.modelclasses import model_import
from pathcraft.frontend.library_bases import add_synthesized
from pathcraft.frontend.mro import add_merged
from pathcraft.frontend.names import module_level
from pathcraft.frontend.packages import resolve

if TYPE_CHECKING:
    from pathcraft.frontend.source import ModuleSource

Loader = Callable[..., "ModuleSource"]  # `load_module(path, linker=...)`, passed in: it calls us


@dataclass
class Linker:
    """The modules of one translation: loaded once each, cycles cut."""

    load_module: Loader
    loading: set[str] = field(default_factory=set)
    loaded: dict[str, ModuleSource | None] = field(default_factory=dict)

    def load(self, path: Path) -> ModuleSource | None:
        load_module = self.load_module
        key = str(path.resolve())
        if key in self.loading:
            return None  # a cycle: the module being loaded is not complete yet
        if key not in self.loaded:
            self.loading.add(key)
            try:
                self.loaded[key] = load_module(key, linker=self)
            except (PathcraftError, RecursionError):
                self.loaded[key] = None
            finally:
                self.loading.discard(key)
        return self.loaded[key]


def _identity(module: ModuleSource, name: str) -> str:
    """Where the definition `name` of `module` comes from (file:name)."""
    return f"{module.origins.get(name, module.path)}:{name}"


def _bindings(module: ModuleSource, project: dict[str, str]) -> dict[str, str]:
    """What each name the module binds at its top level is: a definition
    of a file (`file:name`), an import (`import:math`, `from:math.sqrt`);
    a name bound twice differently is ambiguous (matches nothing)."""
    out: dict[str, str] = {}

    def bind(name: str, what: str) -> None:
        out[name] = what if out.get(name, what) == what else f"ambiguous:{module.path}:{name}"

    for statement in module_level(module.tree.body):
        if isinstance(statement, ast.Import):
            for a in statement.names:  # `import a.b` binds `a`; `import a.b as c` binds `c` to `a.b`
                bind(a.asname or a.name.split(".")[0], f"import:{a.name if a.asname else a.name.split('.')[0]}")
        elif isinstance(statement, ast.ImportFrom):
            target = resolve(Path(module.path), statement.module, statement.level)
            for a in statement.names:
                local = a.asname or a.name
                if statement.level == 0 and statement.module and local not in project and target is None:
                    bind(local, f"from:{statement.module}.{a.name}")
                elif target is not None and a.name != "*" and local not in project:
                    # a project module's name not merged here: the same object wherever it is imported from there
                    bind(local, f"{target.resolve()}:{a.name}")
                else:
                    bind(local, project.get(local, f"ambiguous:{module.path}:{local}"))
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bind(statement.name, f"{module.path}:{statement.name}")
        else:
            parts = [statement.test] if isinstance(statement, ast.If) else \
                [] if isinstance(statement, ast.Try) else [statement]
            for part in parts:
                for node in ast.walk(part):
                    if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                        bind(node.id, f"{module.path}:{node.id}")
    return out


@dataclass
class _Plan:
    """What importing one name brings along from its module."""

    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    constants: set[str] = field(default_factory=set)
    frozen: set[str] = field(default_factory=set)  # read-only containers (frontend/frozen.py), rechecked here
    aliases: set[str] = field(default_factory=set)  # type aliases and type variables (`KT = TypeVar("KT")`)
    namedtuples: set[str] = field(default_factory=set)  # `class C(NamedTuple)`: tuples (models/namedtuple)
    needs: dict[str, str] = field(default_factory=dict)  # other names its code reads, and what they are there
    narrowed: dict[str, ast.expr] = field(default_factory=dict)  # aliases merged with fewer members (`_narrowed`)


def _closure(source: ModuleSource, name: str, bindings: dict[str, str],
             nameable: Callable[[str], bool] = lambda _: True) -> _Plan | None:
    """The definitions `name` of `source` uses, transitively; None when
    `name` is not a definition that can be merged. `nameable`: can the
    importing module's tests name this NamedTuple of `source`?"""
    plan = _Plan()
    pending = [name]
    seen: set[str] = set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        node: ast.AST | None = None
        if current in source.functions:
            plan.functions[current] = source.functions[current]
            node = source.functions[current]
        elif current in source.classes:
            plan.classes[current] = source.classes[current]
            node = source.classes[current]
        elif current in source.constants:
            plan.constants.add(current)
        elif current in source.frozen:  # its items are literals, or NamedTuples of its module
            plan.frozen.add(current)
            node = source.frozen[current]
        elif current in source.namedtuples:  # its fields' defaults are literals: it needs nothing else
            plan.namedtuples.add(current)
        elif current in source.type_aliases:  # what it stands for may name classes of its module
            plan.aliases.add(current)
            node = source.type_aliases[current]
            narrowed = _narrowed(node, {n for n in source.namedtuples if not nameable(n)})
            if narrowed is not node:
                plan.narrowed[current] = node = narrowed
        elif current == name:
            return None
        else:
            plan.needs[current] = bindings.get(current, "")
            continue
        if current in source.replaced_at_import:
            return None
        if node is None:
            continue
        if any(_cached(d) for part in ast.walk(node) if isinstance(part, (ast.FunctionDef, ast.ClassDef))
               for d in part.decorator_list):
            return None  # the tests empty the caches of the tested module's own functions only
        for part in ast.walk(node):
            if isinstance(part, ast.Name) and part.id in bindings and part.id not in seen:
                pending.append(part.id)
    return plan


def _narrowed(alias: ast.expr, unnameable: set[str]) -> ast.expr:
    """A union alias without its members that are NamedTuples the tests
    cannot name (`IntTuple = Union[IntegerRGB, HTML5SimpleColor, Tuple[int,
    int, int]]` where only `IntegerRGB` is imported): the inputs are the
    other members' values, a part of what the parameter takes; `alias`
    itself when no member is left out, or none would be left."""
    members = unions.members(alias)
    if not members or not unnameable:
        return alias
    kept = [m for m in members if not (isinstance(m, ast.Name) and m.id in unnameable)]
    if len(kept) == len(members) or not kept:
        return alias
    if len(kept) == 1:
        return kept[0]
    return ast.copy_location(ast.Subscript(ast.Name("Union", ast.Load()), ast.Tuple(kept, ast.Load()), ast.Load()),
                             alias)


def _cached(decorator: ast.expr) -> bool:
    func = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in ("cache", "lru_cache", "cached_property")


def link_imports(module: ModuleSource, load_module: Loader, linker: Linker | None = None) -> None:
    """Merge into `module` what its imports of project modules bind (see
    the module's docstring); called by `load_module` before classes and
    exceptions are read."""
    if linker is None:
        linker = Linker(load_module, loading={str(Path(module.path).resolve())})
    me = Path(module.path)
    found: list[tuple[ast.ImportFrom, ModuleSource, frozenset[str] | None]] = []
    project: dict[str, str] = {}  # imported name -> identity of its definition
    top = {id(s) for s in module.tree.body}
    for statement in module_level(module.tree.body):  # a model's import may be in a `try:` (py2 shims)
        if not isinstance(statement, ast.ImportFrom):
            continue
        target = resolve(me, statement.module, statement.level) if id(statement) in top else None
        modelled = model_import(statement.module) if target is None and statement.level == 0 else None
        if modelled is not None:  # a standard-library module whose classes a model stands for
            target = modelled[0]
        if target is None or target.resolve() == me.resolve():
            continue
        source = linker.load(target)
        if source is None:
            continue
        if source.import_failure is not None and module.import_failure is None:  # importing it fails here too
            module.import_failure = (statement, f"it imports {Path(source.path).name}, where "
                                                f"{source.import_failure[1]}")
        names = modelled[1] if modelled is not None else None  # of a model: only the names it stands for
        if names is not None:  # and the classes merging several of them (`MutableSet_Sequence`, frontend/mro.py)
            names = names | add_merged(source, statement) | add_synthesized(source, statement)
        found.append((statement, source, names))
        for a in statement.names:
            if a.name != "*" and (a.asname or a.name) == a.name and (names is None or a.name in names):
                project[a.name] = _identity(source, a.name)
    if not found:
        return
    mine = _bindings(module, project)
    for statement, source, names in found:
        theirs = _bindings(source, {n: _identity(source, n) for n in source.origins})
        for a in statement.names:
            if a.name == "*" or (a.asname or a.name) != a.name or names is not None and a.name not in names:
                continue
            plan = _closure(source, a.name, theirs, lambda name: mine.get(name) == _identity(source, name))
            why = "not a function, class or constant there, or under a cache" if plan is None else \
                _misfit(module, source, plan, mine)
            if plan is None or why is not None:
                module.unmerged[a.name] = f"imported from {Path(source.path).name}, not read: {why}"
                continue
            _merge(module, source, plan, mine)


def _misfit(module: ModuleSource, source: ModuleSource, plan: _Plan, mine: dict[str, str]) -> str | None:
    """Why the plan would not mean in `module` what it means in `source`
    (None: it would)."""
    where = Path(source.path).name
    for name in (*plan.functions, *plan.classes, *plan.constants, *plan.frozen, *plan.aliases, *plan.namedtuples):
        bound = mine.get(name)
        if bound is not None and bound != _identity(source, name) and not _same_alias(module, source, plan, name):
            return f"'{name}' of {where} is something else here"
    for name, what in plan.needs.items():
        bound = mine.get(name)
        if bound is not None and bound != what or what.startswith(("import:", "from:")) \
                and name in source.replaced_at_import:
            return f"'{name}', which its code uses, is something else here"
    return None


def _same_alias(module: ModuleSource, source: ModuleSource, plan: _Plan, name: str) -> bool:
    """Do both modules spell type alias or type variable `name` alike
    (`_T = TypeVar("_T")` in each)? Then it types both modules' code the
    same, though each has its own object."""
    theirs, here = source.type_aliases.get(name), module.type_aliases.get(name)
    return name in plan.aliases and theirs is not None and here is not None \
        and ast.unparse(plan.narrowed.get(name, theirs)) == ast.unparse(here)


def _merge(module: ModuleSource, source: ModuleSource, plan: _Plan, mine: dict[str, str]) -> None:
    # a class the module does not bind: tests cannot name it as one of its attributes
    # (a NamedTuple too: a test whose values hold one is dropped, casesink.py; its code runs all the same)
    module.hidden.update(name for name in (*plan.classes, *plan.namedtuples) if name not in mine)
    for name, fn in plan.functions.items():
        module.functions.setdefault(name, fn)
    for name, cls in plan.classes.items():
        module.classes.setdefault(name, cls)
    for name in plan.constants:
        module.constants.setdefault(name, source.constants[name])
    for name in plan.frozen:
        module.frozen.setdefault(name, source.frozen[name])
    for name in plan.aliases:
        kept = module.type_aliases.setdefault(name, plan.narrowed.get(name, source.type_aliases[name]))
        if name in source.new_types and kept is source.type_aliases[name]:
            module.new_types.add(name)
    for name in plan.namedtuples:
        module.namedtuples.setdefault(name, source.namedtuples[name])
    for name in (*plan.functions, *plan.classes, *plan.constants, *plan.frozen, *plan.aliases, *plan.namedtuples):
        origin = source.origins.get(name, source.path)
        if origin != module.path:
            module.origins[name] = origin
            module.trees.setdefault(origin, source.trees.get(origin, source.tree))
        module.imported.discard(name)
        mine[name] = _identity(source, name)
    for name, what in plan.needs.items():
        if name in mine or not what.startswith(("import:", "from:")):
            continue  # bound here already (the same), or a global of theirs: unknown here, refused where read
        module.imported.add(name)
        if name in source.from_math:
            module.from_math[name] = source.from_math[name]
        mine[name] = what


def home(module: ModuleSource, qualname: str) -> ModuleSource:
    """The module as the code of `qualname` sees it: the merged namespace,
    with the path and tree of the file that defines it."""
    origin = module.origins.get(qualname.split(".")[0])
    if origin is None:
        return module
    view = module.views.get(origin)
    if view is None:
        view = replace(module, path=origin, tree=module.trees[origin], _foreign=None)  # its own file's writes
        view.views = module.views
        module.views[origin] = view
    return view


def unmerged_reason(module: ModuleSource, error: PathcraftError) -> PathcraftError:
    """An error about a project import that was not merged (an unknown
    name, a parameter or field type), with the reason it was not."""
    name = error.message.partition("'")[2].partition("'")[0]
    if name not in module.unmerged or not error.message.startswith(
            ("unknown name", "unsupported parameter type", "unsupported field type")):
        return error
    return type(error)(f"{error.message} ({module.unmerged[name]})", error.location)
