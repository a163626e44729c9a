"""The model of ints where the engine meets their builtins: `int(n)`,
`round(n)`, `math.floor(n)` of an int are the value itself (as an int);
`%`, `//`, `divmod`, `**`, `abs`, `min`, `max` and the bit operators are
int predicates (with their ZeroDivisionError rules, `frontend/builtins.py`),
entered only when every operand is an int or bool (or a float, which the
float model answers next)."""

from __future__ import annotations

from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State, step
from pathcraft.engine.values import Value
from pathcraft.errors import Unsupported
from pathcraft.models.bits.lowering import BIT_PREDICATES
from pathcraft.heap.base import is_scalar
from pathcraft.heap.cells import Addr
from pathcraft.ir.builtin_names import NUMBER_CONVERSIONS
from pathcraft.ir.nodes import Call, Predicate, Text, Unary
from pathcraft.ir.values import ExcValue
from pathcraft.models.registry import CallHook, Model
from pathcraft.solver import floats

INT_BUILTINS = frozenset({"int_mod", "int_floordiv", "int_divmod", "int_pow", "abs", "min", "max"}) | BIT_PREDICATES


def _conversion(machine: Machine, state: State, frame: Frame, instr: Call, callee: Predicate,
                args: list[Value]) -> Successors | None:
    """`int(n)`, `round(n)`, `floor(n)`, `ceil(n)` of an int: n itself."""
    if any(floats.is_float(a) for a in args):
        return None
    value = machine.evaluator.eval(Unary("int", instr.args[0]), frame.env, state.heap)
    return [step(state, frame, env=frame.env if instr.target is None else {**frame.env, instr.target: value})]


def _operands(machine: Machine, state: State, frame: Frame, instr: Call, callee: Predicate,
              args: list[Value]) -> Successors | None:
    """What is not a number: None raises TypeError; strings, lists and
    objects (which may define the operator) drop the path. Checked before
    a float picks a float row ('a' % 0.0)."""
    if all(is_scalar(a) or floats.is_float(a) for a in args):
        return None
    if any(a is None for a in args) and not any(isinstance(a, (Text, Addr)) for a in args):
        return machine.throw(state, ExcValue("TypeError", None))
    raise Unsupported(f"{instr.predicate} on strings, lists or objects")


_CALLS: dict[str, CallHook] = {name: _conversion for name in NUMBER_CONVERSIONS}
_CALLS.update({name: _operands for name in INT_BUILTINS})

MODEL = Model("int", calls=_CALLS)
