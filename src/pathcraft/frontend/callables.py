"""Callable parameters: `pred(item)` where `pred` is a function the caller
passes.

A parameter annotated `Callable[[T], R]` (or `Callable[..., R]`, bare
`Callable`, any of them `| None`), or an unannotated one the body only
calls with one argument (or only with two: `Callable[[T, U], R]` and its
own candidates below), tests against None, for truth or with
`callable()`, hands to `map`/`filter`/`filterfalse`/`takewhile`/`dropwhile`
or gives as the `key` of `sorted`/`min`/`max`/`sort`, is typed as an
object of the model class
`PathcraftCallable`, or `PathcraftPredicate` when every call's result is
only tested for truth (`R` is `bool`). Its call is the method call
`pred.__call__(item)`, dispatched at run time to the candidate the input
is: a test passes `lambda x: x`, `lambda x: bool(x)` or `lambda x: not x`
(`models/callables/classes.py`, `ir/callables.py`), each a path root of its own.

Why candidates and not any function: a test must pass a function it can
write, and these three are exact, pure and readable; they split a
predicate's items both ways, which is what the branches on it need.
A function of two arguments gets `lambda x, y: x + y` and `lambda x, y:
y`, or, as a predicate, `lambda x, y: x < y` and `lambda x, y: x == y`:
an order and an equivalence, what a predicate of two items is usually
asked for. A parameter only called with no arguments whose default is
`dict`, `list` or `set` (`factory=dict`) gets one function that makes
the same (`lambda: {}`). What they leave out (a function of three arguments, one
that raises, one whose result is a new type) refuses the parameter or, at
a call with another number of arguments, the function.
"""

from __future__ import annotations

import ast

from pathcraft.frontend.exprhost import ExprLowering
from pathcraft.frontend.optional import annotation_head as _head
from pathcraft.frontend.optional import unquoted
from pathcraft.frontend.yields import own_nodes
from pathcraft.ir.nodes import FunctionInfo
from pathcraft.ir.types import INT, Type
from pathcraft.ir.callables import CALLABLE, FACTORIES, MODEL_MODULE, MODEL_NAMES, ROOTS, root

# statements and expressions whose test only asks for truth
_TRUTH_TESTS = (ast.If, ast.While, ast.IfExp, ast.Assert)
_TYPING_HEADS = ("Callable",)
# builtins and `itertools` iterators that call their first argument on each item of their second
_TAKERS = ("map", "filter", "filterfalse", "takewhile", "dropwhile")


def annotated_root(annotation: ast.expr) -> tuple[str, bool] | None:
    """The model class a `Callable` annotation stands for, and whether it
    admits None; None when the annotation is no callable of one or two
    arguments (`Callable[..., R]` and a bare `Callable` are taken as of one)."""
    parsed = unquoted(annotation)
    if parsed is None:
        return None
    annotation = parsed
    optional = False
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        parts = [annotation.left, annotation.right]
        nones = [p for p in parts if isinstance(p, ast.Constant) and p.value is None]
        if len(nones) != 1:
            return None
        annotation, optional = next(p for p in parts if p not in nones), True
    elif isinstance(annotation, ast.Subscript) and _head(annotation.value) == "Optional":
        annotation, optional = annotation.slice, True
    if _head(annotation) in _TYPING_HEADS:
        return CALLABLE, optional
    if not (isinstance(annotation, ast.Subscript) and _head(annotation.value) in _TYPING_HEADS):
        return None
    shape = annotation.slice
    if not (isinstance(shape, ast.Tuple) and len(shape.elts) == 2):
        return None
    params, result = shape.elts
    if isinstance(params, ast.List) and len(params.elts) in (1, 2):
        arity = len(params.elts)
    elif isinstance(params, ast.Constant) and params.value is Ellipsis:
        arity = 1
    else:
        return None
    return root(arity, _head(result) == "bool"), optional


def mentions_callable(annotation: ast.expr) -> bool:
    """Does an annotation name `Callable` (it may type a callable parameter)?"""
    text = annotation.value if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str) \
        else ast.unparse(annotation)
    return isinstance(text, str) and "Callable" in text


