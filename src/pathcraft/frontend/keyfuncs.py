"""`sorted(xs, key=f)`, `min`/`max(xs, key=f)`, `xs.sort(key=f)`: a
silent consumer the frontend writes (`frontend/keyed.py`) that calls the
key function on each item, then the prelude's sort or selection.

Why: the key function's calls are events of the path (a lambda's or a
module function's frames), so they are made by lowered code, in the
order Python makes them; a builtin key (`len`, `abs`) has no frame.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Mapping

from pathcraft.frontend import keyed
from pathcraft.frontend.callables import callable_parameter
from pathcraft.frontend.getters import getter_read
from pathcraft.frontend.builtins import empty_sequence_message
from pathcraft.frontend.stmthost import StatementLowering
from pathcraft.frontend.synthetic import copy_with_call_positions, synthetic_function
from pathcraft.ir.builtin_names import function_predicate
from pathcraft.ir.nodes import Call, Expr, FunctionInfo, ListOp, Var
from pathcraft.ir.types import INT, Type

# the prelude functions a keyed consumer hands items and keys to (frontend/keyed.py)
PRELUDE_HELPERS = {
    f"__pc_{name}": FunctionInfo(name, function_predicate(name), params, tuple(INT for _ in params), None, (), 0, 0,
                                 function_predicate(name))
    for name, params in (("sorted_by", ("items", "keys", "reverse")), ("least_by", ("items", "keys", "greatest")))
}


_BUILTIN_KEYS = frozenset({"abs", "len", "str", "int", "float", "ord", "bool"})


def _silent_key(key: ast.expr, local: frozenset[str], functions: Mapping[str, object],
                constants: Mapping[str, object]) -> bool:
    """Is the key a builtin function, or a method of a module constant (a
    str), whose calls run no traced code?"""
    if isinstance(key, ast.Name):
        return key.id in _BUILTIN_KEYS and key.id not in local and key.id not in functions
    return isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name) and key.value.id in constants \
        and key.value.id not in local



def keyed_call(lw: StatementLowering, consumer: str, items: ast.expr, key: ast.expr, reverse: bool,
               node: ast.Call) -> Expr:
    """`sorted(xs, key=f)`, `min`/`max(xs, key=f)`, `xs.sort(key=f)`: see
    `frontend/keyed.py`. `f` is a lambda (lowered as a nested function
    `<lambda>`, its free variables passed at each call), a function
    of the module taking one argument, a builtin, a callable parameter or
    an `operator` getter of constants."""
    line = node.lineno
    number = len([p for p in lw.nested if "$key" in p and p.endswith("$consume")])
    key_info, free = key_function(lw, key, number)
    source = lw.blocks.stable(lw.expressions.expr(items), line)
    lw.blocks.emit(ListOp("iter", lw.blocks.temp("n"), source, (), line))  # TypeError here
    params = ["__pc_S0", *free]
    consume = FunctionInfo(consumer, lw.info.qualname, tuple(params), tuple(INT for _ in params), None, (),
                           line, line, f"{lw.info.entry}$key{number}$consume")
    helpers = {keyed.KEY: key_info, **PRELUDE_HELPERS}
    text = keyed.consumer_source(consumer, free, reverse, empty_sequence_message(consumer))
    fn = ast.parse(text).body[0]
    assert isinstance(fn, ast.FunctionDef)
    lw.nested_function(synthetic_function(consumer, params, fn.body, line), consume, line,
                         entry_mark=False, builtin=True, marks=False, helpers=helpers)
    tmp = lw.blocks.temp()
    lw.blocks.emit(Call(tmp, consume.entry, (source, *(Var(f) for f in free)), line))
    return Var(tmp)


def _lowered_key(lw: StatementLowering, key: ast.expr, name: str, body: ast.expr,
                 more: tuple[str, ...] = (), kinds: tuple[Type, ...] = ()) -> FunctionInfo:
    """A silent key function `key(__pc_item, *more)` returning `body`."""
    params = ("__pc_item", *more)
    info = FunctionInfo("key", f"{lw.info.qualname}$key", params, (INT, *kinds), None, (), key.lineno,
                        key.lineno, f"{lw.info.entry}${name}")
    fn = ast.FunctionDef("key", ast.arguments([], [ast.arg(p) for p in params], None, [], [], None, []),
                         [ast.Return(body)], [], None)
    ast.copy_location(fn, key)
    ast.fix_missing_locations(fn)
    lw.nested_function(fn, info, key.lineno, entry_mark=False, builtin=True, marks=False)
    return info


def key_function(lw: StatementLowering, key: ast.expr, number: int) -> tuple[FunctionInfo, list[str]]:
    """The key function's signature, and the enclosing variables it reads."""
    if isinstance(key, ast.Name) and key.id in lw.module.functions and key.id not in lw.locals:
        info = lw.signatures.get(key.id)
        if info is None or len(info.params) - len(info.defaults) > 1 or not info.params:
            raise lw.error(key, f"key function '{key.id}' that does not take one argument")
        lw.calls.callees.add(key.id)
        return info, []
    item = ast.Name("__pc_item", ast.Load())
    if _silent_key(key, lw.locals, lw.module.functions, lw.module.constants):
        # a builtin (`abs`, `len`) or a method of a module constant (`ORDER.find`): no frame of its own
        return _lowered_key(lw, key, f"builtinkey{number}", ast.Call(copy.deepcopy(key), [item], [])), []
    read = getter_read(lw.expressions.stdlib.origin, key, item)
    if read is not None:  # `itemgetter(1)`, `attrgetter("name")`: no frame of its own (frontend/getters.py)
        return _lowered_key(lw, key, f"getterkey{number}", read), []
    if isinstance(key, ast.Name) and callable_parameter(lw.expressions, key.id) == 1:
        # a function the caller passes (frontend/callables.py): no frame in this module, called with the item
        own = key.id
        kind = lw.info.param_types[lw.info.params.index(own)]
        called = ast.IfExp(  # `key=None` is no key: the items compare themselves (CPython calls nothing)
            ast.Compare(ast.Name(own, ast.Load()), [ast.Is()], [ast.Constant(None)]),
            ast.Name("__pc_item", ast.Load()), ast.Call(ast.Name(own, ast.Load()), [item], []))
        return _lowered_key(lw, key, f"passedkey{number}", called, (own,), (kind,)), [own]
    if not isinstance(key, ast.Lambda):
        raise lw.error(key, "key other than a lambda, a builtin or a function of the module")
    args = key.args
    if len(args.args) != 1 or args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults \
            or any(isinstance(n, (ast.Lambda, ast.Yield, ast.YieldFrom, ast.NamedExpr, ast.Await))
                   for n in ast.walk(key.body)):
        raise lw.error(key, "lambda other than one parameter and a plain expression")
    param = args.args[0].arg
    used = {n.id for n in ast.walk(key.body) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    free = sorted((used - {param}) & lw.locals | lw.captures_of(used - {param}))
    scope = "." if lw.info.qualname.endswith(("<listcomp>", "<genexpr>", "<setcomp>", "<dictcomp>")) \
        else ".<locals>."
    params = [param, *free]
    info = FunctionInfo("<lambda>", f"{lw.info.qualname}{scope}<lambda>", tuple(params),
                        tuple(INT for _ in params), None, (), key.lineno, key.end_lineno or key.lineno,
                        f"{lw.info.entry}$lambda{number}")
    body = ast.Return(copy_with_call_positions(key.body))
    fn = ast.FunctionDef("<lambda>", ast.arguments([], [ast.arg(p) for p in params], None, [], [], None, []),
                         [body], [], None)
    ast.copy_location(fn, key)
    ast.copy_location(body, key.body)
    ast.fix_missing_locations(fn)
    lw.nested_function(fn, info, key.lineno, entry_mark=True, builtin=False)
    return info, free
