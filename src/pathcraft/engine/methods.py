"""Handlers of method calls: `CheckMethod` (is the attribute there?) and
`CallMethod` (Python's dispatch: a builtin value's method by its kind, a
user class's method with its defaults, `==` and `<` by the operators'
protocols, a generator-making `__iter__` under `list(obj)`)."""

from __future__ import annotations

from dataclasses import replace

from pathcraft.engine import generators, managers, objeq, objorder
from pathcraft.engine.binding import bound_call
from pathcraft.engine.evaluate import is_ref
from pathcraft.engine.heapstep import Effect
from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State, step
from pathcraft.engine.values import Value, value_kind
from pathcraft.errors import Unsupported
from pathcraft.heap.base import attribute_error, called_field, type_name, uncertain_attribute
from pathcraft.heap.cells import Addr, ListCell, ObjectCell
from pathcraft.ir.builtin_names import (ENTER_PROTOCOL, EQ, EXIT_PROTOCOL, LIST_PROTOCOL, NEXT_CALL, OBJECT_EQ,
                                       OBJECT_ORDER, ORDERINGS, PROTOCOLS, method_predicate)
from pathcraft.ir.nodes import Binary, CallMethod, CheckMethod, Var
from pathcraft.ir.values import ExcValue
from pathcraft.models.catalog import REGISTRY


# the kinds of value whose Python type is the kind itself (a generator may
# stand for a C iterator of another type)
_CERTAIN_TYPES = frozenset({"list", "tuple", "dict", "set", "str", "int", "float", "deque"})


def check_method(machine: Machine, state: State, frame: Frame, instr: CheckMethod) -> Successors:
    """`obj.method` before the arguments: AttributeError if it is not
    there; the call itself (dispatch, arity) happens at CallMethod."""
    program = machine.program
    receiver = machine.evaluator.eval(instr.obj, frame.env, state.heap)
    cell = state.heap.cell(receiver) if isinstance(receiver, Addr) else None
    kind = value_kind(receiver, cell)
    if isinstance(cell, ObjectCell) and program.resolve_method(cell.cls, instr.method) \
            or kind is not None and REGISTRY.has_method(program, kind, cell, instr.method):
        return [step(state, frame)]  # there: CallMethod dispatches
    if instr.method == "__call__" and receiver is None:  # `f(x)` looks nothing up: its TypeError comes after x
        return [step(state, frame)]
    if isinstance(cell, ObjectCell):
        uncertain = uncertain_attribute(program, cell, instr.method) or called_field(program, cell, instr.method)
        if uncertain is not None:
            raise Unsupported(f"looking up {uncertain}")
    elif receiver is not None and (kind not in _CERTAIN_TYPES or frame.pred.builtin):
        raise Unsupported(f"looking up '{instr.method}' on a value the model does not know")
    # None, an object, or, in the module's own code, a builtin value whose type has no such
    # attribute (attribute_error drops the path when the real type has it: a method the model
    # does not follow); a model of a C function may look up in another order than the C code
    return machine.throw(state, attribute_error(receiver, state.heap, instr.method))


def call_method(machine: Machine, state: State, frame: Frame, instr: CallMethod) -> Successors:
    receiver = machine.evaluator.eval(instr.obj, frame.env, state.heap)
    args = tuple(machine.evaluator.eval(a, frame.env, state.heap) for a in instr.args)
    cell = state.heap.cell(receiver) if isinstance(receiver, Addr) else None
    kind = value_kind(receiver, cell)
    if instr.spread is not None and not isinstance(cell, ObjectCell):
        raise Unsupported(f"*args spread into {instr.method}() of a value the model dispatches itself")
    if instr.keywords and kind is not None:  # a builtin's own parameter names are not modelled
        raise Unsupported(f"keyword arguments to {kind}.{instr.method}()")
    if instr.method == NEXT_CALL:
        return next_item(machine, state, frame, instr, kind, receiver, args)
    if instr.method in (ENTER_PROTOCOL, EXIT_PROTOCOL):  # `with m:` (frontend/stmt_with.py)
        return managers.manager_call(machine, state, frame, instr, receiver, bound_call)
    model = REGISTRY.of_kind(kind)
    if model is not None and model.method is not None:  # a method the model answers itself (`d.get(k)`)
        answered = model.method(machine, state, frame, instr, receiver, args)
        if answered is not None:
            return answered
    if instr.method == OBJECT_EQ:  # `a == b` in a module whose classes compare by value
        return object_equality(machine, state, frame, instr, receiver, args)
    if instr.method == OBJECT_ORDER:  # `a < b` in a module whose classes order their instances
        return object_order(machine, state, frame, instr, receiver, args)
    if instr.method == EQ:  # `a == b` where the frontend saw a list on one side
        successors = list_equality(machine, state, frame, instr, receiver, args[0])
        if successors is not None:
            return successors
    if kind is not None:
        return value_method(machine, state, frame, instr, kind, receiver, args)
    return _object_method(machine, state, frame, instr, receiver, args)


