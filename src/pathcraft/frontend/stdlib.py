"""Names imported from the standard library, read or called in the code.

A call of a standard-library function the model has (`heapq.heappush`,
`bisect.bisect_left`, `collections.deque`, ...) becomes a call of its
prelude summary (`frontend/prelude/stdlib.py`, plain Python written as
CPython computes it). Any other call of an imported library name
(`random.randint`, `time.time`, `re.match`) fails only the paths that
reach it: its arguments are evaluated as Python would, then the builtin
predicate `$foreign` raises `$unsupported`, which the engine turns into a
dropped path named in the report. Paths that do not reach the call are
untouched, so the function still translates. `string`'s constants are
str literals; reading any other library attribute as a value drops the
path the same way (reading a module attribute does nothing else).

Modules of the standard library (`sys.stdlib_module_names`) and installed
packages outside the analysed tree (`numpy`, `requests`: found by
`importlib.util.find_spec`, which looks and imports nothing) are taken,
and only when no module of the analysed tree could shadow them. An
installed package has no model, so each call of one fails only the paths
that reach it, named in the report; a native summary
(frontend/natives.py) can stand for it.
"""

from __future__ import annotations

import ast
import string
import sys
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import Protocol

from pathcraft.frontend.packages import import_name, installed
from pathcraft.frontend.sink import BlockSink
from pathcraft.frontend.source import ModuleSource
from pathcraft.ir import pure_calls
from pathcraft.ir.builtin_names import LIST_PROTOCOL, UNSUPPORTED, function_predicate
from pathcraft.models.itertools import lowering as itertools_model
from pathcraft.models.warnings.lowering import WARN, builtin_category, warn_arguments
from pathcraft.ir.nodes import Call, CallMethod, Const, Expr, ListOp, NewList, Predicate, Raise, Rule, Text, Var

FOREIGN = function_predicate("foreign")  # raises `$unsupported` with its argument as the message

# `string`'s str constants, the same in every Python version
STRING_CONSTANTS = {name: getattr(string, name) for name in (
    "ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits", "octdigits", "printable",
    "punctuation", "whitespace")}

# (module, function) -> (prelude function, fewest and most positional arguments)
SUMMARIES: dict[tuple[str, str], tuple[str, int, int]] = {
    ("heapq", "heappush"): ("heappush", 2, 2),
    ("heapq", "heappop"): ("heappop", 1, 1),
    ("heapq", "heapify"): ("heapify", 1, 1),
    ("heapq", "heappushpop"): ("heappushpop", 2, 2),
    ("heapq", "heapreplace"): ("heapreplace", 2, 2),
    ("bisect", "bisect_left"): ("bisect_left", 2, 4),
    ("bisect", "bisect_right"): ("bisect_right", 2, 4),
    ("bisect", "bisect"): ("bisect_right", 2, 4),
    ("bisect", "insort_left"): ("insort_left", 2, 4),
    ("bisect", "insort_right"): ("insort_right", 2, 4),
    ("bisect", "insort"): ("insort_right", 2, 4),
    ("copy", "copy"): ("copy", 1, 1),
    ("copy", "deepcopy"): ("deepcopy", 1, 1),
}
# positional arguments left out, filled as the library's defaults
_DEFAULTS: dict[str, tuple[int | None, ...]] = {
    name: (0, None) for name in ("bisect_left", "bisect_right", "insort_left", "insort_right")}


# iterators of `itertools` taken whole as a list where one consumer walks them once (`Stdlib.consumed`):
# (module, name) -> (prelude function, arguments, lazy: reads its source while the consumer runs)
ITERATORS: dict[tuple[str, str], tuple[str, int, bool]] = {
    ("itertools", "pairwise"): ("pairwise", 1, True),
    ("itertools", "combinations"): ("combinations", 2, False),  # CPython takes `tuple(iterable)` first
}
_WALKERS = ("list", "tuple", "sorted", "set", "any", "all", "sum", "min", "max")
_HARMLESS_CALLS = ("len", "abs", "isinstance", "range")