def called_root(fn: ast.FunctionDef, name: str) -> str | None:
    """The model class of unannotated parameter `name` when the body uses
    it only as a function of one argument, or only of two (see the module
    docstring)."""
    parents = {id(child): node for node in own_nodes(fn) for child in ast.iter_child_nodes(node)}
    scoped = {id(n) for n in own_nodes(fn)}
    arities: set[int] = set()
    predicate = True
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Name) and node.id == name):
            continue
        if id(node) not in scoped or not isinstance(node.ctx, ast.Load):
            return None  # read in a nested scope, or rebound
        parent = parents.get(id(node))
        if isinstance(parent, ast.Call) and parent.func is node:
            if len(parent.args) > 2 or parent.keywords \
                    or any(isinstance(a, ast.Starred) for a in parent.args):
                return None
            arities.add(len(parent.args))
            predicate = predicate and _truth_tested(parent, parents)
        elif isinstance(parent, ast.Call) and _head(parent.func) in _TAKERS and parent.args[:1] == [node] \
                and (len(parent.args) == 2 or len(parent.args) == 3 and _head(parent.func) == "map") \
                and not parent.keywords:  # `map(f, a, b)` calls `f` with an item of each
            arities.add(len(parent.args) - 1)
            predicate = predicate and _head(parent.func) != "map"
        elif isinstance(parent, ast.Call) and _head(parent.func) == "groupby" and parent.args[1:2] == [node] \
                and not any(isinstance(a, ast.Starred) for a in parent.args):
            arities.add(1)  # `groupby(xs, key)`: called on each item
            predicate = False
        elif isinstance(parent, ast.keyword) and parent.arg == "key" and _keyed(parents.get(id(parent))):
            arities.add(1)  # `sorted(xs, key=key)`: called on each item (frontend/keyfuncs.py)
            predicate = False
        elif isinstance(parent, ast.Compare) and len(parent.ops) == 1 \
                and isinstance(parent.ops[0], (ast.Is, ast.IsNot)) and _is_none(parent.comparators[0]) \
                and parent.left is node:
            continue
        elif _truth_tested(node, parents) or isinstance(parent, ast.Call) and _head(parent.func) == "callable" \
                and parent.args == [node]:  # `callable(f)`: True for every candidate, False for None
            continue
        else:
            return None
    if len(arities) != 1:  # never called, or with one argument here and two there
        return None
    takes = arities.pop()
    if takes == 0:  # `factory()`: a builtin container class its default names
        return _factory(fn, name)
    return root(takes, predicate)


def _factory(fn: ast.FunctionDef, name: str) -> str | None:
    """The model of parameter `name` called with no arguments, when its
    default is `dict`, `list` or `set` (`factory=dict`): a test passes a
    function that makes the same, as the default would."""
    args = fn.args
    defaults = [*zip(args.args[len(args.args) - len(args.defaults):], args.defaults),
                *zip(args.kwonlyargs, args.kw_defaults)]
    default = next((d for a, d in defaults if a.arg == name), None)
    return FACTORIES.get(default.id) if isinstance(default, ast.Name) else None


def _keyed(call: ast.AST | None) -> bool:
    """`sorted(...)`, `min(...)`, `max(...)`, `groupby(...)` or `xs.sort(...)`."""
    return isinstance(call, ast.Call) and (
        isinstance(call.func, ast.Name) and call.func.id in ("sorted", "min", "max", "groupby")
        or isinstance(call.func, ast.Attribute) and call.func.attr in ("sort", "groupby"))


def _truth_tested(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    """Is `node`'s value only tested for truth (an `if`, `while`, `not`,
    a comprehension's condition, an `and`/`or` that is itself tested)?"""
    parent = parents.get(id(node))
    if isinstance(parent, _TRUTH_TESTS) and parent.test is node:
        return True
    if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
        return True
    if isinstance(parent, ast.comprehension) and node in parent.ifs:
        return True
    if isinstance(parent, ast.BoolOp):
        return _truth_tested(parent, parents)
    return False


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def needs_models(tree: ast.Module) -> bool:
    """Does any function of the module take a callable parameter, or any
    annotation name `Callable` (a field may hold one)?"""
    for fn in ast.walk(tree):
        if isinstance(fn, ast.AnnAssign) and mentions_callable(fn.annotation):
            return True
        if not isinstance(fn, ast.FunctionDef):
            continue
        for arg in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]:
            if arg.annotation is not None and mentions_callable(arg.annotation) or \
                    arg.annotation is None and called_root(fn, arg.arg) is not None:
                return True
    return False


def add_models(tree: ast.Module) -> None:
    """Import the model classes into the module (merged by the linker like
    a model of the standard library: `frontend/modelclasses.py`)."""
    statement = ast.ImportFrom(module=MODEL_MODULE, names=[ast.alias(name=n) for n in MODEL_NAMES], level=0)
    tree.body.insert(0, ast.fix_missing_locations(ast.copy_location(statement, tree)))


def is_callable_type(cls: str | None) -> bool:
    return cls in ROOTS


def arguments_text(count: int) -> str:
    """`no arguments`, `one argument`, `2 arguments`: for notes and refusals."""
    return {0: "no arguments", 1: "one argument"}.get(count, f"{count} arguments")


def arity(cls: str | None) -> int | None:
    """How many arguments a call of a callable parameter of model class
    `cls` gives (None for no callable type)."""
    return ROOTS.get(cls or "")


def nested_types(info: FunctionInfo, reassigned: set[str], params: list[str]) -> tuple[Type, ...]:
    """The parameter types of a comprehension's or generator expression's
    own function: a callable parameter of the enclosing function it reads
    stays one (`pred(x) for x in xs`); the rest are ints, as the nested
    function's values come from its caller, whatever they are."""
    outer = dict(zip(info.params, info.param_types))
    return tuple(outer[p] if p in outer and p not in reassigned and is_callable_type(outer[p].cls) else INT
                 for p in params)


def callable_parameter(ex: ExprLowering, name: str) -> int | None:
    """How many arguments `name` takes if it is a parameter typed as a
    function (never rebound); None if it is not one."""
    if name not in ex.info.params or name in ex.reassigned:
        return None
    return arity(ex.info.param_types[ex.info.params.index(name)].cls)
