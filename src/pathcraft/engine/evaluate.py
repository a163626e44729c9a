"""Evaluating pure IR expressions and rule guards on a state's bindings.

Expressions are total on defined values; what Python would raise while
evaluating one (an unbound local, `None + 1`) comes out as `Raised`, and
what the engine cannot model exactly (operators on strings, lists or
objects) as `Unsupported`, which drops the path.
"""

from __future__ import annotations

import collections.abc
import itertools
import types

from collections.abc import Callable, Mapping

from pathcraft.engine import identity, strings, tuples
from pathcraft.engine.values import UNDEFINED, Value, sentinel_use, unbound_local, value_kind
from pathcraft.errors import Unsupported
from pathcraft.heap.base import HeapModel, builtin_type, uncertain_attribute
from pathcraft.heap.cells import Addr, DictCell, Heap, ListCell, ObjectCell, ViewCell
from pathcraft.ir.nodes import (Binary, CheckExceptionType, Const, EnumMember, Expr, Guard, Program, Sentinel, Text,
                                Unary,
                                Var)
from pathcraft.ir.builtin_names import ISINSTANCE_ABC_OP, ISINSTANCE_OP, NEW_EXCEPTION_OP, UNSUPPORTED
from pathcraft.ir.callables import SOURCES
from pathcraft.models.enum import members as enums
from pathcraft.ir.values import ExcValue, exception_is_a
from pathcraft.solver import floats
from pathcraft.solver import terms as T
from pathcraft.solver.terms import Term


class Raised(Exception):
    """An expression raised a Python exception (e.g. an unbound local)."""

    def __init__(self, exc: ExcValue) -> None:
        super().__init__(exc.type)
        self.exc = exc


def is_ref(value: object) -> bool:
    return value is None or isinstance(value, Addr)


def _type_error(left: object, right: object = None) -> Exception:
    """An operator on a reference: Python's TypeError for None (the test
    checks the type only: CPython's wording names the operand types), but
    lists and objects may well support it (`list + list`, `__add__`): not
    modelled, so the path is dropped."""
    if isinstance(left, Addr) or isinstance(right, Addr):
        return Unsupported("operators on lists or objects")
    return Raised(ExcValue("TypeError", None))


def _term(value: Value) -> Term:
    """A value already known to be an int/bool term."""
    if isinstance(value, Sentinel):
        raise sentinel_use(value)
    if isinstance(value, ExcValue):
        raise Unsupported("an exception object where the model wants a number")
    if isinstance(value, EnumMember):
        raise Unsupported(f"a member of enum {value.cls} where the model wants a number")
    assert isinstance(value, (int, bool, float, T.Sym, T.App)), value
    return value


