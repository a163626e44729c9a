"""Names of the predicates that stand for builtin methods and functions
written in the prelude (`frontend/prelude`): the frontend emits calls to
them and the engine dispatches to them, so both read the names here."""

from __future__ import annotations

from types import MappingProxyType

PREFIX = "$"

# the builtin predicate (`frontend/builtins.py`) a call becomes when an operand is a float
FLOAT_BUILTINS = MappingProxyType({
    "abs": "float_abs", "int_floordiv": "float_floordiv", "int_mod": "float_mod", "truediv": "float_truediv",
    "int_divmod": "float_divmod", "to_int": "float_to_int", "round": "float_round", "floor": "float_floor",
    "ceil": "float_ceil",
})
# `int(x)`, `round(x)`, `math.floor(x)`, `math.ceil(x)`: on an int or bool the engine computes them in
# place (`+x`), without a predicate
NUMBER_CONVERSIONS = frozenset({"to_int", "round", "floor", "ceil"})

# Methods the frontend calls for syntax and builtins (`x in c`, `c[a:b]`,
# `list(c)`), dispatched on the receiver's kind. A class would define
# `__contains__` itself; the other two no class defines. Where a receiver
# has none, Python raises TypeError (None, an int) or uses a protocol the
# model does not follow (an object's `__iter__`/`__getitem__`).
CONTAINS = "__contains__"
SLICE_PROTOCOL = "__getslice__"
LIST_PROTOCOL = "__list__"
# `with m:`: `__enter__` after checking both methods exist (TypeError as CPython words it), and
# `__exit__(None, None, None)` of a manager whose `__exit__` ignores the exception (frontend/stmt_with.py)
ENTER_PROTOCOL = "$enter"
EXIT_PROTOCOL = "$exit"
# `E(args)` as a value: `Unary("exc:E", message)`, an ExcValue (frontend/excvalues.py)
NEW_EXCEPTION_OP = "exc:"
MATCH_TYPE = "re.Match"  # the type of the ExcValue a regex match is (models/re): tested for truth and None only
ADD = "__add__"  # `a + b` where a is surely a sequence (see frontend/expressions.py: sequence)
IADD = "__iadd__"  # `a += b` likewise: a list extends in place
EQ = "__eq__"  # `a == b` likewise: item by item
# `a == b` / `a != b` in a module whose classes compare by value (a user
# `__eq__`, a dataclass): Python's dispatch, done by the engine (engine/objeq.py)
OBJECT_EQ = "$object_eq"
# `next(it)` / `next(it, default)`: a generator resumed once (its kind's prelude `__next__`), an object's
# own `__next__`, anything else TypeError (engine/methods.py: next_item)
NEXT_CALL = "$next"
# `a < b` (`<=`, `>`, `>=`: the second argument, an index into ORDERINGS) in a
# module whose classes order their instances: Python's dispatch (engine/objorder.py)
OBJECT_ORDER = "$object_order"
ORDERINGS = ("lt", "le", "gt", "ge")
SORT_BY = "__sort_by__"  # `xs.sort(key=f)` once the keys are computed (frontend/keyed.py): a list's alone
DELSLICE_PROTOCOL = "__delslice__"  # `del xs[a:b]` (a list's alone; CPython calls `__delitem__(slice)`)
PROTOCOLS = (CONTAINS, SLICE_PROTOCOL, LIST_PROTOCOL, ADD, IADD, SORT_BY, DELSLICE_PROTOCOL)


def method_predicate(kind: str, method: str) -> str:
    """The entry predicate of method `method` of builtin type `kind`
    (`$list.index`); it may not exist."""
    return f"{PREFIX}{kind}.{method}"


def function_predicate(name: str) -> str:
    """The entry predicate of the prelude's builtin function `name` (`$any`)."""
    return f"{PREFIX}{name}"


# Native builtins the engine runs itself (no rules): `{k: v, ...}` as
# `$literal.dict(k1, v1, k2, v2, ...)`, `{a, b}` and `set()` as
# `$literal.set(a, b)` (`set(xs)` is the prelude's `$set`).
NEW_DICT = f"{PREFIX}literal.dict"
NEW_SET = f"{PREFIX}literal.set"
# `collections.defaultdict(factory)` as `$literal.defaultdict("int")`
# (`list`, `set`, `dict`, `bool`)
NEW_DEFAULTDICT = f"{PREFIX}literal.defaultdict"

# The text a `for` loop's own `len` and `get` carry as their last argument
# (lists ignore it): a dict tells its loop's steps from `len(d)` and `d[k]`.
# `for k, v in d.items()` reads each part with its own `get`; zip's later
# arguments are checked only once the earlier ones have an item; a loop over
# `reversed(x)` starts with an `iter` that says so.
LOOP_STEP = f"{PREFIX}step"
LOOP_KEY = f"{PREFIX}key"
LOOP_VALUE = f"{PREFIX}value"
LOOP_LATER = f"{PREFIX}later"
LOOP_REVERSED = f"{PREFIX}reversed"

# the function of the silent wrapper a `@functools.cache` nested function's calls
# enter (frontend/closures.py): it indexes its memo, a dict, as a dict
MEMO_WRAPPER = f"{PREFIX}memo"

# In a module with generator functions, a `for` loop (and a generator
# expression's source) walks `$iterate(x)`: `x` itself, or for an object whose
# class's `__iter__` is a generator function, a new generator of it; the loop
# closes it (`close`, a ListOp) where it leaves early (engine/generators.py)
ITERATE = f"{PREFIX}iterate"

# an exception type no code raises: the engine drops the path there and names the message (a model stops)
UNSUPPORTED = "$unsupported"

# `isinstance(e, T)` decided at run time: `Unary("isa:int,float", e)` (frontend/isinstances.py)
ISINSTANCE_OP = "isa:"
# the same with model classes of `collections.abc` (`Unary("isabc:Mapping", e)`): CPython's answer for a
# builtin value, the class's chain (or its methods, for the ABCs that read them) for an object
ISINSTANCE_ABC_OP = "isabc:"
# `Color(v)` of an enum class: this method of the class's first member (frontend/callargs.py, models/enum)
ENUM_LOOKUP = "$enum_lookup"

# builtin classes a library class may derive from, and the model class standing for each as a base
# (models/builtins/classes.py): its instances are built with the builtin's `__new__`
BUILTIN_BASES = {"dict": "PathcraftDict", "list": "PathcraftList"}
# the attribute holding the items of an instance of a class derived from dict (models/builtins/dict_base.py):
# no input has it (a test makes inputs empty of items), and a test reads it as `dict(dict.items(obj))`
DICT_ITEMS = "_pathcraft_items"
# attributes of this prefix are a model's own state (DICT_ITEMS, a lock's depth): never an input's field, and
# an instance without one has the class's value (or none) for certain
MODEL_STATE = "_pathcraft_"
# model classes whose instances a test makes by a call, never field by field (models/threading/classes.py):
# the module and the factory of the call (`threading.RLock()`)
MADE_BY = {"PathcraftLock": ("threading", "Lock"), "PathcraftRLock": ("threading", "RLock")}


def made_call(model: str) -> str:
    """The call a test makes an instance of model class `model` with (MADE_BY)."""
    module, factory = MADE_BY[model]
    return f"{module}.{factory}()"
BASE_BUILTINS = {model: builtin for builtin, model in BUILTIN_BASES.items()}
