"""`@functools.total_ordering`: the comparison methods it adds, written out.

Why: libraries order value classes by writing `__eq__` and one of `__lt__`,
`__le__`, `__gt__`, `__ge__` and letting the decorator supply the rest; a
refused decorator refused the whole class. The decorator's behaviour is
small and fixed, so at load the class is read as CPython leaves it: the
decorator is dropped and each missing method is added, computed from the
root the way `functools` computes it (the root is the first of `__lt__`,
`__le__`, `__gt__`, `__ge__` the class defines; `a > b` from `__lt__` is
`not a < b and a != b`, and so on). The added methods have no lines of
their own: `DERIVED` marks them, and they are lowered silently, like a
dataclass's generated `__eq__`.

`functools` asks the root for NotImplemented first and returns it; a user
method's NotImplemented is not modelled (the path that returns it is
refused), so the added methods see the root's other results only, and
there the two agree. Only a class whose bases are `object` or classes of
the module that define no comparison, down to `object`, is read so: an
inherited comparison would be a root too (and is not replaced); others
keep the decorator and are refused as before.
"""

from __future__ import annotations

import ast
import copy

DERIVED = "pathcraft_derived_by_total_ordering"  # set on an added method's def

# root -> (added method, what it returns: {r} the root's result on ({a}, {b})), in functools' order
_FROM: dict[str, tuple[tuple[str, str], ...]] = {
    "__lt__": (("__gt__", "not {r} and {a} != {b}"), ("__le__", "{r} or {a} == {b}"), ("__ge__", "not {r}")),
    "__le__": (("__ge__", "not {r} or {a} == {b}"), ("__lt__", "{r} and {a} != {b}"), ("__gt__", "not {r}")),
    "__gt__": (("__lt__", "not {r} and {a} != {b}"), ("__ge__", "{r} or {a} == {b}"), ("__le__", "not {r}")),
    "__ge__": (("__le__", "not {r} or {a} == {b}"), ("__gt__", "{r} and {a} != {b}"), ("__lt__", "not {r}")),
}


def expand_total_ordering(tree: ast.Module) -> None:
    """Rewrite each class decorated with `functools.total_ordering` (see
    the module docstring), nested classes included."""
    imported = _decorator_names(tree)
    if not imported:
        return
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            _expand(node, imported, classes)


def _decorator_names(tree: ast.Module) -> set[str]:
    """How the module spells the decorator: `total_ordering` imported from
    functools (under its name or another), `functools.total_ordering`."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "functools" and not node.level:
            names.update(a.asname or a.name for a in node.names if a.name == "total_ordering")
        elif isinstance(node, ast.Import):
            names.update(f"{a.asname or a.name}.total_ordering" for a in node.names if a.name == "functools")
    return names


def _without_comparisons(bases: list[ast.expr], classes: dict[str, ast.ClassDef], seen: set[str]) -> bool:
    """Are `bases` `object` or classes of the module, down to `object`,
    that define and bind no comparison (so the decorated class's own root
    is the one `functools` finds, as with `object` alone)?"""
    for base in bases:
        if isinstance(base, ast.Name) and base.id == "object":
            continue
        if not isinstance(base, ast.Name) or base.id not in classes or base.id in seen:
            return False
        node = classes[base.id]
        bound = {item.name for item in node.body if isinstance(item, ast.FunctionDef)} | {
            t.id for item in node.body if isinstance(item, ast.Assign) for t in item.targets if isinstance(t, ast.Name)}
        if node.keywords or node.decorator_list or bound & set(_FROM) \
                or not _without_comparisons(node.bases, classes, seen | {base.id}):
            return False
    return True


def _expand(cls: ast.ClassDef, spellings: set[str], classes: dict[str, ast.ClassDef]) -> None:
    marked = [d for d in cls.decorator_list if ast.unparse(d) in spellings]
    if len(marked) != 1 or cls.keywords or not _without_comparisons(cls.bases, classes, {cls.name}):
        return
    defined = {item.name: item for item in cls.body if isinstance(item, ast.FunctionDef)}
    assigned = {t.id for item in cls.body if isinstance(item, ast.Assign) for t in item.targets
                if isinstance(t, ast.Name)}
    roots = [name for name in ("__lt__", "__le__", "__gt__", "__ge__") if name in defined]
    if not roots or assigned & set(_FROM):
        return  # functools raises ValueError with no root; a comparison bound otherwise is not read here
    root = defined[roots[0]]
    if len(root.args.args) != 2 or root.args.vararg or root.args.kwarg or root.args.kwonlyargs or root.decorator_list:
        return
    line = marked[0].lineno
    for name, body in _FROM[roots[0]]:
        if name not in defined:
            cls.body.append(_method(name, root, body, line))
    cls.decorator_list = [d for d in cls.decorator_list if d is not marked[0]]


def _method(name: str, root: ast.FunctionDef, body: str, line: int) -> ast.FunctionDef:
    """`def name(self, other) -> bool: result = self.<root>(other); return
    <body>`, `other` annotated as the root's is, every node at the
    decorator's line."""
    a, b = root.args.args[0].arg, root.args.args[1].arg
    r = "result"
    while r in (a, b):
        r += "_"
    text = (f"def {name}({a}, {b}):\n"
            f"    {r} = {a}.{root.name}({b})\n"
            f"    return {body.format(r=r, a=a, b=b)}\n")
    fn = ast.parse(text).body[0]
    assert isinstance(fn, ast.FunctionDef)
    fn.args.args[1].annotation = copy.deepcopy(root.args.args[1].annotation)
    fn.returns = ast.Name("bool", ast.Load())
    for part in ast.walk(fn):
        if not isinstance(part, ast.expr_context):
            part.lineno, part.end_lineno = line, line  # type: ignore[attr-defined]
            part.col_offset, part.end_col_offset = 0, 0  # type: ignore[attr-defined]
    setattr(fn, DERIVED, True)
    return fn
