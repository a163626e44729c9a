"""The CLP-translated program: frozen data, no behaviour.

A `Program` is a set of `Predicate`s. Each user function becomes an entry
predicate plus one predicate per intermediate block; each predicate is
defined by mutually exclusive guarded `Rule`s (Definition 1 of the papers).
Blocks are chained in continuation-passing style: the last instruction of a
rule is a tail call (`Goto`) to the next block, or a `Return`/`Raise`, so
every predicate of a function has the same outputs as the function itself
and loops become recursion.

Expressions are pure and total; everything that can fail or branch
(division, `abs`, `min`, user calls) is a `Call` to a predicate, so that
every choice point of the execution is a rule selection.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Union

from pathcraft.errors import Unsupported
from pathcraft.ir.builtin_names import BASE_BUILTINS
from pathcraft.ir.driver import DriverPlan
from pathcraft.ir.types import Type

# The variable a handler block receives the raised exception in.
EXC_VAR = "$exc"

# ---------------------------------------------------------------- expressions


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Text:
    """A string value; `value` is None when the frontend does not compute
    it (an f-string). Strings only travel: into variables, exception and
    assert messages, and return values."""

    value: str | None


@dataclass(frozen=True)
class CompiledPattern:
    """A module constant `NAME = re.compile("...", flags)` (models/re): the
    model calls its `match`/`fullmatch`/`search` (whether one matches) and
    nothing else; read as a value, the function is refused. With `method`,
    the constant is that bound method (`NAME = re.compile("...").search`,
    called as `NAME(s)`)."""

    pattern: str
    flags: int
    method: str | None = None


@dataclass(frozen=True)
class Sentinel:
    """A module-level object made only to be told apart by identity
    (`_UNSET = object()`, frontend/sentinels.py), defined in module file
    `origin`. The model knows nothing of it but its identity: `is` and
    `is not` are exact, anything else done with it drops the path. A test
    never names it: a parameter it is the default of is left out."""

    origin: str
    name: str


@dataclass(frozen=True)
class FreshContainer:
    """The default of a dataclass field made by `field(default_factory=list)`
    (or `dict`, `set`): a new empty container at each call that leaves the
    parameter out, made where the call binds it (frontend/callargs.py,
    engine/binding.py). A test never names it: the parameter is left out."""

    kind: str  # "list" | "dict" | "set" | "deque"


@dataclass(frozen=True)
class EnumMember:
    """A member of an enum class of the program (`Color.RED`,
    frontend/enums.py): a value of its own, told apart by identity, whose
    `name` and `value` its class's `members` give (models/enum)."""

    cls: str
    name: str


@dataclass(frozen=True)
class Const:
    value: int | bool | float | None | Text | Sentinel | EnumMember


@dataclass(frozen=True)
class Unary:
    """`neg` (arithmetic minus), `not` (truthiness negation), `truth` (bool(x)),
    `int` (unary plus), `float` (float(x) of a number)."""

    op: str
    operand: Expr


@dataclass(frozen=True)
class Binary:
    """Arithmetic `add sub mul floordiv mod` (divisor known non-zero) and
    comparisons `eq ne lt le gt ge`; `and`/`or` only on truth values."""

    op: str
    left: Expr
    right: Expr


Expr = Union[Var, Const, Unary, Binary]

# --------------------------------------------------------------- instructions


@dataclass(frozen=True)
class Mark:
    """A statement starts executing at `line` (drives traces and coverage).
    `after_call`: the statement's line reported again when a call returns
    to an instruction of another physical line (frontend/linetable.py)."""

    line: int
    after_call: bool = False


@dataclass(frozen=True)
class Assign:
    target: str
    value: Expr
    line: int


@dataclass(frozen=True)
class Call:
    """Non-tail call of a predicate; an exception from it goes to the
    handler of the calling block (or leaves the function)."""

    target: str | None
    predicate: str
    args: tuple[Expr, ...]
    line: int


@dataclass(frozen=True)
class Goto:
    """Tail call to the next block of the same function (continuation).

    `enters_loop` names the loop whose iteration counter restarts here
    (an entry from outside the loop, not a back edge)."""

    block: str
    args: tuple[Expr, ...]
    enters_loop: str | None = None


@dataclass(frozen=True)
class Return:
    value: Expr
    line: int


