"""Enum classes: `class Color(Enum)` read as a fixed set of members.

A member (`Color.RED`) is a value of its own (`ir.nodes.EnumMember`),
not an object on the heap: what the code does with it is exact without a
model of the `enum` machinery. `is` and `==` tell members apart, `.name`
and `.value` are constants, a method of the class runs with the member as
`self`, and a parameter or field typed `Color` takes each member in turn
(heap/lazy.py). An `IntEnum` or `StrEnum` member (or one of `class
C(int, Enum)`, `class C(str, Enum)`) is also its value in arithmetic and
comparisons, as CPython's mixins make it (models/enum).

Iterating the class (`for c in Color`, `list(Color)`, `len(Color)`)
walks its members in definition order, aliases left out: such a use is
rewritten as the tuple of its members (`members_walked`).

Read here: the base (`Enum`, `IntEnum`, `StrEnum`, as imported names or
attributes of `enum`), and members bound in the class body to an int,
str, float, bool or None constant or to `auto()`. A second name bound to
an equal value is an alias of the first member, as in CPython. What
changes how members are made (`_missing_`, `__new__`,
`_generate_next_value_`, `_ignore_`, a member of another value, a `Flag`)
refuses the class.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from pathcraft.frontend.names import module_level

ENUM_BASES = ("Enum", "IntEnum", "StrEnum")
# hooks that change how members are made or looked up: not modelled
_MAKERS = frozenset({"_missing_", "__new__", "__init__", "_generate_next_value_", "_ignore_", "__init_subclass__",
                     "_order_", "__call__"})

Scalar = int | bool | float | str | None


class EnumError(ValueError):
    """An enum class the model does not read; the message says why, the node where."""

    def __init__(self, message: str, node: ast.AST) -> None:
        super().__init__(message)
        self.node = node


@dataclass(frozen=True)
class EnumShape:
    """What the model knows of an enum class."""

    kind: str  # "Enum", "IntEnum", "StrEnum", "(int, Enum)" or "(str, Enum)"
    members: tuple[tuple[str, Scalar], ...]  # canonical members, in definition order
    aliases: tuple[tuple[str, str], ...]  # alias name -> its member's name


def enum_kind(cls: ast.ClassDef, user_classes: set[str], tree: ast.Module) -> str | None:
    """The enum base `cls` derives from, or None when it is no enum class
    (`tree`: the module the class is written in, whose imports say what
    its base names are)."""
    names = [_base(b, user_classes, _enum_imports(tree)) for b in cls.bases]
    if not names or names[-1] not in ENUM_BASES or cls.keywords:
        return None
    mixins = names[:-1]
    if not mixins:
        return names[-1]
    if len(mixins) == 1 and names[-1] == "Enum" and mixins[0] in ("int", "str"):
        return f"({mixins[0]}, Enum)"  # like IntEnum or StrEnum, but for its text (models/enum)
    return None


def _base(node: ast.expr, user_classes: set[str], imports: tuple[dict[str, str], set[str]]) -> str | None:
    """What a base names: an `enum` class by the name the module imports it
    as, `int` or `str`, else None."""
    names, modules = imports
    if isinstance(node, ast.Name) and node.id not in user_classes:
        return names.get(node.id, node.id if node.id in ("int", "str") else None)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules:
        return node.attr
    return None


def _enum_imports(tree: ast.Module) -> tuple[dict[str, str], set[str]]:
    """The names the module binds to `enum`'s classes (`from enum import
    Enum as E`: E -> Enum), and to the `enum` module itself."""
    names: dict[str, str] = {}
    modules: set[str] = set()
    for node in module_level(tree.body):
        if isinstance(node, ast.ImportFrom) and node.module == "enum" and not node.level:
            names.update({a.asname or a.name: a.name for a in node.names if a.name in ENUM_BASES})
        elif isinstance(node, ast.Import):
            modules.update(a.asname or a.name for a in node.names if a.name == "enum")
    return names, modules


def read_enum(cls: ast.ClassDef, kind: str) -> EnumShape:
    """The members of enum class `cls` (see the module docstring)."""
    members: list[tuple[str, Scalar]] = []
    aliases: list[tuple[str, str]] = []
    for item in cls.body:
        if isinstance(item, ast.Expr) and isinstance(item.value, ast.Constant) or isinstance(item, ast.Pass):
            continue
        if isinstance(item, ast.FunctionDef):
            if item.name in _MAKERS:
                raise EnumError(f"enum class {cls.name} with its own {item.name}", item)
            continue
        if not (isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name)):
            raise EnumError(f"statement in the body of enum class {cls.name} other than a member or a method", item)
        name = item.targets[0].id
        if name.startswith("_"):
            raise EnumError(f"enum class {cls.name} binding {name}", item)
        value = _member_value(item.value, kind, name, members, cls.name)
        same = next((m for m, v in members if v == value), None)  # CPython looks the value up: 1 == True
        if same is not None:
            aliases.append((name, same))
        else:
            members.append((name, value))
    if not members:
        raise EnumError(f"enum class {cls.name} without members", cls)
    return EnumShape(kind, tuple(members), tuple(aliases))


def _member_value(node: ast.expr, kind: str, name: str, members: list[tuple[str, Scalar]], cls: str) -> Scalar:
    if isinstance(node, ast.Call) and not node.args and not node.keywords and (
            isinstance(node.func, ast.Name) and node.func.id == "auto"
            or isinstance(node.func, ast.Attribute) and node.func.attr == "auto"):
        if kind == "StrEnum":
            return name.lower()  # CPython's StrEnum: the member's name in lower case
        if kind == "(str, Enum)":
            raise EnumError(f"auto() in {cls}, a str enum that is no StrEnum", node)
        last = members[-1][1] if members else 0
        if type(last) is not int:
            raise EnumError(f"auto() after a member of {cls} whose value is no int", node)
        return last + 1
    if not (isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str)) or
            isinstance(node, ast.Constant) and node.value is None) or isinstance(node.value, bytes):
        raise EnumError(f"enum member {cls}.{name} whose value is not an int, float, str, bool or None constant",
                        node)
    value = node.value
    wanted = {"IntEnum": int, "(int, Enum)": int, "StrEnum": str, "(str, Enum)": str}.get(kind)
    if wanted is not None and type(value) is not wanted:  # CPython would convert it (or refuse the class)
        raise EnumError(f"{kind} member {cls}.{name} whose value is no {wanted.__name__}", node)
    return value


# builtins that walk what they are given, once, in order (or count it)
_WALKERS = frozenset({"list", "tuple", "len", "sorted", "set", "reversed", "iter", "enumerate", "frozenset"})


def members_walked(functions: list[ast.FunctionDef], members: dict[str, tuple[str, ...]]) -> None:
    """Rewrite each walk of an enum class (`members`: class -> its members)
    in `functions` as the tuple of its members, where the function binds
    no local of the class's name."""
    for fn in functions:
        bound = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)} | {
            n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        walked = {name: names for name, names in members.items() if name not in bound}
        if not walked:
            continue
        for node in ast.walk(fn):
            if isinstance(node, (ast.For, ast.comprehension)) and _walked(node.iter, walked):
                node.iter = _as_tuple(node.iter, walked)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _WALKERS \
                    and node.func.id not in bound and len(node.args) >= 1 and _walked(node.args[0], walked):
                node.args[0] = _as_tuple(node.args[0], walked)


def _walked(node: ast.expr, walked: dict[str, tuple[str, ...]]) -> bool:
    return isinstance(node, ast.Name) and node.id in walked


def _as_tuple(node: ast.expr, walked: dict[str, tuple[str, ...]]) -> ast.expr:
    assert isinstance(node, ast.Name)
    items: list[ast.expr] = [ast.Attribute(ast.Name(node.id, ast.Load()), member, ast.Load())
                             for member in walked[node.id]]
    made = ast.Tuple(items, ast.Load())
    for part in ast.walk(made):
        ast.copy_location(part, node)
        part.end_lineno, part.end_col_offset = node.end_lineno, node.end_col_offset  # type: ignore[attr-defined]
    return made