def _harmless(nodes: list[ast.AST]) -> bool:
    """Can running `nodes` change no list (no call but `len` and the like,
    no item or attribute assigned or deleted)?"""
    for root in nodes:
        for n in ast.walk(root):
            if isinstance(n, ast.Call) and not (isinstance(n.func, ast.Name) and n.func.id in _HARMLESS_CALLS):
                return False
            if isinstance(n, (ast.Subscript, ast.Attribute)) and isinstance(n.ctx, (ast.Store, ast.Del)):
                return False
            if isinstance(n, (ast.Delete, ast.Yield, ast.YieldFrom, ast.Await, ast.NamedExpr, ast.Lambda)):
                return False
    return True


def consumed_calls(fn: ast.FunctionDef, module_names: set[str]) -> dict[int, bool]:
    """See `Stdlib.consumed`; `module_names` are the module's own (a
    function named `list` is no builtin)."""
    out: dict[int, bool] = {}
    bound = module_names | {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    bound |= {a.arg for a in ast.walk(fn) if isinstance(a, ast.arg)}
    for node in ast.walk(fn):
        if isinstance(node, ast.For) and isinstance(node.iter, ast.Call):
            out[id(node.iter)] = _harmless([*node.body, *node.orelse, node.target])
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            first = node.generators[0].iter
            parts: list[ast.AST] = [*(g for g in node.generators[1:]), *(i for i in node.generators[0].ifs)]
            parts += [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            if isinstance(first, ast.Call):
                out[id(first)] = _harmless(parts)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _WALKERS \
                and node.func.id not in bound and len(node.args) == 1 and not node.keywords \
                and isinstance(node.args[0], ast.Call):
            out[id(node.args[0])] = node.func.id not in ("min", "max")  # these compare while they walk
    return out


@dataclass(frozen=True)
class ForeignImports:
    """A module's top-level imports of the standard library: names bound
    to a module (`import heapq`, `import os.path as p`) and names imported
    from one (`from random import randint as r`: r -> (random, randint))."""

    modules: dict[str, str] = field(default_factory=dict)
    names: dict[str, tuple[str, str]] = field(default_factory=dict)


def _is_stdlib(dotted: str, folders: tuple[Path, ...]) -> bool:
    """A module of the standard library that no module of the analysed tree
    (next to the file, or at the import root the tests put first) shadows."""
    top = dotted.split(".")[0]
    return top in sys.stdlib_module_names and not top.startswith("_") and not _in_tree(top, folders)


def _in_tree(top: str, folders: tuple[Path, ...]) -> bool:
    """Is there a module or package `top` of the analysed tree in one of
    `folders` (next to the file, or at the import root the tests put first)?"""
    return any((folder / f"{top}.py").exists() or (folder / top).is_dir() for folder in folders)


_NOT_FOREIGN = frozenset({"pathcraft"})  # `from pathcraft.assume import invariant` is read, not called


def _is_installed(dotted: str, folders: tuple[Path, ...]) -> bool:
    """A package installed on this Python, not one of the analysed tree (a
    folder or file of its name next to the module or at the import root)."""
    top = dotted.split(".")[0]
    return top not in _NOT_FOREIGN and top not in sys.stdlib_module_names and top != "__future__" \
        and not _in_tree(top, folders) and installed(top)


def foreign_imports(module: ModuleSource) -> ForeignImports:
    """The module's imports of the standard library and of installed
    packages, and of the library modules a native summary
    (frontend/natives.py) stands for a function of."""
    out = ForeignImports()
    folders = (Path(module.path).parent, import_name(Path(module.path))[1])
    natives = module.natives.modules()

    def library(dotted: str) -> bool:
        return _is_stdlib(dotted, folders) or dotted in natives or _is_installed(dotted, folders)

    for node in module.tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if library(alias.name):
                    local = alias.asname or alias.name.split(".")[0]
                    out.modules[local] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and library(node.module):
            for alias in node.names:
                if alias.name != "*":
                    out.names[alias.asname or alias.name] = (node.module, alias.name)
    defined = set(module.functions) | set(module.classes) | set(module.constants) | set(module.frozen)
    rebound = {t.id for n in ast.walk(module.tree) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign))
               for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Name)}
    for name in defined | rebound:  # the module binds the name again: not the library's
        out.modules.pop(name, None)
        out.names.pop(name, None)
    return out