@dataclass(frozen=True)
class Raise:
    """Raise a new exception `exc_type(message)`, or re-raise the exception
    held in variable `reraise`."""

    exc_type: str | None
    message: str | None
    line: int
    reraise: str | None = None
    message_var: str | None = None  # the message is this variable's string value


@dataclass(frozen=True)
class Yield:
    """`yield value` in a generator function: its frame is suspended (kept in
    the generator object) and `value` goes to whoever resumed it.
    `closable`: closing the generator here runs none of its code (the yield
    is in no `try` and delegates to no other iterator)."""

    value: Expr
    line: int
    closable: bool = True


@dataclass(frozen=True)
class BindException:
    """Store the exception being handled into `target` (`except E as e`)."""

    target: str


@dataclass(frozen=True)
class CheckExceptionType:
    """Guard of an `except` clause: the handled exception is one of these."""

    var: str
    types: tuple[str, ...]
    negate: bool = False


# ------------------------------------------------------- heap operations


@dataclass(frozen=True)
class NewObject:
    """`new_object`: a fresh instance of `cls`, no field set yet."""

    target: str
    cls: str
    line: int


@dataclass(frozen=True)
class GetField:
    target: str
    obj: Expr
    field: str
    line: int


@dataclass(frozen=True)
class SetField:
    obj: Expr
    field: str
    value: Expr
    line: int
    force: bool = False  # `object.__setattr__`: a frozen dataclass's generated `__init__` sets its fields so


@dataclass(frozen=True)
class CallMethod:
    """`obj.method(args, name=value)`, dispatched on the class of `obj` at run time."""

    target: str | None
    obj: Expr
    method: str
    args: tuple[Expr, ...]
    line: int
    keywords: tuple[tuple[str, Expr], ...] = ()  # bound to the callee's parameters by name
    # the call as the source writes it (`obj.m(1, k=2)`): `args` fill only the callee's positional
    # parameters; otherwise (the frontend's own calls, a constructor's `__init__`) they fill every
    # parameter in order, keyword-only ones too
    written: bool = False
    # `obj.m(a, *rest)`: the tuple `rest`, handed to the callee's `*args` when `args` fill its
    # positional parameters exactly (engine/methods.py); anything else drops the path
    spread: Expr | None = None


@dataclass(frozen=True)
class CheckMethod:
    """Python looks `obj.method` up before it evaluates the arguments of
    `obj.method(args)`: emitted before arguments that may raise, so a
    missing method is the error a path reports (a check, not a step)."""

    obj: Expr
    method: str
    line: int


@dataclass(frozen=True)
class NewList:
    """`new_array` from a literal `[a, b, ...]` (`elem` when known), or a
    tuple `(a, b, ...)` (`is_tuple`)."""

    target: str
    items: tuple[Expr, ...]
    elem: Type | None
    line: int
    is_tuple: bool = False
    named: tuple[str, tuple[str, ...]] | None = None  # a NamedTuple's class and fields (models/namedtuple/lowering.py)


@dataclass(frozen=True)
class RepeatList:
    """`[value] * count`: a new list whose length may be symbolic."""

    target: str
    value: Expr
    count: Expr
    elem: Type | None
    line: int


@dataclass(frozen=True)
class ListOp:
    """`len` (`length`), `get` (`get_elem`), `set` (`set_elem`), `append`,
    `pop`, `copy` on the list `lst`; `unpack` (args: the count of names)
    checks that a list or tuple has that many items."""

    op: str
    target: str | None
    lst: Expr
    args: tuple[Expr, ...]
    line: int


HEAP_OPS = (NewObject, GetField, SetField, CallMethod, NewList, RepeatList, ListOp)

Instr = Union[
    Mark, Assign, Call, Goto, Return, Raise, BindException, Yield,
    NewObject, GetField, SetField, CallMethod, CheckMethod, NewList, RepeatList, ListOp,
]
Guard = Union[Expr, CheckExceptionType]

# -------------------------------------------------------------- rules, preds


@dataclass(frozen=True)
class Rule:
    """`head :- guard, body`; `lines` are the source lines the rule stands for."""

    index: int
    guard: Guard | None
    body: tuple[Instr, ...]
    lines: tuple[int, ...] = ()


