"""Types of instance attributes nobody annotated, read off the code that sets them.

An input object of a class is built with every attribute the model knows a
type for; an attribute of unknown type stays out of it, and a path that
reads one is dropped. So the more attributes get a type, the more methods
get tests on objects that look like the ones the class makes itself.

A type is inferred from every assignment `self.f = value` (or `self.f op=
value`) in the methods of the class and of its bases, with the value typed
by a small expression typer (literals, arithmetic, `len`, constructors of
the module's classes, annotated parameters, locals assigned such values,
other attributes already typed), joined over the assignments:
`None` and a class give `C | None`; ints stay ints when `None` also occurs
(an optional scalar is not modelled: the int states are real ones). When
some assignment cannot be typed, the assignments `__init__` makes (with the
methods it calls on `self`, and the bases' `__init__`) that can be typed
decide alone: a state right after construction along such an assignment is
reachable whatever the other assignments store.
An attribute the class only ever sets to `None` takes the types other code
of the module stores into it (`node.next = other`), the usual linked-node
pattern; one that `__init__` sets to `None` and other methods to objects of
a class (`self.head = new_node`) takes `C | None` even when some assignment
cannot be typed.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from pathcraft.frontend.field_uses import int_by_use
from pathcraft.frontend.nested import dotted
from pathcraft.ir.builtin_names import MADE_BY
from pathcraft.ir.nodes import Sentinel, Text
from pathcraft.ir.types import BOOL, FLOAT, INT, NONE, STR, Type

# Parses an annotation in the scope of a method; None for what the subset lacks.
Annotation = Callable[[ast.expr, ast.FunctionDef | None], Type | None]

_INT_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod,  # not **: 2 ** -1 is a float
            ast.LShift, ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor)
_INT_CALLS = ("len", "int", "abs", "ord", "hash")
_STR_CALLS = ("str", "repr", "chr", "hex", "oct", "bin", "ascii")
# what a method of `str` returns, by its name (`interpreter.lower()` is a str)
_STR_METHODS: dict[str, Type] = {
    **dict.fromkeys(("lower", "upper", "strip", "lstrip", "rstrip", "casefold", "title", "capitalize",
                     "swapcase", "replace", "removeprefix", "removesuffix", "zfill", "center", "ljust",
                     "rjust", "expandtabs", "join", "format"), STR),
    **dict.fromkeys(("find", "rfind", "index", "rindex", "count"), INT),
    **dict.fromkeys(("startswith", "endswith", "isdigit", "isalpha", "isalnum", "isspace", "islower",
                     "isupper", "isdecimal", "isnumeric", "isidentifier", "istitle", "isascii",
                     "isprintable"), BOOL),
    **dict.fromkeys(("split", "rsplit", "splitlines"), Type("list", elem=STR)),
}


@dataclass(frozen=True)
class _Site:
    """One assignment to an attribute: its value (None: not visible, e.g.
    unpacking of a call), the augmented operator if any, and its method."""

    value: ast.expr | None
    op: ast.operator | None
    method: ast.FunctionDef


class Unknown:
    """The type of a value the typer cannot tell."""


UNKNOWN = Unknown()
Inferred = Type | Unknown


class _NotYet(Unknown):
    """An attribute of the class being typed, read through another instance
    (`node._next._next`) before the attribute is typed: it adds nothing to
    a join (the fixpoint types it from its other assignments)."""


NOT_YET = _NotYet()
# `[]`: a list whose items other assignments, or `append`s, must tell
EMPTY_LIST = Type("list", elem=None)
EMPTY_DICT = Type("dict", elem=None, key=None)
EMPTY_SET = Type("set", elem=None)
EMPTY_DEQUE = Type("list", elem=None, deque=True)


def infer_attributes(
    chain: list[ast.ClassDef],
    declared: Mapping[str, Type],
    classes: set[str],
    constants: Mapping[str, int | bool | float | Text | Sentinel | None],
    annotation: Annotation,
    mangle: Callable[[str, str], str],
    foreign: Mapping[str, list[ForeignWrite]],
    fields_of: Callable[[str], Mapping[str, Type]],
    nested_class: Callable[[str, str], str | None] = lambda owner, attr: None,
    untyped: Callable[[ast.FunctionDef, str, Typer], Inferred] | None = None,
    returned: Callable[[str, str, Typer], Inferred] | None = None,
) -> dict[str, Type]:
    """Types for the attributes the classes in `chain` (the class first, then
    its bases) set on `self` and that `declared` does not already type;
    `nested_class(C, X)`: the class `self.X` names in C's code, if any."""
    sites: dict[str, list[_Site]] = {}
    for cls in chain:
        for method in _methods(cls):
            for name, site in _self_assignments(method, cls.name, mangle):
                sites.setdefault(name, []).append(site)
    if not sites:
        return {}
    at_init = _construction_methods(chain)
    typer = Typer(classes, constants, annotation, {m for cls in chain for m in _methods(cls)})
    typer.fields_of = fields_of
    typer.owner = chain[0].name
    typer.class_constants = _class_constants(chain)
    typer.pending = set(sites) - set(declared)
    typer.nested_class = nested_class
    if untyped is not None:
        typer.untyped = untyped
    if returned is not None:
        typer.returned = returned
    known: dict[str, Type] = dict(declared)
    for _ in range(len(sites) + 1):  # each round can only type more attributes
        typer.fields = known
        found: dict[str, Type] = {}
        for name, assigned in sites.items():
            if name in declared:
                continue
            kind = _assigned_type(typer, assigned, known.get(name), at_init)
            if isinstance(kind, Type) and kind.kind == "none" and name in foreign:
                kind = _with_foreign_writes(typer, kind, foreign[name])
            kind = _with_items(typer, kind, chain, name, mangle)
            if isinstance(kind, Type):
                found[name] = kind
        updated = {**declared, **found}
        if updated == known:
            break
        known = updated
    typer.fields = known
    for name, assigned in sites.items():  # what no store tells, the methods' uses may (frontend/field_uses.py)
        if name in known:
            continue
        stored = [kind for site in assigned if isinstance(kind := typer.site_type(site, None), Type)]
        if all(kind == INT for kind in stored) and int_by_use(chain, name, mangle, _methods) == INT:
            known[name] = INT
    return {name: kind for name, kind in known.items() if name not in declared}



