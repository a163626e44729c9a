"""Heap instructions: ask the heap model for their outcomes, move the
constraints it produced into the path, and charge the memory cost model.

`HeapExecutor` returns `Effect`s (the state after the operation, and the
value for the instruction's target or the exception it raised); the engine
steps or throws. Method dispatch stays in the engine: it enters predicates.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import cast

from pathcraft.cost.models import SizeModel
from pathcraft.engine.branch import Brancher
from pathcraft.engine.control import SearchControl
from pathcraft.engine.evaluate import Evaluator
from pathcraft.engine.state import State
from pathcraft.engine.strings import is_str, sequence_op
from pathcraft.engine.values import Value
from pathcraft.errors import Unsupported
from pathcraft.heap import deques, tuples
from pathcraft.heap.base import HeapModel, HeapResult, HeapValue, list_op_name
from pathcraft.heap.cells import Addr, DictCell, Heap, ListCell, ObjectCell
from pathcraft.ir.nodes import (
    EnumMember, Expr, FunctionInfo, GetField, ListOp, NewList, NewObject, Program, RepeatList, SetField, Text,
)
from pathcraft.ir.values import ExcValue

HeapInstr = NewObject | NewList | GetField | SetField | RepeatList | ListOp


@dataclass(frozen=True)
class Effect:
    """One outcome of a heap instruction."""

    state: State
    value: Value = None
    exc: ExcValue | None = None


class HeapExecutor:
    def __init__(self, program: Program, heap_model: HeapModel, evaluator: Evaluator, brancher: Brancher,
                 controls: SearchControl, size_model: SizeModel) -> None:
        self.program = program
        self.heap_model = heap_model
        self.evaluator = evaluator
        self.brancher = brancher
        self.controls = controls
        self.sizes = size_model

    def execute(self, state: State, instr: HeapInstr, env: Mapping[str, Value]) -> list[Effect]:
        """Run one heap operation; it may fork (lazy initialization, index
        cases) or raise."""
        model = self.heap_model
        heap = state.heap

        def ev(e: Expr) -> Value:
            return self.evaluator.eval(e, env, heap)

        if isinstance(instr, NewObject):
            heap, addr = model.new_object(heap, instr.cls)
            costs = state.costs.allocate(self.sizes.object_size(self.program, instr.cls))
            return self._allocated(replace(state, heap=heap, costs=costs), addr)
        if isinstance(instr, NewList):
            heap, addr = model.new_list(heap, tuple(ev(i) for i in instr.items))
            if instr.is_tuple:
                heap = tuples.new_tuple(heap, addr, instr.named)
            costs = state.costs.allocate(self.sizes.list_size(len(instr.items)))
            return self._allocated(replace(state, heap=heap, costs=costs), addr)
        if isinstance(instr, GetField):
            return self.apply(state, model.get_field(heap, ev(instr.obj), instr.field))
        if isinstance(instr, SetField):
            return self.apply(state, model.set_field(heap, ev(instr.obj), instr.field, ev(instr.value)))
        if isinstance(instr, RepeatList):
            return self.apply(state, model.repeat_list(heap, ev(instr.value), ev(instr.count)), allocates=True)
        args = tuple(ev(a) for a in instr.args)
        if instr.op == "unpack":
            count = args[0]
            assert isinstance(count, int)
            return self.apply(state, tuples.unpack(heap, ev(instr.lst), count))
        subject = ev(instr.lst)
        if instr.op == "freeze":  # `tuple(x)`: the fresh list `list(x)` just made, made a tuple
            assert isinstance(subject, Addr)
            return self.apply(state, [HeapResult(tuples.new_tuple(heap, subject), subject)])
        if instr.op == "deque":  # `deque(x)`: likewise, made a deque
            assert isinstance(subject, Addr)
            return self.apply(state, [HeapResult(deques.new_deque(heap, subject), subject)])
        if deques.is_deque(heap, subject) and instr.op != "del":
            assert isinstance(subject, Addr)
            inside = state.stack is not None and state.stack.top.pred.builtin  # prelude code: nothing runs between
            line = None if inside else instr.line  # its loop's steps, so none can see the deque change
            return self.apply(state, deques.deque_op(self.heap_model, heap, list_op_name(instr.op), subject,
                                                     operands(args), line))
        if is_str(subject):  # len(s), s[i], s[a:b], for c in s
            return self.apply(state, sequence_op(heap, instr.op, subject, args))
        return self.apply(state, self.list_op(heap, instr.op, subject, args))

    def list_op(self, heap: Heap, op: str, lst: Value, args: tuple[Value, ...]) -> list[HeapResult]:
        if isinstance(lst, Text):  # a string whose text is not computed: not modelled here
            raise Unsupported(f"{op} on a string")
        if op == "del":  # `del x[i]` on what is not a dict
            cell = heap.cell(lst) if isinstance(lst, Addr) else None
            if isinstance(cell, ListCell) and cell.is_tuple:
                return [HeapResult(heap, exc=ExcValue("TypeError", "'tuple' object doesn't support item deletion"))]
            if lst is None:
                return [HeapResult(heap, exc=ExcValue("TypeError", None))]
            raise Unsupported("del of a list item or of an object's item")
        name, values = list_op_name(op), operands(args)
        if isinstance(lst, Addr) and tuples.is_tuple(heap, lst):
            return tuples.tuple_op(self.heap_model, heap, name, lst, values)
        if isinstance(lst, Addr) and deques.is_deque(heap, lst):  # `d.append(x)`, `d.pop()`, `d.copy()`
            return deques.deque_op(self.heap_model, heap, name, lst, values, 0)
        return self.heap_model.list_op(heap, name, operands((lst,))[0], values)

    def list_method(self, state: State, receiver: Addr, method: str, args: tuple[Value, ...]) -> list[Effect]:
        """`lst.append(x)`, `lst.pop()`, `lst.copy()`."""
        results = self.list_op(state.heap, method, receiver, args)
        if method == "append":
            state = replace(state, costs=state.costs.allocate(self.sizes.slot))
        return self.apply(state, results, allocates=method == "copy")

    def _allocated(self, state: State, addr: Addr) -> list[Effect]:
        charged = self.controls.charged(state)
        if charged is None:
            self.brancher.stats.pruned += 1
            return []
        return [Effect(charged, addr)]

    def apply(self, state: State, results: list[HeapResult], allocates: bool = False) -> list[Effect]:
        """The heap model's outcomes as effects: each with its constraint on
        the path, its allocation charged, and the fork recorded."""
        out: list[Effect] = []
        for index, result in enumerate(results):
            branch = self.brancher.settle(replace(state, heap=result.heap))
            if branch is None:
                continue
            if len(results) > 1:
                branch = branch.chose(index)
            if allocates and result.exc is None and isinstance(result.value, Addr):
                cell = result.heap.cell(result.value)
                assert isinstance(cell, ListCell)
                size = self.sizes.list_size(cell.size())
                charged = self.controls.charged(replace(branch, costs=branch.costs.allocate(size)))
                if charged is None:
                    self.brancher.stats.pruned += 1
                    continue
                branch = charged
            if result.constraint is not None:
                decided = self.brancher.constrain(branch, result.constraint)
                if decided is None:
                    continue
                branch = decided
            out.append(Effect(branch, result.value, result.exc))  # type: ignore[arg-type]  # heap values are Values
        return out


def operands(values: tuple[Value, ...]) -> tuple[HeapValue, ...]:
    """Evaluated operands as the heap model takes them: a variable read
    is never UNDEFINED (the evaluator raises UnboundLocalError first)."""
    return cast(tuple[HeapValue, ...], values)


def concrete_bindings(info: FunctionInfo, inputs: Mapping[str, object],
                      snapshot: Mapping[str, Mapping[str, object]]) -> tuple[Heap, dict[str, Value]]:
    """Bindings for a concrete run: the values and heap of a test case
    (a snapshot as `testcase.heapdesc` describes it)."""
    heap = Heap()
    addrs: dict[str, Addr] = {}
    for name, desc in snapshot.items():
        placeholder: ObjectCell | ListCell = ObjectCell("", {}, "input", name) if "class" in desc else \
            ListCell(None, "input", name, items=())
        heap, addrs[name] = heap.allocate(placeholder, initial=True)

    def value(v: object) -> Value:
        if isinstance(v, dict) and "$enum" in v:  # an enum member (testcase/heapdesc.enum_json)
            return EnumMember(str(v["$enum"]), str(v["member"]))
        if isinstance(v, dict):
            return addrs[v["$ref"]]
        return v  # type: ignore[return-value]  # snapshots hold ints, bools and None besides references

    for name, desc in snapshot.items():
        cell: ObjectCell | ListCell | DictCell
        if "dict" in desc or "set" in desc:
            entries = desc["dict"] if "dict" in desc else desc["set"]
            assert isinstance(entries, list)
            pairs = entries if "dict" in desc else [(k, None) for k in entries]
            cell = DictCell(None, None, "input", name, tuple(value(k) for k, _ in pairs),
                            None if "set" in desc else tuple(value(v) for _, v in pairs))
        elif "class" in desc:
            fields = desc["fields"]
            assert isinstance(fields, Mapping)
            cell = ObjectCell(str(desc["class"]), {f: value(v) for f, v in fields.items()}, "input", name)
        else:
            items = desc.get("list", desc.get("deque"))
            assert isinstance(items, list)
            cell = ListCell(None, "input", name, items=tuple(value(v) for v in items), is_deque="deque" in desc)
        heap = heap.with_cell(addrs[name], cell, initial=True)
    env: dict[str, Value] = {}
    for name in info.params:
        raw = inputs[name]
        if isinstance(raw, tuple):  # a tuple is a value in test cases, a cell in the heap
            heap, env[name] = heap.allocate(ListCell(None, "input", name, items=raw, is_tuple=True), initial=True)
        else:
            env[name] = value(raw)
        heap = heap.with_root(name, env[name])
    return heap, env