@dataclass(frozen=True)
class Predicate:
    """One function entry or block.

    `params` are the inputs (for a block: the variables live on entry);
    `marks` are statement lines executed on entry, before rule selection
    (loop headers and conditions); `handler` is the block that receives an
    exception raised by this block's own instructions (lexical `try`);
    `iterates` names the loop whose body starts here (loop-K counts it)."""

    name: str
    function: str
    params: tuple[str, ...]
    rules: tuple[Rule, ...]
    marks: tuple[int, ...] = ()
    handler: str | None = None
    is_entry: bool = False
    builtin: bool = False
    iterates: str | None = None
    # stands around a function's entry (invariant checks): the function's
    # call event is its call of the entry, not the run's start
    wrapper: bool = False
    # code of another file of the project (frontend/imports.py): runs like the
    # module's own but silent, as a real trace of the tested file sees it
    foreign: bool = False
    # the entry of a generator function: a call makes a generator object, its
    # first resumption enters this predicate (engine/generators.py)
    generator: bool = False


@dataclass(frozen=True)
class FunctionInfo:
    """What the rest of the pipeline needs to know of a source function."""

    name: str
    qualname: str
    params: tuple[str, ...]
    param_types: tuple[Type, ...]
    return_type: str | None
    # a tuple default (`(True, True)`) holds literals: each use makes the tuple (frontend/callargs.py)
    defaults: tuple[tuple[str, int | bool | float | Text | Sentinel | FreshContainer | tuple[object, ...] | None],
                    ...]
    lineno: int
    end_lineno: int
    entry: str
    assumptions: tuple[str, ...] = ()  # heap assumptions from an @assume decorator
    inferred: tuple[str, ...] = ()  # "name: type" of parameters typed from their use
    # parameters annotated with a type that admits any value (`Any`, `object`, a TypeVar with no
    # bound): their tests pass ints, but a caller of analysed code may pass anything (isinstance
    # is decided at run time for them)
    free: tuple[str, ...] = ()
    # how a method is bound (frontend/decorators.py): "" an instance method or a
    # function, "static" (@staticmethod; @classmethod too: its `cls` is the class,
    # known when lowering), "property" (a getter, run by reading the attribute),
    # "setter" (a property's setter, run by assigning it)
    binding: str = ""
    cached: bool = False  # functools.cache / lru_cache: results memoized by argument
    cache_limit: int | None = None  # lru_cache's maxsize (None: unbounded)
    generator: bool = False  # a generator function: a call makes a generator object (engine/generators.py)
    # int parameters the function checks with `isinstance(p, ...)`: besides ints, the engine tries a
    # float for each, so the check's other branch (a TypeError guard, most often) gets its test
    probes: tuple[str, ...] = ()
    # (p, line) of each `return p` of an int parameter p a bool may stand in for with the same
    # outcome (frontend/boolsafe.py): a path that returns from that line returns the bool itself
    bool_returns: tuple[tuple[str, int], ...] = ()
    # the parameters after `*` (the last of `params`): a call passes them by keyword only
    keyword_only: tuple[str, ...] = ()
    # the `*args` parameter (in `params` after the positional ones): a tuple of the arguments left over
    varargs: str | None = None
    # parameters before `/` (the first of `params`): a call passes them by position only
    positional_only: tuple[str, ...] = ()
    # the `**kwargs` parameter (the last of `params`): a new dict of the keyword arguments left over
    kwargs: str | None = None
    # parameters whose default the model does not hold (`pred=bool`): a call must pass them
    unheld_defaults: tuple[str, ...] = ()
    # parameters annotated with a union (`x: int | str`): each member type, one input per member (the first is
    # `param_types`'s); the lowering decides nothing by their annotation (frontend/unions.py)
    alternatives: tuple[tuple[str, tuple[Type, ...]], ...] = ()


