"""Which handler runs an instruction: a table from IR instruction type
(`ir/nodes.py`) to a function of the `Machine`, the state, the top frame
and the instruction. `Mark`, `Assign` and `BindException` never fork and
are run in place by `Run.advance`; every other instruction is here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from pathcraft.engine import generators
from pathcraft.engine.calls import call
from pathcraft.engine.fields import get_field, set_field
from pathcraft.engine.flow import allocate, goto, raise_, return_
from pathcraft.engine.listops import list_op
from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.methods import call_method, check_method
from pathcraft.engine.state import Frame, State
from pathcraft.ir.nodes import (Call, CallMethod, CheckMethod, GetField, Goto, ListOp, NewList, NewObject, Raise,
                                RepeatList, Return, SetField, Yield)

Handler = Callable[[Machine, State, Frame, Any], Successors]


def _yield(machine: Machine, state: State, frame: Frame, instr: Yield) -> Successors:
    return generators.suspend(machine, state, frame, instr)


HANDLERS: Mapping[type, Handler] = MappingProxyType({
    Call: call,
    CallMethod: call_method,
    CheckMethod: check_method,
    ListOp: list_op,
    Yield: _yield,
    GetField: get_field,
    SetField: set_field,
    NewObject: allocate,
    NewList: allocate,
    RepeatList: allocate,
    Goto: goto,
    Return: return_,
    Raise: raise_,
})


def execute(machine: Machine, state: State, frame: Frame, instr: object) -> Successors:
    """An instruction that may fork, call, or end the frame."""
    handler = HANDLERS.get(type(instr))
    if handler is None:
        raise AssertionError(f"unknown instruction {instr!r}")
    return handler(machine, state, frame, instr)