class Evaluator:
    def __init__(self, program: Program, heap_model: HeapModel) -> None:
        self.program = program
        self.heap_model = heap_model
        # conditions under which the float conversions of the last evaluations
        # do not raise (`floats.in_range`): the engine takes them onto the path
        self.domain: list[Term] = []
        # the part of `domain` outside which a path is not modelled (not a
        # raise): (condition, reason); the engine counts the paths it drops
        self.limits: list[tuple[Term, str]] = []

    def take_domain(self) -> Term:
        """The domain conditions gathered since the last call, as one term."""
        found, self.domain = self.domain, []
        self.limits = []
        out: Term = True
        for condition in found:
            out = T.and_(out, condition)
        return out

    def guard(self, guard: Guard, env: Mapping[str, Value], heap: Heap) -> Term:
        """The truth of a rule guard, as a term."""
        if isinstance(guard, CheckExceptionType):
            exc = env[guard.var]
            assert isinstance(exc, ExcValue)
            matched = any(exception_is_a(exc.type, t, self.program.exception_bases) for t in guard.types)
            return matched != guard.negate
        value = enums.operand(self.program, self.eval(guard, env, heap))
        if isinstance(value, EnumMember):
            return enums.truth(self.program, value)
        if is_ref(value):
            return self.ref_truth(value, heap)
        return T.truthy(_term(value))

    def ref_truth(self, value: object, heap: Heap) -> Term:
        """`bool(x)` for None, objects (true, unless the class defines
        `__bool__` or `__len__`: then the path is dropped) and lists (true
        when not empty)."""
        if value is None:
            return False
        assert isinstance(value, Addr)
        cell = heap.cell(value)
        if isinstance(cell, ListCell):
            return T.relation("gt", cell.size(), 0)
        if isinstance(cell, ViewCell):
            cell = heap.cell(cell.of)
        if isinstance(cell, DictCell):
            return cell.size() > 0
        if isinstance(cell, ObjectCell):
            for method in ("__bool__", "__len__"):
                if self.program.resolve_method(cell.cls, method) or self.program.class_binds(cell.cls, method):
                    raise Unsupported(f"the truth of a {cell.cls} (its {method} is not followed there)")
        return True

    def eval(self, e: Expr, env: Mapping[str, Value], heap: Heap) -> Value:
        if isinstance(e, Var):
            value = env.get(e.name, UNDEFINED)
            if value is UNDEFINED:
                raise Raised(unbound_local(e.name))
            return value
        if isinstance(e, Const):
            return e.value
        if isinstance(e, Unary):
            return self._unary(e, self.eval(e.operand, env, heap), heap)
        assert isinstance(e, Binary)
        return self._binary(e.op, self.eval(e.left, env, heap), self.eval(e.right, env, heap), heap)

    @staticmethod
    def _new_exception(exc_type: str, message: Value) -> ExcValue:
        """The exception `E(...)` makes: its message claimed when it is a
        concrete str; a construction not modelled drops the path."""
        text = message.value if isinstance(message, Text) else message if isinstance(message, str) else None
        if exc_type == UNSUPPORTED:
            raise Unsupported(text or "construct")
        return ExcValue(exc_type, text)

    def _unary(self, e: Unary, v: Value, heap: Heap) -> Value:
        if isinstance(v, Sentinel):
            raise sentinel_use(v)
        if isinstance(v, EnumMember):
            return self._member_unary(e, v, heap)
        if e.op.startswith(NEW_EXCEPTION_OP):  # `E(msg)` as a value (frontend/excvalues.py)
            return self._new_exception(e.op[len(NEW_EXCEPTION_OP):], v)
        if e.op.startswith(ISINSTANCE_ABC_OP):  # `isinstance(v, Mapping)` (frontend/isinstances.py)
            return any(self._is_abc(v, name, heap) for name in e.op[len(ISINSTANCE_ABC_OP):].split(","))
        if e.op.startswith(ISINSTANCE_OP):  # `isinstance(v, A, B)` (frontend/isinstances.py)
            return self._isinstance(v, frozenset(e.op[len(ISINSTANCE_OP):].split(",")), heap)
        if e.op.startswith("hasattr:"):  # `hasattr(v, "name")` (frontend/isinstances.hasattr_rule)
            return self._has_attribute(v, e.op[len("hasattr:"):], heap)
        if e.op == "typename":  # `type(v).__name__` (frontend/exprtable.attribute)
            return self._type_name(v, heap)
        if e.op == "callable":  # `callable(v)` (frontend/isinstances.callable_rule)
            return self._callable(v, heap)
        if e.op == "typeof":  # `type(v)`, only ever compared by `is` (frontend: type_comparison)
            return self._type_of(v, heap)
        if e.op == "bitint" and (floats.is_float(v) or strings.is_str(v)):  # an operand of & | ^ ~ << >>
            raise Raised(ExcValue("TypeError", None))
        if e.op == "bitint" and not is_ref(v) and not isinstance(v, Text):
            return v
        if e.op == "index":  # a `range()` argument: ints pass, a float or a str is refused as Python does
            if floats.is_float(v):
                raise Raised(ExcValue("TypeError", "'float' object cannot be interpreted as an integer"))
            if strings.is_str(v):
                raise Raised(ExcValue("TypeError", "'str' object cannot be interpreted as an integer"))
            return v
        if e.op in strings.UNARY:
            return strings.unary(e.op, v)
        if strings.is_str(v):
            if e.op in ("not", "truth"):
                truth = T.truthy(strings.as_str(v))
                return T.not_(truth) if e.op == "not" else truth
            if e.op in ("int", "float"):  # `+s`, or `int(s)`/`float(s)` where the frontend took s for a number
                raise Unsupported("unary +, int() or float() of a string")
            raise Raised(ExcValue("TypeError", None))  # -s
        if e.op in ("not", "truth") and is_ref(v):
            truth = self.ref_truth(v, heap)
            return T.not_(truth) if e.op == "not" else truth
        if is_ref(v):
            raise _type_error(v)
        if e.op == "float" or floats.is_float(v):
            return floats.unary(e.op, _term(v), self.domain)
        if e.op == "neg":
            return T.neg(_term(v))
        if e.op in ("not", "truth") and isinstance(v, ExcValue):  # an exception object is true
            return e.op == "truth"
        if e.op == "not":
            return T.not_(_term(v))
        if e.op == "truth":
            return T.truthy(_term(v))
        if e.op == "int":
            return T.as_int(_term(v))
        return T.apply(e.op, _term(v))  # an operator of the term table (`bit_length`)

    def _member_unary(self, e: Unary, member: EnumMember, heap: Heap) -> Value:
        """A unary operator on an enum member (models/enum): questions of
        its type answered by its class, operators by its mixin's value."""
        info = self.program.classes[member.cls]
        if e.op.startswith(ISINSTANCE_OP):
            wanted = frozenset(e.op[len(ISINSTANCE_OP):].split(","))
            return bool(wanted & {member.cls, "Enum", info.enum, enums.MIXINS.get(info.enum, "Enum"), "object"})
        if e.op in ("typename", "typeof"):
            return enums.class_name(member)
        if e.op.startswith(("hasattr:", ISINSTANCE_ABC_OP)) or e.op == "callable":
            raise Unsupported(f"{e.op.partition(':')[0]}() of a member of enum {member.cls}")
        if e.op in ("format", "format_repr"):  # `f"{c}"`, `f"{c!r}"`
            return enums.text(self.program, member, e.op == "format_repr")
        if e.op in enums.TYPE_TESTS and info.enum.startswith("("):  # `str(c)` of a `(int, Enum)`: 'C.A', not '1'
            raise Unsupported(f"str() or int() of a member of enum {member.cls}, which mixes in a type itself")
        if e.op in enums.TYPE_TESTS and info.enum == "Enum":
            return False  # no str, int or bool
        value = enums.operand(self.program, member)
        if isinstance(value, EnumMember):  # a plain member: true, and nothing else
            if e.op in ("not", "truth"):
                return enums.truth(self.program, member) == (e.op == "truth")
            raise Unsupported(f"'{e.op}' on a member of enum {member.cls}")
        return self._unary(e, value, heap)

    def _type_of(self, value: Value, heap: Heap) -> Text:
        """`type(value)` as a name: a class of the module's (`Outer.Inner`),
        else `builtins.int` and kin (a bool is `builtins.bool`)."""
        if value is None:
            return Text("builtins.NoneType")
        cell = heap.cell(value) if isinstance(value, Addr) else None
        if isinstance(cell, ObjectCell):
            return Text(cell.cls)
        if isinstance(cell, ListCell) and cell.named is not None:
            return Text(cell.named[0])
        kind = value_kind(value, cell)
        if kind == "int" and T.sort_of(value) == T.BOOL:  # type: ignore[arg-type]  # a scalar term
            return Text("builtins.bool")
        if kind in ("int", "float", "str", "list", "tuple", "dict", "set"):
            return Text(f"builtins.{kind}")
        if kind == "deque":
            return Text("collections.deque")
        raise Unsupported("type() of a value the model does not name (a view, a generator, an exception)")

    def _type_name(self, value: Value, heap: Heap) -> Text:
        """`type(value).__name__`: a class's own name (a nested class's last
        part), a builtin type's; a function a test passes is a `function`."""
        cell = heap.cell(value) if isinstance(value, Addr) else None
        if isinstance(cell, ObjectCell) and cell.cls in SOURCES:
            return Text("function")
        full = self._type_of(value, heap).value
        assert full is not None
        return Text(full.rpartition(".")[2])

    def _has_attribute(self, value: Value, name: str, heap: Heap) -> bool:
        """`hasattr(value, name)`: an instance's field, its class's method or
        class attribute, what every object has (`__class__`); a builtin
        value's type answers for it. A property (its getter would run), a
        name the class binds to values not modelled, or another dunder
        name drops the path."""
        if isinstance(value, ExcValue):
            raise Unsupported("hasattr() of a caught exception")
        cell = heap.cell(value) if isinstance(value, Addr) else None
        if isinstance(cell, ObjectCell) and cell.cls not in SOURCES:
            program = self.program
            if name in cell.fields or hasattr(object, name):
                return True
            if program.property_getter(cell.cls, name) is not None:
                raise Unsupported(f"hasattr() of property '{name}' (its getter runs)")
            if program.resolve_method(cell.cls, name) is not None or program.class_default(cell.cls, name)[0]:
                return True
            uncertain = uncertain_attribute(program, cell, name)
            if uncertain is not None:
                raise Unsupported(f"hasattr() of {uncertain}")
            return _written_since(heap, value, name)
        real = types.FunctionType if isinstance(cell, ObjectCell) else builtin_type(value, heap)
        return _asked_of_type(real, lambda kind: hasattr(kind, name),  # `keys`: no iterator has it
                              f"hasattr() of a value the model does not name ('{name}')")

    def _callable(self, value: Value, heap: Heap) -> bool:
        """An object whose class (or a base) has `__call__` is callable (the
        functions a test passes are such objects); None, numbers, strs and
        the containers, generators and views the model has are not."""
        if isinstance(value, ExcValue):
            raise Unsupported("callable() of a caught exception")
        cell = heap.cell(value) if isinstance(value, Addr) else None
        return isinstance(cell, ObjectCell) and self.program.resolve_method(cell.cls, "__call__") is not None

    def _is_abc(self, value: Value, name: str, heap: Heap) -> bool:
        """`isinstance(value, collections.abc.<name>)`: for an object, its
        class derives from the model class, or (the ABCs CPython asks
        through `__subclasshook__`) its class has the methods; for a builtin
        value, CPython's answer for its type (every type a model generator
        stands for, where they agree)."""
        real = getattr(collections.abc, name)
        if isinstance(value, ExcValue):
            raise Unsupported("isinstance() of a caught exception")
        cell = heap.cell(value) if isinstance(value, Addr) else None
        if isinstance(cell, ObjectCell) and cell.cls not in SOURCES:
            program = self.program
            if program.builtin_base(cell.cls) is not None:  # a dict subclass is a MutableMapping (registered)
                raise Unsupported(f"isinstance() with {name} of an instance of a {program.builtin_base(cell.cls)} "
                                  "subclass")
            if program.is_subclass(cell.cls, name):
                return True
            needed = _HOOKED.get(name)
            if needed is None:
                return False  # no hook: a class counts only by deriving (or `register`, not modelled)
            for method in needed:
                if program.class_binds(cell.cls, method):
                    raise Unsupported(f"isinstance() with {name} of a class whose {method} is a value not modelled")
            return all(program.resolve_method(cell.cls, method) is not None for method in needed)
        python_type = types.FunctionType if isinstance(cell, ObjectCell) else type(None) if value is None \
            else builtin_type(value, heap)
        return _asked_of_type(python_type, lambda kind: issubclass(kind, real),
                              f"isinstance() with {name} of a value the model does not name")

    def _isinstance(self, value: Value, wanted: frozenset[str], heap: Heap) -> bool:
        """`isinstance(value, wanted...)` from the value's kind (a bool is an
        int too) or its object's class and bases."""
        if "object" in wanted:
            return True
        if value is None:
            return False
        if isinstance(value, Addr):
            cell = heap.cell(value)
            if isinstance(cell, ObjectCell):
                if self.program.builtin_base(cell.cls) in wanted:  # `class C(dict)`: a dict too
                    return True
                return any(w in self.program.classes and self.program.is_subclass(cell.cls, w) for w in wanted)
            if isinstance(cell, ListCell) and cell.named is not None and cell.named[0] in wanted:
                return True  # an instance of a NamedTuple class (a tuple too, as below)
        elif isinstance(value, ExcValue):
            raise Unsupported("isinstance() of a caught exception")
        kind = value_kind(value, heap.cell(value) if isinstance(value, Addr) else None)
        if kind == "int" and isinstance(value, (bool, T.Sym, T.App)) and T.sort_of(value) == T.BOOL:
            return bool(wanted & {"bool", "int"})
        if kind is None or kind == "view":
            return False
        return kind in wanted

    def _member_binary(self, op: str, left: Value, right: Value, heap: Heap) -> Value:
        """An operator with an enum member on a side (models/enum)."""
        if op in ("is", "isnot"):
            return enums.identical(op, left, right)
        left, right = enums.operand(self.program, left), enums.operand(self.program, right)
        if not (isinstance(left, EnumMember) or isinstance(right, EnumMember)):
            return self._binary(op, left, right, heap)  # mixin members: their values
        other = right if isinstance(left, EnumMember) else left
        cell = heap.cell(other) if isinstance(other, Addr) else None
        if op in ("eq", "ne") and not (isinstance(cell, ObjectCell) and self.program.compares_by_value(cell.cls)):
            return enums.plain_equality(op, left, right)
        member = left if isinstance(left, EnumMember) else right
        assert isinstance(member, EnumMember)
        raise Unsupported(f"'{op}' with a member of enum {member.cls}")

    def _binary(self, op: str, left: Value, right: Value, heap: Heap) -> Value:
        if isinstance(left, EnumMember) or isinstance(right, EnumMember):
            return self._member_binary(op, left, right, heap)
        if isinstance(left, (ExcValue, Sentinel)) or isinstance(right, (ExcValue, Sentinel)):
            return _with_object(op, left, right)
        if isinstance(left, Text) and isinstance(right, Text) and op in ("is", "isnot") \
                and left.value is not None and right.value is not None:
            return (left.value == right.value) == (op == "is")
        if strings.is_str(left) or strings.is_str(right):
            try:
                return strings.binary(op, left, right)
            except strings.Mismatch:
                raise Raised(ExcValue("TypeError", None)) from None
        if op in ("is", "isnot"):
            if type(right) is bool or type(left) is bool:  # `x is True`: a bool is one of two objects
                same = _is_bool_literal(left, right)
                return same if op == "is" else T.not_(same)
            if is_ref(left) or is_ref(right):
                same = self.heap_model.ref_eq(heap, left, right)
                return same if op == "is" else T.not_(same)
            identical = identity.same_object(_term(left), _term(right)) \
                if not (floats.is_float(left) or floats.is_float(right)) else None
            if identical is None:
                raise Unsupported("'is' between int/bool values")
            same, certain = identical
            if certain is not True:
                self.domain.append(certain)
                self.limits.append((certain, identity.LIMIT_REASON))
            return same if op == "is" else T.not_(same)
        if op in ("eq", "ne", *tuples.ORDERINGS) and tuples.involves_tuple(heap, left, right):
            compared = tuples.relation(op, left, right, heap, self.program.compares_by_value)
            if compared is None:
                raise Raised(ExcValue("TypeError", None))
            return compared
        if op in ("eq", "ne") and (is_ref(left) or is_ref(right)):
            cells = [heap.cell(side) if isinstance(side, Addr) else None for side in (left, right)]
            for cell in cells:
                if isinstance(cell, ObjectCell) and self.program.compares_by_value(cell.cls):
                    raise Unsupported(f"'==' on {cell.cls} objects (its __eq__ is not modelled)")
            if any(isinstance(cell, (DictCell, ViewCell)) for cell in cells):
                same = self.heap_model.dict_equal(heap, left, right)  # type: ignore[arg-type]  # no UNDEFINED here
                return same if op == "eq" else T.not_(same)
            if isinstance(cells[0], ListCell) and isinstance(cells[1], ListCell) and left != right:
                raise Unsupported("'==' between two lists (compares their items)")
            same = self.heap_model.ref_eq(heap, left, right)  # identity: the default object __eq__
            return same if op == "eq" else T.not_(same)
        if is_ref(left) or is_ref(right):  # arithmetic or ordering with None / objects
            raise _type_error(left, right)
        if op == "pow":  # `x ** k`, k a small int constant
            if floats.is_float(left):
                raise Unsupported("'**' on floats (libm's pow is not modelled)")
            assert isinstance(right, int)
            result: Term | None = None
            for _ in range(right):
                result = _term(left) if result is None else T.mul(result, _term(left))
            return 1 if result is None else result
        if op in ("truediv", "round_digits") or floats.is_float(left) or floats.is_float(right):
            return floats.binary(op, _term(left), _term(right), self.domain)
        return T.apply(op, _term(left), _term(right))  # arithmetic, comparisons, and/or


