"""Reading types from annotations (never evaluated).

Annotations may be strings or postponed (`from __future__ import
annotations`), may use `Optional[C]` or `C | None`, and may name classes
defined later in the module.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from pathcraft.frontend import callables
from pathcraft.frontend.optional import optional_scalar
from pathcraft.ir.types import BOOL, FLOAT, INT, NONE, STR, Type


class TypeSyntaxError(ValueError):
    """An annotation outside the subset; the message names it."""


def parse_type(node: ast.expr | None, classes: set[str], owner: str | None = None,
               aliases: Mapping[str, ast.expr] | None = None) -> Type:
    """`owner`: the class whose body the annotation is in (for `Self`).
    `aliases`: names standing for other annotations (`type X = ...`, type
    parameters: see `type_scope`).
    `Any` and `object` are modelled as int: a value of any type will do, and
    an int is the simplest one the generated tests can pass."""
    if node is None:
        raise TypeSyntaxError("missing type annotation")
    function = callables.annotated_root(node)
    if function is not None:  # `Callable[[T], R]`: a function the caller passes (frontend/callables.py)
        return Type("obj", function[0], optional=function[1])
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            parsed = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            raise TypeSyntaxError(f"type '{node.value}'") from None
        return parse_type(parsed, classes, owner, aliases)
    if isinstance(node, ast.Constant) and node.value is None:
        return NONE
    if isinstance(node, ast.Name):
        return _named_type(node.id, classes, owner, aliases)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "typing":
        return parse_type(ast.Name(node.attr), classes, owner, aliases)
    if isinstance(node, ast.Attribute) and ast.unparse(node) in classes:  # `Outer.Inner`, a nested class
        return Type("obj", ast.unparse(node))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union_type(node, classes, owner, aliases)
    if isinstance(node, ast.Subscript):
        return _generic_type(node, classes, owner, aliases)
    raise TypeSyntaxError(f"type '{ast.unparse(node)}'")


def _named_type(name: str, classes: set[str], owner: str | None, aliases: Mapping[str, ast.expr] | None) -> Type:
    """A type spelled as one name: a builtin, a bare container, a class,
    `Self`, `Any`, an alias."""
    if name == "int":
        return INT
    if name == "bool":
        return BOOL
    if name == "float":
        return FLOAT
    if name == "str":
        return STR
    if name in BARE_LISTS:  # items of any type: int is the simplest (announced: see bare_lists)
        return Type("list", elem=INT)
    if name in BARE_DICTS:  # likewise: int keys and values (announced)
        return Type("dict", elem=INT, key=INT)
    if name in BARE_SETS:
        return Type("set", elem=INT)
    if name in classes:
        return Type("obj", name)
    if name == "Self" and owner is not None:
        return Type("obj", owner)
    if name in ("Any", "object"):
        return INT
    if aliases and name in aliases:
        rest = {other: value for other, value in aliases.items() if other != name}  # no self-reference
        return parse_type(aliases[name], classes, owner, rest)
    raise TypeSyntaxError(f"type '{name}'")


def _union_type(node: ast.BinOp, classes: set[str], owner: str | None,
                aliases: Mapping[str, ast.expr] | None) -> Type:
    """`A | B`: `int | float` (a float), or a reference type or None."""
    left, right = parse_type(node.left, classes, owner, aliases), parse_type(node.right, classes, owner, aliases)
    if {left.kind, right.kind} == {"int", "float"} and not (left.optional or right.optional):
        return FLOAT  # a float is a value of `int | float`: the tests pass floats
    if right.kind == "none" and left.is_ref:
        return left.nullable()
    if left.kind == "none" and right.is_ref:
        return right.nullable()
    raise TypeSyntaxError(f"type '{ast.unparse(node)}'")


def _generic_type(node: ast.Subscript, classes: set[str], owner: str | None,
                  aliases: Mapping[str, ast.expr] | None) -> Type:
    """`list[T]`, `Optional[T]`, `deque[T]`, `tuple[...]`, `set[K]`,
    `dict[K, V]` and the abstract ones a list, dict or set satisfies."""
    if isinstance(node.value, ast.Attribute) and isinstance(node.value.value, ast.Name) \
            and node.value.value.id in ("typing", "typing_extensions"):  # `typing.Tuple[int, int]`
        return parse_type(ast.Subscript(ast.Name(node.value.attr), node.slice), classes, owner, aliases)
    if isinstance(node.value, ast.Attribute) \
            and node.value.attr in ABSTRACT_SEQUENCES + ABSTRACT_MAPPINGS + ABSTRACT_SETS:  # `abc.Sequence[int]`
        return parse_type(ast.Subscript(ast.Name(node.value.attr), node.slice), classes, owner, aliases)
    if isinstance(node.value, ast.Attribute) \
            and isinstance(node.value.value, ast.Name) and node.value.value.id in ("collections", "typing") \
            and node.value.attr in ("deque", "Deque"):  # `collections.deque[int]`
        return parse_type(ast.Subscript(ast.Name(node.value.attr), node.slice), classes, owner, aliases)
    if isinstance(node.value, ast.Name) and node.value.id in classes:  # `Node[T]`: a generic class is the class
        return Type("obj", node.value.id)
    if isinstance(node.value, ast.Name) and node.value.id == "Literal" or isinstance(node.value, ast.Attribute) \
            and node.value.attr == "Literal" and isinstance(node.value.value, ast.Name):
        return _literal_type(node)
    if isinstance(node.value, ast.Name):
        head = node.value.id
        if head in ABSTRACT_SEQUENCES:  # a list is one: the tests pass lists
            head = "list"
        if head in ABSTRACT_MAPPINGS:
            head = "dict"
        if head in ABSTRACT_SETS:  # a set is one: the tests pass sets
            head = "set"
        if head == "Optional":
            inner = parse_type(node.slice, classes, owner, aliases)
            if not inner.is_ref:
                raise TypeSyntaxError(f"type '{ast.unparse(node)}' (Optional of a non-reference)")
            return inner.nullable()
        if head in ("list", "List"):
            return Type("list", elem=parse_type(node.slice, classes, owner, aliases))
        if head in ("deque", "Deque") and head not in classes:  # `collections.deque[T]`: a list cell so marked
            return Type("list", elem=_deque_item(parse_type(node.slice, classes, owner, aliases), node), deque=True)
        if head in ("tuple", "Tuple"):
            return _tuple_type(node, classes, owner, aliases)
        if head in BARE_SETS:
            return Type("set", elem=_key_type(parse_type(node.slice, classes, owner, aliases), node))
        if head in BARE_DICTS and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2:
            key, value = (parse_type(e, classes, owner, aliases) for e in node.slice.elts)
            return Type("dict", elem=value, key=_key_type(key, node))
    raise TypeSyntaxError(f"type '{ast.unparse(node)}'")


def _literal_type(node: ast.Subscript) -> Type:
    """`Literal["a", "b"]`: the type of its values, all strs, all ints or
    all bools (the tests may pass other values of that type: Python does
    not check annotations)."""
    values = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    kinds = {type(v.value) for v in values if isinstance(v, ast.Constant)}
    if len(kinds) == 1 and len(values) == sum(isinstance(v, ast.Constant) for v in values):
        kind = kinds.pop()
        if kind is str:
            return STR
        if kind is bool:
            return BOOL
        if kind is int:
            return INT
    raise TypeSyntaxError(f"type '{ast.unparse(node)}' (a Literal of other than strs, ints or bools alone)")


BARE_LISTS = ("list", "List")
# abstract annotations a list (a dict) satisfies: inputs are built as one
ABSTRACT_SEQUENCES = ("Sequence", "MutableSequence", "Iterable", "Collection", "Reversible")
ABSTRACT_MAPPINGS = ("Mapping", "MutableMapping")
ABSTRACT_SETS = ("AbstractSet", "MutableSet")
BARE_DICTS = ("dict", "Dict")
BARE_SETS = ("set", "Set")


def _key_type(key: Type, node: ast.expr) -> Type:
    """Keys of a dict and items of a set: hashable scalars (int, bool, str;
    a set of str is walked in an order Python does not fix: that drops)."""
    if key.kind not in ("int", "bool", "str") or key.optional:
        raise TypeSyntaxError(f"type '{ast.unparse(node)}' (keys other than int, bool or str)")
    return key


def bare_lists(node: ast.expr) -> bool:
    """Does the annotation say `list` (or `dict`, `set`) without its item
    types? (pathcraft then takes them as ints, and says so.)"""
    subscripted = {id(n.value) for n in ast.walk(node) if isinstance(n, ast.Subscript)}
    bare = BARE_LISTS + BARE_DICTS + BARE_SETS
    return any(isinstance(n, ast.Name) and n.id in bare and id(n) not in subscripted for n in ast.walk(node))


def type_scope(aliases: Mapping[str, ast.expr], *generic: ast.AST | None) -> dict[str, ast.expr]:
    """The aliases visible in a function or class: the module's `type X =
    ...` statements, then the type parameters (PEP 695, `def f[T: Node]`)
    of each enclosing `generic` node. A type variable stands for its bound,
    or for `Any` (modelled as int) when it has none; a constrained one for
    its first constraint. `*Ts` and `**P` are left out (refused where used)."""
    scope = dict(aliases)
    for node in generic:
        for param in getattr(node, "type_params", ()) or ():
            if type(param).__name__ != "TypeVar":
                continue
            bound = getattr(param, "bound", None)
            if isinstance(bound, ast.Tuple):
                bound = bound.elts[0] if bound.elts else None
            scope[param.name] = bound if bound is not None else ast.Name("Any")
    return scope


def _tuple_type(node: ast.Subscript, classes: set[str], owner: str | None,
                aliases: Mapping[str, ast.expr] | None) -> Type:
    """`tuple[str, Node]` (fixed length) or `tuple[T, ...]`, of any types the
    subset has (`heap/tuples.py` builds them as inputs)."""
    elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    variadic = len(elts) == 2 and isinstance(elts[1], ast.Constant) and elts[1].value is Ellipsis
    if not elts or any(isinstance(e, ast.Constant) and e.value is Ellipsis for e in (elts[:1] if variadic else elts)):
        raise TypeSyntaxError(f"type '{ast.unparse(node)}'")
    kinds = [_tuple_item(e, classes, owner, aliases) for e in (elts[:1] if variadic else elts)]
    return Type("tuple", elem=kinds[0]) if variadic else Type("tuple", items=tuple(kinds))


def _tuple_item(node: ast.expr, classes: set[str], owner: str | None,
                aliases: Mapping[str, ast.expr] | None) -> Type:
    """An item type of a tuple annotation; `X | None` of a scalar X is that
    scalar, optional (an item is a value of its own, not a field)."""
    scalar = optional_scalar(node)
    if scalar is not None:
        return parse_type(scalar, classes, owner, aliases).nullable()
    return parse_type(node, classes, owner, aliases)


def _deque_item(item: Type, node: ast.expr) -> Type:
    """A deque parameter or field holds ints or bools (a symbolic length, as `list[int]`)."""
    if item.kind not in ("int", "bool") or item.optional:
        raise TypeSyntaxError(f"type '{ast.unparse(node)}' (a deque of other than ints or bools)")
    return item
