"""The model of strs as far as the engine goes: `str % x` formats a string
(`engine/strings.py: percent_format`; its text is not computed). Strings
are terms of sort STR (`solver/strings.py` states each operator); their
sequence operations are the heap executor's (`engine/strings.py`), their
methods builtin predicates (`frontend/strbuiltins.py`) or prelude loops
(`frontend/prelude/strings.py`)."""

from __future__ import annotations

from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State, step
from pathcraft.engine.strings import Mismatch, percent_format
from pathcraft.engine.values import Value
from pathcraft.ir.nodes import Call, Predicate, Text
from pathcraft.ir.values import ExcValue
from pathcraft.models.registry import Model


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


MODEL = Model("str", calls={"int_mod": _format})
