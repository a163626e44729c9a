"""Module constants computed by pure expressions, folded to literals.

`HEX = {hex(i)[2:]: i for i in range(16)}`, `CHART = {"g": pow(10, 3)}`,
`INVERSE = {k: 1 / v for k, v in CHART.items()}`, `LETTERS = list(" " +
ascii_lowercase)`: the value needs code, but only builtins on literals and
earlier constants. A small evaluator of our own computes it from the AST,
with a whitelist of pure operations and a budget on sizes, so nothing of
the module is run; the result is written back as a literal expression,
which the constant and read-only-container machinery then take as if the
module had spelled it out (`module.literal_value`, `frontend/frozen.py`).
A call of one of the module's own functions defined above the binding
whose body is one `return EXPR` (`_reversedict(NAMES)`, a webcolors
table) is evaluated the same way, `EXPR` with the parameters bound.
Anything outside the whitelist leaves the name unknown, as before.
"""

from __future__ import annotations

import ast
import math
import operator
import string
from collections.abc import Callable, Iterator, Mapping
from typing import Any

_BUDGET = 10_000  # items any one value may hold, characters any one string
_STRING_CONSTANTS = frozenset({"ascii_letters", "ascii_lowercase", "ascii_uppercase", "digits", "hexdigits",
                               "octdigits", "punctuation", "whitespace", "printable"})
_MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau}
_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_, ast.BitXor: operator.xor,
}
_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
    ast.GtE: operator.ge, ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}
_SCALARS = (int, float, str, bool, type(None))
_CALL_DEPTH = 8  # nested calls of the module's functions while folding one value
_STR_METHODS = frozenset({"upper", "lower", "strip", "split", "join", "replace", "title", "capitalize"})
_DICT_METHODS = frozenset({"items", "keys", "values"})


class NotConstant(Exception):
    """The expression needs more than pure builtins on literals."""


def _pow(base: Any, exp: Any, mod: Any = None) -> Any:
    if isinstance(exp, int) and abs(exp) > 256 and mod is None:
        raise NotConstant("power too large")
    return pow(base, exp, mod)


def _range(*args: Any) -> list[int]:
    if not all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        raise NotConstant("range of non-ints")
    made = range(*args)
    if len(made) > _BUDGET:
        raise NotConstant("range too long")
    return list(made)


_BUILTINS: dict[str, Callable[..., Any]] = {
    "pow": _pow, "hex": hex, "oct": oct, "bin": bin, "ord": ord, "chr": chr, "abs": abs, "len": len,
    "round": round, "min": min, "max": max, "sum": sum, "sorted": sorted, "range": _range,
    "int": int, "float": float, "str": str, "bool": bool,
    "list": list, "tuple": tuple, "dict": dict, "set": set, "frozenset": frozenset,
    "zip": lambda *a: list(zip(*a)), "enumerate": lambda *a: list(enumerate(*a)),
    "reversed": lambda a: list(reversed(a)),
}


def fold_module_constants(body: list[ast.stmt], names: set[str]) -> dict[str, ast.expr]:
    """For each of `names` (bound once at module level) whose value folds:
    its value as a literal expression. Earlier folded names are known to
    later ones."""
    names = names - _touched(body)
    env: dict[str, Any] = {}
    functions: dict[str, ast.expr] = {}  # name -> the one expression its body returns
    strings: dict[str, str] = {}  # `from string import ascii_lowercase as low`: low -> ascii_lowercase
    modules: set[str] = set()
    folded: dict[str, ast.expr] = {}
    for node in body:
        if isinstance(node, ast.ImportFrom) and node.module == "string" and not node.level:
            strings.update({a.asname or a.name: a.name for a in node.names if a.name in _STRING_CONSTANTS})
        if isinstance(node, ast.Import):
            modules.update(a.asname or a.name for a in node.names if a.name in ("string", "math"))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            functions.pop(node.name, None)  # a later definition of the name replaces the earlier one
            returned = _returned_expression(node)
            if returned is not None:
                functions[node.name] = returned
        target, value = _binding(node)
        if target is None or value is None or target not in names:
            continue
        try:
            result = _Evaluator(env, strings, modules, dict(functions)).value(value)
            literal = _literal(result)
        except (NotConstant, ArithmeticError, ValueError, TypeError, KeyError, IndexError, RecursionError):
            continue
        env[target] = result
        folded[target] = literal
    return folded


