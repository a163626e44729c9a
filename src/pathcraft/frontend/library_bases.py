"""Standard-library base classes no model stands for, read as opaque model classes.

`class SpooledIOBase(IOBase)`, `class ConstantTZInfo(tzinfo)`, `class
Parser(HTMLParser)`: what such a class adds is the library's own code;
what it inherits is the standard library's, which the model does not
follow. Rather than refusing the class, its base is read as a model class
synthesized here (`PathcraftLibrary_io_IOBase`), merged from the builtins'
model file like `PathcraftDict` (models/builtins/classes.py): every
attribute the real class has beyond `object`'s is there and drops the path
that reaches it -- a method raises `NotImplementedError(why)`, a data
attribute is a value not modelled -- so no attribute of the base is
claimed missing, and none is guessed. The attribute names are asked of
the standard library in this process (as frontend/mro.py asks
`collections.abc`), never of the analysed code.

A test builds an instance with the class's own `__new__`, which is the
base's (`C.__new__(C)`: `object.__new__` refuses a C base such as
`IOBase`); the real class is checked here to allow that with no
arguments. A base whose real class hooks attribute access, has a
metaclass other than `type` or `ABCMeta`, is abstract or cannot be made
that way is not synthesized: the class keeps its refusal. So is a base
from outside the standard library (running it is `--execute`'s business)
or one the project's own tree shadows.
"""

from __future__ import annotations

import abc
import ast
import copy
import importlib
import inspect
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathcraft.frontend.source import ModuleSource

PREFIX = "PathcraftLibrary_"  # a synthesized class's name: PREFIX + module (dots as '_') + '_' + class
MODULE = "builtins"  # where `normalize_bases` imports them from: the builtins' model file hosts them
STANDS_FOR = "pathcraft_library_base"  # on a synthesized class node: the real class's dotted name
WANTED = "pathcraft_library_bases"  # on the import `normalize_bases` adds: synthesized name -> (module, class)
# modules whose import does more than define names
_NOT_IMPORTED = frozenset({"antigravity", "this", "__main__", "__hello__", "__phello__", "idlelib", "turtledemo"})
# attributes every class has, or that only the machinery reads
_SKIPPED = frozenset({"__class__", "__dict__", "__doc__", "__module__", "__weakref__", "__slots__", "__new__",
                      "__init_subclass__", "__subclasshook__", "__abstractmethods__", "_abc_impl", "__annotations__",
                      "__qualname__", "__dir__", "__sizeof__", "__reduce__", "__reduce_ex__", "__getstate__",
                      "__class_getitem__", "__orig_bases__", "__parameters__", "__match_args__"})
_HOOKS = ("__getattr__", "__getattribute__", "__setattr__", "__delattr__")
# the arity the engine calls these protocol methods with (`__hash__ = None` has no signature to read)
_PROTOCOL_PARAMETERS = {**dict.fromkeys(("__hash__", "__len__", "__iter__", "__next__", "__repr__", "__str__",
                                         "__reversed__", "__bool__", "__enter__", "__del__", "__neg__", "__pos__",
                                         "__abs__", "__invert__", "__index__", "__int__", "__float__"), "self"),
                        "__setitem__": "self, a1, a2", "__exit__": "self, *args"}


def synthesized_name(module: str, name: str) -> str:
    return f"{PREFIX}{module.replace('.', '_')}_{name}"


def library_class(module: str, name: str, where: Path) -> tuple[type | None, str]:
    """The real standard-library class `module.name` a base names, or None
    and why it is not read as one."""
    top = module.partition(".")[0]
    if top not in sys.stdlib_module_names or top in _NOT_IMPORTED:
        return None, "not a class of the standard library"
    if (where.parent / f"{top}.py").exists() or (where.parent / top / "__init__.py").exists():
        return None, f"the project's own '{top}' shadows the standard library's"
    return _real(module, name)


@cache
def _real(module: str, name: str) -> tuple[type | None, str]:
    try:
        real = getattr(importlib.import_module(module), name, None)
    except Exception:  # noqa: BLE001 - a module this platform lacks, or that fails to import here
        return None, f"the standard library's {module} does not import here"
    if not isinstance(real, type):
        return None, f"{module}.{name} is no class"
    if issubclass(real, BaseException):
        return None, "an exception class (raising one is the exception model's business)"
    if module.partition(".")[0] == "unittest":
        return None, "a test suite's base (not code to test)"
    problem = _problem(real)
    return (None, problem) if problem else (real, "")


def _problem(real: type) -> str:
    """Why an opaque model of `real` would not be exact, or ''."""
    if type(real) not in (type, abc.ABCMeta):
        return f"its metaclass {type(real).__name__} (class creation runs its code)"
    for hook in _HOOKS:  # Python code hooking attribute access (a C type's slot is its generic one, as object's)
        if inspect.isfunction(inspect.getattr_static(real, hook, None)):
            return f"its {hook} (attribute access runs its code)"
    if getattr(real, "__abstractmethods__", None):
        return "an abstract class (its subclass's own methods decide whether an instance can exist)"
    probe: Any = type("probe", (real,), {})
    try:
        probe.__new__(probe)
    except Exception:  # noqa: BLE001 - whatever its __new__ raises, a test could not build an instance
        return "its __new__ needs arguments (a test could not build an instance)"
    return ""


