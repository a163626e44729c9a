"""`with m:` over an object (frontend/stmt_with.py): the two protocol
calls the lowering emits.

`$enter` looks up both methods on the manager's class first, as CPython
does, and raises its TypeError for a value without them (`with None:`,
`with 3:`, a class with `__enter__` alone); then calls `__enter__`.
`$exit` calls `__exit__(None, None, None)`: exact when that method never
reads the exception it is given and never returns a true value
(`ClassInfo.quiet_exit`, read from its source); the path is dropped for
any other, whose arguments the model does not have.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State
from pathcraft.engine.values import Value
from pathcraft.errors import Unsupported
from pathcraft.heap.base import type_name
from pathcraft.heap.cells import Addr, ObjectCell
from pathcraft.ir.builtin_names import ENTER_PROTOCOL
from pathcraft.ir.nodes import CallMethod, FunctionInfo
from pathcraft.ir.values import ExcValue

BoundCall = Callable[[Machine, State, Frame, CallMethod, FunctionInfo, Value, tuple[Value, ...]], Successors]


def manager_call(machine: Machine, state: State, frame: Frame, instr: CallMethod, receiver: Value,
                 bound_call: BoundCall) -> Successors:
    """`$enter(m)` or `$exit(m)`; `bound_call` calls a user method."""
    program = machine.program
    cell = state.heap.cell(receiver) if isinstance(receiver, Addr) else None
    protocol = "object does not support the context manager protocol"
    if not isinstance(cell, ObjectCell):
        return machine.throw(state, ExcValue("TypeError", f"'{type_name(receiver, state.heap)}' {protocol}"))
    enter = program.resolve_method(cell.cls, "__enter__")
    leave = program.resolve_method(cell.cls, "__exit__")
    if enter is None or leave is None:
        for name in ("__enter__", "__exit__"):
            if program.class_binds(cell.cls, name):
                raise Unsupported(f"context manager {cell.cls}, whose {name} is a value not modelled")
        missed = " (missed __exit__ method)" if enter is not None else ""
        return machine.throw(state, ExcValue("TypeError", f"'{cell.cls.rpartition('.')[2]}' {protocol}{missed}"))
    args: tuple[Value, ...] = ()
    if instr.method == ENTER_PROTOCOL:
        method = enter
    else:
        owner = leave.rpartition(".")[0]
        if not program.classes[owner].quiet_exit:
            raise Unsupported(f"{leave}, which reads the exception it is given or may swallow it")
        method, args = leave, (None, None, None)
    info = program.functions.get(method)
    if info is None:
        raise program.not_translated(method)
    name = method.rpartition(".")[2]
    return bound_call(machine, state, frame, replace(instr, method=name, written=True), info, receiver, args)
