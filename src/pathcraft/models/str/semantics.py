"""The model of strs as far as the engine goes: `str % x` formats a string
(`engine/strings.py: percent_format`; its text is not computed), a field
with a width is padded (`$format_spec`, models/str/formatspec.py), and
`s.partition(sep)` is three substrings of s around sep's first occurrence
(terms: `indexof`, `substr`), a new tuple. Strings
are terms of sort STR (`solver/strings.py` states each operator); their
sequence operations are the heap executor's (`engine/strings.py`), their
methods builtin predicates (`models/str/lowering.py`) or prelude loops
(`models/str/prelude.py`)."""

from __future__ import annotations

from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State, step
from pathcraft.engine.strings import Mismatch, as_str, is_bool, is_int, is_str, percent_format
from pathcraft.errors import Unsupported
from pathcraft.ir.builtin_names import function_predicate, method_predicate
from pathcraft.models.str.formatspec import FormatError, format_value
from pathcraft.engine.values import Value
from pathcraft.ir.nodes import Call, CallMethod, NewList, Predicate, Text, Var
from pathcraft.ir.values import ExcValue
from pathcraft.heap.cells import Addr
from pathcraft.models.registry import Model
from pathcraft.solver import terms as T
from pathcraft.solver.terms import Term

_PARTS = (Var("$head"), Var("$sep"), Var("$tail"))  # the new tuple's items, bound to terms


def _format(machine: Machine, state: State, frame: Frame, instr: Call, callee: Predicate,
            args: list[Value]) -> Successors | None:
    """`text % x` (the int predicate `int_mod` with a str on the left)."""
    if not isinstance(args[0], Text):
        return None
    try:
        text = percent_format(args[0], args[1])
    except Mismatch:
        return machine.throw(state, ExcValue("TypeError", None))
    return [step(state, frame, env=frame.env if instr.target is None else {**frame.env, instr.target: text})]


def _format_field(machine: Machine, state: State, frame: Frame, instr: Call, callee: Predicate,
                  args: list[Value]) -> Successors | None:
    """`$format_spec(value, spec)`: a field with a width (`f"{n:04X}"`,
    models/str/formatspec.py), or CPython's exception for the value's type."""
    value, spec = args
    assert isinstance(spec, Text) and spec.value is not None
    try:
        text = format_value(spec.value, value)
    except FormatError as exc:
        return machine.throw(state, exc.exc)
    return [step(state, frame, env=frame.env if instr.target is None else {**frame.env, instr.target: text})]


FORMAT_SPEC = function_predicate("format_spec")


def _partition(machine: Machine, state: State, frame: Frame, instr: CallMethod, receiver: Value,
               args: tuple[Value, ...]) -> Successors | None:
    """`s.partition(sep)`: ValueError for an empty sep, else `(head, sep,
    tail)` around its first occurrence, or `(s, "", "")` without one; a sep
    that is no str raises TypeError (its message names the type)."""
    if instr.method != "partition" or len(args) != 1:
        return None
    if not is_str(args[0]):
        return machine.throw(state, ExcValue("TypeError", None))
    text, sep = as_str(receiver), as_str(args[0])
    size, at = T.apply("strlen", sep), T.apply("indexof", text, sep)
    out: Successors = []
    empty = machine.brancher.constrain(state.chose(0), T.relation("eq", size, 0))
    if empty is not None:
        out.extend(machine.throw(empty, ExcValue("ValueError", "empty separator")))
    found = machine.brancher.constrain(state.chose(1), T.and_(T.relation("gt", size, 0), T.relation("ge", at, 0)))
    if found is not None:
        after = T.add(at, size)
        tail = T.apply("substr", text, after, T.sub(T.apply("strlen", text), after))
        out.extend(_triple(machine, found, frame, instr, (T.apply("substr", text, 0, at), sep, tail)))
    missing = machine.brancher.constrain(state.chose(2), T.and_(T.relation("gt", size, 0), T.relation("lt", at, 0)))
    if missing is not None:
        out.extend(_triple(machine, missing, frame, instr, (text, "", "")))
    return out


def _triple(machine: Machine, state: State, frame: Frame, instr: CallMethod,
            parts: tuple[Term, Term, Term]) -> Successors:
    """A new tuple of `parts` in the call's target (allocated as a literal is)."""
    env = {**frame.env, **{var.name: part for var, part in zip(_PARTS, parts)}}
    made = NewList("$partition", _PARTS, None, instr.line, is_tuple=True)
    return machine.effects(frame, instr.target, machine.heap.execute(state, made, env))


# the arguments of str methods that must be strs (by position), and what else each takes there: CPython
# raises TypeError for anything else before it looks at the text (`"a".replace("%prog", 3)`), which the
# prelude loops, typed `str`, would not notice
_STR_ARGUMENTS: dict[str, tuple[tuple[int, ...], str]] = {
    "replace": ((0, 1), ""), "find": ((0,), ""), "rfind": ((0,), ""), "index": ((0,), ""), "rindex": ((0,), ""),
    "count": ((0,), ""), "partition": ((0,), ""), "rpartition": ((0,), ""), "removeprefix": ((0,), ""),
    "removesuffix": ((0,), ""), "startswith": ((0,), "tuple"), "endswith": ((0,), "tuple"),
    "split": ((0,), "None"), "rsplit": ((0,), "None"), "strip": ((0,), "None"), "lstrip": ((0,), "None"),
    "rstrip": ((0,), "None"),
}


def _method(machine: Machine, state: State, frame: Frame, instr: CallMethod, receiver: Value,
            args: tuple[Value, ...]) -> Successors | None:
    """A str method given an argument no str method takes there raises
    TypeError (its message, which names the types, is not asserted);
    `partition` is answered here."""
    positions, also = _STR_ARGUMENTS.get(instr.method, ((), ""))
    for at in positions:
        if at < len(args) and _not_text(args[at], also):
            return machine.throw(state, ExcValue("TypeError", None))
    if also == "None" and args and args[0] is None:  # `s.strip(None)` is `s.strip()`: whitespace
        if len(args) > 1:
            raise Unsupported(f"str.{instr.method}(None, ...)")
        plain = machine.program.predicates.get(method_predicate("str", instr.method))
        if plain is None:
            raise Unsupported(f"str.{instr.method}(None)")
        return list(machine.invoke(state, plain.name, {plain.params[0]: receiver}))
    return _partition(machine, state, frame, instr, receiver, args)


def _not_text(value: Value, also: str) -> bool:
    """Is `value` certainly no str (nor what `also` lets the method take)?"""
    if value is None:
        return also != "None"
    if isinstance(value, Addr):  # a list, tuple, dict or object: no str subclass is modelled
        return also != "tuple"
    return is_int(value) or is_bool(value) or isinstance(value, float) or \
        isinstance(value, (T.Sym, T.App)) and T.sort_of(value) == T.FLOAT


def _has_method(cell: object, name: str) -> bool:
    return name == "partition"


MODEL = Model("str", kinds=("str",), method=_method, has_method=_has_method,
              calls={"int_mod": _format, FORMAT_SPEC: _format_field})
