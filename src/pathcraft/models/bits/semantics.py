"""The model of the bit operators `& | ^ << >>` beyond ints
(`models/bits/lowering.py` lowers them, `solver/bitops.py` states their
meaning): on a float Python raises TypeError (its message names the
types: only the type is asserted)."""

from __future__ import annotations

from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State
from pathcraft.engine.values import Value
from pathcraft.models.bits.lowering import BIT_PREDICATES
from pathcraft.ir.nodes import Call, Predicate
from pathcraft.ir.values import ExcValue
from pathcraft.models.registry import Model
from pathcraft.solver import floats


def _on_float(machine: Machine, state: State, frame: Frame, instr: Call, callee: Predicate,
              args: list[Value]) -> Successors | None:
    if any(floats.is_float(a) for a in args):
        return machine.throw(state, ExcValue("TypeError", None))
    return None


MODEL = Model("bit operators", calls={name: _on_float for name in BIT_PREDICATES})