def _is_bool_literal(left: Value, right: Value) -> Term:
    """`left is right` where one side is the constant True or False: true
    only of a bool of that value (an int, a float, None or an object never
    is the object True)."""
    flag, other = (right, left) if type(right) is bool else (left, right)
    if type(other) is bool:
        return other is flag
    if isinstance(other, (T.Sym, T.App)) and T.sort_of(other) == T.BOOL:
        return other if flag else T.not_(other)
    return False


def _with_object(op: str, left: Value, right: Value) -> bool:
    """`op` on a sentinel object (told apart from every other value by
    identity, used in nothing else) or an exception object (a caught one,
    `E(x)`: never None nor equal to it; anything else needs its identity,
    which the model has not)."""
    if isinstance(left, Sentinel) or isinstance(right, Sentinel):
        if op not in ("is", "isnot"):
            raise sentinel_use(left if isinstance(left, Sentinel) else right)  # type: ignore[arg-type]
        return (left == right) == (op == "is")
    other = right if isinstance(left, ExcValue) else left
    if other is None and op in ("is", "isnot", "eq", "ne"):
        return op in ("isnot", "ne")
    raise Unsupported("an exception object compared or combined (its identity is not modelled)")


# what a generator of the model may stand for: a generator, or a C iterator of builtins and `itertools`
_ITERATOR_TYPES: tuple[type, ...] = (
    types.GeneratorType, zip, map, filter, enumerate, reversed, itertools.chain, itertools.islice, itertools.repeat,
    itertools.count, itertools.compress, itertools.filterfalse, itertools.takewhile, itertools.dropwhile,
    itertools.zip_longest, itertools.accumulate, itertools.cycle, type(iter([])), type(iter(())),
    type(iter(range(0))), type(iter("")), type(iter({})), type(iter(set())))


