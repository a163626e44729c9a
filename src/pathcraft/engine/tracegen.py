"""Trace generators for guided generation (paper 001, §4): the traces of a
function's own code, enumerated from its sliced trace abstraction.

All-local-paths (Def. 7) keeps the rules of the function under test and
drops calls to other code. Python's traces also nest the calls a rule makes
implicitly (a property, `__bool__`, `__eq__`) and end early where an
exception is raised, so instead of free variables in the places of other
code's traces, the generator works on *local traces*: a trace with every
subtree of other code (and of recursive calls) cut away (`LocalScope.
project`). The traces it enumerates are exactly the local traces of the
function's paths within loop-K and more (an over-approximation: sound and
complete in the paper's sense); the guided search decides which are
feasible.

What is local: the function's own predicates (blocks, handlers) and the
loop-free builtins of Python's operators (`int_floordiv`'s rule 2 is the
division by zero, as the paper's `div`). Library code written in the
prelude (`$...`) and builtins with loops (`sum`, `**`) are other code.

Enumeration mirrors the engine: a `Goto` is a tail child whose outcome is
the rule's; a non-tail child or the rule's own instruction that raises
goes to the block's `handler` (a `try`), whose trace is the last child;
loop-K counts entries into a loop body as the engine's `LoopBound` does
(a call starts with fresh counters, a `Goto` that enters a loop restarts
its own).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from pathcraft.errors import PathcraftError
from pathcraft.ir.builtin_names import FLOAT_BUILTINS
from pathcraft.ir.nodes import (
    Assign,
    BindException,
    Call,
    Const,
    Goto,
    Mark,
    Predicate,
    Program,
    Return,
    Rule,
    Unary,
    Var,
    Yield,
)
from pathcraft.ir.trace import TraceTerm


class LocalScope:
    """Which predicates are the code of one function under test."""

    def __init__(self, program: Program, qualname: str) -> None:
        info = program.functions[qualname]
        self.entry = info.entry
        by_function: dict[str, list[Predicate]] = {}
        for pred in program.predicates.values():
            by_function.setdefault(pred.function, []).append(pred)
        loop_free_builtins = {
            function for function, preds in by_function.items()
            if not function.startswith("$") and all(p.builtin for p in preds) and not any(p.iterates for p in preds)
        }
        # the function's own predicates, and the loop-free builtins its code
        # calls by name (an operator's); a builtin entered another way (a
        # dataclass's __eq__ through `==`) is other code
        names = {p.name for p in by_function.get(qualname, [])}
        pending = list(names)
        while pending:
            pred = program.predicate(pending.pop())
            for rule in pred.rules:
                for instr in rule.body:
                    callee = instr.predicate if isinstance(instr, Call) else \
                        instr.block if isinstance(instr, Goto) else None
                    if callee is None or callee in names or callee not in program.predicates:
                        continue
                    if program.predicate(callee).function in loop_free_builtins:
                        for name in (callee, FLOAT_BUILTINS.get(callee)):  # `/` on floats runs float_truediv
                            if name is not None and name in program.predicates and name not in names:
                                names.add(name)
                                pending.append(name)
        self.names = frozenset(names)

    def keeps(self, name: str) -> bool:
        """Whether a child term of this predicate stays in a local trace (a
        recursive call of the function is other code: its own activation)."""
        return name in self.names and name != self.entry

    def project(self, trace: TraceTerm) -> TraceTerm:
        """The local trace: `trace` with the subtrees of other code cut away."""
        out: dict[int, TraceTerm] = {}
        stack: list[tuple[TraceTerm, bool]] = [(trace, False)]
        while stack:  # post-order, iterative: traces nest deeply
            term, done = stack.pop()
            kept = [c for c in term.children if self.keeps(c.predicate)]
            if not done:
                stack.append((term, True))
                stack.extend((c, False) for c in kept)
                continue
            out[id(term)] = TraceTerm(term.predicate, term.rule, tuple(out[id(c)] for c in kept), term.raised)
        return out[id(trace)]


@dataclass(frozen=True)
class _Local:
    term: TraceTerm
    raises: bool  # the predicate's frame ends by raising


@dataclass(frozen=True)
class _Slot:
    """A call of local code in a rule's body: it leaves a child term."""

    callee: str
    tail: bool  # a Goto: the rule's outcome is the callee's
    enters_loop: str | None = None
    # a builtin's call: the engine may run another builtin in its place (its
    # float version) or none (`int(n)` of an int, `%` of a string)
    stand_ins: tuple[str, ...] = ()
    optional: bool = False


def bound_on_entry(program: Program, qualname: str) -> dict[str, frozenset[str]]:
    """For each block of the function, the parameters surely bound when it
    is entered (a must-analysis over its Gotos): a read of another may be
    of a local never assigned, which raises UnboundLocalError."""
    info = program.functions[qualname]
    own = {p.name: p for p in program.predicates.values() if p.function == qualname}
    bound: dict[str, frozenset[str]] = {name: frozenset(p.params) for name, p in own.items()}
    handlers = {p.handler for p in own.values() if p.handler}
    for name in handlers:
        bound[name] = frozenset()  # entered from wherever the exception was raised: assume nothing
    bound[info.entry] = frozenset(own[info.entry].params) if info.entry in own else frozenset()
    changed = True
    while changed:
        changed = False
        for pred in own.values():
            for rule in pred.rules:
                known = set(bound[pred.name])
                for instr in rule.body:
                    if isinstance(instr, Goto) and instr.block in own and instr.block not in handlers \
                            and instr.block != info.entry:
                        callee = own[instr.block]
                        passed = frozenset(p for p, a in zip(callee.params, instr.args) if _safe_value(a, known))
                        narrowed = bound[instr.block] & passed
                        if narrowed != bound[instr.block]:
                            bound[instr.block] = narrowed
                            changed = True
                    target = getattr(instr, "target", None)
                    if isinstance(target, str):
                        known.add(target)
    return bound


