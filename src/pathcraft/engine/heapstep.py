"""Heap operations, method dispatch and path narrowing (a mixin of `Engine`).

Every heap operation asks the heap model for its outcomes (a fork when the
model branches: lazy initialization, index cases), moves the constraints
the model produced into the path, and charges the memory cost model.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Mapping

from pathcraft.engine.state import Frame, State
from pathcraft.engine.values import ExcValue, Value
from pathcraft.heap.cells import Addr, Heap, ListCell, ObjectCell
from pathcraft.errors import Unsupported
from pathcraft.heap.base import HeapResult, type_name
from pathcraft.ir.nodes import (
    CallMethod,
    FunctionInfo,
    GetField,
    ListOp,
    NewList,
    NewObject,
    RepeatList,
    SetField,
    Text,
)
from pathcraft.solver import terms as T
from pathcraft.solver.chain import SAT, UNKNOWN, Query
from pathcraft.solver.path import extend
from pathcraft.solver.terms import Term

if TYPE_CHECKING:
    from pathcraft.engine.engine import Successors


class HeapSteps:
    """Needs the engine's `program`, `options`, `solver`, `heap_model`,
    `stats`, `_eval`, `_step`, `_throw` and `_invoke`."""

    def _concrete_bindings(self, info: FunctionInfo, inputs: Mapping[str, object],
                           snapshot: Mapping[str, object]) -> tuple[Heap, dict[str, Value]]:
        """Bindings for a concrete run: the values and heap of a test case."""
        heap = Heap()
        addrs: dict[str, Addr] = {}
        for name, desc in snapshot.items():
            placeholder = ObjectCell("", {}, "input", name) if "class" in desc else \
                ListCell(None, "input", name, items=())  # type: ignore[operator]
            heap, addrs[name] = heap.allocate(placeholder, initial=True)

        def value(v: object) -> object:
            return addrs[v["$ref"]] if isinstance(v, dict) else v  # type: ignore[index]

        for name, desc in snapshot.items():
            if "class" in desc:  # type: ignore[operator]
                fields = {f: value(v) for f, v in desc["fields"].items()}  # type: ignore[index]
                cell: object = ObjectCell(desc["class"], fields, "input", name)  # type: ignore[index]
            else:
                cell = ListCell(None, "input", name, items=tuple(value(v) for v in desc["list"]))  # type: ignore[index]
            heap = heap.with_cell(addrs[name], cell, initial=True)  # type: ignore[arg-type]
        env: dict[str, Value] = {}
        for name in info.params:
            env[name] = value(inputs[name])  # type: ignore[assignment]
            heap = heap.with_root(name, env[name])
        return heap, env

    def _within_bounds(self, state: State) -> bool:
        """False when a cost already exceeds an upper bound on every input
        of the path (sound pruning)."""
        for name, op, bound in self.options.cost_bounds:
            value = state.costs.get(name)
            holds = T.relation(op, value, bound)
            if holds is True:
                continue
            if holds is False or self._constrain(state, holds) is None:
                self.stats.pruned += 1
                return False
        return True

    def _heap_step(self, state: State, frame: Frame, instr: object) -> Successors:
        """Run one heap operation; it may fork (lazy initialization, index
        cases) or raise."""
        model = self.heap_model
        heap = state.heap
        env = frame.env
        sizes = self.options.size_model
        if isinstance(instr, NewObject):
            heap, addr = model.new_object(heap, instr.cls)
            costs = state.costs.allocate(sizes.object_size(self.program, instr.cls))
            return self._allocated(replace(state, heap=heap, costs=costs), frame, instr.target, addr)
        if isinstance(instr, NewList):
            heap, addr = model.new_list(heap, tuple(self._eval(i, env) for i in instr.items))
            costs = state.costs.allocate(sizes.list_size(len(instr.items)))
            return self._allocated(replace(state, heap=heap, costs=costs), frame, instr.target, addr)
        if isinstance(instr, GetField):
            results = model.get_field(heap, self._eval(instr.obj, env), instr.field)
            return self._apply(state, frame, instr.target, results)
        if isinstance(instr, SetField):
            results = model.set_field(heap, self._eval(instr.obj, env), instr.field,
                                      self._eval(instr.value, env))
            return self._apply(state, frame, None, results)
        if isinstance(instr, RepeatList):
            results = model.repeat_list(heap, self._eval(instr.value, env), self._eval(instr.count, env))
            return self._apply(state, frame, instr.target, results, allocates=True)
        if isinstance(instr, ListOp):
            args = tuple(self._eval(a, env) for a in instr.args)
            subject = self._eval(instr.lst, env)
            cell = heap.cell(subject) if isinstance(subject, Addr) else None
            if instr.op == "len" and isinstance(cell, ObjectCell) \
                    and self.program.resolve_method(cell.cls, "__len__"):
                call = CallMethod(instr.target, instr.lst, "__len__", (), instr.line)
                return self._call_method(state, frame, call)
            results = model.list_op(heap, instr.op, subject, args)
            return self._apply(state, frame, instr.target, results)
        assert isinstance(instr, CallMethod)
        return self._call_method(state, frame, instr)

    def _allocated(self, state: State, frame: Frame, target: str, addr: Addr) -> Successors:
        if self.options.cost_bounds and not self._within_bounds(state):
            return []
        return [self._step(state, frame, env={**frame.env, target: addr})]

    def _apply(self, state: State, frame: Frame, target: str | None,
               results: list[HeapResult], allocates: bool = False) -> Successors:
        out: Successors = []
        for result in results:
            branch = self._settle(replace(state, heap=result.heap))
            if branch is None:
                continue
            if allocates and result.exc is None and isinstance(result.value, Addr):
                cell = result.heap.cell(result.value)
                assert isinstance(cell, ListCell)
                size = self.options.size_model.list_size(cell.size())
                branch = replace(branch, costs=branch.costs.allocate(size))
                if self.options.cost_bounds and not self._within_bounds(branch):
                    continue
            if result.constraint is not None:
                decided = self._constrain(branch, result.constraint)
                if decided is None:
                    continue
                branch = decided
            if result.exc is not None:
                out.extend(self._throw(branch, result.exc))
                continue
            env = frame.env if target is None else {**frame.env, target: result.value}
            out.append(self._step(branch, frame, env=env))
        return out

    def _settle(self, state: State) -> State | None:
        """Move the constraints the heap model produced into the path."""
        if not state.heap.pending:
            return state
        heap, pending = state.heap.drain()
        settled: State | None = replace(state, heap=heap)
        for condition in pending:
            assert settled is not None
            settled = self._constrain(settled, condition, origin="heap")
            if settled is None:
                return None
        return settled

    def _constrain(self, state: State, condition: Term, origin: str = "program") -> State | None:
        """`state` with `condition` added to its path, or None if infeasible."""
        if condition is True:
            return state
        if condition is False:
            self.stats.infeasible += 1
            return None
        answer = self.solver.check(Query(state.path, state.model, condition))
        if answer.verdict == SAT:
            assert answer.model is not None
            path = state.path if answer.implied else extend(state.path, condition, origin)
            return replace(state, path=path, model=answer.model)
        if answer.verdict == UNKNOWN:
            self.stats.unknown += 1
        else:
            self.stats.infeasible += 1
        return None

    def _call_method(self, state: State, frame: Frame, instr: CallMethod) -> Successors:
        receiver = self._eval(instr.obj, frame.env)
        args = tuple(self._eval(a, frame.env) for a in instr.args)
        heap = state.heap
        cell = heap.cell(receiver) if isinstance(receiver, Addr) else None
        if isinstance(cell, ListCell) and instr.method not in ("append", "pop", "copy"):
            raise Unsupported(f"list.{instr.method}()")
        if isinstance(receiver, Text):
            raise Unsupported(f"str.{instr.method}()")
        if isinstance(cell, ListCell):
            results = self.heap_model.list_op(heap, instr.method, receiver, args)
            if instr.method == "append":
                state = replace(state, costs=state.costs.allocate(self.options.size_model.slot))
            return self._apply(state, frame, instr.target, results, allocates=instr.method == "copy")
        qualname = None
        if isinstance(cell, ObjectCell):
            qualname = self.program.resolve_method(cell.cls, instr.method)
        if qualname is None:
            kind = type_name(receiver, heap)
            exc = ExcValue("AttributeError", f"'{kind}' object has no attribute '{instr.method}'")
            return self._throw(state, exc)
        info = self.program.functions.get(qualname)
        if info is None:
            raise Unsupported(f"method {qualname} was not translated")
        values = (receiver,) + args
        if len(values) > len(info.params):
            return self._throw(state, ExcValue("TypeError", f"{info.name}() takes {len(info.params)} "
                                                            f"positional arguments but {len(values)} were given"))
        defaults = dict(info.defaults)
        bound: dict[str, Value] = dict(zip(info.params, values))
        for param in info.params[len(values):]:
            if param not in defaults:
                return self._throw(state, ExcValue("TypeError", f"{info.name}() missing argument '{param}'"))
            bound[param] = defaults[param]
        return list(self._invoke(state, info.entry, bound))