def foreign_predicates() -> dict[str, Predicate]:
    """`$foreign(message)`: a call the model has no summary of; the path ends, dropped and named.
    `$concrete<n>(message, function, a0, ...)`: the same, unless concolic mode
    runs the allow-listed function on concrete values (`ir/pure_calls.py`)."""
    rule = Rule(1, None, (Raise(UNSUPPORTED, None, 0, message_var="message"),))
    out = {FOREIGN: Predicate(FOREIGN, FOREIGN, ("message",), (rule,), builtin=True)}
    for count, name in pure_calls.PREDICATES.items():
        params = ("message", "function", *(f"a{i}" for i in range(count)))
        out[name] = Predicate(name, name, params, (rule,), builtin=True)
    return out


class _Calls(Protocol):
    @property
    def methods_called(self) -> set[str]: ...


class Lowering(Protocol):
    """What the table needs of the expression lowerer that owns it
    (frontend/expressions.py, which calls this module: a protocol, not an
    import, keeps the two apart)."""

    @property
    def module(self) -> ModuleSource: ...

    @property
    def local_names(self) -> frozenset[str]: ...

    @property
    def blocks(self) -> BlockSink: ...

    @property
    def calls(self) -> _Calls: ...

    def expr(self, node: ast.expr, discard: bool = False) -> Expr: ...

    @property
    def reduce(self) -> Callable[[ast.Call], Expr | None] | None: ...


