"""Reading a module: parse it, find its functions, exceptions and constants.

Nothing of the analysed code is imported or executed: all of it comes from
`ast`. Signatures of every top-level function are read up front so that
calls can be resolved before the callee's body is lowered.
"""

from __future__ import annotations

import ast
import collections
import math
import sys
from pathlib import Path
from collections.abc import Callable, Mapping

from pathcraft.errors import Location, PathcraftError, UnsupportedError, at, unsupported
from pathcraft.files import read_source
from pathcraft.frontend.aliases import module_aliases, new_types
from pathcraft.frontend.alterations import Alteration, altered_names, class_returning
from pathcraft.frontend.dataclass_fields import field_default
from pathcraft.frontend.boolsafe import bool_safe_ints, returned_as_given
from pathcraft.frontend.decorators import drop_overloads, is_abc_name, read_decorators
from pathcraft.frontend import library_bases, mro, nested
from pathcraft.models.math import lowering as mathmod
from pathcraft.frontend import enums
from pathcraft.frontend.folding import fold_module_constants
from pathcraft.frontend.unpacked import split_unpacked_constants
from pathcraft.frontend.total_ordering import expand_total_ordering
from pathcraft.frontend import callables, locks, unions
from pathcraft.frontend.frozen import frozen_containers
from pathcraft.frontend.method_aliases import inline_method_aliases
from pathcraft.frontend.versions import fold_version_branches
from pathcraft.models.re.lowering import compiled as compiled_pattern
from pathcraft.frontend.importable import import_failure
from pathcraft.frontend.names import module_level as _module_level
from pathcraft.frontend.packages import module_name
from pathcraft.frontend.fields import UNKNOWN, Typer, Unknown, infer_attributes, join_types
from pathcraft.models.namedtuple.lowering import namedtuple_info, namedtuple_literal
from pathcraft.frontend.optional import admits_none, annotation_head, optional_scalar, unquoted
from pathcraft.frontend.imports import Linker, home, link_imports
from pathcraft.frontend.modelclasses import abstract_methods, is_model_file, normalize_bases
from pathcraft.frontend.namespaces import flatten_namespaces
from pathcraft.frontend.own_class import rewrite_own_class_calls
from pathcraft.frontend.siblings import home_hidden_classes, import_siblings
from pathcraft.frontend.source import NO_DEFAULT, Literal, ModuleSource, NoDefault, builtin_exception
from pathcraft.frontend.untyped import call_arguments, infer_class, passed_to, structural_class
from pathcraft.frontend import varargs
from pathcraft.frontend.sentinels import class_sentinels, sentinels
from pathcraft.frontend.types import TypeSyntaxError, bare_lists, parse_type, type_scope
from pathcraft.frontend.yields import is_generator, own_nodes
from pathcraft.ir.builtin_names import MODEL_STATE
from pathcraft.ir.nodes import ClassInfo, CompiledPattern, FunctionInfo, Sentinel, Text
from pathcraft.ir.types import BOOL, FLOAT, INT, NONE, STR, Type


def literal_value(node: ast.expr, from_math: dict[str, str] | None = None,
                  imported: set[str] | None = None, constants: dict[str, Literal] | None = None
                  ) -> Literal | NoDefault:
    """The value of a literal (`3`, `-1.5`, `'a'`, `None`, `math.inf`,
    `-inf` after `from math import inf`), or NO_DEFAULT when `node` is
    something else: its value would need running code."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = literal_value(node.operand, from_math, imported)
        return -inner if type(inner) in (int, float) else NO_DEFAULT  # type: ignore[operator]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float" \
            and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str) \
            and node.args[0].value.strip().lower().lstrip("+-") in ("inf", "infinity", "nan"):
        return float(node.args[0].value)  # `float("inf")`
    if imported is not None and isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id == "sys" and "sys" in imported and node.attr == "maxsize":
        return sys.maxsize
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, str):
            return Text(value)
        return value if value is None or isinstance(value, (int, float)) else NO_DEFAULT
    if constants is not None and isinstance(node, ast.Name) and node.id in constants \
            and not isinstance(constants[node.id], CompiledPattern):  # `sep: str = SEP`
        return constants[node.id]
    if from_math is not None and isinstance(node, ast.Name) and from_math.get(node.id) in mathmod.CONSTANTS:
        return mathmod.CONSTANTS[from_math[node.id]]
    if imported is not None and isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id == "math" and "math" in imported and node.attr in mathmod.CONSTANTS:
        return mathmod.CONSTANTS[node.attr]
    return NO_DEFAULT


def load_module(path: str, *, linker: Linker | None = None) -> ModuleSource:
    """Read a module; its imports of modules of the same project are read
    too and merged (frontend/imports.py; `linker`: the translation's)."""
    file = Path(path)
    tree = _parse(path, file)
    module = ModuleSource(path=path, name=module_name(file), tree=tree)
    fold_version_branches(tree)  # `if sys.version_info >= (3, 12):`: the branch this interpreter takes
    flatten_namespaces(path, tree)  # `from . import tables` ... `tables.NAMES`: `from .tables import NAMES`
    split_unpacked_constants(tree)  # `PREV, NEXT = range(2)`: one binding per name
    expand_total_ordering(tree)  # `@functools.total_ordering`: the methods it adds, written out
    positional_parameters(tree)
    drop_overloads(tree)
    module.method_checks = inline_method_aliases(tree)
    drop_class_deletions(tree)
    _read_private_imports(module, tree)
    _read_deletions(module, tree)
    module.altered = altered_names(tree.body)
    once = {name for node in tree.body for name in [_bound_name(node)] if name is not None} - _rebound_names(tree.body)
    folded = fold_module_constants(tree.body, once)  # `{hex(i): i for i in range(16)}`: its literal
    for node in tree.body:
        _read_definition(module, node, folded)
        for name, alias in _checking_aliases(node):  # `if TYPE_CHECKING: Pos = tuple[int, int]`
            module.type_aliases.setdefault(name, alias)
    _split_namedtuples(module)
    rebound = _rebound_names(tree.body)
    _read_aliases(module, tree, rebound)
    for name in rebound & module.constants.keys():
        del module.constants[name]
    _find_frozen(module, tree, folded, rebound)
    module.import_failure = import_failure(path, tree)  # frontend/importable.py
    if linker is None:
        linker = Linker(load_module, loading={str(file.resolve())})
    normalize_bases(module)
    if callables.needs_models(module.tree):  # `pred(item)` on a parameter: the candidates' model classes
        callables.add_models(module.tree)
    locks.add_models(module.tree)  # `self._lock = RLock()`: the lock's model class (frontend/locks.py)
    import_siblings(module, linker)
    link_imports(module, load_module, linker)
    _recheck_frozen(module)
    _read_class_decorators(module)
    for name, sentinel in sentinels(path, tree, module.functions, module.classes).items():  # `_MISSING = object()`
        module.constants.setdefault(name, sentinel)
    module.model_classes = {c for c in module.classes if is_model_file(module.origins.get(c, module.path))}
    module.hidden |= module.model_classes
    home_hidden_classes(module)
    nested.hoist(module.classes)  # `Outer.Inner`, a class of its own (frontend/nested.py)
    mro.single_user_base(module)  # `class Tree(Node, Generic[T])`: `Node` alone (frontend/mro.py)
    _spell_hidden_nested(module)
    _find_exceptions(module)
    _read_classes(module)
    rewrite_own_class_calls(module)  # `self.__class__(...)`: a choice among the classes it may be
    walked = {name: tuple(m for m, _ in info.members) for name, info in module.class_infos.items() if info.enum}
    if walked:  # `for c in Color`: its members (frontend/enums.py)
        enums.members_walked([*module.functions.values(), *(item for cls in module.classes.values()
                                                           for item in cls.body if isinstance(item, ast.FunctionDef))],
                             walked)
    return module


def _parse(path: str, file: Path) -> ast.Module:
    """The module's tree; a syntax error is the user's, with its location."""
    text = read_source(file)  # as Python reads it: a BOM, a coding cookie
    try:
        return ast.parse(text, filename=path)
    except SyntaxError as exc:
        location = Location(path, exc.lineno or 0, exc.offset or 0)
        raise PathcraftError(f"syntax error: {exc.msg}", location) from None
    except RecursionError as exc:  # Python itself could not compile it either
        raise PathcraftError(f"{path}: too deeply nested for Python's parser ({exc})") from None


def _read_private_imports(module: ModuleSource, tree: ast.Module) -> None:
    """Names from `from _private import ...` (a C accelerator may replace
    the Python definitions at import), and a star import of one."""
    for node in ast.walk(tree):  # at module level or inside `try:` there
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("_") \
                and not (node.module or "").startswith("__"):
            module.replaced_at_import.update(a.asname or a.name for a in node.names)
            if any(a.name == "*" for a in node.names):
                module.star_import = node


def drop_class_deletions(tree: ast.Module) -> None:
    """A class body's own `del name` (boltons' FrozenDict deletes the helper
    its aliases were bound to): the class has no such attribute, so the
    bindings of `name` before it, and the `del`, leave the body."""
    for cls in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
        kept: list[ast.stmt] = []
        for item in cls.body:
            gone = {t.id for t in item.targets if isinstance(t, ast.Name)} if isinstance(item, ast.Delete) \
                and all(isinstance(t, ast.Name) for t in item.targets) else set()
            if not gone:
                kept.append(item)
                continue
            kept = [k for k in kept if not (isinstance(k, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                                            and k.name in gone or isinstance(k, ast.Assign) and len(k.targets) == 1
                                            and isinstance(k.targets[0], ast.Name) and k.targets[0].id in gone)]
        cls.body = kept or [ast.copy_location(ast.Pass(), cls)]


def _read_deletions(module: ModuleSource, tree: ast.Module) -> None:
    """Names a module-level `del` removes, with the statement; and functions
    module-level code binds again (`_rebound_functions`), which the tests
    would not call as defined."""
    for statement in _module_level(tree.body):
        if isinstance(statement, ast.Delete):
            for target in statement.targets:
                for gone in (target.elts if isinstance(target, ast.Tuple) else [target]):
                    if isinstance(gone, ast.Name):
                        module.deleted[gone.id] = statement
    for name, statement in _rebound_functions(tree).items():
        module.deleted.setdefault(name, statement)
        module.rebound.add(name)


def _rebound_functions(tree: ast.Module) -> dict[str, ast.stmt]:
    """A function the module's top level wraps after its `def` (`f =
    functools.lru_cache()(f)`) is read as decorated so (`@wrap def f`, the
    same function object, the assignment dropped); one bound again any
    other way, or under a condition, maps to that statement."""
    defined = {s.name: s for s in tree.body if isinstance(s, ast.FunctionDef)}
    out: dict[str, ast.stmt] = {}
    for statement in _module_level(tree.body):
        targets = statement.targets if isinstance(statement, ast.Assign) else []
        names = [t.id for t in targets if isinstance(t, ast.Name) and t.id in defined]
        for name in names:
            fn = defined[name]
            assert isinstance(statement, ast.Assign)
            value = statement.value
            wraps = isinstance(value, ast.Call) and not value.keywords and len(value.args) == 1 \
                and isinstance(value.args[0], ast.Name) and value.args[0].id == name
            if statement.lineno > fn.lineno and isinstance(value, ast.Call) and wraps and len(targets) == 1 \
                    and statement in tree.body:
                fn.decorator_list.append(value.func)
                tree.body[tree.body.index(statement)] = ast.copy_location(ast.Pass(), statement)
            elif statement.lineno > fn.lineno:
                out[name] = statement
    return out


def _read_definition(module: ModuleSource, node: ast.stmt, folded: dict[str, ast.expr]) -> None:
    """One top-level statement: an import, a type alias, a function, a
    class or a constant."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        _read_import(module, node)
    if type(node).__name__ == "TypeAlias":  # `type X = ...`, an ast node of 3.12+
        alias_name, alias_value = getattr(node, "name"), getattr(node, "value")
        if isinstance(alias_name, ast.Name) and not getattr(node, "type_params", None):
            module.type_aliases[alias_name.id] = alias_value
    if isinstance(node, ast.FunctionDef):
        module.functions[node.name] = node
    elif isinstance(node, ast.ClassDef):
        module.classes[node.name] = node
    elif isinstance(node, ast.Assign) and len(node.targets) == 1 or \
            isinstance(node, ast.AnnAssign) and node.value is not None:
        _read_assignment(module, node, folded)


POSITIONAL_ONLY = "pathcraft_positional_only"  # an `ast.arguments` attribute: the names that were before `/`


def positional_parameters(tree: ast.Module) -> None:
    """The module's functions and methods read with their positional-only
    parameters (`def f(a, /, b)`) as positional ones, their names kept on
    the node (`POSITIONAL_ONLY`): everything but binding a keyword (refused
    at calls, frontend/callargs.py and engine/methods.py) and writing a
    test's call (by position, testcase/emit_pytest.py) is the same."""
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.ClassDef):
            pending.extend(node.body)
        elif isinstance(node, (ast.If, ast.Try)):
            pending.extend([*node.body, *node.orelse, *getattr(node, "finalbody", [])])
        elif isinstance(node, ast.FunctionDef) and node.args.posonlyargs:
            setattr(node.args, POSITIONAL_ONLY, tuple(a.arg for a in node.args.posonlyargs))
            node.args.args = [*node.args.posonlyargs, *node.args.args]
            node.args.posonlyargs = []


def _checking_aliases(node: ast.stmt) -> list[tuple[str, ast.expr]]:
    """The type aliases an `if TYPE_CHECKING:` block binds: names for
    annotations only (they do not exist when the module runs, and no test
    names them)."""
    test = node.test if isinstance(node, ast.If) else None
    if not (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING" or isinstance(test, ast.Attribute)
            and test.attr == "TYPE_CHECKING" and isinstance(test.value, ast.Name) and test.value.id == "typing"):
        return []
    assert isinstance(node, ast.If)
    return [(s.targets[0].id, s.value) for s in node.body
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)]


