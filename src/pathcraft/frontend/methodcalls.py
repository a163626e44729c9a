"""Method calls: `obj.m(...)` dispatched at run time, `super().m(...)`,
`C.m(...)` through a class, `math.f(...)`, a stdlib module's function,
`"sep".join(genexpr)`, `xs.sort(key=f)`.

Why: `obj.m(...)` means a different thing for each kind of `obj` (a
module, a class, `super()`, a value); this decides which from the
receiver's syntax, and leaves a value's method to the engine's dispatch.
"""

from __future__ import annotations

import ast

from pathcraft.frontend import callables, callargs, classrefs, strformat
from pathcraft.models.math import lowering as mathmod
from pathcraft.models.re import lowering as regex_model
from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.models.math.lowering import is_math
from pathcraft.frontend.seqbuiltins import key_and_reverse
from pathcraft.ir.builtin_names import SORT_BY, function_predicate
from pathcraft.ir.nodes import Call, CallMethod, CheckMethod, Const, Expr, Text, Var


def method_call(ex: ExprLowering, func: ast.Attribute, node: ast.Call, discard: bool) -> Expr:
    if ex.module.natives.entries and (native := ex.stdlib.native_call(node)) is not None:
        return native
    if is_math(func.value, ex.module.imported, ex.local_names):
        operands = [ex.blocks.stable(ex.expr(a), node.lineno) for a in node.args]
        lowered = None if node.keywords else mathmod.lower_call(func.attr, operands, ex.blocks.emit,
                                                                ex.blocks.temp, node.lineno)
        if lowered is None:  # evaluated as far as the model goes, then run concretely or dropped
            return ex.stdlib.concrete(f"math.{func.attr}", operands,
                                        f"math.{func.attr}() with these arguments", node)
        return lowered
    if (matched := regex_model.member_call(ex, func, node)) is not None:  # `RE.match(s)`, `re.fullmatch(p, s)`
        return matched
    if (foreign := ex.stdlib.call(node)) is not None:
        return foreign
    if (bare := callargs.bare_new(ex, func, node)) is not None:  # `object.__new__(cls)`
        return bare
    made = classrefs.nested_class(ex, func)
    if made is not None:  # `self._Node(...)`: a class nested in a class body
        return callargs.construct(ex, made, node)
    if isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name) \
            and func.value.func.id == "super" and "super" not in ex.local_names \
            and "super" not in ex.functions:
        return super_call(ex, func, node, discard)
    owner = func.value.id if isinstance(func.value, ast.Name) and func.value.id not in ex.local_names else None
    if owner is not None and (built := _made_by_class(ex, owner, func.attr, node)) is not None:
        return built  # `C._make(xs)`, `dict.fromkeys(xs)`
    if owner is not None and (owner in ex.class_alias or owner in ex.module.class_infos):
        return class_call(ex, ex.class_alias.get(owner, owner), func, node, discard)
    if func.attr == "join" and isinstance(func.value, ast.Constant) and isinstance(func.value.value, str) \
            and len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp) and not node.keywords \
            and ex.generator is not None:  # str.join makes a list of the generator's items first
        items = ex.blocks.stable(ex.generator("list", node.args[0]), node.lineno)
        tmp = ex.blocks.temp()
        ex.blocks.emit(CallMethod(tmp, Const(Text(func.value.value)), "join", (items,), node.lineno))
        return Var(tmp)
    if func.attr == "format" and (template := strformat.constant_template(ex, func.value)) is not None \
            and (formatted := strformat.format_call(ex, template, node)) is not None:
        return formatted
    takes = _stored_function(ex, func)
    if takes is not None:  # `self.key(item)`: the function a field holds (frontend/callables.py)
        return _stored_call(ex, func, node, discard, takes)
    keyed_by = key_and_reverse(node, sort=True)
    if func.attr == "sort" and keyed_by is not None and not node.args and ex.keyed is not None:
        ex.calls.methods_called.add(SORT_BY)
        return ex.keyed("sort", func.value, keyed_by[0], keyed_by[1], node)
    if any(k.arg is None for k in node.keywords):
        raise ex.error(node, "**kwargs in a method call")
    positional, spread = _spread(ex, node)
    obj = ex.blocks.stable(ex.expr(func.value), node.lineno)
    name = classrefs.method_name(ex, func.attr)
    if any(_may_raise(a) for a in [*node.args, *(k.value for k in node.keywords)]):  # the method is looked up first
        ex.blocks.emit(CheckMethod(obj, name, node.lineno))
    args = tuple(ex.blocks.stable(ex.expr(a), node.lineno) for a in positional)
    rest = ex.blocks.stable(ex.expr(spread), node.lineno) if spread is not None else None
    keywords = tuple((str(k.arg), ex.blocks.stable(ex.expr(k.value), node.lineno)) for k in node.keywords)
    target = None if discard else ex.blocks.temp()
    ex.calls.methods_called.add(name)
    ex.blocks.emit(CallMethod(target, obj, name, args, node.lineno, keywords, written=True, spread=rest))
    return Var(target) if target else Const(None)