class Stdlib:
    """The standard-library names of one function's module, for its lowerer."""

    def __init__(self, lowerer: Lowering, fn: ast.FunctionDef) -> None:
        self.lowerer = lowerer
        self.fn = fn
        self._imports: ForeignImports | None = None
        self._consumed: dict[int, bool] | None = None

    @property
    def imports(self) -> ForeignImports:
        if self._imports is None:  # only where a name is not the function's or the module's own
            self._imports = foreign_imports(self.lowerer.module)
        return self._imports

    def origin(self, node: ast.expr) -> tuple[str, str] | None:
        """(module, name) of `name` from-imported or `mod.name` of an imported module, else None."""
        local = self.lowerer.local_names
        if isinstance(node, ast.Name) and node.id in self.imports.names and node.id not in local:
            return self.imports.names[node.id]
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in self.imports.modules and node.value.id not in local:
            return self.imports.modules[node.value.id], node.attr
        return None

    def read(self, node: ast.expr) -> Expr | None:
        """A library name read as a value: `string`'s constants as literals,
        anything else a dropped path; None if `node` names nothing imported."""
        origin = self.origin(node)
        if origin is None:
            return None
        module, name = origin
        if module == "string" and name in STRING_CONSTANTS:
            return Const(Text(STRING_CONSTANTS[name]))
        return self.dropped(f"{module}.{name} read as a value (the library is not modelled)", node)

    def native_call(self, node: ast.Call) -> Expr | None:
        """A call of a library function a native summary models (the
        user's, frontend/natives.py): a call of the model; None if none
        does."""
        origin = self.origin(node.func)
        entry = None if origin is None else self.lowerer.module.natives.entries.get(f"{origin[0]}.{origin[1]}")
        if entry is None:
            return None
        predicate, arity = entry
        if node.keywords or len(node.args) != arity or any(isinstance(a, ast.Starred) for a in node.args):
            return self.dropped(f"call of {origin[0]}.{origin[1]}() with other arguments than the {arity} "  # type: ignore[index]  # origin found above
                                "positional ones its native summary takes", node)
        args = [self.lowerer.blocks.stable(self.lowerer.expr(a), node.lineno) for a in node.args]
        tmp = self.lowerer.blocks.temp()
        self.lowerer.blocks.emit(Call(tmp, predicate, tuple(args), node.lineno))
        return Var(tmp)

    def call(self, node: ast.Call) -> Expr | None:
        """A call of a library function: its summary, or a dropped path once
        its arguments are evaluated; None if it calls nothing imported."""
        if isinstance(node.func, ast.Attribute) and node.func.attr == "from_iterable" \
                and self.origin(node.func.value) == ("itertools", "chain"):
            made = self.itertool("chain", node, from_iterable=True) if len(node.args) == 1 else None
            return made if made is not None else self.dropped("chain.from_iterable() with these arguments", node)
        origin = self.origin(node.func)
        if origin is None:
            return None
        if origin[0] == "itertools" and not (origin in ITERATORS and self.consumed().get(id(node)) is not None):
            made = self.itertool(origin[1], node)  # (one walked once right away is taken whole, below)
            if made is not None:
                return made
        module, name = origin
        lowerer = self.lowerer
        if origin == ("functools", "reduce") and lowerer.reduce is not None \
                and (reduced := lowerer.reduce(node)) is not None:  # frontend/reduces.py
            return reduced
        if origin == ("collections", "deque") and not node.keywords and len(node.args) <= 1 \
                and not any(isinstance(a, (ast.Starred, ast.GeneratorExp)) for a in node.args):
            return self.new_deque(node)
        if origin in ITERATORS and not node.keywords and len(node.args) == ITERATORS[origin][1] \
                and not any(isinstance(a, (ast.Starred, ast.GeneratorExp)) for a in node.args):
            prelude, _count, lazy = ITERATORS[origin]
            pure = self.consumed().get(id(node))
            if pure is True or pure is False and not lazy:
                args = [lowerer.blocks.stable(lowerer.expr(a), node.lineno) for a in node.args]
                if prelude == "combinations" and args[1] == Const(2):
                    prelude, args = "combinations2", args[:1]
                tmp = lowerer.blocks.temp()
                lowerer.blocks.emit(Call(tmp, function_predicate(prelude), tuple(args), node.lineno))
                return Var(tmp)
        if origin == ("warnings", "warn"):  # a recorded event of the path (models/warnings)
            return self.warn(node)
        if name == "cast" and module in _TYPING and len(node.args) == 2 and not node.keywords \
                and _type_expression(node.args[0]):  # `cast(T, x)` is `x`: evaluating `T` does nothing
            return lowerer.expr(node.args[1])
        summary = SUMMARIES.get(origin)
        if summary is not None and not node.keywords and summary[1] <= len(node.args) <= summary[2] \
                and not any(isinstance(a, ast.Starred) for a in node.args):
            prelude, _least, most = summary
            args = [lowerer.blocks.stable(lowerer.expr(a), node.lineno) for a in node.args]
            args += [Const(v) for v in _DEFAULTS.get(prelude, ())[len(args) - _least:most - _least]]
            tmp = lowerer.blocks.temp()
            lowerer.blocks.emit(Call(tmp, function_predicate(prelude), tuple(args), node.lineno))
            return Var(tmp)
        evaluated = []
        for arg in [*node.args, *(k.value for k in node.keywords)]:  # evaluated first, as Python does
            if isinstance(arg, (ast.Starred, ast.Lambda, ast.GeneratorExp)) or arg in [k.value for k in node.keywords
                                                                                      if k.arg is None]:
                break
            evaluated.append(lowerer.blocks.stable(lowerer.expr(arg), node.lineno))
        message = f"call of {module}.{name}() (the library function is not modelled)"
        if len(evaluated) == len(node.args) and not node.keywords:  # `import math as m; m.log(x)`
            return self.concrete(f"{module}.{name}", evaluated, message, node)
        return self.dropped(message, node)

    def warn(self, node: ast.Call) -> Expr:
        """`warnings.warn(message, Category)`: `$warn(category, message)`, the
        category read as written; a form the model does not take drops the path."""
        lowerer = self.lowerer
        parts = warn_arguments(node)
        category = "UserWarning" if parts is not None and parts[1] is None else \
            self._warning_class(parts[1]) if parts is not None else None
        if parts is None or category is None:
            return self.dropped("warnings.warn() with these arguments", node)
        message = lowerer.blocks.stable(lowerer.expr(parts[0]), node.lineno)
        lowerer.blocks.emit(Call(None, WARN, (Const(Text(category)), message), node.lineno))
        return Const(None)

    def _warning_class(self, node: ast.expr | None) -> str | None:
        """The warning class `node` names: a builtin one, or one of the
        module's whose chain reaches a builtin one."""
        if not isinstance(node, ast.Name) or node.id in self.lowerer.local_names:
            return None
        module = self.lowerer.module
        if node.id not in module.classes and builtin_category(node.id):
            return node.id
        seen: set[str] = set()
        current = node.id
        while current in module.exception_bases and current not in seen:
            seen.add(current)
            bases = module.exception_bases[current]
            if not bases:
                return None
            current = bases[0]
            if current not in module.classes and builtin_category(current):
                return node.id
        return None

    def itertool(self, name: str, node: ast.Call, from_iterable: bool = False) -> Expr | None:
        """`chain(a, b)`, `islice(it, 2)`, `repeat(x, n)`, ...: the prelude's
        generator of that name (models/itertools/), its arguments evaluated
        here in order; None for a form the model does not take."""
        names = [k.arg for k in node.keywords]
        if any(n is None for n in names) or any(isinstance(a, ast.Starred) for a in node.args) \
                or not itertools_model.takes(name, len(node.args), [str(n) for n in names]):
            return None
        lowerer = self.lowerer
        args = [lowerer.blocks.stable(lowerer.expr(a), node.lineno) for a in node.args]
        keywords = {str(k.arg): lowerer.blocks.stable(lowerer.expr(k.value), node.lineno) for k in node.keywords}

        def as_tuple(items: list[Expr]) -> Expr:
            packed = lowerer.blocks.temp()
            lowerer.blocks.emit(NewList(packed, tuple(items), None, node.lineno, is_tuple=True))
            return Var(packed)

        args = itertools_model.arguments(name, args, keywords, as_tuple, from_iterable)
        if name in itertools_model.CALLING:  # its predicate's `__call__` (frontend/callables.py)
            lowerer.calls.methods_called.add("__call__")
        tmp = lowerer.blocks.temp()
        lowerer.blocks.emit(Call(tmp, itertools_model.predicate(name), tuple(args), node.lineno))
        return Var(tmp)

    def consumed(self) -> dict[int, bool]:
        """The calls of this function that one consumer walks once, right
        away (a `for` loop, a comprehension's first iterable, `list(...)`
        and the like), by `id`: True where nothing runs between the items
        that could change a list (so a lazy iterator can be taken whole first)."""
        if self._consumed is None:
            module = self.lowerer.module
            self._consumed = consumed_calls(self.fn, set(module.functions) | set(module.classes))
        return self._consumed

    def new_deque(self, node: ast.Call) -> Expr:
        """`deque()`, `deque(x)`: a fresh list of x's items (`x.__list__()`,
        as `list(x)`), made a deque (`heap/deques.py`)."""
        blocks = self.lowerer.blocks
        items = blocks.temp()
        if node.args:
            self.lowerer.calls.methods_called.add(LIST_PROTOCOL)
            source = blocks.stable(self.lowerer.expr(node.args[0]), node.lineno)
            blocks.emit(CallMethod(items, source, LIST_PROTOCOL, (), node.lineno))
        else:
            blocks.emit(NewList(items, (), None, node.lineno))
        made = blocks.temp()
        blocks.emit(ListOp("deque", made, Var(items), (), node.lineno))
        return Var(made)

    def concrete(self, function: str, args: list[Expr], message: str, node: ast.Call) -> Expr:
        """A call of an allow-listed library function the model has no
        summary of (`ir/pure_calls.py`), arguments already evaluated: run on
        concrete values in concolic mode, else a dropped path."""
        arity = pure_calls.ARITIES.get(function)
        if arity is None or node.keywords or not arity[0] <= len(args) <= arity[1]:
            return self.dropped(message, node)
        tmp = self.lowerer.blocks.temp()
        message = f"{message}; --concolic runs it on concrete values"
        self.lowerer.blocks.emit(Call(tmp, pure_calls.PREDICATES[len(args)],
                                      (Const(Text(message)), Const(Text(function)), *args), node.lineno))
        return Var(tmp)

    def dropped(self, message: str, node: ast.expr) -> Expr:
        tmp = self.lowerer.blocks.temp()
        self.lowerer.blocks.emit(Call(tmp, FOREIGN, (Const(Text(message)),), node.lineno))
        return Var(tmp)


_TYPING = ("typing", "typing_extensions")


def _type_expression(node: ast.expr) -> bool:
    """A type as an annotation spells it (`"Node"`, `list[int]`, `t.Any`,
    `A | None`): its evaluation reads names and builds a type, no code of
    the program runs."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) or node.value is None
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Attribute):
        return _type_expression(node.value)
    if isinstance(node, ast.Subscript):
        return _type_expression(node.value) and _type_expression(node.slice)
    if isinstance(node, ast.Tuple):
        return all(_type_expression(e) for e in node.elts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _type_expression(node.left) and _type_expression(node.right)
    return False