def _read_import(module: ModuleSource, node: ast.Import | ast.ImportFrom) -> None:
    """The names an import binds; `sys.maxsize` and `math`'s constants
    are known values."""
    for alias in node.names:
        module.imported.add((alias.asname or alias.name).split(".")[0])
        if isinstance(node, ast.ImportFrom) and node.module == "sys" and not node.level \
                and alias.name == "maxsize":  # the running interpreter's, as the tests' is
            module.constants[alias.asname or alias.name] = sys.maxsize
        if isinstance(node, ast.ImportFrom) and node.module == "math" and not node.level:
            module.from_math[alias.asname or alias.name] = alias.name


def _read_assignment(module: ModuleSource, node: ast.Assign | ast.AnnAssign, folded: dict[str, ast.expr]) -> None:
    """`NAME = value` at top level: a type alias, a constant, or neither."""
    target = node.targets[0] if isinstance(node, ast.Assign) else node.target
    value = node.value
    if isinstance(node, ast.Assign) and isinstance(target, ast.Name) and value is not None \
            and _type_expression(value):  # `Matrix = list[list[int]]`: an alias, as `type X = ...`
        module.type_aliases[target.id] = value
        return
    if isinstance(target, ast.Name) and target.id in folded:
        value = folded[target.id]
    if isinstance(target, ast.Name) and value is not None:
        constant = literal_value(value, module.from_math, module.imported)
        if constant is not NO_DEFAULT:
            module.constants[target.id] = constant
        elif (pattern := compiled_pattern(value, module.imported, module.constants)) is not None:
            module.constants[target.id] = pattern  # `NAME = re.compile("...")` (models/re)


def _split_namedtuples(module: ModuleSource) -> None:
    """`class C(NamedTuple)`: tuples, not objects."""
    for name, cls in list(module.classes.items()):
        named = namedtuple_info(cls, module.imported)
        if named is not None:
            module.namedtuples[name] = named
            del module.classes[name]


def _read_aliases(module: ModuleSource, tree: ast.Module, rebound: set[str]) -> None:
    """`TPos = tuple[int, int]` (frontend/aliases.py), of names bound once."""
    def parses(annotation: ast.expr) -> bool:
        try:
            parse_type(annotation, set(module.classes) - module.model_classes, None, module.type_aliases)
        except TypeSyntaxError:
            return False
        return True

    for name, value in module_aliases(tree.body, lambda n: n not in rebound, parses).items():
        module.type_aliases.setdefault(name, value)
    module.new_types = new_types(tree.body) & module.type_aliases.keys()


def _find_frozen(module: ModuleSource, tree: ast.Module, folded: dict[str, ast.expr], rebound: set[str]) -> None:
    """The module-level containers nothing changes (frontend/frozen.py)."""
    containers = {t.id: n.value for n in tree.body if isinstance(n, ast.Assign) and len(n.targets) == 1
                  for t in n.targets if isinstance(t, ast.Name) and t.id not in rebound}
    containers.update({n.target.id: n.value for n in tree.body if isinstance(n, ast.AnnAssign)
                       and isinstance(n.target, ast.Name) and n.value is not None and n.target.id not in rebound})
    containers.update({name: value for name, value in folded.items() if name in containers})

    module.frozen = frozen_containers(tree, containers, _frozen_item(module))


def _frozen_item(module: ModuleSource) -> Callable[[ast.expr], bool]:
    """What a read-only container's items may be: literals, and NamedTuples of literals (immutable too)."""
    def is_constant(e: ast.expr) -> bool:
        return literal_value(e, module.from_math, module.imported) is not NO_DEFAULT

    return lambda e: is_constant(e) or namedtuple_literal(e, module.namedtuples, is_constant)


def _recheck_frozen(module: ModuleSource) -> None:
    """A read-only container merged from a project module (frontend/imports.py)
    stays one only if this module's code, and all code merged into it, only
    reads it too; rechecking the module's own ones over the merged code
    keeps them honest against merged functions as well."""
    if not module.frozen or not module.origins:
        return
    code = ast.Module(body=[*module.tree.body, *module.functions.values(), *module.classes.values()],
                      type_ignores=[])
    kept = frozen_containers(code, dict(module.frozen), _frozen_item(module))
    for name in sorted(set(module.frozen) - set(kept)):
        if name in module.origins:
            where = Path(module.origins[name]).name
            module.unmerged[name] = f"imported from {where}, not read: code here may change it or hand it out"
    module.frozen = kept


