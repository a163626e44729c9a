"""The inputs of a searched call, built from its signature (in the worker).

A parameter's values come from its annotation. Hypothesis's `from_type`
builds the standard types (ints, strs, containers, `Optional`, `Union`,
`Literal`, enums, `Decimal`, `Fraction`, dates and times ...). A class of
the analysed package (any class outside the standard library) is built
by calling its constructor on values drawn the same way, to a bounded
depth, and the object is `recipes.record`ed with that call, so that a test
can build it again; an abstract class is built as one of its concrete
subclasses. Containers of such classes (`list[Node]`, `Optional[Node]`,
`dict[str, Node]`, unions) are built here too, since `from_type` does not
know the recording builder. `Any` and `object` are drawn like a parameter
without annotation: a mix of plain values. A parameter with a default is
sometimes left out (`LEFT_OUT`), so that one whose type cannot be built or
written still lets the call run. Ints, floats, strs and bytes that the
function's own code mentions seed the values of their type.
"""

from __future__ import annotations

import ast
import collections.abc
import contextlib
import copy
import functools
import inspect
import operator
import sys
import textwrap
import types
import typing
from collections.abc import Callable
from typing import Any

from pathcraft.execute import recipes, wire

MAX_DEPTH = 2  # objects built inside the arguments of objects built for a call
MAX_SUBCLASSES = 6  # concrete subclasses an abstract parameter type is built as
LEFT_OUT = object()  # drawn for a parameter with a default: the call does not pass it
_NO_HINT = object()
_PLAIN = (bool, int, float, str, bytes)
# what a parameter that is called gets: functions a test names (`key=len`), by how many arguments they take
CALLABLES: dict[int, tuple[Callable[..., Any], ...]] = {
    1: (abs, len, str, bool, repr, sorted, tuple, operator.neg, operator.not_),
    2: (operator.add, operator.mul, operator.lt, operator.eq, max, min),
}
# abstract collections are built as lists and dicts (`from_type` builds views, ChainMaps and iterators a
# test cannot write)
_SEQUENCES = {list, collections.abc.Sequence, collections.abc.MutableSequence, collections.abc.Iterable,
              collections.abc.Collection, collections.abc.Reversible}
_MAPPINGS = {dict, collections.abc.Mapping, collections.abc.MutableMapping}


class Refused(Exception):
    """The function cannot be searched (the message says why)."""


def arguments(fn: Callable[..., Any], st: Any, running: Callable[[], Any], skip_first: bool = False,
              hints_of: Callable[..., Any] | None = None) -> tuple[dict[str, Any], list[str]]:
    """A strategy per parameter a call must or may pass (`skip_first`: not
    the method's `self`; `hints_of`: the function whose annotations count,
    a class's constructor for the class), and the names passed by position
    (positional-only ones; with `*args`, every parameter before it and then
    `*args`, as `"*args"`: its list of values). `running` is the context
    the analysed code runs in (an object is built under it)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise Refused(f"no signature ({str(exc)[:80]})") from None
    hints = _hints(hints_of or fn)
    constants = _constants(hints_of or fn)
    called = _called(hints_of or fn) | (_called_through_attributes(fn) if inspect.isclass(fn) else set())
    kinds = _Kinds(st, running, constants)
    parameters = list(signature.parameters.items())[1 if skip_first else 0:]
    star = _star(parameters, hints, kinds)
    if star is not None:  # everything before `*args` is passed by position, and always passed
        before = [n for n, p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    strategies: dict[str, Any] = {}
    positional: list[str] = []
    for name, parameter in parameters:
        if parameter.kind == parameter.VAR_KEYWORD:
            continue
        if parameter.kind == parameter.VAR_POSITIONAL:
            if star is not None:
                strategies[name] = star
                positional = [*before, f"*{name}"]
            continue
        hint = hints.get(name, _NO_HINT)
        if hint is _NO_HINT and name in called:  # typed from its use: `key(item)` calls it
            hint = collections.abc.Callable
        strategy = kinds.parameter(hint, parameter.default, 0)
        if strategy is None:
            if star is not None and name in before:
                star = None  # a parameter before `*args` left at its default: no `*args` either
                positional = [n for n in positional if not n.startswith("*")]
            continue  # left at its default
        if parameter.default is not inspect.Parameter.empty and (star is None or name not in before):
            strategy = st.one_of(strategy, st.just(LEFT_OUT))
        strategies[name] = strategy
        if parameter.kind == parameter.POSITIONAL_ONLY and star is None:
            positional.append(name)
    if star is None:
        strategies = {n: s for n, s in strategies.items()
                      if signature.parameters[n].kind != inspect.Parameter.VAR_POSITIONAL}
    return strategies, positional


def _star(parameters: list[tuple[str, inspect.Parameter]], hints: dict[str, Any], kinds: _Kinds) -> Any:
    """The strategy of `*args` (up to two values of its annotation), or None."""
    for name, parameter in parameters:
        if parameter.kind == parameter.VAR_POSITIONAL:
            element = kinds.parameter(hints.get(name, _NO_HINT), inspect.Parameter.empty, 0)
            return None if element is None else kinds.st.lists(element, max_size=2)
    return None


def constructor(kind: type) -> Callable[..., Any]:
    """The function whose annotations a class's constructor has: its
    `__init__`, or its `__new__` where `__init__` is `object`'s (a named tuple)."""
    init = getattr(kind, "__init__", object.__init__)
    return init if init is not object.__init__ else getattr(kind, "__new__", init)