def _assigned_type(typer: Typer, assigned: list[_Site], current: Type | None,
                   at_init: set[ast.FunctionDef]) -> Inferred:
    """The join of what every assignment stores; when one cannot be typed,
    of what construction stores (widened by the objects stored elsewhere
    when construction stores only None)."""
    every = [typer.site_type(s, current) for s in assigned]
    kind = join_types(every)
    if isinstance(kind, Unknown):
        early = [typer.site_type(s, current) for s in assigned if s.method in at_init]
        typed = [k for k in early if isinstance(k, Type)]
        kind = join_types(typed) if typed else UNKNOWN
        if isinstance(kind, Type) and kind.kind == "none":  # `self.head = None`, then nodes elsewhere
            widened = join_types([kind, *(k for k in every if isinstance(k, Type))])
            if isinstance(widened, Type) and widened.kind == "obj":
                kind = widened
    return kind


def _with_foreign_writes(typer: Typer, kind: Type, writes: list[ForeignWrite]) -> Inferred:
    """An attribute only set to None here, joined with what other code
    stores into it."""
    stored = [typer.expr_type(w.value, w.function, owner=w.owner) for w in writes]
    if any(isinstance(k, Type) and k.kind == "obj" for k in stored):  # nodes linked from outside:
        stored = [k for k in stored if isinstance(k, Type)]  # the stores whose values are plain tell
    return join_types([kind, *stored])