@dataclass(frozen=True)
class ClassInfo:
    """A user class: its base (single inheritance), declared fields, methods."""

    name: str
    base: str | None
    fields: tuple[tuple[str, Type], ...]
    methods: tuple[str, ...]
    lineno: int
    defaults: tuple[tuple[str, object], ...] = ()  # class attributes read when an instance has none
    # other names the class binds (in its body, or on `self` in a method)
    # whose values the model does not know: an instance may well have them
    opaque: tuple[str, ...] = ()
    dataclass: bool = False  # @dataclass: `==` compares fields (a generated __eq__)
    properties: tuple[str, ...] = ()  # methods decorated @property
    setters: tuple[str, ...] = ()  # properties with a `@p.setter` (its FunctionInfo: `C.p.setter`)
    plain_ne: bool = False  # its `__ne__` is `not (self == other)`: `!=` is the negation of `==` anyway
    # its `__exit__` never reads the exception it is given nor returns a true value (engine/managers.py)
    quiet_exit: bool = False
    abstract: tuple[str, ...] = ()  # abstract methods it leaves unimplemented under `abc.ABC`: no instance exists
    # an enum class (frontend/enums.py): "Enum", "IntEnum", "StrEnum", "(int, Enum)" or "(str, Enum)", and its members'
    # names and values in definition order (an alias names its canonical member's value)
    enum: str = ""
    members: tuple[tuple[str, int | bool | float | str | None], ...] = ()
    # a model class merging several (frontend/mro.py): the collections.abc classes of its MRO, each an
    # `isinstance` answer for its instances
    abcs: tuple[str, ...] = ()
    frozen: bool = False  # @dataclass(frozen=True): assigning any attribute of an instance raises (FrozenInstanceError)
    # names its body binds to what a call made (`user = _PermProperty('_user')`): maybe a descriptor, whose
    # `__get__`/`__set__` an instance's read or assignment of the name runs (not followed: the path is dropped)
    descriptors: tuple[str, ...] = ()
    # the opaque names its body binds (`_update = update`, a nested class): class attributes, which every
    # instance has however it was made (the rest of `opaque` only an input may have)
    in_body: tuple[str, ...] = ()
    # a model class standing for a standard-library base class (frontend/library_bases.py): its dotted name
    library: str = ""

    def field_type(self, name: str) -> Type | None:
        return dict(self.fields).get(name)