def _stored_call(ex: ExprLowering, func: ast.Attribute, node: ast.Call, discard: bool, takes: int) -> Expr:
    """`self.key(item)`: the function the field holds, called with `takes` arguments."""
    if len(node.args) != takes or node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        raise ex.error(node, f"call of the function field '{func.attr}' with other than "
                             f"{callables.arguments_text(takes)}")
    stored = ex.blocks.stable(ex.expr(func), node.lineno)
    given = tuple(ex.blocks.stable(ex.expr(a), node.lineno) for a in node.args)
    target = None if discard else ex.blocks.temp()
    ex.calls.methods_called.add("__call__")
    ex.blocks.emit(CallMethod(target, stored, "__call__", given, node.lineno, (), written=True))
    return Var(target) if target else Const(None)


def _made_by_class(ex: ExprLowering, owner: str, name: str, node: ast.Call) -> Expr | None:
    """A class method that makes a value: a NamedTuple's `_make`
    (frontend/namedtuple_make.py), `dict.fromkeys`; None: neither."""
    if owner in ex.module.namedtuples and name == "_make" and ex.namedtuple_make is not None:
        return ex.namedtuple_make(ex.module.namedtuples[owner], node)
    if owner == "dict" and name == "fromkeys":
        return _dict_fromkeys(ex, node)
    return None


def _dict_fromkeys(ex: ExprLowering, node: ast.Call) -> Expr | None:
    """`dict.fromkeys(keys[, value])` of the builtin `dict` (not a name the
    module binds): the prelude's loop (models/dict/prelude.py), the value
    evaluated once, None when left out."""
    if "dict" in ex.functions or "dict" in ex.module.class_infos or node.keywords or not 1 <= len(node.args) <= 2 \
            or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    args = [ex.blocks.stable(ex.expr(a), node.lineno) for a in node.args]
    tmp = ex.blocks.temp()
    ex.blocks.emit(Call(tmp, function_predicate("dict_fromkeys"), (args[0], args[1] if len(args) == 2 else Const(None)),
                        node.lineno))
    return Var(tmp)


def _spread(ex: ExprLowering, node: ast.Call) -> tuple[list[ast.expr], ast.expr | None]:
    """The positional arguments, and `rest` of a last `*rest`: the engine
    hands it on to the callee's `*args` when it is a tuple and the other
    arguments fill the positional parameters, else passes its items one by
    one when it is a list or tuple of known length (engine/binding.py).
    Another starred argument, or one with keywords, is refused."""
    starred = [a for a in node.args if isinstance(a, ast.Starred)]
    if not starred:
        return list(node.args), None
    last = node.args[-1]
    if len(starred) > 1 or not isinstance(last, ast.Starred) or node.keywords:
        raise ex.error(node, "*args in a call")
    return list(node.args[:-1]), last.value


