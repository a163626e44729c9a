"""The model of floats where the engine meets their builtins: an int
predicate given a float operand enters its float row instead
(`FLOAT_BUILTINS`: `float_mod` for `int_mod`, CPython's `//` and `%` in
`solver/fpsem.py`), `int(x)` of a float is `float_to_int` (its domain in
`solver/floats.py`), and `**` on floats is not modelled (libm's pow)."""

from __future__ import annotations

from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State
from pathcraft.engine.values import Value
from pathcraft.errors import Unsupported
from pathcraft.ir.builtin_names import FLOAT_BUILTINS, function_predicate
from pathcraft.ir.nodes import Call, Predicate
from pathcraft.models.registry import CallHook, Model
from pathcraft.solver import floats


def _float_row(machine: Machine, state: State, frame: Frame, instr: Call, callee: Predicate,
               args: list[Value]) -> Successors | Predicate | None:
    if not any(floats.is_float(a) for a in args):
        return None
    return machine.program.predicate(FLOAT_BUILTINS[callee.name])


def _pow(machine: Machine, state: State, frame: Frame, instr: Call, callee: Predicate,
         args: list[Value]) -> Successors | Predicate | None:
    if any(floats.is_float(a) for a in args):
        raise Unsupported("'**' on floats (libm's pow is not modelled)")
    return None


def _to_int(machine: Machine, state: State, frame: Frame, instr: Call, callee: Predicate,
            args: list[Value]) -> Successors | Predicate | None:
    """`int(x)` the frontend could not type, x a float."""
    return machine.program.predicate("float_to_int") if floats.is_float(args[0]) else None


_CALLS: dict[str, CallHook] = {name: _float_row for name in FLOAT_BUILTINS}
_CALLS.update({"int_pow": _pow, function_predicate("int"): _to_int})

MODEL = Model("float", calls=_CALLS)
