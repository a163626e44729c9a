"""Binding a call's arguments to a user method's parameters, as Python
binds them (receiver, defaults, keywords, `*args` and `**kwargs`), and
entering it: the engine's method calls (engine/methods.py) and the models
that run a class's own method (models/enum) share it."""

from __future__ import annotations

from dataclasses import replace

from pathcraft.engine import generators, keywords
from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State
from pathcraft.engine.summaries import composable
from pathcraft.engine.values import Value
from pathcraft.errors import Unsupported
from pathcraft.heap import deques, tuples
from pathcraft.heap.cells import Addr, Lazy, ListCell
from pathcraft.ir.nodes import CallMethod, FreshContainer, FunctionInfo
from pathcraft.ir.values import ExcValue


def _spread(machine: Machine, state: State, frame: Frame, instr: CallMethod, info: FunctionInfo,
            values: tuple[Value, ...], positional: list[str]
            ) -> tuple[tuple[Value, ...], list[str], CallMethod]:
    """`obj.m(a, *rest)`: when `a` fills m's positional parameters and
    `rest` is a tuple, it is handed on as m's `*args` (the call then bound
    as given); else the items of a list or tuple of known length are
    passed after `a`, one argument each, and bound as written ones are
    (too many or too few: Python's TypeError). A sequence of symbolic
    length, or another iterable, drops the path."""
    assert instr.spread is not None
    spread = machine.evaluator.eval(instr.spread, frame.env, state.heap)
    before = positional[:positional.index(info.varargs)] if info.varargs in positional else positional
    cell = state.heap.cell(spread) if isinstance(spread, Addr) else None
    if info.varargs is not None and len(values) == len(before) and isinstance(cell, ListCell) and cell.is_tuple:
        return values + (spread,), before + [info.varargs], replace(instr, written=False, spread=None)
    if not instr.written or not isinstance(cell, ListCell) or cell.items is None or cell.is_deque \
            or any(isinstance(item, Lazy) for item in cell.items):
        raise Unsupported(f"*args spread into {info.name}() of other than a list or tuple of known length")
    return values + cell.items, positional, replace(instr, spread=None)  # type: ignore[operator]


def _made_default(machine: Machine, state: State, default: tuple[object, ...] | FreshContainer
                  ) -> tuple[State, Addr]:
    """A default made anew at each call: a tuple of constants, or the empty
    list, dict, set or deque of `field(default_factory=...)`."""
    if isinstance(default, tuple):
        heap, made = machine.heap_model.new_list(state.heap, default)
        return replace(state, heap=tuples.new_tuple(heap, made)), made
    heap, made = machine.heap_model.new_list(state.heap, ()) if default.kind in ("list", "deque") else \
        machine.heap_model.new_dict(state.heap, is_set=default.kind == "set")
    return replace(state, heap=deques.new_deque(heap, made) if default.kind == "deque" else heap), made


def bound_call(machine: Machine, state: State, frame: Frame, instr: CallMethod, info: FunctionInfo,
                receiver: Value, args: tuple[Value, ...]) -> Successors:
    """Call the user method `info`, parameters bound as Python binds them (receiver, defaults), or TypeError."""
    if info.binding == "property":  # `obj.p(...)` calls what the getter returns
        raise Unsupported(f"calling the value of property {info.qualname}")
    values = args if info.binding == "static" else (receiver,) + args
    # `**kwargs` is packed below from a written call's keywords; the frontend's own calls (a constructor's
    # `__init__`) hand it over packed, as every other parameter
    packs_keywords = info.kwargs is not None and instr.written
    params = info.params[:-1] if packs_keywords else info.params
    positional = [p for p in params if p not in info.keyword_only] if instr.written else list(params)
    if instr.spread is not None:  # `obj.m(a, *rest)`: m's `*args`, or arguments one by one (`_spread`)
        values, positional, instr = _spread(machine, state, frame, instr, info, values, positional)
    if info.varargs is not None and instr.written:  # the arguments past the positional parameters, as a tuple
        positional = positional[:positional.index(info.varargs)] if info.varargs in positional else positional
        heap, packed = machine.heap_model.new_list(state.heap, values[len(positional):])
        state = replace(state, heap=tuples.new_tuple(heap, packed))
        values = values[:len(positional)] + (packed,)
        positional.append(info.varargs)
    if len(values) > len(positional):  # CPython's message names the qualified name and counts the defaults
        return machine.throw(state, ExcValue("TypeError", None))
    defaults = dict(info.defaults)
    bound: dict[str, Value] = dict(zip(positional, values))
    extra: list[tuple[str, Value]] = []  # `**kwargs`: the keywords no parameter takes
    for name, expr in instr.keywords:
        named = name in params and not (name == info.params[0] and info.binding != "static") \
            and name != info.varargs and name not in info.positional_only
        if info.kwargs is not None and not named and name not in (k for k, _ in extra):
            extra.append((name, machine.evaluator.eval(expr, frame.env, state.heap)))
            continue
        if not named or name in bound:
            return machine.throw(state, ExcValue("TypeError", None))  # unexpected, or given twice
        bound[name] = machine.evaluator.eval(expr, frame.env, state.heap)
    if packs_keywords:
        assert info.kwargs is not None
        heap, bound[info.kwargs] = keywords.packed(state.heap, extra)
        state = replace(state, heap=heap)
    for param in params:
        if param in bound:
            continue
        if isinstance(defaults.get(param), (tuple, FreshContainer)):  # a new object each call
            state, bound[param] = _made_default(machine, state, defaults[param])  # type: ignore[arg-type]
            continue
        if param in info.unheld_defaults:  # the callee's own default, which the model does not hold
            raise Unsupported(f"call of {info.name}() without '{param}' (its default is not modelled)")
        if param not in defaults:  # CPython names every missing argument, and the class: not asserted
            return machine.throw(state, ExcValue("TypeError", None))
        bound[param] = defaults[param]  # type: ignore[assignment]  # not a tuple (made above)
    callee = machine.program.predicate(info.entry)
    if info.generator:
        return [generators.make(state, frame, instr.target, callee, bound)]
    # composed only where the call is the instruction itself: a call made
    # by `len(obj)`, truth or a property checks its result as it returns (`finish`)
    summaries = machine.summaries
    if summaries is not None and composable(callee) and frame.rule.body[frame.pc] is instr:
        composed = summaries.compose(machine, state, frame, instr.target, callee, [bound[p] for p in callee.params])
        if composed is not None:
            return composed
    return list(machine.invoke(state, info.entry, bound))
