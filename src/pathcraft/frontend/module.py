"""Reading a module: parse it, find its functions, exceptions and constants.

Nothing of the analysed code is imported or executed: all of it comes from
`ast`. Signatures of every top-level function are read up front so that
calls can be resolved before the callee's body is lowered.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass, field
from pathlib import Path

from pathcraft.errors import Location, PathcraftError, TargetError, UnsupportedError, at, unsupported
from pathcraft.ir.nodes import FunctionInfo

SUPPORTED_PARAM_TYPES = ("int", "bool")


@dataclass
class ModuleSource:
    """A parsed module and the facts the lowerer needs from its top level."""

    path: str
    name: str
    tree: ast.Module
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    constants: dict[str, int | bool] = field(default_factory=dict)
    exception_bases: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def is_exception(self, name: str) -> bool:
        if name in self.exception_bases:
            return True
        builtin = getattr(builtins, name, None)
        return isinstance(builtin, type) and issubclass(builtin, BaseException)


def load_module(path: str) -> ModuleSource:
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TargetError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise TargetError(f"{path}: cannot read: {exc}") from None
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as exc:
        location = Location(path, exc.lineno or 0, exc.offset or 0)
        raise PathcraftError(f"syntax error: {exc.msg}", location) from None
    module = ModuleSource(path=path, name=file.stem, tree=tree)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            module.functions[node.name] = node
        elif isinstance(node, ast.ClassDef):
            module.classes[node.name] = node
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            if isinstance(target, ast.Name) and isinstance(value, ast.Constant):
                if isinstance(value.value, (int, bool)):
                    module.constants[target.id] = value.value
    _find_exceptions(module)
    return module


def _find_exceptions(module: ModuleSource) -> None:
    """User exception classes: classes whose bases lead to a builtin exception."""
    changed = True
    while changed:
        changed = False
        for name, cls in module.classes.items():
            if name in module.exception_bases:
                continue
            bases = tuple(b.id for b in cls.bases if isinstance(b, ast.Name))
            if bases and all(module.is_exception(b) for b in bases):
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


def function_info(module: ModuleSource, fn: ast.FunctionDef, qualname: str) -> FunctionInfo:
    args = fn.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
        raise unsupported(module.path, fn, "*args, **kwargs, keyword-only or positional-only parameters")
    if fn.decorator_list:
        raise unsupported(module.path, fn.decorator_list[0], "decorator")
    names: list[str] = []
    types: list[str] = []
    for arg in args.args:
        kind = annotation_name(arg.annotation)
        if kind is None:
            raise UnsupportedError(
                f"parameter '{arg.arg}' has no type annotation (pathcraft needs int or bool)",
                at(module.path, arg),
            )
        if kind not in SUPPORTED_PARAM_TYPES:
            raise unsupported(module.path, arg.annotation or arg, f"parameter type '{kind}'")
        names.append(arg.arg)
        types.append(kind)
    defaults: list[tuple[str, int | bool | None]] = []
    for arg, default in zip(args.args[len(args.args) - len(args.defaults):], args.defaults):
        if not (isinstance(default, ast.Constant) and isinstance(default.value, (int, bool))):
            raise unsupported(module.path, default, "non-constant default value")
        defaults.append((arg.arg, default.value))
    return FunctionInfo(
        name=fn.name,
        qualname=qualname,
        params=tuple(names),
        param_types=tuple(types),
        return_type=annotation_name(fn.returns),
        defaults=tuple(defaults),
        lineno=fn.lineno,
        end_lineno=fn.end_lineno or fn.lineno,
        entry=qualname.replace(".", "_"),
    )