def _returned_expression(node: ast.stmt) -> ast.Lambda | None:
    """A plain function whose body (after its docstring) is `return EXPR`,
    as the lambda it amounts to; None for anything else (a decorator, a
    default, `*args`, a second statement: its call is left unknown)."""
    if not isinstance(node, ast.FunctionDef) or node.decorator_list:
        return None
    args = node.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults:
        return None
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    return ast.Lambda(args=args, body=body[0].value)


def _touched(body: list[ast.stmt]) -> set[str]:
    """Names that module-level code other than plain bindings mentions
    (`TABLE.append(x)`, `for k in TABLE: ...`): it may change them between
    their binding and a later constant computed from them."""
    seen: set[str] = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
            continue
        if _binding(node)[0] is not None:
            continue
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
            continue  # not run on import
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # a docstring
        seen.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
    return seen


def _binding(node: ast.stmt) -> tuple[str | None, ast.expr | None]:
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
        return node.targets[0].id, node.value
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id, node.value
    return None, None


def _literal(value: Any) -> ast.expr:
    """`value` written as a literal expression (repr-exact). A lone float
    that is no whole number (`ONE_THIRD = 1.0 / 3.0`) is left unknown: such
    thresholds compared against float arithmetic make queries Z3 may not
    finish within its timeout (colorsys's `_v`), where refusing is better."""
    if isinstance(value, float) and not value.is_integer():
        raise NotConstant("a fractional float constant")
    _check_literal(value, 0)
    return _written(value)


def _written(value: Any) -> ast.expr:
    """The literal expression of a checked value."""
    return ast.parse(_source(value), mode="eval").body


