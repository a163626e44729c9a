"""Test cases of construction-driver paths (`--objects constructed`).

A driver path builds the object, makes its setup calls, then calls the
target. Its test case is the target call's: the construction sequence is
read off the driver's parameters through the plan (which selector chose
which method, with which arguments); the "input" heap is the object graph
as it was just before the target call (recorded by the engine's
construction control), named by access path from the object (`stack`,
`stack._head`), so the usual read-back says what the call changed; the
path a test claims is the target call's events only.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pathcraft.engine.construction import ConstructionControl, TargetCall
from pathcraft.engine.state import SymbolicPath
from pathcraft.errors import Unsupported
from pathcraft.heap.cells import Addr, DictCell, GeneratorCell, Heap, ListCell, ObjectCell, ViewCell
from pathcraft.ir.driver import DriverPlan
from pathcraft.ir.trace import TraceTerm
from pathcraft.solver.terms import INT, Sym, symbols
from pathcraft.testcase.model import CanonicalModel, Construction, TestCase, concretize

RECEIVER = "$receiver"  # the root the object gets in the path handed to `concretize`


def concretize_constructed(path: SymbolicPath, plan: DriverPlan, name: str,
                           canonical: CanonicalModel | None = None, cost_names: tuple[str, ...] = (),
                           note: str | None = None, reserved: tuple[str, ...] = ()) -> TestCase:
    """The test case of a driver path (whose trace is already the target
    call's own term, see `target_trace`): the target call on the object the
    path's construction sequence makes."""
    at = path.ext.get(ConstructionControl.name)
    if not isinstance(at, TargetCall) or not isinstance(at.receiver, Addr):
        raise Unsupported("a driver path that never called its target")
    events = tuple(e for e in path.events[at.events:] if e[1] != plan.driver)
    shaped = replace(path, heap=before_call(path.heap, at.heap, at.receiver),
                     roots=path.roots + ((RECEIVER, at.receiver),), events=events)

    def telling(p: SymbolicPath, inputs: list[Sym]) -> Mapping[str, Any]:
        chosen = canonical(p, inputs) if canonical is not None else None
        return distinct_free_values(p, plan, chosen if chosen is not None else p.model)

    case = concretize(shaped, name, telling, cost_names, note, reserved)
    values = dict(case.inputs)
    receiver = values[RECEIVER]
    assert isinstance(receiver, dict)
    calls = []
    for step in plan.steps:
        chosen = values[step.selector]
        if chosen == 0:
            break
        option = step.methods[chosen - 1]
        calls.append((option.method, tuple((s.param, values[s.driver]) for s in option.args)))
    construction = Construction(
        receiver=receiver["$ref"], cls=plan.cls,
        constructor=tuple((s.param, values[s.driver]) for s in plan.constructor),
        calls=tuple(calls), bindings=access_paths(case.heap_in, receiver["$ref"]),
    )
    inputs = (("self", receiver), *((s.param, values[s.driver]) for s in plan.target_args))
    return replace(case, qualname=plan.target, inputs=inputs, construction=construction)


def distinct_free_values(path: SymbolicPath, plan: DriverPlan, model: Mapping[str, Any]) -> dict[str, Any]:
    """`model`, with the int arguments of the calls the test makes that no
    constraint of the path mentions (any value takes the same path) given
    2, 3, 4, ... in the order of the calls, skipping the values of the
    test's other ints: `push(2); push(3)` shows which element `pop()`
    returned, and reads in order. (The canonical model already makes free
    ints telling, but in name order over every driver parameter, the
    arguments of the calls not made included.)"""
    out = dict(model)
    mentioned = {s.name for c in path.constraints for s in symbols(c)}
    ints = {s.name for s in path.inputs if s.sort == INT}
    slots = list(plan.constructor)
    for step in plan.steps:
        chosen = out.get(step.selector, 0)
        if not isinstance(chosen, int) or not 0 < chosen <= len(step.methods):
            break
        slots += step.methods[chosen - 1].args
    slots += plan.target_args
    unused = {s.driver for step in plan.steps for option in step.methods for s in option.args} | \
        {step.selector for step in plan.steps}
    unused -= {s.driver for s in slots}
    free = {s.driver for s in slots if s.driver not in mentioned}
    taken = {v for k, v in out.items() if type(v) is int and k not in unused and k not in free}
    value = 2
    for slot in slots:
        if slot.driver in mentioned or slot.driver not in ints:
            continue
        while value in taken:
            value += 1
        out[slot.driver] = value
        taken.add(value)
    return out


def target_trace(trace: TraceTerm, driver_entry: str, target_entry: str) -> TraceTerm:
    """The target call's trace term within a driver's: the last call of
    the target made by the driver's own blocks."""
    found = trace
    for child in trace.children:
        if child.predicate == target_entry:
            found = child
        elif child.predicate.startswith(driver_entry):
            inner = target_trace(child, driver_entry, target_entry)
            if inner is not child:
                found = inner
    return found


def before_call(final: Heap, before: Heap, receiver: Addr) -> Heap:
    """The final heap, with the objects reachable from `receiver` before the
    target call taking the place of inputs: their cells as they were then,
    labelled by access path (`self`, `self.head`, `self.items[0]`)."""
    initial = dict(final.initial)
    labels = {receiver.id: "self"}
    queue = deque([receiver])
    while queue:
        addr = queue.popleft()
        cell = before.cells[addr.id]
        if addr.id not in initial:
            initial[addr.id] = replace(cell, label=labels[addr.id])
        if isinstance(cell, ObjectCell):
            edges: list[tuple[str, object]] = [(f".{f}", v) for f, v in sorted(cell.fields.items())]
        elif isinstance(cell, (DictCell, ViewCell)):
            if isinstance(cell, DictCell) and any(isinstance(v, Addr) for v in cell.values or ()):
                raise Unsupported("objects held in a dict of a constructed object")
            edges = []
        elif isinstance(cell, GeneratorCell):
            raise Unsupported("a generator held by a constructed object")
        else:
            edges = [(f"[{k}]", v) for k, v in enumerate(_items(cell))]
        for step, value in edges:
            value = before.current(value)
            if isinstance(value, Addr) and value.id not in labels:
                labels[value.id] = labels[addr.id] + step
                queue.append(value)
    return replace(final, initial=initial, roots={**final.roots, "self": receiver})


def _items(cell: ListCell) -> tuple[object, ...]:
    """References in a list; an array-shaped list holds ints or bools only."""
    return cell.items if cell.items is not None else ()


def access_paths(heap: Mapping[str, Any], root: str) -> tuple[tuple[str, tuple[str | int, ...]], ...]:
    """Each object of a snapshot reachable from `root`, with the attribute
    names and list indices that reach it (breadth-first, fields by name)."""
    paths: dict[str, tuple[str | int, ...]] = {root: ()}
    queue = deque([root])
    while queue:
        name = queue.popleft()
        desc = heap[name]
        edges: list[tuple[str | int, Any]] = \
            sorted(desc["fields"].items()) if "class" in desc else list(enumerate(desc.get("list", [])))
        for key, value in edges:
            if isinstance(value, dict) and value.get("$ref") in heap and value["$ref"] not in paths:
                paths[value["$ref"]] = paths[name] + (key,)
                queue.append(value["$ref"])
    return tuple(paths.items())
