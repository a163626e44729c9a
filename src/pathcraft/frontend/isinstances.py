"""`isinstance(x, T)`: decided by a parameter's annotation when the
function never reassigns it, else by the engine from the value's kind or
class at run time.

Why apart: the answer comes from the declared types (a check of `C |
None` is a None check), not from an instruction; what the engine cannot
decide (a class it does not know) is refused here.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from pathcraft.frontend import classrefs
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.frontend.modelclasses import ABC_ROOT, abstract_instance
from pathcraft.ir.builtin_names import BUILTIN_BASES, ISINSTANCE_ABC_OP, ISINSTANCE_OP
from pathcraft.ir.nodes import Binary, Const, Expr, Unary, Var

if TYPE_CHECKING:
    from pathcraft.frontend.source import ModuleSource
    from pathcraft.ir.types import Type

CALLABLE_OP = "callable"  # `callable(e)`, decided at run time
RUNTIME_TYPES = frozenset({"int", "bool", "float", "str", "list", "tuple", "dict", "set", "object"})
# builtin types the model makes no value of (`isinstance(x, (str, bytes))`): no value is one
ABSENT_TYPES = frozenset({"bytes", "bytearray", "memoryview", "complex"})
# the `collections.abc` classes the engine answers `isinstance` with on any value (engine/evaluate.py)
RUNTIME_ABCS = frozenset({"Mapping", "MutableMapping", "Sequence", "MutableSequence", "Set", "MutableSet",
                          "Sized", "Container", "Iterable", "Iterator", "Reversible", "Collection"})


def isinstance_rule(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """The builtin-call rule (see builtincalls.py): two arguments, no keywords."""
    return isinstance_of(ex, node) if len(node.args) == 2 and not node.keywords else None


def isinstance_of(ex: ExprLowering, node: ast.Call) -> Expr:
    """`isinstance(p, T)` on a parameter the function never reassigns:
    decided by the parameter's annotation (a None check for `C | None`),
    except when T is a subclass of the declared class (a caller, or the
    dispatch of `self`, may give an instance of it): asked at run time."""
    subject, kinds = node.args
    names = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
    spelled = [n.id if isinstance(n, ast.Name) else classrefs.nested_class(ex, n) for n in names]  # `self.Position`
    wanted = {n for n in spelled if n is not None}
    if None in spelled:
        raise ex.error(kinds, "isinstance() with a class other than a builtin or module class")
    modelled = sorted(wanted & ex.module.model_classes)  # `Sequence`: a list is one, a class may say it is
    guessed = {entry.partition(":")[0] for entry in ex.info.inferred}  # a caller may pass anything
    guessed |= set(ex.info.free)  # `other: object`: its tests pass ints, a caller of analysed code anything
    if not (isinstance(subject, ast.Name) and subject.id in ex.info.params
            and subject.id not in ex.reassigned and subject.id not in ex.opaque) \
            or isinstance(subject, ast.Name) and subject.id in {*ex.info.probes, *guessed}:  # a float tried too
        unasked = [m for m in modelled if m not in RUNTIME_ABCS]
        if unasked:
            raise ex.error(kinds, f"isinstance() with abstract base class '{unasked[0]}' on a value of any type")
        if not modelled:
            return isinstance_at_run_time(ex, node, subject, wanted)
        value = ex.blocks.stable(ex.expr(subject), node.lineno)
        asked: Expr = Unary(ISINSTANCE_ABC_OP + ",".join(modelled), value)
        rest = wanted - set(modelled)
        if rest:
            asked = Binary("or", _at_run_time_of(ex, node, rest, value), asked)
        return asked
    declared = ex.info.param_types[ex.info.params.index(subject.id)]
    if modelled and declared.kind == "obj" and any(ex.module.is_subclass(str(declared.cls), model)
                                                   for model in BUILTIN_BASES.values()):
        raise ex.error(kinds, f"isinstance() with abstract base class '{modelled[0]}' on an instance of a class "
                              "derived from a builtin (registered with the ABCs, not modelled)")
    for name in modelled:  # decided by the builtin type, or by the class's own bases
        verdict = _derives_from_abc(ex.module, str(declared.cls)) if name == ABC_ROOT and declared.kind == "obj" \
            else abstract_instance(declared, name, ex.module.is_subclass)
        if verdict is None:
            raise ex.error(kinds, f"isinstance() with abstract base class '{name}' on a parameter of type "
                                  f"{declared}")
        if verdict:
            return Binary("isnot", Var(subject.id), Const(None)) if declared.optional else Const(True)
    wanted -= set(modelled)
    matches = _declared_matches(ex, declared, wanted)
    if matches is None:  # `isinstance(self, Lower)` in a base's method: a caller may pass a subclass's instance
        return isinstance_at_run_time(ex, node, subject, wanted)
    if matches and declared.optional:
        return Binary("isnot", Var(subject.id), Const(None))
    return Const(matches)


def _declared_matches(ex: ExprLowering, declared: Type, wanted: set[str]) -> bool | None:
    """Is every value of the declared type an instance of one of `wanted`?
    None when that depends on the value: a class asked of is a subclass
    of the declared one."""
    if declared.kind == "int":
        return bool(wanted & {"int", "object"})
    if declared.kind == "bool":
        return bool(wanted & {"bool", "int", "object"})
    if declared.kind == "float":
        return bool(wanted & {"float", "object"})
    if declared.kind in ("list", "tuple", "dict", "set", "str"):
        return bool(wanted & {"deque" if declared.deque else declared.kind, "object"})
    if declared.kind != "obj":
        return False
    if "object" in wanted or any(
            w in ex.module.class_infos and ex.module.is_subclass(str(declared.cls), w)
            or w in BUILTIN_BASES and ex.module.is_subclass(str(declared.cls), BUILTIN_BASES[w])  # `C(dict)`
            for w in wanted):
        return True
    below = any(w in ex.module.class_infos and ex.module.is_subclass(w, str(declared.cls)) for w in wanted)
    return None if below else False


def isinstance_at_run_time(ex: ExprLowering, node: ast.Call, subject: ast.expr, wanted: set[str]) -> Expr:
    """`isinstance(e, T)` on any other value: decided by the engine from
    the value's kind or class (`Unary("isa:int,float", e)`)."""
    _check_run_time_classes(ex, node, wanted)
    return Unary(ISINSTANCE_OP + ",".join(sorted(wanted)), ex.expr(subject))