def _returning_decorator(module: ModuleSource, deco: ast.expr) -> frozenset[str] | None:
    """What `@deco` sets on the class, when it is a function of the project
    that only sets attributes on the class and returns it (frontend/alterations.py)."""
    fn = module.functions.get(deco.id) if isinstance(deco, ast.Name) else None
    return class_returning(fn) if fn is not None else None


def _read_class_decorators(module: ModuleSource) -> None:
    """The attributes each class's own decorators set: changed members."""
    for name, cls in module.classes.items():
        for deco in cls.decorator_list:
            names = _returning_decorator(module, deco)
            if names is not None:
                change = Alteration(deco, names=names, by=f"class decorator @{ast.unparse(deco)}")
                module.altered[name] = module.altered[name].joined(change) if name in module.altered else change


def _read_classes(module: ModuleSource) -> None:
    """Each user class's fields and methods, or why it is refused."""
    for name in sorted(module.user_classes):  # in one order whatever the hash seed
        try:
            module.class_infos[name] = _class_info(home(module, name), module.classes[name])
        except PathcraftError as exc:
            module.class_errors[name] = exc


_GENERIC_TYPES = frozenset({"list", "tuple", "dict", "set", "List", "Tuple", "Dict", "Set", "Optional", "Union"})


def _type_expression(node: ast.expr) -> bool:
    """Is `node` spelled as a type of the subset (a builtin generic, or a
    union of such with None)? Then a module-level name bound to it is an alias."""
    if isinstance(node, ast.Subscript):
        base = node.value
        name = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) \
            and isinstance(base.value, ast.Name) and base.value.id == "typing" else None
        return name in _GENERIC_TYPES
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        parts = [node.left, node.right]
        return any(_type_expression(p) for p in parts) and all(
            _type_expression(p) or isinstance(p, ast.Constant) and p.value is None for p in parts)
    return False


def _bound_name(node: ast.stmt) -> str | None:
    """The name a module-level `NAME = value` (or `NAME: T = value`) binds."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
        return node.target.id
    return None


def _class_info(module: ModuleSource, cls: ast.ClassDef) -> ClassInfo:
    """Fields from class-body annotations and annotated `self.f: T` in methods."""
    origin = module.origins.get(cls.name)
    enum_base = enums.enum_kind(cls, module.user_classes, module.trees.get(origin, module.tree) if origin
                                else module.tree)
    if enum_base is not None:
        return _enum_info(module, cls, enum_base)
    base = _class_base(module, cls)
    is_dataclass = _is_dataclass(module, cls)
    class_defaults: dict[str, object] = {}
    module.class_defaults[cls.name] = class_defaults
    properties, setters = _properties(module, cls)
    fields, defaults, methods, unmodelled = _class_body(module, cls, is_dataclass, class_defaults)
    for name, kind in _attribute_types(module, cls, with_foreign=True).items():
        if name not in unmodelled:  # the annotation says what it holds, and the model has no such value
            fields.setdefault(name, kind)
    options = _dataclass_options(cls) if is_dataclass else {}
    if is_dataclass:
        module.dataclasses[cls.name] = tuple(defaults)
        if "__init__" not in methods:
            methods.append("__init__")
        if options.get("kw_only") is True:  # the generated `__init__` takes its fields by keyword only
            module.keyword_only_dataclasses.add(cls.name)
    bound = _bound_in_class(cls)
    for name in properties:  # `self.p = v` raises (no setter): no instance holds it
        fields.pop(name, None)
    for klass in class_chain(module, cls):  # a descriptor of the class or a base: not an instance's field
        for name in _descriptors(klass):
            if fields.pop(mangle(name, klass.name), None) is not None:
                bound.add(mangle(name, klass.name))
    for name in [n for n in [*fields, *bound] if n.startswith(MODEL_STATE)]:  # a model's own state (DICT_ITEMS,
        fields.pop(name, None)  # a lock's depth): made by code, never an input's
        bound.discard(name)
    opaque = tuple(sorted((bound | unmodelled) - set(class_defaults) - set(methods) - set(fields)))
    in_body = tuple(sorted(bound_in_body(cls) & set(opaque)))
    return ClassInfo(cls.name, base, tuple(fields.items()), tuple(methods), cls.lineno,
                     tuple(class_defaults.items()), opaque, is_dataclass, tuple(properties), tuple(setters),
                     plain_ne=_plain_ne(cls), quiet_exit=_quiet_exit(cls),
                     abstract=abstract_methods(module, class_chain(module, cls)), abcs=getattr(cls, mro.MERGED, ()),
                     frozen=options.get("frozen") is True,
                     descriptors=_made_by_calls(cls) + _altered_members(module, cls), in_body=in_body,
                     library=getattr(cls, library_bases.STANDS_FOR, ""))


def _dataclass_options(cls: ast.ClassDef) -> dict[str, object]:
    """The constant options of the class's `@dataclass(...)` (`_is_dataclass` checked them)."""
    return {k.arg: k.value.value for deco in cls.decorator_list if isinstance(deco, ast.Call)
            for k in deco.keywords if k.arg is not None and isinstance(k.value, ast.Constant)}


def _enum_info(module: ModuleSource, cls: ast.ClassDef, kind: str) -> ClassInfo:
    """An enum class: its members and methods, no fields (frontend/enums.py)."""
    if cls.decorator_list and not all(ast.unparse(d) in ("unique", "enum.unique")
                                      or _returning_decorator(module, d) is not None for d in cls.decorator_list):
        raise unsupported(module.path, cls.decorator_list[0], f"class decorator '{ast.unparse(cls.decorator_list[0])}'")
    try:
        shape = enums.read_enum(cls, kind)
    except enums.EnumError as exc:
        raise unsupported(module.path, exc.node, str(exc)) from None
    module.enum_aliases[cls.name] = dict(shape.aliases)
    properties, setters = _properties(module, cls)
    methods = tuple(item.name for item in cls.body if isinstance(item, ast.FunctionDef))
    return ClassInfo(cls.name, None, (), methods, cls.lineno, properties=tuple(properties), setters=tuple(setters),
                     enum=kind, members=shape.members)


def _class_base(module: ModuleSource, cls: ast.ClassDef) -> str | None:
    """The class's one user base class, if any; a base, keyword or chain
    the model cannot follow is refused."""
    base: str | None = None
    refused = getattr(cls, mro.REFUSED, None)  # several bases without a single-inheritance form (frontend/mro.py)
    if refused is not None:
        raise unsupported(module.path, cls.bases[-1], refused)
    for b in cls.bases:
        if isinstance(b, ast.Name) and b.id == "object":
            continue
        if _base_name(module, b) in module.user_classes and base is None:  # `Base`, or `Outer.Inner` (nested)
            base = _base_name(module, b)
            continue
        if ast.unparse(b) in ("unittest.TestCase", "TestCase") and ("unittest" in module.imported or "TestCase" in
                                                                     module.imported):
            raise UnsupportedError(f"class '{cls.name}' skipped: a unittest.TestCase (a test suite, not code to test)",
                                   at(module.path, b))
        why = f" ({module.unmerged[b.id]})" if isinstance(b, ast.Name) and b.id in module.unmerged else ""
        raise unsupported(module.path, b, f"base class '{ast.unparse(b)}'{why}")
    if cls.keywords:
        raise unsupported(module.path, cls, "class keywords (metaclass=...)")
    problem = _default_object_problem(module, cls)
    if problem is not None:
        raise unsupported(module.path, problem[0], problem[1])
    return base


# `@dataclass(...)` options with the values the model follows (None: any constant)
# (`slots=True`: the class's own methods must set only its fields, see `_is_dataclass`;
# `frozen=True`: assigning an attribute raises, engine/fields.py; `kw_only=True`: the
# generated `__init__` takes keywords only, frontend/__init__.py)
_DATACLASS_OPTIONS = {"init": True, "repr": None, "eq": True, "order": False, "unsafe_hash": False, "frozen": None,
                      "match_args": None, "kw_only": None, "slots": None, "weakref_slot": None}


def _is_dataclass(module: ModuleSource, cls: ast.ClassDef) -> bool:
    """Is the class a `@dataclass` (`dataclass`, `dataclasses.dataclass`,
    called or not, with options that keep what the model follows)? Any
    other class decorator, or option, is refused."""
    is_dataclass = False
    for deco in cls.decorator_list:
        if _returning_decorator(module, deco) is not None:
            continue  # the class it is given, some attributes set (module.altered)
        called = deco.func if isinstance(deco, ast.Call) else deco
        imported = module.imported
        named = isinstance(called, ast.Name) and called.id == "dataclass" and "dataclass" in imported \
            or isinstance(called, ast.Attribute) and called.attr == "dataclass" \
            and isinstance(called.value, ast.Name) and called.value.id == "dataclasses" and "dataclasses" in imported
        if not named or isinstance(deco, ast.Call) and (deco.args or any(
                k.arg not in _DATACLASS_OPTIONS or not isinstance(k.value, ast.Constant)
                or _DATACLASS_OPTIONS[k.arg] is not None and k.value.value != _DATACLASS_OPTIONS[k.arg]
                for k in deco.keywords)):
            raise unsupported(module.path, deco, f"class decorator '{ast.unparse(deco)}'")
        slots = isinstance(deco, ast.Call) and any(k.arg == "slots" and k.value.value is True  # type: ignore[attr-defined]
                                                   for k in deco.keywords)
        if slots and _sets_other_attributes(cls):
            raise unsupported(module.path, deco, "dataclass(slots=True) whose methods set attributes that are no "
                                                 "fields (AttributeError in CPython)")
        is_dataclass = True
    return is_dataclass