class _Kinds:
    """Strategies by annotation, for one call's parameters."""

    def __init__(self, st: Any, running: Callable[[], Any], constants: list[object]) -> None:
        self.st, self.running, self.constants = st, running, constants

    def parameter(self, hint: Any, default: Any, depth: int) -> Any:
        """Values for one parameter: from its annotation; without one, from
        its default's type, or else a mix of plain values (an observation is
        true whatever the type, and the search keeps only inputs that reach
        code); None to leave it at its default."""
        st = self.st
        if hint is _NO_HINT or hint is Any or hint is object:
            if default is not inspect.Parameter.empty and default is not None:
                if type(default) not in _PLAIN:
                    return None
                hint = type(default)
            else:
                return self.untyped()
        try:
            strategy = self.of(hint, depth)
            strategy.validate()  # `from_type` resolves lazily: what it cannot build fails here, not mid-search
        except Exception:  # noqa: BLE001  (no values of the type: searched as a parameter without one)
            return self.parameter(_NO_HINT, default, depth)
        seeds = [c for c in self.constants if _fits(hint, c)]
        return st.one_of(st.sampled_from(seeds), strategy) if seeds else strategy

    def untyped(self) -> Any:
        st = self.st
        base = st.one_of(st.integers(), st.text(max_size=8), st.none(), st.lists(st.integers(), max_size=4),
                         st.booleans())
        return st.one_of(st.sampled_from(self.constants), base) if self.constants else base

    def of(self, hint: Any, depth: int) -> Any:
        """Values of an annotation (see the module docstring)."""
        st = self.st
        if hint is Any or hint is object:
            return self.untyped()
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if hint in (collections.abc.Callable, typing.Callable) or origin is collections.abc.Callable:
            arity = len(args[0]) if args and isinstance(args[0], list) else 0
            return st.sampled_from(CALLABLES.get(arity, CALLABLES[1] + CALLABLES[2]))
        if not _needs_own(hint):
            return st.from_type(hint)
        if origin in (typing.Union, types.UnionType):
            return st.one_of(*[self.of(a, depth) for a in args])
        if origin in _SEQUENCES and len(args) == 1:
            return st.lists(self.of(args[0], depth), max_size=3)
        if origin is tuple and args:
            if len(args) == 2 and args[1] is Ellipsis:
                return st.lists(self.of(args[0], depth), max_size=3).map(tuple)
            return st.tuples(*[self.of(a, depth) for a in args])
        if origin in _MAPPINGS and len(args) == 2:
            return st.dictionaries(self.of(args[0], depth), self.of(args[1], depth), max_size=3)
        if inspect.isclass(hint):
            return self.built(hint, depth)
        if inspect.isclass(origin) and _needs_own(origin):
            return self.built(origin, depth)
        return st.from_type(hint)

    def built(self, kind: type, depth: int) -> Any:
        """Objects of a class of the package, each built by its constructor
        and recorded: of the class itself unless it is abstract, and of its
        concrete subclasses (a base class's own objects are seldom whole)."""
        st = self.st
        if depth >= MAX_DEPTH:
            return st.nothing()
        kinds = ([] if inspect.isabstract(kind) else [kind]) + concrete_subclasses(kind)
        return st.one_of(*[self.one_class(k, depth) for k in kinds]) if kinds else st.nothing()

    def one_class(self, kind: type, depth: int) -> Any:
        """Objects of exactly `kind`."""
        st = self.st
        try:
            signature = inspect.signature(kind)
        except (TypeError, ValueError):
            return st.nothing()
        hints = _hints(constructor(kind))
        # the constructor's own constants seed its arguments (`if not text.startswith("v")`)
        inner = _Kinds(st, self.running, _constants(constructor(kind)) + self.constants)
        parts: dict[str, Any] = {}
        positional: list[str] = []
        for name, parameter in signature.parameters.items():
            if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
                continue
            strategy = inner.parameter(hints.get(name, _NO_HINT), parameter.default, depth + 1)
            if strategy is None:
                continue
            if parameter.default is not inspect.Parameter.empty:
                strategy = st.one_of(strategy, st.just(LEFT_OUT))
            parts[name] = strategy
            if parameter.kind == parameter.POSITIONAL_ONLY:
                positional.append(name)
        drawn = st.fixed_dictionaries(parts).map(lambda given: self.make(kind, given, positional))
        seen = examples(kind)
        if not seen:
            return drawn
        # the calls the package itself writes (`Version("1.0")` in a doctest): valid objects where random
        # arguments seldom are
        # (copied: the code may change what it is given, and the next draw takes the same example)
        return st.one_of(st.sampled_from(seen).map(copy.deepcopy).map(lambda call: self.make(kind, call[1], call[0])),
                         drawn)

    def make(self, kind: type, drawn: dict[str, Any], positional: list[str] | tuple[object, ...]) -> object:
        """`kind` called with the drawn arguments, recorded with its recipe
        (the arguments are written before the constructor may change them);
        `positional`: the names passed by position, or the values themselves."""
        given = {n: v for n, v in drawn.items() if v is not LEFT_OUT}
        if isinstance(positional, tuple):
            ordered = list(positional)
            keywords = given
        else:
            ordered = [given[n] for n in positional if n in given]
            keywords = {n: v for n, v in given.items() if n not in positional}
        try:
            with self.running():
                recipe = recipes.call(kind, ordered, keywords, 0, argument=True)
                made = kind(*ordered, **keywords)
        except wire.NotPlain as exc:
            return recipes.Unbuilt(str(exc))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001  (the constructor refused these arguments)
            return recipes.Unbuilt(f"building a {kind.__qualname__} raised {type(exc).__name__}")
        recipes.record(made, recipe)
        return made