def super_call(ex: ExprLowering, func: ast.Attribute, node: ast.Call, discard: bool) -> Expr:
    """`super().m(...)` in a method of class C: the `m` of C's bases,
    called directly on `self` (no dispatch: Python looks it up after C
    in the object's MRO, which single inheritance makes C's base chain)."""
    assert isinstance(func.value, ast.Call)
    if func.value.args or func.value.keywords or ex.owner is None or not ex.info.params \
            or ex.info.binding not in ("", "property", "setter") or ex.info.params[0] in ex.reassigned:
        raise ex.error(func.value, "super() other than in a method, without arguments")
    info = ex.module.class_infos.get(ex.owner)
    qualname = classrefs.method_of(ex, info.base, func.attr) if info is not None else None
    callee = ex.signatures.get(qualname) if qualname is not None else None
    if callee is None or callee.binding not in ("", "property", "setter"):
        if qualname is None and func.attr == "__init__" and not node.args and not node.keywords:
            return Const(None)  # `object.__init__(self)`: does nothing
        raise ex.error(func, f"super().{func.attr}" + (" (no base defines it)" if qualname is None else ""))
    args = callargs.call_arguments(ex, callee, node, skip_self=True)
    target = None if discard else ex.blocks.temp()
    ex.calls.callees.add(callee.qualname)
    ex.blocks.emit(Call(target, callee.entry, (Var(ex.info.params[0]), *args), node.lineno))
    return Var(target) if target else Const(None)


def class_call(ex: ExprLowering, cls: str, func: ast.Attribute, node: ast.Call, discard: bool) -> Expr:
    """`C.m(...)` (or `cls.m(...)` in a classmethod of C): a method of C
    or of a base, called directly: a static or class method without a
    receiver, an instance method with its `self` as first argument."""
    qualname = classrefs.method_of(ex, cls, func.attr)
    callee = ex.signatures.get(qualname) if qualname is not None else None
    if qualname is None or callee is None:
        raise ex.error(func, f"call of '{cls}.{func.attr}'" + (" (no such method)" if qualname is None else ""))
    if callee.binding == "property":
        raise ex.error(node, f"call of property {qualname} through its class")
    args = callargs.call_arguments(ex, callee, node)  # an instance method: `self` given first, no dispatch
    target = None if discard else ex.blocks.temp()
    ex.calls.callees.add(qualname)
    ex.blocks.emit(Call(target, callee.entry, tuple(args), node.lineno))
    return Var(target) if target else Const(None)


def _stored_function(ex: ExprLowering, func: ast.Attribute) -> int | None:
    """How many arguments the function takes if `func` is `self.name` where
    `name` is no method of the class but a field typed as a function
    (`Callable[[T], R]`); None if it is not one."""
    if not (isinstance(func.value, ast.Name) and ex.owner is not None and ex.info.params
            and func.value.id == ex.info.params[0] and func.value.id not in ex.reassigned
            and ex.info.binding in ("", "property", "setter")):
        return None
    if classrefs.method_of(ex, ex.owner, func.attr) is not None:
        return None
    name = classrefs.attr(ex, func.attr)
    current: str | None = ex.owner
    while current is not None and current in ex.module.class_infos:
        kind = dict(ex.module.class_infos[current].fields).get(name)
        if kind is not None:
            return callables.arity(kind.cls) if kind.kind == "obj" else None
        current = ex.module.class_infos[current].base
    return None


def _may_raise(node: ast.expr) -> bool:
    """Can evaluating `node` raise or run code (a call, an index, an
    attribute read, `//`, `%`, `**`)? Names and constants cannot."""
    return any(isinstance(n, (ast.Call, ast.Subscript, ast.Attribute)) or
               isinstance(n, ast.BinOp) and isinstance(n.op, (ast.FloorDiv, ast.Mod, ast.Pow, ast.Div, ast.LShift,
                                                              ast.RShift))
               for n in ast.walk(node))