def attributes(real: type) -> tuple[list[str], list[str]]:
    """The names `real` has beyond `object`'s: callables (methods, class
    and static methods, slot wrappers) and the other values."""
    methods: list[str] = []
    values: list[str] = []
    for name in dir(real):
        if name in _SKIPPED or name in _HOOKS:
            continue
        found = inspect.getattr_static(real, name)
        if name in vars(object) and found is inspect.getattr_static(object, name):
            continue  # object's own behaviour, which the model follows
        if found is None or callable(found) or isinstance(found, (classmethod, staticmethod)):
            methods.append(name)  # `__hash__ = None` too: hashing one is not followed
        else:
            values.append(name)
    return methods, values


def _parameters(real: type, name: str) -> str:
    """The parameters of a synthesized method: a protocol method takes what
    the real one takes (`__contains__(self, a1)`, `__len__(self)`: the
    engine calls it by the protocol's arity, and another arity would be
    its TypeError), any other method anything."""
    if not (name.startswith("__") and name.endswith("__")) or name in ("__init__", "__call__"):
        return "self, *args, **kwargs"
    if name in _PROTOCOL_PARAMETERS:
        return _PROTOCOL_PARAMETERS[name]
    try:
        found = list(inspect.signature(getattr(real, name)).parameters.values())
    except (TypeError, ValueError):  # no signature to read: a binary operator's
        return "self, a1"
    texts = ["self"]
    for at, parameter in enumerate(found[1:], start=1):
        if parameter.kind is parameter.VAR_POSITIONAL:
            texts.append("*args")
        elif parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            texts.append(f"a{at}" if parameter.default is parameter.empty else f"a{at}=None")
    return ", ".join(texts)


def synthesized_class(name: str, dotted: str, real: type, near: ast.AST) -> ast.ClassDef:
    """The model class standing for `real` (see the module docstring);
    `builtins.dict` is `dict` (models/builtins/classes.py)."""
    methods, values = attributes(real)
    if "__repr__" in methods and "__str__" not in methods:  # `object.__str__` calls the class's `__repr__`
        methods.append("__str__")
    dotted = dotted.removeprefix("builtins.")
    kind = "the builtin base" if "." not in dotted else "a standard-library base class"
    why = f"{dotted}.{{}} on a subclass ({kind} is not modelled)"
    lines = [f"class {name}:"]
    for attr in methods:
        lines += [f"    def {attr}({_parameters(real, attr)}):",
                  f"        raise NotImplementedError({why.format(attr)!r})"]
    for attr in values:  # a value made by a call: what reading it gives is not followed (ClassInfo.descriptors)
        lines.append(f"    {attr} = {name}_value()")
    if "__init__" not in methods:  # the base's construction is not followed, even object's (`C(x)` may pass)
        lines += ["    def __init__(self, *args, **kwargs):",
                  f"        raise NotImplementedError({why.format('__init__')!r})"]
    node = ast.parse("\n".join(lines)).body[0]
    assert isinstance(node, ast.ClassDef)
    _written_methods(node, dotted)
    for child in ast.walk(node):
        ast.copy_location(child, near)
    setattr(node, STANDS_FOR, dotted)
    return node


# bases whose behaviour is partly written out as plain Python (the rest synthesized as above)
_WRITTEN = {"dict": Path(__file__).resolve().parent.parent / "models" / "builtins" / "dict_base.py"}


def _written_methods(node: ast.ClassDef, dotted: str) -> None:
    """Put the methods written out for `dotted` (models/builtins/dict_base.py)
    in place of the raising ones synthesized for them, and add its helpers."""
    source = _WRITTEN.get(dotted)
    if source is None:
        return
    written = {item.name: copy.deepcopy(item) for cls in _written_classes(source) for item in cls.body
               if isinstance(item, ast.FunctionDef)}  # a copy each time: lowering marks the nodes it reads
    node.body = [written.pop(item.name, item) if isinstance(item, ast.FunctionDef) else item for item in node.body]
    node.body.extend(written.values())  # the helpers (`_pathcraft_dict`), and what the real class lacks here


@cache
def _written_classes(source: Path) -> tuple[ast.ClassDef, ...]:
    tree = ast.parse(source.read_text(encoding="utf-8"))
    return tuple(n for n in tree.body if isinstance(n, ast.ClassDef))


def add_synthesized(source: ModuleSource, statement: ast.ImportFrom) -> frozenset[str]:
    """Add to the loaded builtins model `source` the classes standing for
    the library bases `statement` imports (`normalize_bases` wrote it:
    `WANTED`); their names."""
    wanted: dict[str, tuple[str, str]] = getattr(statement, WANTED, {})
    near = next(iter(source.classes.values()), source.tree)
    for name, (module, cls) in wanted.items():
        real, _ = _real(module, cls)
        if name not in source.classes and real is not None:
            source.classes[name] = synthesized_class(name, f"{module}.{cls}", real, near)
    return frozenset(n for n in wanted if n in source.classes)
