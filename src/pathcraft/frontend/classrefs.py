"""Names that refer to the module's classes: attributes as stored
(mangled), methods by their defining class, nested classes, class
constants.

Why together: each answers "which class member does this spelling
mean?" from the module's class table, the same way for expressions and
for assignment targets.
"""

from __future__ import annotations

import ast

from pathcraft.frontend import nested
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.frontend.module import mangle
from pathcraft.ir.nodes import Const, EnumMember, Expr


def attr(ex: ExprLowering, name: str) -> str:
    """An attribute name as stored: private names are mangled in a class."""
    return mangle(name, ex.owner) if ex.owner else name


def method_name(ex: ExprLowering, name: str) -> str:
    """The name `obj.name(...)` looks up. Methods are kept under the names
    they are defined by, so a private method (`def __step`) is called by
    that name; any other private name is mangled as Python does
    (`self.__lock(...)` reads `_C__lock`, a field the class stores, and
    an error about it names `_C__lock`)."""
    if any(name in info.methods for info in ex.module.class_infos.values()):
        return name
    return attr(ex, name)


def note_attribute(ex: ExprLowering, name: str) -> None:
    """An attribute read or assigned: if some class has a property of
    that name, its getter and setter may run (translated as methods
    dispatched at run time)."""
    if any(name in c.properties for c in ex.module.class_infos.values()):
        ex.calls.methods_called.add(name)


def method_of(ex: ExprLowering, cls: str | None, name: str) -> str | None:
    """The qualname of method `name` as class `cls` (or a base) defines it."""
    current = cls
    while current is not None and current in ex.module.class_infos:
        if name in ex.module.class_infos[current].methods:
            return f"{current}.{name}"
        current = ex.module.class_infos[current].base
    return None


def nested_class(ex: ExprLowering, node: ast.expr) -> str | None:
    """The class `self.Inner`, `cls.Inner` or `Outer.Inner` names, when
    it is a class nested in a class body (frontend/nested.py)."""
    if not isinstance(node, ast.Attribute) or not isinstance(node.value, ast.Name):
        return None
    head = node.value.id
    classes = ex.module.class_infos.keys() | ex.module.class_errors.keys()
    if head not in ex.local_names and f"{head}.{node.attr}" in classes:
        return f"{head}.{node.attr}"
    owner = ex.class_alias.get(head)
    if owner is None and ex.owner is not None and ex.info.params and head == ex.info.params[0] \
            and ex.info.binding in ("", "property", "setter") and head not in ex.reassigned:
        owner = ex.owner
    if owner is None:
        return None
    chain = [owner]
    while (base := ex.module.class_infos[chain[-1]].base if chain[-1] in ex.module.class_infos else None) \
            and base not in chain:
        chain.append(base)
    found = nested.lookup(chain, node.attr, classes)
    if found is None:
        return None
    subclasses = [c for c in ex.module.class_infos if ex.module.is_subclass(c, owner)]
    again = nested.rebinding_subclass(owner, node.attr, subclasses, ex.module.classes)
    if again is not None:
        raise ex.error(node, f"'{ast.unparse(node)}' where subclass {again} binds '{node.attr}' again")
    return found


def class_attribute(ex: ExprLowering, cls: str, node: ast.Attribute) -> Expr:
    """`C.X` (or `cls.X` in a classmethod): a constant the class body (or
    a base's) binds; anything else the class may hold is refused."""
    info = ex.module.class_infos.get(cls)
    if info is not None and info.enum:  # `Color.RED`: the member itself (frontend/enums.py)
        member = ex.module.enum_aliases.get(cls, {}).get(node.attr, node.attr)
        if member in dict(info.members):
            return Const(EnumMember(cls, member))
        raise ex.error(node, f"attribute '{cls}.{node.attr}' of enum class {cls} other than a member")
    name = attr(ex, node.attr)  # mangled with the class whose code this is
    if any(isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)) and any(
            isinstance(t, ast.Attribute) and t.attr == node.attr and isinstance(t.value, ast.Name)
            and t.value.id in ex.module.classes
            for t in (n.targets if isinstance(n, (ast.Assign, ast.Delete)) else [n.target]))
           for n in ast.walk(ex.module.tree)):
        raise ex.error(node, f"class attribute '{cls}.{node.attr}' that the module assigns")
    current: str | None = cls
    while current is not None and current in ex.module.class_infos:
        info = ex.module.class_infos[current]
        defaults = dict(info.defaults)
        if name in defaults and (defaults[name] is None or type(defaults[name]) in (int, bool)):
            value = defaults[name]
            assert value is None or isinstance(value, (int, bool))
            return Const(value)
        if name in defaults or name in info.methods or name in info.opaque or name in dict(info.fields):
            break
        current = info.base
    raise ex.error(node, f"class attribute '{cls}.{node.attr}' other than an int, bool or None constant")