def _at_run_time_of(ex: ExprLowering, node: ast.Call, wanted: set[str], value: Expr) -> Expr:
    """The same of a value already lowered."""
    _check_run_time_classes(ex, node, wanted)
    return Unary(ISINSTANCE_OP + ",".join(sorted(wanted)), value)


def _builtin_name(ex: ExprLowering, name: str) -> bool:
    """Is `name` the builtin of that name here (not bound by the module)?"""
    module = ex.module
    return name not in module.functions and name not in module.classes and name not in module.constants \
        and name not in module.imported


def _check_run_time_classes(ex: ExprLowering, node: ast.Call, wanted: set[str]) -> None:
    """Every class asked of is one the engine can tell at run time."""
    unknown = sorted(w for w in wanted if w not in RUNTIME_TYPES and w not in ex.module.class_infos
                     and w not in ex.module.namedtuples and not (w in ABSENT_TYPES and _builtin_name(ex, w)))
    if unknown or any(w in ex.local_names for w in wanted):
        raise ex.error(node, f"isinstance() with class '{unknown[0] if unknown else sorted(wanted)[0]}'")


def callable_rule(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`callable(x)`: decided by the engine from the value (a function a
    test passes is one, an object whose class has `__call__`; no builtin
    value the model has is)."""
    if len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
        return None
    return Unary(CALLABLE_OP, ex.expr(node.args[0]))


HASATTR_OP = "hasattr:"  # `hasattr(e, "name")`: `Unary("hasattr:name", e)`, decided at run time


def hasattr_rule(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`hasattr(x, "name")` with a constant name: decided by the engine
    from the value (an instance's fields, its class's methods and
    attributes; a builtin value's type)."""
    attribute = _constant_name(node, 2)
    if attribute is None:
        return None
    return Unary(HASATTR_OP + attribute, ex.expr(node.args[0]))


def getattr_rule(ex: ExprLowering, name: str, node: ast.Call) -> Expr | None:
    """`getattr(x, "name")` is `x.name`; `getattr(x, "name", d)` with `x`
    a name or constant and `d` one too, or a display of such (`()`, `[]`),
    is `x.name if hasattr(x, "name") else d` (evaluating them twice or late
    changes nothing: a display made late is still a new object). A private name is
    not mangled by `getattr`, so it is left alone."""
    attribute = _constant_name(node, 3) or _constant_name(node, 2)
    if attribute is None or attribute.startswith("__") and not attribute.endswith("__"):
        return None
    subject = node.args[0]
    read = ast.copy_location(ast.Attribute(subject, attribute, ast.Load()), node)
    if len(node.args) == 2:
        return ex.expr(read)
    default = node.args[2]
    if not isinstance(subject, (ast.Name, ast.Constant)) or not _pure(default) \
            or any(attribute in c.properties for c in ex.module.class_infos.values()):  # a getter would run twice
        return None
    test = ast.copy_location(ast.Call(ast.Name("hasattr", ast.Load()), [subject, node.args[1]], []), node)
    return ex.expr(ast.copy_location(ast.IfExp(test, read, default), node))


def _pure(node: ast.expr) -> bool:
    """Evaluating `node` cannot fail or change anything: a name, a
    constant (negated too), a display of such."""
    if isinstance(node, (ast.Name, ast.Constant)):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return isinstance(node.operand, ast.Constant)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_pure(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _pure(k) and _pure(v) for k, v in zip(node.keys, node.values))
    return False


def _constant_name(node: ast.Call, arity: int) -> str | None:
    if len(node.args) != arity or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    name = node.args[1]
    return name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) \
        and name.value.isidentifier() else None


def _derives_from_abc(module: ModuleSource, cls: str) -> bool:
    """Is `cls` a subclass of `abc.ABC` for CPython? The model's
    `collections.abc` classes sit on the model's `ABC` (it makes their
    abstract methods count), CPython's only have its metaclass: a class
    reaches `abc.ABC` when one that is no model class names it (the
    engine asks the same of objects: engine/evaluate.py)."""
    chain: list[str] = []
    current: str | None = cls
    while current is not None and current in module.class_infos and current not in chain:
        chain.append(current)
        current = module.class_infos[current].base
    below = chain[chain.index(ABC_ROOT) - 1] if ABC_ROOT in chain and chain.index(ABC_ROOT) > 0 else None
    return below is not None and below not in module.model_classes
