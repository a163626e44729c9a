"""The handler of `Call`: a builtin or function predicate entered with its
arguments, after the models that intercept the predicate (a literal a
model builds, an operand check, a float row in place of an int one), the
concolic and cached calls, generators and composition by summaries."""

from __future__ import annotations

from pathcraft.engine import cache, generators
from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State, step
from pathcraft.engine.summaries import composable
from pathcraft.engine.values import Value
from pathcraft.errors import Unsupported
from pathcraft.frontend.builtins import PRINT
from pathcraft.heap.cells import Addr, Heap, Lazy, ListCell, ObjectCell
from pathcraft.ir import pure_calls
from pathcraft.ir.builtin_names import ITERATE
from pathcraft.ir.nodes import Call, FunctionInfo, Predicate, Program
from pathcraft.models.catalog import REGISTRY
from pathcraft.solver import terms as T
from pathcraft.solver.terms import Term


def call(machine: Machine, state: State, frame: Frame, instr: Call) -> Successors:
    if instr.predicate == ITERATE:
        walked = generators.walk(machine, state, frame, instr)
        assert walked is not None
        return walked
    args = [machine.evaluator.eval(a, frame.env, state.heap) for a in instr.args]
    build = REGISTRY.builds.get(instr.predicate)
    if build is not None:  # a literal or constructor its model makes
        return build(machine, state, frame, instr, args)
    within = machine.within_domain(state)
    if within is None:
        return []
    state = within
    callee = machine.program.predicate(instr.predicate)
    if callee.name in pure_calls.PREDICATE_NAMES and machine.concretizer is not None:
        return concrete_call(machine, state, frame, instr.target, args)
    for hook in REGISTRY.call_hooks(callee.name):  # the models of the operands' types, in order
        answered = hook(machine, state, frame, instr, callee, args)
        if isinstance(answered, list):
            return answered
        if answered is not None:
            callee = answered
    if callee.name == PRINT:
        check_printable(machine.program, args[0], state.heap)
    return enter_callee(machine, state, frame, instr, callee, args)


def enter_callee(machine: Machine, state: State, frame: Frame, instr: Call, callee: Predicate,
                 args: list[Value]) -> Successors:
    """Run `callee`: a generator made, a cache consulted, a summary
    composed, or its frame entered."""
    if callee.generator:
        return [generators.make(state, frame, instr.target, callee, dict(zip(callee.params, args)))]
    cached = machine.program.functions.get(callee.function) if callee.is_entry else None
    if cached is not None and cached.cached and cached.entry == callee.name:
        return cached_call(machine, state, frame, instr, cached, args)
    if machine.summaries is not None and composable(callee):
        composed = machine.summaries.compose(machine, state, frame, instr.target, callee, args)
        if composed is not None:
            return composed
    return list(machine.invoke(state, callee.name, dict(zip(callee.params, args))))


def concrete_call(machine: Machine, state: State, frame: Frame, target: str | None, args: list[Value]) -> Successors:
    """`$concrete<n>(message, function, *arguments)` in concolic mode: the
    allow-listed function run on the model's values (engine/concretize.py)."""
    assert machine.concretizer is not None
    out: Successors = []
    for sample in machine.concretizer.run(state, args[1], args[2:]):
        if sample.raised is not None:
            out.extend(machine.throw(sample.state, sample.raised))
        else:
            out.append(step(sample.state, frame, env=frame.env if target is None else
                            {**frame.env, target: sample.result}))
    return out


def cached_call(machine: Machine, state: State, frame: Frame, instr: Call, info: FunctionInfo,
                args: list[Value]) -> Successors:
    """A call of a `functools.cache`d function (`engine/cache.py`): a
    hit on each stored entry with equal arguments, else the call runs
    and its frame stores the result when it returns."""
    key = cache.key_of(list(args))
    found = cache.entries(state, info.qualname)
    out: Successors = []
    missed: Term = True
    for index, entry in enumerate(found):
        condition = cache.same(entry, key)
        missed = T.and_(missed, T.not_(condition))
        hit = machine.brancher.constrain(state.chose(index), condition)
        if hit is not None:
            hit = cache.used(hit, entry, info.cache_limit)
            out.append(step(hit, frame, env=frame.env if instr.target is None else
                            {**frame.env, instr.target: entry.result}))  # type: ignore[dict-item]
    miss = machine.brancher.constrain(state.chose(len(found)), missed) if found else state
    if miss is not None:
        pending = cache.Pending(info.qualname, key, info.cache_limit)
        out.extend(s.with_frame_ext(cache.KEY, pending)
                   for s in machine.invoke(miss, info.entry, dict(zip(info.params, args))))
    return out


def check_printable(program: Program, value: Value, heap: Heap) -> None:
    """`print(x)` calls `str(x)`: an object (or a list holding one) of a
    class that defines how it prints runs module code, which the model
    does not follow; an f-string's text is unknown but printing it is fine."""
    seen: set[int] = set()
    pending: list[object] = [value]
    while pending:
        current = pending.pop()
        if isinstance(current, Lazy) and current.type.kind in ("obj", "list"):
            cls = current.type.cls if current.type.kind == "obj" else \
                current.type.elem.cls if current.type.elem is not None else None
            if cls is not None and any(program.resolve_method(cls, m) or program.class_binds(cls, m)
                                       for m in ("__str__", "__repr__", "__format__")):
                raise Unsupported(f"print() of a {cls} (how it prints is not followed)")
            continue
        if not isinstance(current, Addr) or current.id in seen:
            continue
        seen.add(current.id)
        cell = heap.cell(current)
        if isinstance(cell, ObjectCell):
            for method in ("__str__", "__repr__", "__format__"):
                if program.resolve_method(cell.cls, method) or program.class_binds(cell.cls, method):
                    raise Unsupported(f"print() of a {cell.cls} (its {method} is not followed)")
        elif isinstance(cell, ListCell) and cell.items is not None:
            pending.extend(heap.current(item) for item in cell.items)