def _with_items(typer: Typer, kind: Inferred, chain: list[ast.ClassDef], name: str,
                mangle: Callable[[str, str], str]) -> Inferred:
    """An empty container's items, from what the code appends or stores
    into it."""
    if isinstance(kind, Type) and kind.kind == "list" and kind.elem is None:
        items = _appended(typer, chain, name, mangle)
        if kind.deque:
            items = Type("list", elem=items.elem, deque=True)
        kind = items.nullable() if kind.optional else items
    if isinstance(kind, Type) and kind.kind == "list" and kind.elem == EMPTY_LIST:
        rows = Type("list", elem=_appended(typer, chain, name, mangle, nested=True))
        kind = rows.nullable() if kind.optional else rows
    if isinstance(kind, Type) and kind.kind in ("dict", "set") and kind.elem is None:
        entries = _entries(typer, chain, name, mangle) if kind.kind == "dict" else Type("set", elem=INT)
        kind = entries.nullable() if kind.optional else entries
    return kind


@dataclass(frozen=True)
class ForeignWrite:
    """`x.f = value` where `x` is not the method's own instance; `owner`:
    the class whose method it is in (None in a plain function)."""

    value: ast.expr
    function: ast.FunctionDef
    owner: str | None


def foreign_assignments(tree: ast.Module) -> dict[str, list[ForeignWrite]]:
    """Every `x.f = value` of the module outside `x`'s own methods, by `f`."""
    found: dict[str, list[ForeignWrite]] = {}
    owners: dict[ast.FunctionDef, str] = {}
    for cls in ast.walk(tree):
        if isinstance(cls, ast.ClassDef):
            owners.update({m: cls.name for m in _methods(cls)})
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        owner = owners.get(fn)
        me = fn.args.args[0].arg if owner is not None else None
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Attribute) and not (
                        isinstance(target.value, ast.Name) and target.value.id == me):
                    found.setdefault(target.attr, []).append(ForeignWrite(node.value, fn, owner))
    return found


def _methods(cls: ast.ClassDef) -> Iterator[ast.FunctionDef]:
    for item in cls.body:
        if isinstance(item, ast.FunctionDef) and item.args.args and not any(
                isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in item.decorator_list):
            yield item


def _self_assignments(method: ast.FunctionDef, cls: str,
                      mangle: Callable[[str, str], str]) -> Iterator[tuple[str, _Site]]:
    me = method.args.args[0].arg

    def mine(target: ast.expr) -> str | None:
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == me:
            return mangle(target.attr, cls)
        return None

    for node in ast.walk(method):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                name = mine(target)
                if name is not None:
                    yield name, _Site(node.value, None, method)
                elif isinstance(target, (ast.Tuple, ast.List)):
                    values = node.value.elts if isinstance(node.value, (ast.Tuple, ast.List)) \
                        and len(node.value.elts) == len(target.elts) else [None] * len(target.elts)
                    for part, value in zip(target.elts, values):
                        name = mine(part)
                        if name is not None:
                            yield name, _Site(value, None, method)
        elif isinstance(node, ast.AnnAssign):
            name = mine(node.target)
            if name is not None and node.value is not None:
                yield name, _Site(node.value, None, method)
        elif isinstance(node, ast.AugAssign):
            name = mine(node.target)
            if name is not None:
                yield name, _Site(node.value, node.op, method)
        elif isinstance(node, (ast.For, ast.With, ast.NamedExpr)):
            targets = [node.target] if isinstance(node, (ast.For, ast.NamedExpr)) else \
                [item.optional_vars for item in node.items if item.optional_vars is not None]
            for target in targets:
                for piece in ast.walk(target):
                    bound = mine(piece) if isinstance(piece, ast.Attribute) and isinstance(piece.ctx, ast.Store) \
                        else None
                    if bound is not None:
                        yield bound, _Site(None, None, method)