def _sets_other_attributes(cls: ast.ClassDef) -> bool:
    """Does a method of `cls` set `self.x` for an `x` no field declares?"""
    declared = {item.target.id for item in cls.body if isinstance(item, ast.AnnAssign)
                and isinstance(item.target, ast.Name)}
    for item in cls.body:
        if isinstance(item, ast.FunctionDef) and item.args.args:
            me = item.args.args[0].arg
            for node in ast.walk(item):
                if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                        and isinstance(node.value, ast.Name) and node.value.id == me and node.attr not in declared:
                    return True
    return False


def _class_body(module: ModuleSource, cls: ast.ClassDef, is_dataclass: bool, class_defaults: dict[str, object]
                ) -> tuple[dict[str, Type], list[tuple[str, int | bool | None | NoDefault]], list[str], set[str]]:
    """The annotated fields (class body and `self.f: T` in methods), a
    dataclass's defaults, the methods, and the fields whose annotation
    names a type the model has no values of; constant class attributes go
    into `class_defaults`.

    Such a field (`weakref.ref[T] | None`, a union of classes) is opaque,
    not a refusal of the class: inputs are built without it, and a path
    that reads it from one is dropped (heap/base.uncertain_attribute), so
    the methods that never touch it are analysed. A dataclass's field is
    a parameter of its generated `__init__`, and still refuses the class."""
    known = module.annotation_classes
    scope = type_scope(module.type_aliases, cls)
    fields: dict[str, Type] = {}
    defaults: list[tuple[str, int | bool | None | NoDefault]] = []
    unmodelled: set[str] = set()

    def add(name: str, annotation: ast.expr, where: ast.AST) -> None:
        try:
            fields[mangle(name, cls.name)] = _field_type(annotation, known, cls.name, scope)
        except TypeSyntaxError as exc:
            if is_dataclass:
                raise UnsupportedError(f"unsupported field {exc}", at(module.path, where)) from None
            unmodelled.add(mangle(name, cls.name))

    methods: list[str] = []
    if "object" not in module.classes and "object" not in module.functions:  # `__marker = object()`
        sentinels_here = class_sentinels(module.path, cls)
        class_defaults.update({mangle(name, cls.name): made for name, made in sentinels_here.items()})
    for item in cls.body:
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.value is not None \
                and _class_attribute_annotation(item.annotation, is_dataclass):
            if (constant := _class_constant(item.value)) is not NO_DEFAULT:
                class_defaults[mangle(item.target.id, cls.name)] = constant
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            add(item.target.id, item.annotation, item.annotation)
            if item.value is not None and (constant := _class_constant(item.value)) is not NO_DEFAULT:
                class_defaults[mangle(item.target.id, cls.name)] = constant
            if is_dataclass:
                read, made = field_default(module, item.value) if item.value is not None else (True, NO_DEFAULT)
                if isinstance(item.value, ast.Constant) and isinstance(item.value.value, (int, bool, type(None))):
                    defaults.append((item.target.id, item.value.value))
                elif read:  # `field(default_factory=list)`, `field(default=0)` (frontend/dataclass_fields.py)
                    defaults.append((item.target.id, made))  # type: ignore[arg-type]
                else:
                    raise unsupported(module.path, item.value or item, "dataclass default other than a constant")
        elif isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name) \
                and (constant := _class_constant(item.value)) is not NO_DEFAULT:
            class_defaults[mangle(item.targets[0].id, cls.name)] = constant
        elif isinstance(item, ast.FunctionDef):
            methods.append(item.name)
            for node in ast.walk(item):
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute) \
                        and isinstance(node.target.value, ast.Name) and node.target.value.id == "self":
                    add(node.target.attr, node.annotation, node.annotation)
    return fields, defaults, methods, unmodelled - set(fields)


def _field_type(annotation: ast.expr, known: set[str], owner: str, scope: Mapping[str, ast.expr]) -> Type:
    """The type a field's annotation names: `bool | None` is None or a
    bool, chosen when read; `Marker | None`, Marker a type the model has no
    values of, None only (inputs hold the one value modelled)."""
    scalar = optional_scalar(annotation)
    try:
        kind = parse_type(scalar or annotation, known, owner, scope)
    except TypeSyntaxError:
        union = _class_union(annotation, known, owner, scope)
        if union is not None:
            return union
        if admits_none(annotation):
            return NONE
        raise
    return kind.nullable() if scalar is not None else kind


def _class_union(annotation: ast.expr, known: set[str], owner: str | None, scope: Mapping[str, ast.expr]
                 ) -> Type | None:
    """A field annotated with a union of classes (frontend/unions.class_union)."""
    def parse(node: ast.expr) -> Type:
        return parse_type(node, known, owner, scope)

    try:
        return unions.class_union(annotation, parse, dict(scope))
    except TypeSyntaxError:
        return None


def _class_constant(value: ast.expr) -> int | bool | float | Text | None | NoDefault:
    """A class attribute's value an unset instance attribute reads: an int,
    bool, None, finite float or str literal (a str as the model's Text)."""
    if not isinstance(value, ast.Constant):
        return NO_DEFAULT
    if isinstance(value.value, (int, bool, type(None))):
        return value.value
    if isinstance(value.value, float) and math.isfinite(value.value):
        return value.value
    if isinstance(value.value, str):
        return Text(value.value)
    return NO_DEFAULT


def _class_attribute_annotation(annotation: ast.expr, is_dataclass: bool) -> bool:
    """`x: ClassVar[int] = 0`, `x: Final = re.compile(...)` in a class body:
    an attribute of the class (a constant default, or a value not modelled),
    no field of its instances; a dataclass's `Final` is a field."""
    head = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    name = head.attr if isinstance(head, ast.Attribute) else head.id if isinstance(head, ast.Name) else ""
    return name == "ClassVar" or name == "Final" and not is_dataclass


def bound_in_body(cls: ast.ClassDef) -> set[str]:
    """Every name the class body binds (mangled): class attributes, which
    an instance has however it was made."""
    bound: set[str] = set()
    for item in _module_level(cls.body):  # into `if` and `try` of the class body too
        targets = item.targets if isinstance(item, ast.Assign) else \
            [item.target] if isinstance(item, (ast.AnnAssign, ast.AugAssign, ast.For)) \
            and getattr(item, "value", True) else []
        bound.update(mangle(n.id, cls.name) for t in targets for n in ast.walk(t)  # `a, b = ...` binds both
                     if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
        if isinstance(item, (ast.Import, ast.ImportFrom)):
            bound.update(mangle((a.asname or a.name).split(".")[0], cls.name) for a in item.names)
        if isinstance(item, ast.ClassDef) or isinstance(item, ast.FunctionDef) and item not in cls.body:
            bound.add(item.name)  # a nested class, a method defined under a condition
    return bound


def _bound_in_class(cls: ast.ClassDef) -> set[str]:
    """Every name the class body binds, and every attribute its own
    methods set on an instance (mangled)."""
    bound = bound_in_body(cls)
    for item in cls.body:  # attributes the class's own code sets on its instances
        if isinstance(item, ast.FunctionDef) and item.args.args and not _class_level(item):
            me = item.args.args[0].arg
            for node in ast.walk(item):
                targets = node.targets if isinstance(node, ast.Assign) else \
                    [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
                for target in targets:
                    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                            and target.value.id == me:
                        bound.add(mangle(target.attr, cls.name))
    return bound


def _plain_ne(cls: ast.ClassDef) -> bool:
    """Is the class's `__ne__` `return not (self == other)` (or `not
    self.__eq__(other)`): what Python's default `__ne__` does anyway?"""
    method = next((i for i in cls.body if isinstance(i, ast.FunctionDef) and i.name == "__ne__"), None)
    if method is None or len(method.args.args) != 2 or method.decorator_list:
        return False
    me, other = (a.arg for a in method.args.args)
    body = [s for s in method.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.UnaryOp) \
            or not isinstance(body[0].value.op, ast.Not):
        return False
    test = body[0].value.operand
    if isinstance(test, ast.Compare):
        return len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq) and _names(test.left, test.comparators[0]) \
            == (me, other)
    return isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute) and test.func.attr == "__eq__" \
        and len(test.args) == 1 and not test.keywords and _names(test.func.value, test.args[0]) == (me, other)