def _source(value: Any) -> str:
    """`repr(value)`, but a set's items in one order whatever the hash seed
    (a frozenset is written as a set display: the read-only uses
    frontend/frozen.py allows cannot tell them apart)."""
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(_source(item) for item in value)) + "}" if value else "set()"
    if isinstance(value, list):
        return "[" + ", ".join(_source(item) for item in value) + "]"
    if isinstance(value, tuple):
        return "(" + "".join(_source(item) + ", " for item in value) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_source(k)}: {_source(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _check_literal(value: Any, depth: int) -> None:
    if depth > 3:
        raise NotConstant("nested too deep")
    if isinstance(value, float) and not math.isfinite(value):
        raise NotConstant("inf and nan have no literal")
    if isinstance(value, _SCALARS):
        return
    if isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            _check_literal(item, depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _check_literal(key, depth + 1)
            _check_literal(item, depth + 1)
        return
    raise NotConstant(f"no literal for {type(value).__name__}")


def _check_text(value: Any, depth: int) -> None:
    """Is `value`'s text fixed by its literal (no set, no object)?"""
    if isinstance(value, _SCALARS) and depth < 4:
        return
    if isinstance(value, (list, tuple)) and depth < 3:
        for item in value:
            _check_text(item, depth + 1)
        return
    if isinstance(value, dict) and depth < 3:
        for key, item in value.items():
            _check_text(key, depth + 1)
            _check_text(item, depth + 1)
        return
    raise NotConstant(f"the text of a {type(value).__name__}")


class _Evaluator:
    def __init__(self, env: Mapping[str, Any], strings: Mapping[str, str], modules: set[str],
                 functions: Mapping[str, ast.expr] | None = None) -> None:
        self.scopes: list[dict[str, Any]] = [dict(env)]
        self.strings = strings
        self.modules = modules
        self.functions: Mapping[str, ast.expr] = functions or {}
        self.depth = 0

    def lookup(self, name: str) -> Any:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        if name in self.strings:
            return getattr(string, self.strings[name])
        raise NotConstant(f"name {name}")

    def value(self, node: ast.expr) -> Any:
        result = self._value(node)
        if isinstance(result, (str, list, tuple, dict, set)) and len(result) > _BUDGET:
            raise NotConstant("too large")
        return result

    def _value(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant) and isinstance(node.value, _SCALARS):
            return node.value
        if isinstance(node, ast.Name):
            return self.lookup(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in self.modules:
            if node.value.id == "string" and node.attr in _STRING_CONSTANTS:
                return getattr(string, node.attr)
            if node.value.id == "math" and node.attr in _MATH_CONSTANTS:
                return _MATH_CONSTANTS[node.attr]
            raise NotConstant("module attribute")
        if isinstance(node, ast.UnaryOp):
            operand = self.value(node.operand)
            unary: dict[type[ast.unaryop], Callable[[Any], Any]] = {
                ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_, ast.Invert: operator.invert}
            return unary[type(node.op)](operand)
        if isinstance(node, ast.BinOp):
            return self._binary(node)
        if isinstance(node, ast.BoolOp):
            return self._boolean(node)
        if isinstance(node, ast.Compare):
            return self._compare(node)
        if isinstance(node, ast.IfExp):
            return self.value(node.body) if self.value(node.test) else self.value(node.orelse)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
            return self._display(node)
        if isinstance(node, ast.Subscript):
            container = self.value(node.value)
            if isinstance(node.slice, ast.Slice):
                parts = [None if p is None else self.value(p) for p in (node.slice.lower, node.slice.upper,
                                                                         node.slice.step)]
                return container[slice(*parts)]
            return container[self.value(node.slice)]
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.JoinedStr):
            return "".join(self._piece(v) for v in node.values)
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            items = list(self.comprehension(node.generators, lambda: self.value(node.elt)))
            return set(items) if isinstance(node, ast.SetComp) else items
        if isinstance(node, ast.DictComp):
            pairs = list(self.comprehension(node.generators, lambda: (self.value(node.key), self.value(node.value))))
            return dict(pairs)
        raise NotConstant(type(node).__name__)

    def _piece(self, node: ast.expr) -> str:
        """One part of an f-string: its text, or a field formatted as
        Python would. Only values whose text does not depend on the hash
        seed or on code of the module (scalars, and tuples, lists and
        dicts of them)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if not isinstance(node, ast.FormattedValue):
            raise NotConstant("f-string part")
        value = self.value(node.value)
        _check_text(value, 0)
        spec = "" if node.format_spec is None else self.value(node.format_spec)
        if node.conversion in (-1, ord("s")):
            shown = value if node.conversion == -1 else str(value)
        elif node.conversion in (ord("r"), ord("a")):
            shown = repr(value) if node.conversion == ord("r") else ascii(value)
        else:
            raise NotConstant("conversion")
        text: str = format(shown, spec)
        return text

    def _binary(self, node: ast.BinOp) -> Any:
        """An arithmetic operator, refused where its result would be huge."""
        left, right = self.value(node.left), self.value(node.right)
        if isinstance(node.op, ast.Pow):
            return _pow(left, right)
        if isinstance(node.op, (ast.LShift, ast.RShift)):
            if not isinstance(right, int) or right > 256:
                raise NotConstant("shift too large")
            return operator.lshift(left, right) if isinstance(node.op, ast.LShift) else left >> right
        if type(node.op) not in _BINARY:
            raise NotConstant("operator")
        if isinstance(node.op, ast.Mult) and isinstance(left, (str, list, tuple)) or \
                isinstance(right, (str, list, tuple)) and isinstance(node.op, ast.Mult):
            count = right if isinstance(left, (str, list, tuple)) else left
            size = len(left) if isinstance(left, (str, list, tuple)) else len(right)
            if not isinstance(count, int) or count * size > _BUDGET:
                raise NotConstant("repetition too large")
        return _BINARY[type(node.op)](left, right)

    def _boolean(self, node: ast.BoolOp) -> Any:
        """`and`/`or`, short-circuiting as Python does."""
        result: Any = None
        for part in node.values:
            result = self.value(part)
            if isinstance(node.op, ast.And) and not result or isinstance(node.op, ast.Or) and result:
                return result
        return result

    def _compare(self, node: ast.Compare) -> Any:
        """A chain of comparisons, stopping at the first false one."""
        left = self.value(node.left)
        for op, comparator in zip(node.ops, node.comparators):
            right = self.value(comparator)
            if type(op) not in _COMPARE or not _COMPARE[type(op)](left, right):
                return False if type(op) in _COMPARE else _refuse("comparison")
            left = right
        return True

    def _display(self, node: ast.Tuple | ast.List | ast.Set | ast.Dict) -> Any:
        """A tuple, list, set or dict display (`*spread` items, `**spread` dicts)."""
        if isinstance(node, ast.Dict):  # `{**BASE, "k": v}`: the unpacked dict's items where they stand
            made: dict[Any, Any] = {}
            for key, item in zip(node.keys, node.values):
                if key is None:
                    spread = self.value(item)
                    if not isinstance(spread, dict):
                        raise NotConstant("dict unpacking of something else")
                    made.update(spread)
                else:
                    made[self.value(key)] = self.value(item)
            return made
        items = [item for element in node.elts for item in self.element(element)]
        return tuple(items) if isinstance(node, ast.Tuple) else items if isinstance(node, ast.List) else set(items)

    def element(self, node: ast.expr) -> list[Any]:
        if isinstance(node, ast.Starred):
            spread = self.value(node.value)
            if not isinstance(spread, (list, tuple, str)):
                raise NotConstant("starred")
            return list(spread)
        return [self.value(node)]

    def call(self, node: ast.Call) -> Any:
        if node.keywords and not (isinstance(node.func, ast.Name) and node.func.id == "sorted"
                                  and all(k.arg == "reverse" for k in node.keywords)):
            raise NotConstant("keyword arguments")
        args = [item for a in node.args for item in self.element(a)]
        if isinstance(node.func, ast.Name) and node.func.id in _BUILTINS \
                and not any(node.func.id in scope for scope in self.scopes):
            if node.func.id == "sorted" and node.keywords:
                return sorted(args[0], reverse=bool(self.value(node.keywords[0].value)))
            return _BUILTINS[node.func.id](*args)
        if isinstance(node.func, ast.Name) and node.func.id in self.functions \
                and not any(node.func.id in scope for scope in self.scopes):
            return self.call_function(self.functions[node.func.id], args)
        if isinstance(node.func, ast.Attribute):
            receiver = self.value(node.func.value)
            method = node.func.attr
            if isinstance(receiver, str) and method in _STR_METHODS or \
                    isinstance(receiver, dict) and method in _DICT_METHODS:
                result = getattr(receiver, method)(*args)
                return list(result) if isinstance(receiver, dict) else result
        raise NotConstant("call")

    def call_function(self, function: ast.expr, args: list[Any]) -> Any:
        """A module function's returned expression, evaluated with its
        parameters bound, in the module's scope (not the caller's)."""
        assert isinstance(function, ast.Lambda)
        parameters = [a.arg for a in function.args.args]
        if len(args) != len(parameters) or self.depth >= _CALL_DEPTH:
            raise NotConstant("call of a module function")
        saved, self.scopes = self.scopes, [self.scopes[0], dict(zip(parameters, args))]
        self.depth += 1
        try:
            return self.value(function.body)
        finally:
            self.scopes = saved
            self.depth -= 1

    def comprehension(self, generators: list[ast.comprehension], make: Callable[[], Any]) -> Iterator[Any]:
        produced = 0

        def walk(index: int) -> Iterator[Any]:
            nonlocal produced
            if index == len(generators):
                produced += 1
                if produced > _BUDGET:
                    raise NotConstant("comprehension too long")
                yield make()
                return
            gen = generators[index]
            if gen.is_async:
                raise NotConstant("async")
            for item in list(self.value(gen.iter)):
                self.bind(gen.target, item)
                if all(self.value(condition) for condition in gen.ifs):
                    yield from walk(index + 1)

        self.scopes.append({})
        try:
            yield from walk(0)
        finally:
            self.scopes.pop()

    def bind(self, target: ast.expr, value: Any) -> None:
        if isinstance(target, ast.Name):
            self.scopes[-1][target.id] = value
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            items = list(value)
            if len(items) != len(target.elts):
                raise NotConstant("unpacking")
            for element, item in zip(target.elts, items):
                self.bind(element, item)
            return
        raise NotConstant("target")


def _refuse(what: str) -> Any:
    raise NotConstant(what)