MAX_EXAMPLES = 16  # constructor calls read from a class's module


@functools.lru_cache(maxsize=256)
def examples(kind: type) -> list[tuple[tuple[object, ...], dict[str, object]]]:
    """The calls of `kind` with constant arguments that its module writes,
    in its code or in the examples of its docstrings (`>>> Version("1.0")`):
    (positional values, keyword values) of each: those of the code first,
    then those of the docstrings."""
    module = sys.modules.get(getattr(kind, "__module__", ""))
    try:
        tree = ast.parse(inspect.getsource(module)) if module is not None else None
    except (OSError, TypeError, SyntaxError, ValueError):
        tree = None
    if tree is None:
        return []
    trees = [tree]
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and ">>>" in node.value:
            for line in node.value.splitlines():
                code = line.strip()
                if code.startswith(">>> "):
                    with contextlib.suppress(SyntaxError, ValueError):
                        trees.append(ast.parse(code[4:]))
    found: list[tuple[tuple[object, ...], dict[str, object]]] = []
    for part in trees:
        for node in ast.walk(part):
            if len(found) >= MAX_EXAMPLES:
                return found
            if not isinstance(node, ast.Call) or _called_name(node.func) != kind.__name__:
                continue
            try:
                call = (tuple(ast.literal_eval(a) for a in node.args),
                        {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg is not None})
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            if len(call[1]) == len(node.keywords) and call not in found:
                found.append(call)
    return found