def _quiet_exit(cls: ast.ClassDef) -> bool:
    """Does the class's own `__exit__` ignore its exception arguments and
    never return a true value (`with` then calls it with three Nones,
    engine/managers.py)? A lock's release, a timer's stop."""
    method = next((i for i in cls.body if isinstance(i, ast.FunctionDef) and i.name == "__exit__"), None)
    if method is None or method.decorator_list:
        return False
    args = method.args
    given = [a.arg for a in [*args.posonlyargs, *args.args][1:] + args.kwonlyargs]
    given += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    read = {n.id for n in ast.walk(method) if isinstance(n, ast.Name)}
    if read & set(given):
        return False
    for node in ast.walk(method):
        if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Lambda)) or isinstance(node, ast.FunctionDef) \
                and node is not method:
            return False
        if isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and not node.value.value):
            return False
    return True


def _names(*exprs: ast.expr) -> tuple[str, ...]:
    return tuple(e.id if isinstance(e, ast.Name) else "" for e in exprs)


def _descriptors(cls: ast.ClassDef) -> set[str]:
    """Names the class body binds to something that may intercept an
    instance's attribute: a decorated method (`@property`, `@x.setter`,
    `@cached_property`), or an assignment of a call or a name
    (`firstweekday = property(get, set)`)."""
    found: set[str] = set()
    for item in cls.body:
        if isinstance(item, ast.FunctionDef) and item.decorator_list and not _class_level(item):
            found.add(item.name)
        elif isinstance(item, ast.Assign) and isinstance(item.value, (ast.Call, ast.Name, ast.Attribute, ast.Lambda)):
            found.update(t.id for t in item.targets if isinstance(t, ast.Name))
    return found


def _made_by_calls(cls: ast.ClassDef) -> tuple[str, ...]:
    """Names the class body binds to what a call made (`user =
    _PermProperty('_user', 2)`, `size = property(get)`): maybe a
    descriptor, which an instance's reads and assignments of the name run."""
    return tuple(sorted({t.id for item in cls.body if isinstance(item, ast.Assign) and isinstance(item.value, ast.Call)
                         for t in item.targets if isinstance(t, ast.Name)}))


def _altered_members(module: ModuleSource, cls: ast.ClassDef) -> tuple[str, ...]:
    """Names the class body binds that module-level code may change
    (frontend/alterations.py): as unknown to an instance's read as a
    descriptor's."""
    alteration = module.altered.get(cls.name)
    if alteration is None:
        return ()
    bound = {item.name for item in cls.body if isinstance(item, ast.FunctionDef)} | {
        t.id for item in cls.body if isinstance(item, ast.Assign) for t in item.targets if isinstance(t, ast.Name)}
    return tuple(sorted((n for n in bound | alteration.names if alteration.covers(n)), key=str))


def _class_level(fn: ast.FunctionDef) -> bool:
    """A static or class method: its first parameter is no instance."""
    return any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in fn.decorator_list)


def _properties(module: ModuleSource, cls: ast.ClassDef) -> tuple[list[str], list[str]]:
    """The class's `@property` methods, and those of them with a setter
    (`@p.setter` right on a `def p`, after the getter); a deleter, or a
    setter made otherwise, is not modelled: the class is refused."""
    found: list[str] = []
    setters: list[str] = []
    for item in cls.body:
        if not isinstance(item, ast.FunctionDef):
            continue
        for deco in item.decorator_list:
            if isinstance(deco, ast.Attribute) and deco.attr in ("setter", "deleter", "getter"):
                # another decorator on the setter (`@_deprecated(...)`) is its own refusal (decorators.py):
                # assigning the property then drops the path, the class stands
                if not (deco.attr == "setter" and isinstance(deco.value, ast.Name) and deco.value.id == item.name
                        and item.name in found and item.name not in setters):
                    raise unsupported(module.path, deco, f"property {deco.attr} '@{ast.unparse(deco)}'")
                setters.append(item.name)
            if isinstance(deco, ast.Name) and deco.id == "property" \
                    and not {"property"} & (set(module.functions) | set(module.classes) | module.imported) \
                    or is_abc_name(module.tree, deco, "abstractproperty", module.path):
                if item.name in found:
                    raise unsupported(module.path, deco, f"property '{item.name}' defined twice")
                found.append(item.name)
    return found, setters


def property_setters(cls: ast.ClassDef, setters: tuple[str, ...]) -> list[tuple[str, ast.FunctionDef]]:
    """The `def p` under `@p.setter` of each property with a setter."""
    return [(item.name, item) for item in cls.body if isinstance(item, ast.FunctionDef) and item.name in setters
            and any(isinstance(d, ast.Attribute) and d.attr == "setter" for d in item.decorator_list)]


def _attribute_types(module: ModuleSource, cls: ast.ClassDef, with_foreign: bool) -> dict[str, Type]:
    """Types inferred for the attributes `cls` and its bases set and do not
    annotate (see `frontend/fields.py`); `with_foreign`: also from what
    other code stores into attributes only ever set to None here."""
    key = (cls.name, with_foreign)
    cached = module.attribute_types.get(key)
    if cached is not None:
        if key in module.typing_classes:  # asked again while typing them: nothing known yet, and the
            module.partial.update(module.typing_classes[module.typing_classes.index(key) + 1:])  # askers partial
        return cached
    state = (key, tuple(module.typing_classes), frozenset(_TYPING_PARAMETERS))
    known = module.partial_typings.get(state)
    if known is not None:  # typed before in this state, within this outermost call: the same answer
        module.partial.update(known[1])
        return known[0]
    before = set(module.partial)
    module.attribute_types[key] = {}
    module.typing_classes.append(key)
    try:
        result = _typed_attributes(module, cls, with_foreign)
    finally:
        module.typing_classes.pop()
    if key in module.partial and module.typing_classes:  # typed while a class it needs was: again later
        module.partial.discard(key)
        del module.attribute_types[key]
        module.partial_typings[state] = (result, frozenset(module.partial - before))
    else:
        module.partial.discard(key)
        module.attribute_types[key] = result
    if not module.typing_classes:  # the outermost call is done: what was partial in it is asked afresh
        module.partial_typings.clear()
    return result


def _typed_attributes(module: ModuleSource, cls: ast.ClassDef, with_foreign: bool) -> dict[str, Type]:
    known = module.annotation_classes
    chain = class_chain(module, cls)
    scope = type_scope(module.type_aliases, cls)

    def annotation(node: ast.expr, fn: ast.FunctionDef | None) -> Type | None:
        scalar = optional_scalar(node)  # `int | None`: an int or None
        where = type_scope(scope, fn)
        try:
            kind = parse_type(scalar or node, known, cls.name, where)
        except TypeSyntaxError:
            return _class_union(node, known, cls.name, where)
        return Type(kind.kind, optional=True) if scalar is not None else kind

    annotated: dict[str, Type | None] = {}
    for klass in reversed(chain):  # a class's own annotation wins over its base's
        for name, where in _annotations(klass):
            annotated[mangle(name, klass.name)] = annotation(where, None)
    declared = {n: t for n, t in annotated.items() if t is not None}

    def fields_of(owner: str) -> dict[str, Type]:
        """What a method of class `owner` finds on `self` (foreign writes)."""
        other = module.classes[owner]
        found = _attribute_types(module, other, with_foreign=False)
        return {**found, **{mangle(n, owner): t for n, where in _annotations(other)
                            if (t := annotation(where, None)) is not None}}

    def nested_of(owner: str, attr: str) -> str | None:
        return nested_class_of(module, owner, attr)

    scalars = {name: value for name, value in module.constants.items() if not isinstance(value, CompiledPattern)}
    inferred = infer_attributes(chain, declared, known, scalars, annotation, mangle,
                                module.foreign_writes() if with_foreign else {}, fields_of,
                                nested_of,
                                lambda fn, name, typer: _untyped_parameter(module, fn, name, typer, nested_of),
                                lambda owner, name, typer: _method_return(module, owner, name, typer))
    return {n: t for n, t in inferred.items() if n not in annotated}


_TYPING_PARAMETERS: set[tuple[int, str]] = set()  # parameters and returns being typed (a cycle gives up)


def _untyped_parameter(module: ModuleSource, fn: ast.FunctionDef, name: str, typer: Typer,
                       nested_of: Callable[[str, str], str | None]) -> Type | Unknown:
    """The type of unannotated parameter `name` of `fn`, for typing what a
    class stores (a guess, as for a function's own parameters): a method's
    `self`; the one class with every attribute the code reaches through it
    (also in the methods it is passed to); else the join of the arguments
    the module passes at its calls (an `__init__`'s: at each construction);
    else an int or a list of ints, by use."""
    key = (id(fn), name)
    at_a_call = any(k[1] != "return" for k in _TYPING_PARAMETERS)  # typing another's argument: no int guess
    memo = typer.memo.get((key, id(typer.fields), at_a_call))
    if memo is not None:
        return memo
    if key in _TYPING_PARAMETERS:
        return UNKNOWN
    _TYPING_PARAMETERS.add(key)
    try:
        found = _parameter_type(module, fn, name, typer, nested_of, at_a_call)
    finally:
        _TYPING_PARAMETERS.discard(key)
    typer.memo[(key, id(typer.fields), at_a_call)] = found
    return found


