"""Reachability of coverage items over the CLP-translated program (the
Look-Ahead of paper 004, §3).

An *item* (a `Point` of `strategies/points.py`) is a statement line (reached when its `("line", ...)` event
happens) or a branch outcome: a rule of a predicate with several rules
(reached when the rule is selected). `Reachability` answers, for a point
of a derivation, which items the rest of the run may still reach; a path
from which no uncovered item is reachable can be abandoned without losing
coverage (004, Property 1), because any continuation of it covers only
items already covered.

Soundness needs an over-approximation, computed once per program as a
fixpoint over the predicates' control-flow graph:

* a rule reaches its marks, the lines it stands for, the predicates it
  calls (`Call`), tail-calls (`Goto`) and its predicate's handler;
* an instruction that Python may dispatch to code the IR does not name
  reaches what it may run: a method call every method of that name, an
  attribute read or write the properties of that name; each of those, any
  list, dict or truth operation and any builtin also every dunder method
  (a protocol) and every generator (a suspended one is resumed there);
* a frame on the stack is waiting for the instruction it is at (a call, a
  tail call, a protocol) to hand back: it still reaches the rest of its
  rule and, when that instruction is not a tail call, its handler. A frame
  that tail-called the next block reaches nothing more: its continuation
  is that block's frame, above it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from pathcraft.strategies.points import Point as Item
from pathcraft.engine.state import Stack
from pathcraft.ir.builtin_names import PREFIX
from pathcraft.ir.nodes import (
    Call,
    CallMethod,
    GetField,
    Goto,
    ListOp,
    Mark,
    NewList,
    Predicate,
    Program,
    RepeatList,
    SetField,
)


class Reachability:
    """Items reachable from predicates and from stacks of frames."""

    def __init__(self, program: Program, items: Iterable[Item]) -> None:
        self.program = program
        self.items = frozenset(items)
        by_line: dict[int, set[Item]] = {}
        by_rule: dict[tuple[str, int], Item] = {}
        for item in self.items:
            if item.line is not None:
                by_line.setdefault(item.line, set()).add(item)
            if item.rule is not None:
                by_rule[item.rule] = item
        self._by_line = by_line
        self._by_rule = by_rule
        methods: dict[str, list[str]] = {}  # method name -> entries of the methods so named
        dunders: list[str] = []
        generators: list[str] = []
        for pred in program.predicates.values():
            if pred.generator:
                generators.append(pred.name)
            info = program.functions.get(pred.function)
            if not pred.is_entry or info is None or info.entry != pred.name or "." not in info.qualname \
                    or "<locals>" in info.qualname:
                continue
            methods.setdefault(info.name, []).append(pred.name)
            if info.name.startswith("__") and info.name.endswith("__"):
                dunders.append(pred.name)
        self._methods = methods
        # what Python may run behind a protocol: a dunder, or a suspended generator resumed
        self._protocols = (*dunders, *generators)
        self._reach = self._fixpoint()

    # ---------------------------------------------------------------- static

    def _own(self, pred: Predicate) -> set[Item]:
        """The items a predicate holds itself (marks, rules' lines and marks, rules)."""
        found: set[Item] = set()
        for line in pred.marks:
            found |= self._by_line.get(line, set())
        for rule in pred.rules:
            rule_item = self._by_rule.get((pred.name, rule.index))
            if rule_item is not None:
                found.add(rule_item)
            for line in rule.lines:
                found |= self._by_line.get(line, set())
            for instr in rule.body:
                if isinstance(instr, Mark):
                    found |= self._by_line.get(instr.line, set())
        return found

    def successors(self, pred: Predicate) -> set[str]:
        out: set[str] = set()
        if pred.handler is not None:
            out.add(pred.handler)
        for rule in pred.rules:
            out |= self._callees(rule.body)
        return out

    def _callees(self, body: Iterable[object]) -> set[str]:
        out: set[str] = set()
        for instr in body:
            if isinstance(instr, Call):
                out.add(instr.predicate)
                if instr.predicate.startswith(PREFIX):  # a builtin may resume a generator
                    out.update(self._protocols)
            elif isinstance(instr, Goto):
                out.add(instr.block)
            elif isinstance(instr, CallMethod):
                out.update(self._methods.get(instr.method, ()))
                out.update(self._protocols)
            elif isinstance(instr, (GetField, SetField)):  # a property, or __getattr__ and the like
                out.update(self._methods.get(instr.field, ()))
                out.update(self._protocols)
            elif isinstance(instr, (ListOp, RepeatList, NewList)):
                out.update(self._protocols)
        return {name for name in out if name in self.program.predicates}

    def _fixpoint(self) -> dict[str, frozenset[Item]]:
        preds = self.program.predicates
        own = {name: self._own(pred) for name, pred in preds.items()}
        succ = {name: self.successors(pred) for name, pred in preds.items()}
        reach = {name: set(items) for name, items in own.items()}
        changed = True
        while changed:  # monotone over a finite lattice: ends
            changed = False
            for name in preds:
                before = len(reach[name])
                for other in succ[name]:
                    reach[name] |= reach[other]
                if len(reach[name]) != before:
                    changed = True
        return {name: frozenset(items) for name, items in reach.items()}

    def of_predicate(self, name: str) -> frozenset[Item]:
        """Items reachable once `name` is entered."""
        return self._reach.get(name, self.items)

    @lru_cache(maxsize=None)  # noqa: B019  # one instance per run, keys are static positions
    def of_position(self, pred_name: str, rule_index: int, pc: int) -> frozenset[Item]:
        """Items a frame may still reach once the instruction at `pc`, whose
        callee runs above it, hands back: the rest of its rule, and its
        handler if that instruction is a call (an exception from the callee
        comes back there; through a tail call it passes down instead)."""
        pred = self.program.predicate(pred_name)
        rule = pred.rules[rule_index - 1]
        rest = rule.body[pc + 1:]
        marked = {instr.line for instr in rule.body if isinstance(instr, Mark)}
        found: set[Item] = set()
        for line in rule.lines:  # a line the rule stands for with no mark has no place: kept
            if line not in marked:
                found |= self._by_line.get(line, set())
        for instr in rest:
            if isinstance(instr, Mark):
                found |= self._by_line.get(instr.line, set())
        for name in self._callees(rest):
            found |= self._reach[name]
        if pred.handler is not None and not isinstance(rule.body[pc], Goto):
            found |= self._reach[pred.handler]
        return frozenset(found)

    # --------------------------------------------------------------- dynamic

    def may_reach(self, pending: frozenset[Item] | set[Item], entering: Predicate | None,
                  stack: Stack | None) -> bool:
        """May a run entering `entering` (None: none) on top of `stack`
        still reach one of `pending`?"""
        if not pending:
            return False
        if entering is not None and not pending.isdisjoint(self.of_predicate(entering.name)):
            return True
        node = stack
        while node is not None:
            frame = node.top
            if not pending.isdisjoint(self.of_position(frame.pred.name, frame.rule.index, frame.pc)):
                return True
            node = node.rest
        return False