def next_item(machine: Machine, state: State, frame: Frame, instr: CallMethod, kind: str | None, receiver: Value,
              args: tuple[Value, ...]) -> Successors:
    """`next(it[, default])`: a generator resumed once (its prelude
    `__next__`), an object's own `__next__` (without a default: with one,
    its StopIteration would be caught here, not modelled), else TypeError
    as CPython words it."""
    cell = state.heap.cell(receiver) if isinstance(receiver, Addr) else None
    if kind == "generator":
        return value_method(machine, state, frame, replace(instr, method="__next__"), kind, receiver, args)
    if isinstance(cell, ObjectCell) and machine.program.resolve_method(cell.cls, "__next__") is not None:
        if args:
            raise Unsupported(f"next() with a default on an object of class {cell.cls}")
        return _object_method(machine, state, frame, replace(instr, method="__next__"), receiver, args)
    return machine.throw(state, ExcValue("TypeError", f"'{type_name(receiver, state.heap)}' object is not an iterator"))


def value_method(machine: Machine, state: State, frame: Frame, instr: CallMethod, kind: str, receiver: Value,
                 args: tuple[Value, ...]) -> Successors:
    """A method of a builtin value (`xs.index(x)`, `n.bit_length()`): its
    prelude predicate (`frontend/prelude`), what its model enters instead,
    or a dropped path when there is none."""
    program, method = machine.program, instr.method
    predicate = program.predicates.get(method_predicate(kind, method))
    if predicate is None or len(predicate.params) != len(args) + 1:  # `s.split()` is `$str.split__0`
        predicate = program.predicates.get(method_predicate(kind, f"{method}__{len(args)}")) or predicate
    model = REGISTRY.of_kind(kind)
    if predicate is None and model is not None and model.missing is not None:
        instead = model.missing(machine, state, method)
        if isinstance(instead, list):
            return instead
        predicate = program.predicates.get(instead) if instead is not None else None
    if predicate is None:
        raise Unsupported(f"{kind}.{method}()")
    values = (receiver,) + args
    if len(values) != len(predicate.params):
        raise Unsupported(f"{kind}.{method}() with {len(args)} arguments")
    return list(machine.invoke(state, predicate.name, dict(zip(predicate.params, values))))


def _object_method(machine: Machine, state: State, frame: Frame, instr: CallMethod, receiver: Value,
                   args: tuple[Value, ...]) -> Successors:
    """A method of what has no builtin kind: an object of a user class, or
    None (AttributeError, or TypeError from a protocol)."""
    program, heap = machine.program, state.heap
    cell = heap.cell(receiver) if isinstance(receiver, Addr) else None
    qualname = program.resolve_method(cell.cls, instr.method) if isinstance(cell, ObjectCell) else None
    if qualname is None and instr.method == LIST_PROTOCOL:  # `list(obj)` of a class whose `__iter__` yields
        method = generators.generator_method(machine, receiver, heap)
        if method is not None:
            made, addr = generators.new(state, method, {method.params[0]: receiver})
            return value_method(machine, made, frame, instr, generators.KIND, addr, ())
    if qualname is None and isinstance(cell, ObjectCell):
        # `self.__class__(...)`, or a callable the class stores (`self.append = stack.append`)
        uncertain = uncertain_attribute(program, cell, instr.method) or called_field(program, cell, instr.method)
        if uncertain is not None:
            raise Unsupported(f"calling {uncertain}")
    if qualname is not None and isinstance(cell, ObjectCell) and not instr.method.startswith("__"):
        # `self.getsizeof = getsizeof` somewhere: an instance's own attribute hides the class's method
        shadow = called_field(program, cell, instr.method)
        if shadow is not None:
            raise Unsupported(f"calling {shadow}, which hides the method of that name")
    if qualname is None and instr.method == "__call__" and receiver is None:  # a callable parameter left None
        return machine.throw(state, ExcValue("TypeError", "'NoneType' object is not callable"))
    if qualname is None and instr.method in PROTOCOLS:  # `x in c`, `c[a:b]`, `list(c)` on no sequence
        if isinstance(cell, ObjectCell):
            raise Unsupported(f"{instr.method} through class {cell.cls}'s protocols (not modelled)")
        return machine.throw(state, ExcValue("TypeError", None))
    if qualname is None:
        return machine.throw(state, attribute_error(receiver, heap, instr.method))
    info = program.functions.get(qualname)
    if info is None:
        raise program.not_translated(qualname)
    return bound_call(machine, state, frame, instr, info, receiver, args)