def _asked_of_type(python_type: type | None, question: Callable[[type], bool], unknown: str) -> bool:
    """`question` of a builtin value's Python type; of a model generator,
    the answer every type it may stand for gives. Where there is no type,
    or they differ, the path is dropped (`unknown` says why)."""
    if python_type is types.GeneratorType:
        answers = {question(kind) for kind in _ITERATOR_TYPES}
        if len(answers) == 1:
            return answers.pop()
    if python_type is None or python_type is types.GeneratorType:
        raise Unsupported(unknown)
    return question(python_type)
# the ABCs whose `__subclasshook__` counts a class by its methods (`collections.abc`'s one-trick ponies)
_HOOKED: dict[str, tuple[str, ...]] = {
    "Sized": ("__len__",), "Container": ("__contains__",), "Iterable": ("__iter__",),
    "Iterator": ("__iter__", "__next__"), "Reversible": ("__reversed__", "__iter__"),
    "Collection": ("__len__", "__iter__", "__contains__"),
}


def _written_since(heap: Heap, obj: Value, name: str) -> bool:
    """Has a write added attribute `name` to the input object `obj` since
    it was made (heap/symbolic.py logs writes to inputs)? Uncertain, and
    the path dropped, when the writer may or may not be the same object."""
    writes = heap.writes.get(name, ())
    if not writes or not isinstance(obj, Addr):
        return False
    ident = heap.ids.get(obj.id)
    if any(writer is ident or writer == ident for writer, _ in writes):
        return True
    raise Unsupported(f"hasattr() of '{name}', written to an input that may be this one")