def _appended(typer: Typer, chain: list[ast.ClassDef], name: str,
              mangle: Callable[[str, str], str], nested: bool = False) -> Type:
    """`list[T]` for an attribute only ever set to `[]`, T from what the
    methods `append` or `insert` into it; `list[int]` when they do not tell.
    `nested`: the attribute holds such lists (`[[], []]`), appended to as
    `self.f[i].append(x)`."""
    items: list[Inferred] = []
    for cls in chain:
        for method in _methods(cls):
            me = method.args.args[0].arg
            for node in ast.walk(method):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                    continue
                owner: ast.expr | None = node.func.value
                if nested:
                    owner = owner.value if isinstance(owner, ast.Subscript) else None
                if node.func.attr in ("append", "insert", "appendleft") and node.args \
                        and isinstance(owner, ast.Attribute) \
                        and isinstance(owner.value, ast.Name) and owner.value.id == me \
                        and mangle(owner.attr, cls.name) == name:
                    items.append(typer.expr_type(node.args[-1], method))
    elem = join_types(items) if items else INT
    if isinstance(elem, Type) and elem.kind in ("int", "bool", "obj") and not elem.optional:
        return Type("list", elem=elem)
    return Type("list", elem=INT)


def _entries(typer: Typer, chain: list[ast.ClassDef], name: str, mangle: Callable[[str, str], str]) -> Type:
    """`dict[K, V]` for an attribute only ever set to `{}`, from what the
    methods store in it (`self.d[k] = v`, `self.d.setdefault(k, v)`); int
    for what they do not tell (keys other than int, bool or str are ints)."""
    keys: list[Inferred] = []
    values: list[Inferred] = []
    for cls in chain:
        for method in _methods(cls):
            me = method.args.args[0].arg

            def is_me(node: ast.expr) -> bool:
                return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == me and mangle(node.attr, cls.name) == name

            for node in ast.walk(method):
                if isinstance(node, ast.Assign):
                    for target in node.targets:
                        if isinstance(target, ast.Subscript) and is_me(target.value):
                            keys.append(typer.expr_type(target.slice, method))
                            values.append(typer.expr_type(node.value, method))
                elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                        and node.func.attr == "setdefault" and len(node.args) == 2 and is_me(node.func.value):
                    keys.append(typer.expr_type(node.args[0], method))
                    values.append(typer.expr_type(node.args[1], method))
    key = join_types(keys) if keys else INT
    value = join_types(values) if values else INT
    if value == EMPTY_LIST:
        value = Type("list", elem=INT)
    if not (isinstance(value, Type) and value.kind in ("int", "bool", "obj", "list") and value.elem != EMPTY_LIST
            and (value.kind != "list" or value.elem in (INT, BOOL))):
        value = INT
    return Type("dict", elem=value, key=key if key in (INT, BOOL) else INT)


def _construction_methods(chain: list[ast.ClassDef]) -> set[ast.FunctionDef]:
    """The methods that run while an instance is constructed: each class's
    `__init__` in the chain and the methods they call on `self`,
    transitively (within the chain)."""
    by_name: dict[str, ast.FunctionDef] = {}
    for cls in reversed(chain):  # the class's own method wins over a base's
        by_name.update({m.name: m for m in _methods(cls)})
    todo = [m for cls in chain for m in _methods(cls) if m.name == "__init__"]
    seen: set[ast.FunctionDef] = set()
    while todo:
        method = todo.pop()
        if method in seen:
            continue
        seen.add(method)
        me = method.args.args[0].arg
        for node in ast.walk(method):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == me \
                    and node.func.attr in by_name:
                todo.append(by_name[node.func.attr])
    return seen