def object_equality(machine: Machine, state: State, frame: Frame, instr: CallMethod, left: Value,
                    args: tuple[Value, ...]) -> Successors:
    """`left == right` (`args`: right, and whether the source says `!=`)
    by Python's dispatch (engine/objeq.py): a user or generated `__eq__`
    called, else the evaluator's own `==`, or identity."""
    program = machine.program
    right, negated = args[0], args[1] is True
    plan = objeq.dispatch(program, state.heap, left, right, negated) \
        if objeq.by_value(program, state.heap, left, right) else None
    if plan is None or plan.method is None:
        if plan is None:
            same = machine.evaluator.eval(Binary("eq", Var("$l"), Var("$r")), {"$l": left, "$r": right}, state.heap)
        else:  # every __eq__ gave NotImplemented: identity
            same = machine.heap_model.ref_eq(state.heap, left, right) if is_ref(left) and is_ref(right) else False
        return [step(state, frame, env=frame.env if instr.target is None else {**frame.env, instr.target: same})]
    info = program.functions.get(plan.method)
    if info is None:
        raise program.not_translated(plan.method)
    if objeq.generated(program, plan.method):
        depth, stack = 0, state.stack
        while stack is not None:
            depth += stack.top.pred.builtin and stack.top.pred.function.endswith(".__eq__")
            stack = stack.rest
        if depth >= objeq.MAX_DEPTH:
            raise Unsupported(f"'==' of dataclass objects nested {objeq.MAX_DEPTH} deep "
                              "(a cycle: CPython raises RecursionError)")
    return list(machine.invoke(state, info.entry, dict(zip(info.params, (plan.receiver, plan.other)))))


def object_order(machine: Machine, state: State, frame: Frame, instr: CallMethod, left: Value,
                 args: tuple[Value, ...]) -> Successors:
    """`left < right` and kin (`args`: right, the operator's index in
    ORDERINGS) by Python's dispatch (engine/objorder.py): a user method
    called, else the evaluator's own comparison, or TypeError."""
    right, which = args
    assert isinstance(which, int)
    op = ORDERINGS[which]
    plan = objorder.dispatch(machine.program, state.heap, op, left, right)
    if plan.raises:  # the message names both types: only the type is asserted
        return machine.throw(state, ExcValue("TypeError", None))
    if plan.method is None:
        value = machine.evaluator.eval(Binary(op, Var("$l"), Var("$r")), {"$l": left, "$r": right}, state.heap)
        return [step(state, frame, env=frame.env if instr.target is None else {**frame.env, instr.target: value})]
    info = machine.program.functions.get(plan.method)
    if info is None:
        raise machine.program.not_translated(plan.method)
    return list(machine.invoke(state, info.entry, dict(zip(info.params, (plan.receiver, plan.other)))))


def list_equality(machine: Machine, state: State, frame: Frame, instr: CallMethod, left: Value,
                  right: Value) -> Successors | None:
    """`left == right` with a list on one side: False across kinds (no
    list equals None, a number, a str, a dict or a tuple), the user's
    `__eq__` when the left is an object that has one (None: call it),
    else the prelude's item by item (None: go on to `$list.__eq__`)."""
    cells = [state.heap.cell(v) if isinstance(v, Addr) else None for v in (left, right)]
    if isinstance(cells[0], ObjectCell):
        if machine.program.resolve_method(cells[0].cls, EQ) is not None:
            return None
        return machine.effects(frame, instr.target, [Effect(state, False)])  # identity, and a list is not it
    if isinstance(cells[1], ObjectCell):
        raise Unsupported(f"'==' of a list and a {cells[1].cls} (its __eq__ is not followed)")
    lists = [c for c in cells if isinstance(c, ListCell) and not c.is_tuple]
    if len(lists) < 2 or lists[0].is_deque != lists[1].is_deque:  # a deque never equals a list
        return machine.effects(frame, instr.target, [Effect(state, False)])  # never equal
    if any(c.elem is not None and c.elem.kind == "float" for c in lists):
        raise Unsupported("'==' of lists of floats (CPython compares items by identity first, nan too)")
    return None