def _parameter_type(module: ModuleSource, fn: ast.FunctionDef, name: str, typer: Typer,
                    nested_of: Callable[[str, str], str | None], at_a_call: bool) -> Type | Unknown:
    owner = next((c for c, node in module.classes.items() if fn in node.body), None)
    if owner is not None and fn.args.args and name == fn.args.args[0].arg and not _class_level(fn):
        return Type("obj", owner)  # a method's `self`
    fitting = structural_class(module, fn, name, passed_to(module, owner))
    if fitting is not None:
        return Type("obj", fitting)
    def receiver_class(receiver: ast.expr, caller: ast.FunctionDef, where: str | None) -> str | None:
        kind = typer.expr_type(receiver, caller, owner=where)
        return str(kind.cls) if isinstance(kind, Type) and kind.kind == "obj" else None

    sites = call_arguments(module, owner, fn, name, nested_of, receiver_class)
    passed = [typer.expr_type(arg, caller, owner=where) for arg, caller, where in sites or []]
    if any(isinstance(kind, Type) for kind in passed):  # from the arguments whose type is plain
        return join_types([kind for kind in passed if isinstance(kind, Type)])
    return UNKNOWN if at_a_call else infer_from_use(fn, name) or UNKNOWN


def _method_return(module: ModuleSource, owner: str, name: str, typer: Typer) -> Type | Unknown:
    """What `self.name(...)` returns in the code of class `owner`: the join
    of the method's `return` values (None for a bare `return` or falling
    off the end), typed in the method; unknown for a generator or a
    method being typed already (recursion)."""
    if owner not in module.classes:
        return UNKNOWN
    method = next((m for k in class_chain(module, module.classes[owner]) for m in [module.method(k.name, name)]
                   if m is not None), None)
    key = (id(method), "return")
    if method is None or key in _TYPING_PARAMETERS or _class_level(method):
        return UNKNOWN
    nodes = list(own_nodes(method))
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes):
        return UNKNOWN
    _TYPING_PARAMETERS.add(key)
    try:
        values = [typer.expr_type(n.value, method, owner=owner) if n.value is not None else NONE
                  for n in nodes if isinstance(n, ast.Return)]
    finally:
        _TYPING_PARAMETERS.discard(key)
    if not method.body or not isinstance(method.body[-1], (ast.Return, ast.Raise)):
        values.append(NONE)  # may fall off the end (a guess: the last statement may not complete)
    return join_types(values) if values else UNKNOWN


def nested_class_of(module: ModuleSource, owner: str, attr: str) -> str | None:
    """The nested class `self.attr` is in the code of class `owner` (its
    own or a base's), when no subclass of `owner` binds `attr` again."""
    if owner not in module.classes:
        return None
    found = nested.lookup([c.name for c in class_chain(module, module.classes[owner])], attr, module.classes)
    if found is None:
        return None
    subclasses = [c for c in module.classes if owner in [k.name for k in class_chain(module, module.classes[c])]]
    return None if nested.rebinding_subclass(owner, attr, subclasses, module.classes) else found


def _spell_hidden_nested(module: ModuleSource) -> None:
    """A class nested in a class the module does not bind (a base merged from
    another module) is hidden too, unless a class the module binds inherits
    it: `PositionalList._Node` is `_DoublyLinkedBase._Node`, and tests spell
    it so."""
    for name in sorted(module.classes):
        outer, _, inner = name.rpartition(".")
        if not outer or outer.split(".")[0] not in module.hidden:
            continue
        module.hidden.add(name)
        for bound in sorted(module.classes):
            if "." not in bound and bound not in module.hidden \
                    and nested_class_of(module, bound, inner) == name:
                module.spellings[name] = f"{bound}.{inner}"
                break


def _base_name(module: ModuleSource, base: ast.expr) -> str | None:
    return nested.base_name(module.classes, module.user_classes, base)


def class_chain(module: ModuleSource, cls: ast.ClassDef) -> list[ast.ClassDef]:
    """`cls` and its user base classes, nearest first (single inheritance,
    as `_class_info` reads the bases)."""
    return nested.class_chain(module.classes, module.user_classes, cls)


def _annotations(cls: ast.ClassDef) -> list[tuple[str, ast.expr]]:
    """Attributes a class annotates: `f: T` in its body, `self.f: T` in a method."""
    found = [(item.target.id, item.annotation) for item in cls.body
             if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)]
    for item in cls.body:
        if isinstance(item, ast.FunctionDef):
            for node in ast.walk(item):
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute) \
                        and isinstance(node.target.value, ast.Name) and node.target.value.id == "self":
                    found.append((node.target.attr, node.annotation))
    return found


def mangle(name: str, cls: str) -> str:
    """Python's private-name mangling: `__x` in class `C` is `_C__x`."""
    if name.startswith("__") and not name.endswith("__"):
        return f"_{nested.short(cls).lstrip('_')}{name}"
    return name


_ATTRIBUTE_HOOKS = ("__getattr__", "__getattribute__", "__setattr__", "__delattr__")


def _default_object_problem(module: ModuleSource, cls: ast.ClassDef) -> tuple[ast.AST, str] | None:
    """Why an instance of `cls` would not behave as a plain object whose
    attributes the tests set (the model's assumption), if it would not: a
    class in its chain hooks attribute access, or has a metaclass (an
    `ABCMeta` class may be abstract: object.__new__ refuses it), or cannot
    be analysed itself."""
    seen: set[str] = set()
    current: ast.ClassDef | None = cls
    while current is not None and current.name not in seen:
        seen.add(current.name)
        real_bases = [b for b in current.bases if not (isinstance(b, ast.Name) and b.id == "object")]
        if current is not cls and (current.keywords or current.name in module.class_errors or any(
                not (isinstance(b, ast.Name) and b.id in module.classes) for b in real_bases)
                or len(real_bases) > 1):  # as _class_info refuses them, whichever class it reads first
            return current, f"base class '{current.name}', which cannot be analysed"
        alteration = module.altered.get(current.name)
        if alteration is not None and alteration.unbounded:  # which members is not known (frontend/alterations.py)
            statement = alteration.statement
            return statement, (f"class '{current.name}', whose attributes module-level code changes "
                               f"at line {statement.lineno}")
        for item in current.body:
            if not isinstance(item, ast.FunctionDef):
                continue
            if item.name in _ATTRIBUTE_HOOKS:
                return item, f"class with {item.name} (attribute access runs its code)"
        bases = [b.id for b in current.bases if isinstance(b, ast.Name) and b.id in module.classes]
        current = module.classes.get(bases[0]) if bases else None
    return None


def _rebound_names(body: list[ast.stmt]) -> set[str]:
    """Names bound more than once at module level (a constant then
    rebound is no constant)."""
    seen: collections.Counter[str] = collections.Counter()
    for statement in _module_level(body):
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            seen[statement.name] += 1
            continue
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            seen.update((a.asname or a.name).split(".")[0] for a in statement.names)
            continue
        parts: list[ast.AST] = [statement.test] if isinstance(statement, ast.If) else \
            [] if isinstance(statement, ast.Try) else [statement]
        for part in parts:
            for node in ast.walk(part):
                if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                    seen[node.id] += 1
    return {name for name, count in seen.items() if count > 1}


def _exception_base(module: ModuleSource, name: str) -> bool:
    """Is base class `name` an exception class? A builtin one, one of the
    module's, or an imported class named like one (`ParseError`): an
    imported `OrderedDict` is not."""
    if name in module.exception_bases:
        return True
    if name in module.imported:
        return name.endswith(("Error", "Exception", "Warning", "Exit", "Interrupt"))
    return builtin_exception(name)


def _find_exceptions(module: ModuleSource) -> None:
    """User exception classes: classes whose bases lead to a builtin exception."""
    changed = True
    while changed:
        changed = False
        for name, cls in module.classes.items():
            if name in module.exception_bases:
                continue
            bases = tuple(b.id for b in cls.bases if isinstance(b, ast.Name))
            if bases and all(_exception_base(module, b) for b in bases):
                module.exception_bases[name] = bases
                changed = True