def join_types(kinds: Sequence[Inferred]) -> Inferred:
    """One type for an attribute that holds each of `kinds` at some time."""
    if kinds and all(k is NOT_YET for k in kinds):
        return NOT_YET
    kinds = [k for k in kinds if k is not NOT_YET]
    if not kinds or any(isinstance(k, Unknown) for k in kinds):
        return UNKNOWN
    types = [k for k in kinds if isinstance(k, Type)]
    maybe_none = any(t.kind == "none" or t.optional for t in types)
    classes = list(dict.fromkeys(str(m.cls) for t in types if t.kind == "obj" for m in (t, *t.alternatives)))
    if classes and all(t.kind in ("obj", "none") for t in types):  # objects of several classes: a union of them
        union = Type("obj", classes[0], alternatives=tuple(Type("obj", c) for c in classes[1:]))
        return union.nullable() if maybe_none else union
    values = {Type(t.kind, t.cls, False, t.elem, t.items, t.key, t.deque) for t in types if t.kind != "none"}
    for empty in (EMPTY_LIST, EMPTY_DICT, EMPTY_SET, EMPTY_DEQUE):
        if empty in values and any(v.kind == empty.kind and v.elem is not None for v in values):
            values.discard(empty)
    if not values:
        return NONE
    if len(values) > 1:
        return UNKNOWN
    (kind,) = values
    return kind.nullable() if maybe_none else kind  # `int | None`: None or an int, chosen when read


def _constant_type(value: object) -> Inferred:
    """The type of a literal: None, a bool, a float, an int, a str."""
    if value is None:
        return NONE
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, float):
        return FLOAT
    if isinstance(value, str):
        return STR
    return INT if isinstance(value, int) else UNKNOWN


def _display_type(node: ast.List | ast.Dict | ast.Set) -> Inferred:
    """A list, dict or set display: empty (its items told elsewhere), or
    of int literals."""
    if isinstance(node, ast.List):
        if not node.elts:
            return EMPTY_LIST
        if all(isinstance(e, ast.List) and not e.elts for e in node.elts):
            return Type("list", elem=EMPTY_LIST)  # `[[], [], []]`: lists whose items appends tell
        return Type("list", elem=INT) if _int_list(node) else UNKNOWN
    parts = [*node.keys, *node.values] if isinstance(node, ast.Dict) else node.elts
    if not parts:
        return EMPTY_DICT
    if all(isinstance(p, ast.Constant) and type(p.value) is int for p in parts):
        return Type("dict", elem=INT, key=INT) if isinstance(node, ast.Dict) else Type("set", elem=INT)
    return UNKNOWN