class LocalTraces:
    """The local traces of a function within loop-K, generated on demand."""

    def __init__(self, program: Program, qualname: str, k: int) -> None:
        self.program = program
        self.scope = LocalScope(program, qualname)
        self.k = k
        self.bound = bound_on_entry(program, qualname)
        info = program.functions[qualname]
        if info.generator or any(isinstance(i, Yield) for p in self._own(qualname) for r in p.rules for i in r.body):
            raise PathcraftError(f"{qualname} is a generator function: guided criteria do not support them yet")

    def _own(self, qualname: str) -> list[Predicate]:
        return [p for p in self.program.predicates.values() if p.function == qualname]

    def __iter__(self) -> Iterator[TraceTerm]:
        seen: set[TraceTerm] = set()
        for local in self._traces(self.scope.entry, {}):
            if local.term not in seen:
                seen.add(local.term)
                yield local.term

    def _traces(self, name: str, loops: Mapping[str, int]) -> Iterator[_Local]:
        pred = self.program.predicate(name)
        if pred.iterates is not None:
            loops = {**loops, pred.iterates: loops.get(pred.iterates, 0) + 1}
            if loops[pred.iterates] > self.k:
                return
        for rule in pred.rules:
            yield from self._rule(pred, rule, loops)

    def _rule(self, pred: Predicate, rule: Rule, loops: Mapping[str, int]) -> Iterator[_Local]:
        slots, gaps, returns = self._slots(rule, self.bound.get(pred.name, frozenset()))
        for children, raises, handled in self._sequences(slots, gaps, returns, loops, 0, ()):
            if raises and handled and pred.handler is not None:
                for caught in self._traces(pred.handler, loops):
                    yield _Local(TraceTerm(pred.name, rule.index, children + (caught.term,), caught.raises),
                                 caught.raises)
            else:
                yield _Local(TraceTerm(pred.name, rule.index, children, raises), raises)

    def _slots(self, rule: Rule, bound: frozenset[str]) -> tuple[list[_Slot], list[bool], bool]:
        """The rule's local calls; for each gap before a call (and after the
        last) whether something there may raise; whether it returns."""
        slots: list[_Slot] = []
        gaps = [False]
        returns = False
        known = set(bound)
        for instr in rule.body:
            target = getattr(instr, "target", None)
            if isinstance(target, str):
                known.add(target)  # (read before it is bound: an Assign's value is checked below)
            if isinstance(instr, Call) and self.scope.keeps(instr.predicate) \
                    and not self.program.predicate(instr.predicate).generator:
                builtin = self.program.predicate(instr.predicate).builtin
                stand_in = FLOAT_BUILTINS.get(instr.predicate)
                slots.append(_Slot(instr.predicate, False,
                                   stand_ins=(stand_in,) if builtin and stand_in in self.program.predicates else (),
                                   optional=builtin))
                gaps.append(False)
            elif isinstance(instr, Goto):
                slots.append(_Slot(instr.block, True, instr.enters_loop))
                gaps.append(False)
            elif isinstance(instr, Return):
                returns = True
                if not _safe_value(instr.value, known):  # `return y` of a local never assigned raises
                    gaps[-1] = True
            elif not _cannot_raise(instr, known):
                gaps[-1] = True
        return slots, gaps, returns

    def _sequences(self, slots: list[_Slot], gaps: list[bool], returns: bool, loops: Mapping[str, int],
                   i: int, prefix: tuple[TraceTerm, ...]) -> Iterator[tuple[tuple[TraceTerm, ...], bool, bool]]:
        """(children, raises, handled here) for the rule's body from slot i;
        `handled`: the raise comes from this frame's own code or a non-tail
        call, so the block's handler catches it."""
        # the paths that go on come first (more of them are feasible), then
        # those that raise: a budget that runs out has tried the likelier ones
        if i == len(slots):
            if returns:
                yield prefix, False, False
            if gaps[i]:
                yield prefix, True, True
            return
        slot = slots[i]
        if slot.tail:
            entry_loops = {**loops, slot.enters_loop: 0} if slot.enters_loop is not None else loops
            for child in self._traces(slot.callee, entry_loops):
                yield prefix + (child.term,), child.raises, False
            if gaps[i]:
                yield prefix, True, True
            return
        for callee in (slot.callee, *slot.stand_ins):
            for child in self._traces(callee, {}):
                if child.raises:
                    yield prefix + (child.term,), True, True
                else:
                    yield from self._sequences(slots, gaps, returns, loops, i + 1, prefix + (child.term,))
        if slot.optional:  # no child: the call went on without a predicate, or raised at once
            yield from self._sequences(slots, gaps, returns, loops, i + 1, prefix)
            yield prefix, True, True
        if gaps[i]:
            yield prefix, True, True


def _cannot_raise(instr: object, known: set[str]) -> bool:
    """Instructions that never raise nor run other code."""
    if isinstance(instr, (Mark, BindException)):
        return True
    return isinstance(instr, Assign) and _safe_value(instr.value, known)


def _safe_value(value: object, known: set[str] | frozenset[str]) -> bool:
    """A constant, a temporary of the translation (always assigned before
    it is read) or a variable surely bound; another may be unbound."""
    if isinstance(value, Unary) and isinstance(value.operand, Const):  # `-1`
        return value.op in ("neg", "not")
    return isinstance(value, Const) or isinstance(value, Var) and (value.name.startswith("$") or value.name in known)
