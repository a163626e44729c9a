"""The engine half of `warnings.warn`: each warning the path issues is
recorded (`ISSUED`: its category and, when the model knows it exactly, its
message) for the test to state with `pytest.warns`."""

from __future__ import annotations

from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State, step
from pathcraft.engine.strings import is_str
from pathcraft.engine.values import Value
from pathcraft.ir.nodes import Call, Predicate, Text
from pathcraft.models.registry import Model
from pathcraft.models.warnings.lowering import WARN

ISSUED = "warnings.issued"  # state.ext: (category, message or None) of each warning, in order


def issued(state: State) -> tuple[tuple[str, str | None], ...]:
    """The warnings the path issued so far."""
    return state.ext.get(ISSUED, ())  # type: ignore[return-value]


def _warn(machine: Machine, state: State, frame: Frame, instr: Call, callee: Predicate,
          args: list[Value]) -> Successors | None:
    category, message = args
    assert isinstance(category, Text) and category.value is not None
    if not is_str(message):
        return None  # the predicate's own rule: a dropped path
    text = message.value if isinstance(message, Text) else None  # a symbolic str: its category alone
    state = state.with_ext(ISSUED, (*issued(state), (category.value, text)))
    return [step(state, frame, env=frame.env if instr.target is None else {**frame.env, instr.target: None})]


MODEL = Model("warnings", calls={WARN: _warn})