class Typer:
    """Types of expressions in a method, as far as they are plain."""

    def __init__(self, classes: set[str], constants: Mapping[str, int | bool | float | Text | Sentinel | None],
                 annotation: Annotation, methods: set[ast.FunctionDef]) -> None:
        self.classes = classes
        self.constants = constants
        self.annotation = annotation
        self.methods = methods  # where the first parameter is an instance of the class
        self.fields: Mapping[str, Type] = {}
        self.fields_of: Callable[[str], Mapping[str, Type]] = lambda owner: {}
        self.owner = ""  # the class whose attributes are typed
        self.memo: dict[object, Inferred] = {}  # the hooks' answers, per round of the fixpoint
        self.pending: set[str] = set()  # its attributes to type
        self.nested_class: Callable[[str, str], str | None] = lambda owner, attr: None
        # an unannotated parameter's type (see frontend/untyped.py)
        self.untyped: Callable[[ast.FunctionDef, str, Typer], Inferred] = lambda fn, name, typer: UNKNOWN
        # what method `m` of class C returns, `returned(C, m, typer)` (see frontend/module.py)
        self.returned: Callable[[str, str, Typer], Inferred] = lambda owner, name, typer: UNKNOWN
        self._locals: dict[ast.FunctionDef, dict[str, list[ast.expr | None]]] = {}
        # `LOAD = 1000` in the class body or a base's: what `self.LOAD` reads where no instance sets it
        self.class_constants: Mapping[str, Type] = {}

    def site_type(self, site: _Site, current: Type | None) -> Inferred:
        if site.value is None:
            return UNKNOWN
        value = self.expr_type(site.value, site.method)
        if site.op is None:
            return value
        if current is None or isinstance(value, Unknown):
            return UNKNOWN
        return self._binop(site.op, current, value)

    def expr_type(self, node: ast.expr, fn: ast.FunctionDef, seen: frozenset[str] = frozenset(),
                  owner: str | None = None) -> Inferred:
        """`seen`: the locals being typed (a name assigned from itself is
        unknown); `owner`: the class of a foreign method `fn`, whose own
        attributes `self.f` are typed by that class."""
        if isinstance(node, ast.Constant):
            return _constant_type(node.value)
        if isinstance(node, ast.Name):
            return self._name_type(node.id, fn, seen, owner)
        if isinstance(node, ast.Attribute):
            return self._attribute_type(node, fn, seen, owner)
        if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp)):
            return self._operation_type(node, fn, seen, owner)
        if isinstance(node, (ast.List, ast.Dict, ast.Set)):
            return _display_type(node)
        if isinstance(node, ast.Call):
            return self._call_type(node, fn, owner, seen)
        if isinstance(node, ast.JoinedStr):
            return STR
        if isinstance(node, ast.Subscript):
            return self._subscript_type(node, fn, seen, owner)
        return UNKNOWN

    def _subscript_type(self, node: ast.Subscript, fn: ast.FunctionDef, seen: frozenset[str],
                        owner: str | None) -> Inferred:
        """`s[i]`, `s[a:b]` of a str; `xs[i]` of a list; `xs[a:b]`; `d[k]`."""
        held = self.expr_type(node.value, fn, seen, owner)
        if not isinstance(held, Type) or held.optional:
            return UNKNOWN
        if held == STR:
            return STR
        if held.kind == "list":
            if isinstance(node.slice, ast.Slice):
                return held
            return held.elem if held.elem is not None else UNKNOWN
        if held.kind == "dict" and not isinstance(node.slice, ast.Slice) and held.elem is not None:
            return held.elem
        return UNKNOWN

    def _attribute_type(self, node: ast.Attribute, fn: ast.FunctionDef, seen: frozenset[str],
                        owner: str | None) -> Inferred:
        """`self.f`: the field's type so far; `x.f`: a field of x's class."""
        if isinstance(node.value, ast.Name) and fn.args.args \
                and node.value.id == fn.args.args[0].arg and (fn in self.methods or owner is not None):
            attributes = self.fields if fn in self.methods else self.fields_of(owner or "")
            if node.attr not in attributes and node.attr not in self.pending and fn in self.methods:
                return self.class_constants.get(node.attr, UNKNOWN)  # `self.LOAD`: the class's constant
            return attributes.get(node.attr, UNKNOWN)
        if not (isinstance(node.value, ast.Name) and node.value.id in seen):
            held = self.expr_type(node.value, fn, seen, owner)  # `node._next`: a field of the node's class
            if held is NOT_YET:
                return NOT_YET
            if isinstance(held, Type) and held.kind == "obj" and held.cls is not None:
                if held.cls == self.owner:
                    return self.fields.get(node.attr, NOT_YET if node.attr in self.pending else UNKNOWN)
                return self.fields_of(str(held.cls)).get(node.attr, UNKNOWN)
        return UNKNOWN

    def _operation_type(self, node: ast.BinOp | ast.UnaryOp | ast.Compare | ast.BoolOp | ast.IfExp,
                        fn: ast.FunctionDef, seen: frozenset[str], owner: str | None) -> Inferred:
        """An operator's result, from its operands' types."""
        if isinstance(node, ast.BinOp):
            if _int_list(node):
                return Type("list", elem=INT)
            left = self.expr_type(node.left, fn, seen, owner)
            right = self.expr_type(node.right, fn, seen, owner)
            if isinstance(left, Type) and isinstance(right, Type):
                return self._binop(node.op, left, right)
            return UNKNOWN
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.Not):
                return BOOL
            operand = self.expr_type(node.operand, fn, seen, owner)
            return INT if operand in (INT, BOOL) else UNKNOWN
        if isinstance(node, ast.Compare):
            return BOOL
        if isinstance(node, ast.BoolOp):
            kinds = {self.expr_type(v, fn, seen, owner) for v in node.values}
            return BOOL if kinds == {BOOL} else UNKNOWN
        return join_types([self.expr_type(node.body, fn, seen, owner),
                           self.expr_type(node.orelse, fn, seen, owner)])

    def _call_type(self, node: ast.Call, fn: ast.FunctionDef, owner: str | None,
                   seen: frozenset[str] = frozenset()) -> Inferred:
        """What a call makes: an empty container, an instance, an int, a
        bool or a str of a builtin, what a method of `self` or of a str returns."""
        if isinstance(node.func, ast.Name) and not node.args and not node.keywords \
                and node.func.id in ("dict", "set") and not self._shadowed(node.func.id, fn):
            return EMPTY_DICT if node.func.id == "dict" else EMPTY_SET
        if not node.args and not node.keywords and dotted(node.func) in ("deque", "collections.deque") \
                and not self._shadowed("deque" if isinstance(node.func, ast.Name) else "collections", fn):
            return EMPTY_DEQUE  # its items: what the methods append
        if isinstance(node.func, (ast.Name, ast.Attribute)) and len(node.args) == 1 \
                and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) == "defaultdict":
            factory = node.args[0]
            made = factory.id if isinstance(factory, ast.Name) else None
            values = {"int": INT, "bool": BOOL, "list": Type("list", elem=INT), "set": Type("set", elem=INT),
                      "dict": Type("dict", elem=INT, key=INT)}
            return Type("dict", elem=values[made], key=INT) if made in values else UNKNOWN
        if isinstance(node.func, ast.Attribute) and not node.keywords:
            made = self._nested_class(node.func, fn, owner)
            if made is not None:
                return Type("obj", made)
            if isinstance(node.func.value, ast.Name) and fn.args.args and node.func.value.id == fn.args.args[0].arg:
                me = self.owner if fn in self.methods else owner  # `self.m(...)`: what `m` returns
                return self.returned(me, node.func.attr, self) if me else UNKNOWN
            if node.func.attr in _STR_METHODS and self.expr_type(node.func.value, fn, seen, owner) == STR:
                return _STR_METHODS[node.func.attr]  # `interpreter.lower()`
        if isinstance(node.func, ast.Name) and not node.keywords:
            if node.func.id in self.classes or node.func.id in MADE_BY:  # a lock's model (frontend/locks.py)
                return Type("obj", node.func.id)
            if node.func.id in _INT_CALLS and not self._shadowed(node.func.id, fn):
                return INT
            if node.func.id == "bool" and not self._shadowed("bool", fn):
                return BOOL
            if node.func.id in _STR_CALLS and len(node.args) == 1 and not self._shadowed(node.func.id, fn):
                return STR
        return UNKNOWN

    def _nested_class(self, func: ast.Attribute, fn: ast.FunctionDef, owner: str | None) -> str | None:
        """The class `self.X`, `cls.X` or `Outer.X` names (frontend/nested.py)."""
        spelled = dotted(func)
        if spelled in self.classes:
            return spelled
        if isinstance(func.value, ast.Name) and fn.args.args and func.value.id == fn.args.args[0].arg:
            me = self.owner if fn in self.methods else owner
            return self.nested_class(me, func.attr) if me else None
        return None

    def _binop(self, op: ast.operator, left: Type, right: Type) -> Inferred:
        if isinstance(op, _INT_OPS) and left in (INT, BOOL) and right in (INT, BOOL):
            return INT
        numbers = (INT, BOOL, FLOAT)
        if isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.Div)) \
                and left in numbers and right in numbers \
                and (FLOAT in (left, right) or isinstance(op, ast.Div)):
            return FLOAT
        if isinstance(op, ast.Add) and left == right == Type("list", elem=INT):
            return left
        if isinstance(op, ast.Add) and left == right == STR \
                or isinstance(op, ast.Mult) and {left, right} in ({STR, INT}, {STR, BOOL}) \
                or isinstance(op, ast.Mod) and left == STR:
            return STR  # `a + b` of strs, `"-" * n`, `"%s-%s" % (a, b)`
        return UNKNOWN

    def _shadowed(self, name: str, fn: ast.FunctionDef) -> bool:
        return name in self._local_values(fn) or any(a.arg == name for a in fn.args.args)

    def _name_type(self, name: str, fn: ast.FunctionDef, seen: frozenset[str], owner: str | None) -> Inferred:
        if name in seen:
            return UNKNOWN
        seen = seen | {name}
        params = {a.arg: a for a in fn.args.args}
        assigned = self._local_values(fn).get(name)
        kinds: list[Inferred] = []
        if name in params:
            annotation = params[name].annotation
            declared = self.untyped(fn, name, self) if annotation is None else self.annotation(annotation, fn)
            if declared is None or isinstance(declared, Unknown):
                return UNKNOWN
            kinds.append(declared)
        elif assigned is None:
            if name in self.constants:
                constant = self.constants[name]
                if isinstance(constant, Text):
                    return STR  # `self.prefix = PREFIX`
                if constant is None or isinstance(constant, Sentinel):
                    return UNKNOWN
                return BOOL if isinstance(constant, bool) else (FLOAT if isinstance(constant, float) else INT)
            return UNKNOWN
        for value in assigned or []:
            kinds.append(UNKNOWN if value is None else self.expr_type(value, fn, seen, owner))
        return join_types(kinds)

    def _local_values(self, fn: ast.FunctionDef) -> dict[str, list[ast.expr | None]]:
        """Each local name's assigned values (None: bound some other way)."""
        if fn not in self._locals:
            values: dict[str, list[ast.expr | None]] = {}
            for node in ast.walk(fn):
                if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                        and isinstance(node.targets[0], ast.Name):
                    values.setdefault(node.targets[0].id, []).append(node.value)
                    continue
                if isinstance(node, ast.Assign):
                    targets = node.targets
                elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
                    targets = [node.target]
                elif isinstance(node, ast.With):
                    targets = [i.optional_vars for i in node.items if i.optional_vars is not None]
                elif isinstance(node, (ast.Import, ast.ImportFrom)):
                    for alias in node.names:
                        values.setdefault((alias.asname or alias.name).split(".")[0], []).append(None)
                    continue
                elif isinstance(node, ast.ExceptHandler) and node.name:
                    values.setdefault(node.name, []).append(None)
                    continue
                else:
                    continue
                for target in targets:
                    for part in ast.walk(target):
                        if isinstance(part, ast.Name) and isinstance(part.ctx, ast.Store):
                            values.setdefault(part.id, []).append(None)
            self._locals[fn] = values
        return self._locals[fn]


def _int_list(value: ast.expr) -> bool:
    """`[1, 2]`, `[]` or `[0] * n`."""
    def int_literals(node: ast.expr) -> bool:
        return isinstance(node, ast.List) and all(
            isinstance(e, ast.Constant) and type(e.value) is int for e in node.elts)

    if int_literals(value):
        return True
    return (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult)
            and isinstance(value.left, ast.List) and int_literals(value.left) and len(value.left.elts) == 1)


def _class_constants(chain: list[ast.ClassDef]) -> dict[str, Type]:
    """The int, bool and float constants the classes' bodies bind
    (`DEFAULT_LOAD = 1000`), the nearest class's first."""
    found: dict[str, Type] = {}
    for cls in chain:
        for statement in cls.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                    and isinstance(statement.targets[0], ast.Name) and isinstance(statement.value, ast.Constant):
                kind = _constant_type(statement.value.value)
                if isinstance(kind, Type) and kind in (INT, BOOL, FLOAT):
                    found.setdefault(statement.targets[0].id, kind)
    return found