@dataclass(frozen=True)
class Program:
    """A module's CLP-translated program."""

    module: str
    path: str
    predicates: dict[str, Predicate] = field(hash=False)
    functions: dict[str, FunctionInfo] = field(hash=False)
    exception_bases: dict[str, tuple[str, ...]] = field(hash=False, default_factory=dict)
    classes: dict[str, ClassInfo] = field(hash=False, default_factory=dict)
    # names the module takes from a private (C accelerator) module at import
    # time, `from _heapq import *` or `from _operator import add`: the real
    # function may take no keyword arguments ("*": any name)
    replaced_at_import: frozenset[str] = field(hash=False, default_factory=frozenset)
    invariants: tuple[str, ...] = ()  # `Class.method` marked @invariant in the source
    # `--objects constructed`: the driver of each method target whose
    # objects are built through the class's API (see ir/driver.py)
    drivers: dict[str, DriverPlan] = field(hash=False, default_factory=dict)
    # classes of other modules the code uses that the tested module does not
    # bind: a test would name them as its attributes, so a path whose test
    # mentions one is dropped (frontend/imports.py)
    hidden_classes: frozenset[str] = field(hash=False, default_factory=frozenset)
    # a hidden class a test can still name, as an attribute of a bound class (`Sub.Inner`)
    class_spellings: Mapping[str, str] = field(hash=False, default_factory=dict)
    # a class of a sibling module the module never imports (frontend/siblings.py): tests
    # name it, and the classes spelled through it, by that module (its dotted name)
    class_homes: Mapping[str, str] = field(hash=False, default_factory=dict)
    # each function the frontend could not analyse, by its qualname and by its entry predicate, and
    # why: a call of one drops the path that reaches it (a caller's other paths keep their tests)
    refused: Mapping[str, str] = field(hash=False, default_factory=dict)

    def takes_keywords(self, qualname: str) -> bool:
        """May the generated tests call `qualname` with keyword arguments?"""
        top = qualname.split(".")[0]
        return "*" not in self.replaced_at_import and top not in self.replaced_at_import

    def cached_functions(self) -> tuple[str, ...]:
        """Functions under a functools cache that the tests empty before
        each test (one the module may replace at import is left alone)."""
        return tuple(q for q, f in self.functions.items() if f.cached and self.takes_keywords(q))

    def mro(self, cls: str) -> list[str]:
        out = []
        current: str | None = cls
        while current is not None and current in self.classes and current not in out:
            out.append(current)
            current = self.classes[current].base
        return out

    def frozen(self, cls: str) -> bool:
        """Is `cls` a `@dataclass(frozen=True)` or a subclass of one (its
        `__setattr__` raises for any attribute)?"""
        return self.has_frozen and any(self.classes[klass].frozen for klass in self.mro(cls))

    @functools.cached_property
    def has_frozen(self) -> bool:
        """Does any class of the program freeze its instances? (Most have
        none: each attribute assignment asks.)"""
        return any(info.frozen for info in self.classes.values())

    @functools.cached_property
    def has_descriptors(self) -> bool:
        """Does any class bind a name to what a call made (ClassInfo.descriptors)?"""
        return any(info.descriptors for info in self.classes.values())

    def resolve_method(self, cls: str, method: str) -> str | None:
        """The qualname of the method an instance of `cls` runs, if any."""
        for klass in self.mro(cls):
            if method in self.classes[klass].methods:
                return f"{klass}.{method}"
        return None

    def property_getter(self, cls: str, name: str) -> str | None:
        """The `@property` an instance of `cls` runs when `name` is read or
        assigned, if the method it resolves to is one (a class attribute of
        a subclass shadows it: then no)."""
        for klass in self.mro(cls):
            info = self.classes[klass]
            if name in info.methods:
                return f"{klass}.{name}" if name in info.properties else None
            if name in dict(info.defaults):
                return None
        return None

    def property_setter(self, cls: str, name: str) -> str | None:
        """The key in `functions` of the setter that assigning `name` on an
        instance of `cls` runs, if its property has one."""
        getter = self.property_getter(cls, name)
        if getter is None or name not in self.classes[getter.rpartition(".")[0]].setters:
            return None
        return f"{getter}.setter"

    def class_default(self, cls: str, field: str) -> tuple[bool, object]:
        for klass in self.mro(cls):
            defaults = dict(self.classes[klass].defaults)
            if field in defaults:
                return True, defaults[field]
        return False, None

    def compares_by_value(self, cls: str) -> bool:
        """Is `==` on instances more than identity (a user `__eq__`, or a
        dataclass's generated one)?"""
        return self.resolve_method(cls, "__eq__") is not None or any(
            self.classes[klass].dataclass for klass in self.mro(cls))

    def descriptor(self, cls: str, field: str) -> str | None:
        """The class in `cls`'s chain whose body binds `field` to what a call
        made (maybe a descriptor: ClassInfo.descriptors), if one does."""
        return next((klass for klass in self.mro(cls) if field in self.classes[klass].descriptors), None)

    def class_binds(self, cls: str, field: str) -> bool:
        """Does a class in the chain bind `field` to a value the model does
        not know (`prompt = PROMPT`, a nested class, `self.f = g()` of a type
        not inferred)? Then a missing `field` is not a certain AttributeError."""
        return any(field in self.classes[klass].opaque for klass in self.mro(cls))

    def body_binds(self, cls: str, field: str) -> bool:
        """Does a class in the chain bind `field` in its body to a value the
        model does not know? Then no instance certainly lacks it."""
        return any(field in self.classes[klass].in_body for klass in self.mro(cls))

    def is_subclass(self, cls: str, base: str) -> bool:
        return any(k == base or base in self.classes[k].abcs for k in self.mro(cls))

    def builtin_base(self, cls: str) -> str | None:
        """The builtin class (`dict`, `list`) or standard-library class
        (`io.IOBase`) `cls` derives from, if any (models/builtins/classes.py,
        frontend/library_bases.py): its instances are built with its `__new__`."""
        return next((BASE_BUILTINS.get(k) or self.classes[k].library for k in self.mro(cls)
                     if k in BASE_BUILTINS or self.classes[k].library), None)

    def predicate(self, name: str) -> Predicate:
        """Predicate `name`; a function the frontend refused drops the path that calls it."""
        if name in self.refused:  # even where its lowering got as far as its predicates
            raise Unsupported(self.refused[name])
        return self.predicates[name]

    def not_translated(self, qualname: str) -> Unsupported:
        """What drops a path that calls method `qualname`, which has no predicate."""
        return Unsupported(self.refused.get(qualname, f"method {qualname} was not translated"))

    def predicates_of(self, function: str) -> list[Predicate]:
        return [p for p in self.predicates.values() if p.function == function]