def annotation_name(node: ast.expr | None) -> str | None:
    """`int`, `"int"` (string annotations) -> 'int'; anything else -> its source."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.strip()
    if isinstance(node, ast.Name):
        return node.id
    return ast.unparse(node)


def function_info(module: ModuleSource, fn: ast.FunctionDef, qualname: str,
                  owner: str | None = None) -> FunctionInfo:
    """Signature of a function, or of a method of class `owner`."""
    args = fn.args
    _check_parameter_kinds(module, args)
    if args.kwonlyargs and owner is None and fn.name in module.replaced_at_import:  # its tests call positionally
        raise unsupported(module.path, args.kwonlyargs[0], "keyword-only parameter of a function a C module replaces")
    decorations = read_decorators(module.path, module.tree, fn, owner, set(module.functions) | set(module.classes),
                                  module.imported)
    binding = decorations.binding
    if binding == "class":
        _check_classmethod(module, fn, owner)
    for node in ast.walk(fn):
        if isinstance(node, ast.Await):
            raise unsupported(module.path, node, "await")
    generator = is_generator(module.path, fn)
    names, types, inferred_names, alternatives = _parameters(module, fn, owner, binding)
    scope = type_scope(module.type_aliases, module.classes.get(owner) if owner else None, fn)
    free = tuple(a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]
                 if a.annotation is not None and _admits_anything(a.annotation, scope))
    _check_binding(module, fn, owner, binding, names)
    defaults, unheld = _defaults(module, args, owner)
    probes = tuple(p for p in guarded_ints(fn, names, types) if p not in alternatives)
    return FunctionInfo(
        name=fn.name,
        qualname=qualname,
        params=tuple(names),
        param_types=tuple(types),
        return_type=annotation_name(fn.returns),
        defaults=defaults,
        unheld_defaults=unheld,
        lineno=fn.lineno,
        end_lineno=fn.end_lineno or fn.lineno,
        entry=qualname.replace(".", "_"),
        assumptions=decorations.assumptions,
        inferred=tuple(inferred_names),
        free=free,
        generator=generator,
        probes=probes,
        bool_returns=returned_as_given(fn, tuple(p for p in bool_safe_ints(fn, names, types) if p not in alternatives)),
        alternatives=tuple(alternatives.items()),
        binding="static" if binding == "class" else binding,
        cached=decorations.cached,
        cache_limit=decorations.cache_limit,
        keyword_only=tuple(a.arg for a in args.kwonlyargs),
        varargs=args.vararg.arg if args.vararg else None,
        positional_only=getattr(args, POSITIONAL_ONLY, ()),
        kwargs=args.kwarg.arg if args.kwarg else None,
    )


def _check_parameter_kinds(module: ModuleSource, args: ast.arguments) -> None:
    """Positional-or-keyword, positional-only (read as positional ones:
    `positional_parameters`) and keyword-only parameters, `*args` and
    `**kwargs` are modelled (a keyword-only one is a parameter that calls,
    tests included, name; `*args` a tuple, frontend/varargs.py; `**kwargs`
    a new dict of str keys)."""
    if args.kwarg and args.kwarg.arg in {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}:
        raise unsupported(module.path, args.kwarg, "**kwargs named like another parameter")


def _parameters(module: ModuleSource, fn: ast.FunctionDef, owner: str | None, binding: str
                ) -> tuple[list[str], list[Type], list[str], dict[str, tuple[Type, ...]]]:
    """The parameters' names and types (a method's `self` included, a
    classmethod's `cls` not), a note for each type that is a guess, and
    the member types of each union parameter (frontend/unions.py)."""
    scope = type_scope(module.type_aliases, module.classes.get(owner) if owner else None, fn)
    names: list[str] = []
    types: list[Type] = []
    inferred_names: list[str] = []
    alternatives: dict[str, tuple[Type, ...]] = {}
    note: str | None
    for index, arg in enumerate([*fn.args.args, *([fn.args.vararg] if fn.args.vararg else []), *fn.args.kwonlyargs]):
        if arg is fn.args.vararg:  # `*args`: a tuple of the arguments left over (frontend/varargs.py)
            try:
                kind, note = varargs.parameter_type(
                    fn, arg, lambda a, node: _annotated_parameter(module, a, node, owner, scope)[0], infer_from_use)
            except varargs.VarargsError as exc:
                raise unsupported(module.path, arg, str(exc)) from None
            names.append(arg.arg)
            types.append(kind)
            inferred_names.extend([note] if note is not None else [])
            continue
        if binding == "class" and index == 0:
            continue  # `cls`: the class itself, known when lowering
        if owner is not None and index == 0 and binding != "static":
            names.append(arg.arg)
            types.append(Type("obj", owner))
            continue
        union = _union_members(module, arg.annotation, owner, scope) if arg.annotation is not None else None
        if union is not None:  # `x: int | str`: the first member here, each one an input (frontend/unions.py)
            (kind, *others), left_out = union
            note = f"{arg.arg}: {' | '.join(str(t) for t in (kind, *others))} ({', '.join(left_out)} " \
                "left out: not built as inputs)" if left_out else None
            if others:
                alternatives[arg.arg] = (kind, *others)
        elif arg.annotation is None:
            kind, note = _unannotated_parameter(module, fn, arg, owner)
        else:
            try:
                kind, note = _annotated_parameter(module, arg, arg.annotation, owner, scope)
            except UnsupportedError:
                if not _defaults_to_none(fn, arg.arg):
                    raise
                kind, note = NONE, f"{arg.arg}: None only (its default; {ast.unparse(arg.annotation)} is not modelled)"
        names.append(arg.arg)
        types.append(kind)
        if note is not None:
            inferred_names.append(note)
    if fn.args.kwarg is not None:  # `**kwargs`: a new dict of the keyword arguments no parameter takes
        kwarg = fn.args.kwarg
        values, note = (_annotated_parameter(module, kwarg, kwarg.annotation, owner, scope)
                        if kwarg.annotation is not None else (INT, f"**{kwarg.arg}: int values (no annotation)"))
        names.append(kwarg.arg)
        types.append(Type("dict", elem=values, key=STR))
        if note is not None:
            inferred_names.append(note)
    return names, types, inferred_names, alternatives


def _union_members(module: ModuleSource, annotation: ast.expr, owner: str | None, scope: dict[str, ast.expr]
                   ) -> tuple[tuple[Type, ...], tuple[str, ...]] | None:
    """The member types of a union annotation the subset reads no other
    way (`int | float` is a float, `X | None` an optional X), and the
    members left out (frontend/unions.py); else None. An alias
    (`IntTuple = Union[...]`) is read through."""
    def parse(node: ast.expr) -> Type:
        return parse_type(node, module.annotation_classes, owner, scope)

    try:
        parse(annotation)
        return None
    except TypeSyntaxError:
        pass
    node: ast.expr | None = unquoted(annotation)
    seen: set[str] = set()
    while isinstance(node, ast.Name) and node.id in scope and node.id not in seen:
        seen.add(node.id)
        node = unquoted(scope[node.id])
    try:
        return unions.union_types(node or annotation, parse)
    except TypeSyntaxError:
        return None


def _unannotated_parameter(module: ModuleSource, fn: ast.FunctionDef, arg: ast.arg, owner: str | None
                           ) -> tuple[Type, str]:
    """A guessed type for a parameter without annotation, and the note
    that announces the guess; refused when nothing fits."""
    root = callables.called_root(fn, arg.arg)
    if root is not None:  # only called: a function of one argument, or of two (frontend/callables.py)
        kind = Type("obj", root, optional=_defaults_to_none(fn, arg.arg))
        return kind, f"{arg.arg}: a function (called with {callables.arguments_text(callables.arity(root) or 0)})"
    inferred = infer_from_use(fn, arg.arg)
    how = ""
    default = _default_type(fn, arg.arg)
    if default is not None and (inferred == INT or inferred == Type("list", elem=INT) and default.kind == "tuple"):
        inferred, how = default, "as its default"  # `with_text=False`: a bool; `inclusive=(True, True)`: such a tuple
    if inferred is None:  # used as an object: a class whose attributes fit (frontend/untyped.py)
        inferred, how = infer_class(module, fn, arg.arg, passed_to(module, owner), owner)
        if inferred is None:  # or a str or dict whose methods it calls
            inferred = builtin_receiver(fn, arg.arg) or inferred
            how = "its methods are a str's" if inferred == STR else "its methods are a dict's" if inferred else how
    elif inferred == INT and owner is not None:  # passed on to a method that uses it as an object?
        fitting, told = infer_class(module, fn, arg.arg, passed_to(module, owner), owner)
        if fitting is not None:
            inferred, how = fitting, told
    if inferred is not None and inferred.kind == "obj" and _type_checked(fn, arg.arg):  # isinstance asked
        inferred, how = inferred.nullable(), how + "; None too, for its isinstance check"
    if inferred is None and _defaults_to_none(fn, arg.arg):  # the tests leave it at its default
        return NONE, f"{arg.arg}: None only (its default; {how or 'its use does not tell its type'})"
    if inferred is None:
        raise UnsupportedError(
            f"unsupported parameter '{arg.arg}' without a type annotation ({how})",
            at(module.path, arg),
        )
    return inferred, f"{arg.arg}: {inferred}" + (f" ({how})" if how else "")


def _admits_anything(annotation: ast.expr, scope: Mapping[str, ast.expr]) -> bool:
    """`Any`, `object`, `typing.Any`, or a name the scope binds to one (a
    TypeVar with no bound): a parameter typed so takes any value."""
    seen: set[str] = set()
    node = unquoted(annotation)
    while isinstance(node, ast.Name) and node.id in scope and node.id not in seen:
        seen.add(node.id)
        node = unquoted(scope[node.id])
    return node is not None and annotation_head(node) in ("Any", "object")


def _annotated_parameter(module: ModuleSource, arg: ast.arg, annotation: ast.expr, owner: str | None,
                         scope: dict[str, ast.expr]) -> tuple[Type, str | None]:
    """The type an annotation names, and a note when a bare container's
    items are taken as ints."""
    scalar = optional_scalar(annotation)  # `int | None`: the int, optional
    try:
        kind = parse_type(scalar or annotation, module.annotation_classes, owner, scope)
    except TypeSyntaxError as exc:
        if not admits_none(annotation):
            raise unsupported(module.path, annotation, f"parameter {exc}") from None
        return NONE, f"{arg.arg}: None only (its other types are not modelled: {exc})"
    if scalar is not None:
        kind = Type(kind.kind, optional=True)
    if kind.kind == "none":
        raise unsupported(module.path, annotation, "parameter type 'None'")
    if bare_lists(annotation):
        what = "a bare dict: its keys and values" if kind.kind == "dict" else f"a bare {kind.kind}: its items"
        return kind, f"{arg.arg}: {kind} ({what} taken as int)"
    return kind, None


def _check_binding(module: ModuleSource, fn: ast.FunctionDef, owner: str | None, binding: str,
                   names: list[str]) -> None:
    """Methods, classmethods, properties and setters take the parameters
    their kind needs."""
    if owner is not None and binding in ("", "property") and not names:
        raise unsupported(module.path, fn, "method without 'self'")
    if binding == "class" and not fn.args.args:
        raise unsupported(module.path, fn, "classmethod without 'cls'")
    if binding == "property" and len(names) != 1:
        raise unsupported(module.path, fn, "property with parameters besides 'self'")
    if binding == "setter" and len(names) != 2:
        raise unsupported(module.path, fn, "property setter without exactly 'self' and a value")


def _defaults(module: ModuleSource, args: ast.arguments, owner: str | None = None
              ) -> tuple[tuple[tuple[str, int | bool | float | Text | Sentinel | None], ...], tuple[str, ...]]:
    """The parameters' default values the model holds (constants, and
    tuples of them), and the parameters whose default it does not hold
    (`pred=bool`, `key=keys.hashkey`, `default=frozenset()`): a test passes
    a value of its own there, and a call that leaves such an argument out
    is refused (frontend/callargs.py) or its path dropped (engine/methods.py)."""
    defaults: list[tuple[str, int | bool | float | Text | Sentinel | None]] = []
    unheld: list[str] = []
    in_class = module.class_defaults.get(owner, {}) if owner is not None else {}
    for arg, default in _default_nodes(args):
        value = literal_value(default, module.from_math, module.imported, module.constants)
        if isinstance(default, ast.Name) and owner is not None \
                and isinstance(found := in_class.get(mangle(default.id, owner)), Sentinel):
            value = found  # `def pop(self, key, default=__marker)`: the class body's sentinel
        if isinstance(default, ast.Tuple):  # `inclusive=(True, True)`: a tuple of constants, made at each call
            items = [literal_value(e, module.from_math, module.imported, module.constants) for e in default.elts]
            if all(i is not NO_DEFAULT and not isinstance(i, Sentinel) for i in items):
                value = tuple(items)  # type: ignore[assignment]  # a tuple of literals
        if value is NO_DEFAULT or isinstance(value, CompiledPattern):
            unheld.append(arg.arg)
            continue
        defaults.append((arg.arg, value))
    return tuple(defaults), tuple(unheld)


def _default_nodes(args: ast.arguments) -> list[tuple[ast.arg, ast.expr]]:
    """Each parameter that has a default, with the default's expression."""
    return [*zip(args.args[len(args.args) - len(args.defaults):], args.defaults),
            *((arg, default) for arg, default in zip(args.kwonlyargs, args.kw_defaults) if default is not None)]


