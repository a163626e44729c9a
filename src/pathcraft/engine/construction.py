"""The search control of a construction driver (`--objects constructed`).

A driver builds an object through the class's API and then calls the
target. Its tests assert what the target call did, so the test-case code
needs the heap just before that call (to tell which fields the call
changed) and where the call's events start (the path a test claims is the
target's, not the setup's). This control records both on the state when
the driver enters the target from its call site, and counts the setup sequences a
raising call ended (they enter a rule-less predicate).
"""

from __future__ import annotations

from dataclasses import dataclass

from pathcraft.engine.control import SearchControl
from pathcraft.engine.state import Entry, EventNode, State
from pathcraft.heap.cells import Heap
from pathcraft.ir.nodes import CallMethod, Var


@dataclass(frozen=True)
class TargetCall:
    """The state of a driver path as its target call starts."""

    heap: Heap
    receiver: object  # the object the target is called on
    events: int  # events of the path before the call's own


class ConstructionControl(SearchControl):
    """Watches driver `driver`, whose target call is at line `call_line`."""

    name = "construction"

    def __init__(self, driver: str, call_line: int, setup_raised: str) -> None:
        self.driver = driver
        self.call_line = call_line
        self.raised_predicate = setup_raised
        self.setup_raised = 0  # sequences dropped because the constructor or a setup call raised

    def enter(self, state: State, entry: Entry) -> State | None:
        """Entering the target from the driver's call site (the method's
        entry, or a builtin wrapper around it such as an invariant check:
        hence here and not at `call`, which builtins skip)."""
        if entry.pred.name == self.raised_predicate:
            self.setup_raised += 1  # the predicate has no rules: the path ends there
            return state
        if state.stack is None or entry.via_tail:
            return state
        frame = state.stack.top
        if frame.pred.function != self.driver:
            return state
        instr = frame.rule.body[frame.pc]
        if not (isinstance(instr, CallMethod) and instr.line == self.call_line and isinstance(instr.obj, Var)):
            return state
        # a user function's call event is already on the path; a builtin's callee pushes its own
        first = _count(state.events) - (0 if entry.pred.builtin else 1)
        return state.with_ext(self.name, TargetCall(state.heap, frame.env[instr.obj.name], first))


def _count(events: EventNode | None) -> int:
    n = 0
    while events is not None:
        n += 1
        events = events.prev
    return n