def _called_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def _needs_own(hint: Any) -> bool:
    """Does the annotation name `Any`, an abstract collection, or a class
    outside the standard library (other than an enum, which `from_type`
    draws from its members)?"""
    origin = typing.get_origin(hint)
    if hint is Any or hint is object or origin in _SEQUENCES | _MAPPINGS | {collections.abc.Callable}:
        return True
    if inspect.isclass(origin) and _needs_own(origin):  # `Node[int]`
        return True
    if inspect.isclass(hint):
        module = getattr(hint, "__module__", "") or ""
        return (module.split(".")[0] not in sys.stdlib_module_names and module != "builtins"
                and not issubclass(hint, BaseException) and not _is_enum(hint)
                and not getattr(hint, "_is_protocol", False))
    return any(_needs_own(a) for a in typing.get_args(hint) if a is not Ellipsis)


def _is_enum(kind: type) -> bool:
    import enum

    return issubclass(kind, enum.Enum)


def concrete_subclasses(kind: type) -> list[type]:
    """Up to MAX_SUBCLASSES concrete subclasses of `kind` (imported so far),
    nearest first, in the order they were defined."""
    found: list[type] = []
    queue: list[type] = list(kind.__subclasses__())
    while queue and len(found) < MAX_SUBCLASSES:
        sub = queue.pop(0)
        if "<" not in sub.__qualname__ and not inspect.isabstract(sub) and sub not in found:
            found.append(sub)
        queue.extend(sub.__subclasses__())
    return found


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """The annotations that evaluate: all of them at once, or else one by
    one (`from __future__ import annotations` with names bound only under
    `TYPE_CHECKING`); a parameter whose annotation does not evaluate is
    searched as one without."""
    try:
        return typing.get_type_hints(fn)
    except Exception:  # noqa: BLE001  (some annotation does not evaluate)
        pass
    out: dict[str, Any] = {}
    # names a module imports under TYPE_CHECKING are mostly these: tried after the module's own
    scope = {**{n: getattr(typing, n) for n in typing.__all__}, **{n: getattr(collections.abc, n)
             for n in collections.abc.__all__}, **getattr(fn, "__globals__", {})}
    for name, annotation in getattr(fn, "__annotations__", {}).items():
        try:
            out[name] = typing.get_type_hints(_Holder(annotation), globalns=scope)["value"]
        except Exception:  # noqa: BLE001
            continue
    return out


class _Holder:
    """An object with one annotation, for `typing.get_type_hints` to evaluate."""

    def __init__(self, annotation: Any) -> None:
        self.__annotations__ = {"value": annotation}


def _fits(hint: Any, value: object) -> bool:
    """Is `value` (a constant of the code) a value of the annotation?"""
    members = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    return any(type(value) is member for member in members)


def _called(fn: Callable[..., Any]) -> set[str]:
    """The names the function's source calls (`key(item)`): a parameter
    among them is a function."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return set()
    return {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def _called_through_attributes(kind: type) -> set[str]:
    """The constructor's parameters that it keeps in an attribute the
    class calls (`self.__func = func` ... `self.__func(*args)`)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(kind)))
    except (OSError, TypeError, SyntaxError):
        return set()
    called = {n.func.attr for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
              and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"}
    kept: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "__init__":
            for assign in ast.walk(node):
                if isinstance(assign, ast.Assign) and isinstance(assign.value, ast.Name):
                    if any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
                           and t.attr in called for t in assign.targets):
                        kept.add(assign.value.id)
    return kept


def _constants(fn: Callable[..., Any]) -> list[object]:
    """The int, float, str and bytes constants of the function's source (and
    each int's neighbours: a comparison's boundary is on either side), not
    its docstrings."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return []
    out: list[object] = []
    docstrings = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    for node in ast.walk(tree):
        if id(node) in docstrings:
            continue
        if isinstance(node, ast.Constant) and type(node.value) in (int, float, str, bytes):
            values = [node.value] + ([node.value - 1, node.value + 1] if type(node.value) is int else [])
            out.extend(v for v in values if v not in out)
    return out[:64]