_LITERAL_TYPES = {bool: BOOL, str: STR, float: FLOAT, int: INT}


def _default_type(fn: ast.FunctionDef, name: str) -> Type | None:
    """The type of parameter `name`'s default when it is a literal (a bool,
    str, float or int) or a tuple of them; None otherwise (None itself too)."""
    default = next((d for a, d in _default_nodes(fn.args) if a.arg == name), None)
    if isinstance(default, ast.Constant) and type(default.value) in _LITERAL_TYPES:
        return _LITERAL_TYPES[type(default.value)]
    if isinstance(default, ast.Tuple) and default.elts and all(
            isinstance(e, ast.Constant) and type(e.value) in _LITERAL_TYPES for e in default.elts):
        return Type("tuple", items=tuple(_LITERAL_TYPES[type(getattr(e, "value"))] for e in default.elts))
    return None


def _defaults_to_none(fn: ast.FunctionDef, name: str) -> bool:
    default = next((d for a, d in _default_nodes(fn.args) if a.arg == name), None)
    return isinstance(default, ast.Constant) and default.value is None


def _type_checked(fn: ast.FunctionDef, name: str) -> bool:
    """Does `fn` ask `isinstance(name, ...)` or `type(name)` of its parameter?"""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("isinstance", "type")
               and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id == name for n in own_nodes(fn))


def guarded_ints(fn: ast.FunctionDef, names: list[str], types: list[Type]) -> tuple[str, ...]:
    """The int parameters (at most two) that `fn` checks with
    `isinstance(p, C)` where a float is no `C`: a caller ignoring the
    annotation reaches the check's other branch (checked at run time)."""
    found: list[str] = []
    for node in own_nodes(fn):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"
                and len(node.args) == 2 and isinstance(node.args[0], ast.Name)):
            continue
        name = node.args[0].id
        kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
        wanted = {k.id for k in kinds if isinstance(k, ast.Name)}
        if name in names and name not in found and types[names.index(name)] == INT \
                and "int" in wanted and not wanted & {"float", "object"}:
            found.append(name)
    return tuple(n for n in names if n in found) if len(found) <= 2 else ()


def _check_classmethod(module: ModuleSource, fn: ast.FunctionDef, owner: str | None) -> None:
    """`cls` is lowered as the class that defines the method: refused when
    it could be a subclass (one inherits the method and the body uses
    `cls`), or when the body rebinds it."""
    assert owner is not None
    if not fn.args.args:
        return
    me = fn.args.args[0].arg
    used = any(isinstance(n, ast.Name) and n.id == me for n in ast.walk(fn))
    if not used:
        return
    if any(isinstance(n, ast.Name) and n.id == me and not isinstance(n.ctx, ast.Load) for n in ast.walk(fn)):
        raise unsupported(module.path, fn, f"classmethod that rebinds '{me}'")
    for name in sorted(module.class_infos):
        if name != owner and module.is_subclass(name, owner):
            raise unsupported(module.path, fn, f"classmethod of a class with subclasses ('{me}' may be {name})")


_STR_ONLY = frozenset(name for name in dir(str) if not name.startswith("_")) - set(dir(list)) - set(dir(dict))
# str methods whose first argument is a str (and no list or dict method of that name takes one)
_STR_ARGUMENT = frozenset({"split", "rsplit", "startswith", "endswith", "find", "rfind", "partition", "rpartition",
                           "replace", "strip", "lstrip", "rstrip", "removeprefix", "removesuffix"})
_DICT_ONLY = frozenset({"items", "keys", "values", "get", "setdefault", "update"})


def builtin_receiver(fn: ast.FunctionDef, name: str) -> Type | None:
    """A str for a parameter whose every use as an object calls methods
    of str (one at least that a list lacks: `.split()`, `.strip()`), a
    dict of ints for one that calls `.items()`, `.keys()` and the like;
    None when it is called, reached into otherwise, or used as a value
    there (`x.count` as a value is no call)."""
    methods: set[str] = set()
    called = {id(n.func) for n in ast.walk(fn) if isinstance(n, ast.Call)}
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
            return None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
            if id(node) not in called or not isinstance(node.ctx, ast.Load):
                return None
            methods.add(node.attr)
    if methods and methods <= set(dir(str)) and methods & _STR_ONLY:
        return STR
    if methods and methods <= _DICT_ONLY:
        return Type("dict", elem=INT, key=INT)
    return None


# builtins whose first argument is a sized or iterable value: a list will do
_SIZED_OR_ITERATED = ("len", "iter", "list", "sorted", "sum", "tuple", "enumerate", "reversed", "deque", "set",
                      "frozenset", "min", "max", "any", "all")


def infer_from_use(fn: ast.FunctionDef, name: str) -> Type | None:
    """A type for an unannotated parameter from how the body uses it:
    indexed, passed to `len`, `iter` and other builtins that walk it, or
    iterated -> `list[int]` (`list[str]` when the loops over it use the
    items as str); reached into with
    `.attr` or called -> unknown (None); otherwise an `int` (compared,
    computed with, passed on). A guess, announced as one."""
    from pathcraft.ir.types import INT

    listy = texty = False
    for node in ast.walk(fn):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
            return None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name:
            listy = True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _SIZED_OR_ITERATED \
                and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id == name \
                and not (node.func.id in ("min", "max") and len(node.args) > 1):  # `max(x, lower)`: x a number
            listy = True
        if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.iter, ast.Name) \
                and node.iter.id == name:
            listy = True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "zip" \
                and any(isinstance(a, ast.Name) and a.id == name for a in node.args):
            listy = True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _STR_ARGUMENT \
                and any(isinstance(a, ast.Name) and a.id == name for a in node.args[:1]):
            texty = True  # `text.split(sep)`: what only a str method takes is a str
    return Type("list", elem=_item_type(fn, name)) if listy else STR if texty else INT


def _item_type(fn: ast.FunctionDef, name: str) -> Type:
    """The items of a parameter guessed a list: str when every loop over it
    binds a name the body uses as a str (`for arg in args: ... arg.replace(...)`,
    `line.split(sep)`), else int."""
    walkers = varargs.loop_names(fn, name)
    kinds = {builtin_receiver(fn, v) or (STR if infer_from_use(fn, v) == STR else None) for v in walkers}
    return STR if kinds == {STR} else INT
