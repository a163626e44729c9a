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
from dataclasses import dataclass, field
from functools import cached_property

from pathcraft.strategies.refine import (
    AbstractStore,
    Known,
    ListRef,
    Modes,
    Ref,
    Refinement,
    call_sites,
    instantiation_modes,
)
from pathcraft.solver import terms as T
from pathcraft.errors import PathcraftError
from pathcraft.ir.builtin_names import FLOAT_BUILTINS, NUMBER_CONVERSIONS
from pathcraft.ir.nodes import (
    Assign,
    BindException,
    Call,
    CallMethod,
    CheckMethod,
    Const,
    Expr,
    GetField,
    Goto,
    ListOp,
    Mark,
    Predicate,
    Program,
    Return,
    Rule,
    SetField,
    Unary,
    Var,
    Yield,
)
from pathcraft.ir.printer import refined_rule_text
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


class ProgramScope:
    """Every predicate of the program: the whole trace of a run (paper 000,
    §4: the trace abstraction as the oracle of resource-driven generation).
    A method call's callees are the methods its name resolves to in any
    class; a recursive call is the function's own next activation."""

    def __init__(self, program: Program, qualname: str) -> None:
        self.entry = program.functions[qualname].entry
        self.names = frozenset(program.predicates)

    def keeps(self, name: str) -> bool:
        return name in self.names

    def project(self, trace: TraceTerm) -> TraceTerm:
        return trace


Scope = LocalScope | ProgramScope


@dataclass(frozen=True)
class _Local:
    term: TraceTerm
    raises: bool  # the predicate's frame ends by raising
    store: AbstractStore | None = None  # what the refinement knows after it
    value: Known | None = None  # what it returned, where the refinement knows it


@dataclass(frozen=True)
class _Gap:
    """Instructions between two calls, each with whether it may raise (a
    refinement that knows the object may tell it cannot)."""

    instrs: tuple[tuple[object, bool], ...]
    # instructions that may run code the generator does not walk (another
    # function, a property, a dunder): it may change any object, so the
    # refinement forgets what it knew of them
    opaque: frozenset[int] = frozenset()


_Callees = tuple[tuple[str, tuple[tuple[str, Expr | None], ...]], ...]  # (predicate, parameter bindings)


@dataclass(frozen=True)
class _Slot:
    """A call of walked code in a rule's body: it leaves a child term."""

    callees: _Callees
    tail: bool  # a Goto: the rule's outcome is the callee's
    enters_loop: str | None = None
    # a builtin's call: the engine may run another builtin in its place (its
    # float version) or none (`int(n)` of an int, `%` of a string)
    stand_ins: tuple[str, ...] = ()
    optional: bool = False
    before: _Gap = field(default_factory=lambda: _Gap(()))  # the rule's instructions since the previous slot
    dispatch: CallMethod | None = None  # a method call: its callee depends on the receiver's class
    result: str | None = None  # the variable a non-tail call's result goes to
    builtin_args: tuple[Expr, ...] | None = None  # a builtin's call: its arguments (see `_sequences`)


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


class TraceGenerator:
    """The traces of a function within loop-K, generated on demand from its
    trace abstraction: the local ones (a `LocalScope`) or whole runs (a
    `ProgramScope`); with `refine`, the abstraction refined by
    instantiation modes (strategies/refine.py) generates fewer infeasible ones."""

    def __init__(self, program: Program, qualname: str, k: int, scope: Scope | None = None,
                 refine: bool = False) -> None:
        self.program = program
        self.scope = scope if scope is not None else LocalScope(program, qualname)
        self.k = k
        self.walked = self._walked()
        self.bound: dict[str, frozenset[str]] = {}
        for function in {p.function for p in self.walked.values()}:
            if function in program.functions:
                self.bound.update(bound_on_entry(program, function))
        for name in self.walked:
            pred = program.predicate(name)
            if pred.generator or any(isinstance(i, Yield) for r in pred.rules for i in r.body):
                raise PathcraftError(f"{pred.function} is a generator function: guided criteria do not "
                                     "support them yet")
        self.refinement: Refinement | None = None
        if refine:
            info = program.functions[qualname]
            kinds = {p: t.kind for p, t in zip(info.params, info.param_types)
                     if t.kind in ("int", "bool", "list", "tuple") and not t.optional and p not in info.probes}
            sites = call_sites(self.walked, self._method_targets)
            self.inputs = kinds
            self.items = {p: t.elem.kind for p, t in zip(info.params, info.param_types) if p in kinds
                          and t.elem is not None and t.elem.kind in ("int", "bool") and not t.elem.optional}
            self.refinement = Refinement(instantiation_modes(self.walked, self.scope.entry, kinds, sites,
                                                                 self._method_targets))

    @property
    def modes(self) -> Modes | None:
        return self.refinement.modes if self.refinement is not None else None

    def _walked(self) -> dict[str, Predicate]:
        """The predicates the generator may enter from the target's entry."""
        seen: dict[str, Predicate] = {}
        pending = [self.scope.entry]
        while pending:
            name = pending.pop()
            if name in seen or name not in self.program.predicates:
                continue
            pred = seen[name] = self.program.predicate(name)
            if pred.handler:
                pending.append(pred.handler)
            for rule in pred.rules:
                for instr in rule.body:
                    if isinstance(instr, Goto):
                        pending.append(instr.block)
                    elif isinstance(instr, Call) and self.scope.keeps(instr.predicate) \
                            and not self.program.predicate(instr.predicate).generator:
                        pending.append(instr.predicate)
                        stand_in = FLOAT_BUILTINS.get(instr.predicate)
                        if stand_in is not None and self.scope.keeps(stand_in):
                            pending.append(stand_in)
                    elif isinstance(instr, CallMethod):
                        pending.extend(entry for entry, _, _ in self._method_targets(instr))
        return seen

    def _method_targets(self, instr: CallMethod) -> list[tuple[str, tuple[str, ...], bool]]:
        """The entries a method call may run (whole-run scope only)."""
        if not isinstance(self.scope, ProgramScope):
            return []
        found: dict[str, tuple[str, tuple[str, ...], bool]] = {}
        for cls in self.program.classes:
            qualname = self.program.resolve_method(cls, instr.method)
            info = self.program.functions.get(qualname) if qualname else None
            if info is not None and info.binding in ("", "static"):
                found[info.entry] = (info.entry, info.params, info.binding == "static")
        return sorted(found.values())

    def __iter__(self) -> Iterator[TraceTerm]:
        seen: set[TraceTerm] = set()
        env: dict[str, Known] = {}
        store = None
        if self.refinement is not None:
            env, store = self.refinement.inputs(self.program.predicate(self.scope.entry), self.inputs, self.items)
        for local in self._traces(self.scope.entry, {}, {}, env, store):
            if local.term not in seen:
                seen.add(local.term)
                yield local.term

    def _traces(self, name: str, loops: Mapping[str, int], active: Mapping[str, int], env: Mapping[str, Known],
                store: AbstractStore | None) -> Iterator[_Local]:
        pred = self.program.predicate(name)
        if pred.iterates is not None:
            loops = {**loops, pred.iterates: loops.get(pred.iterates, 0) + 1}
            if loops[pred.iterates] > self.k:
                return
        for rule in pred.rules:
            admitted = store
            if self.refinement is not None and store is not None:
                admitted = self.refinement.admit(pred, rule, env, store)
                if admitted is None:
                    continue
            yield from self._rule(pred, rule, loops, active, env, admitted)

    def _rule(self, pred: Predicate, rule: Rule, loops: Mapping[str, int], active: Mapping[str, int],
              env: Mapping[str, Known], store: AbstractStore | None) -> Iterator[_Local]:
        slots, tail, returns = self._slots(rule, self.bound.get(pred.name, frozenset()))
        walk = _Walk(pred, slots, tail, returns, loops, active)
        for children, raises, handled, after, value in self._sequences(walk, 0, (), dict(env), store):
            if raises and handled and pred.handler is not None:
                for caught in self._traces(pred.handler, loops, active, {}, after):
                    yield _Local(TraceTerm(pred.name, rule.index, children + (caught.term,), caught.raises),
                                 caught.raises, caught.store, caught.value)
            else:
                yield _Local(TraceTerm(pred.name, rule.index, children, raises), raises, after, value)

    def _slots(self, rule: Rule, bound: frozenset[str]) -> tuple[list[_Slot], _Gap, bool]:
        """The rule's walked calls, each with the gap of instructions before
        it; the gap after the last; whether the rule returns."""
        slots: list[_Slot] = []
        returns = False
        known = set(bound)
        gap: list[tuple[object, bool]] = []  # (instruction, whether it may raise)
        for instr in rule.body:
            target = getattr(instr, "target", None)
            if isinstance(target, str):
                known.add(target)  # (read before it is bound: an Assign's value is checked below)
            if isinstance(instr, Call) and self.scope.keeps(instr.predicate) \
                    and not self.program.predicate(instr.predicate).generator:
                callee = self.program.predicate(instr.predicate)
                stand_in = FLOAT_BUILTINS.get(instr.predicate)
                slots.append(_Slot(((instr.predicate, tuple(zip(callee.params, instr.args))),), False,
                                   stand_ins=(stand_in,) if callee.builtin and stand_in in self.program.predicates
                                   else (),
                                   optional=callee.builtin, before=self._gap([*gap, (instr, False)], walked=True),
                                   result=instr.target, builtin_args=instr.args if callee.builtin else None))
                gap = []
            elif isinstance(instr, Goto):
                callee = self.program.predicate(instr.block)
                slots.append(_Slot(((instr.block, tuple(zip(callee.params, instr.args))),), True, instr.enters_loop,
                                   before=self._gap(gap)))
                gap = []
            elif isinstance(instr, CallMethod) and isinstance(self.scope, ProgramScope):
                callees = []
                for entry, params, static in self._method_targets(instr):
                    values: tuple[Expr, ...] = instr.args if static else (instr.obj, *instr.args)
                    callees.append((entry, tuple((p, values[i] if i < len(values) else None)
                                                 for i, p in enumerate(params))))
                # a receiver with a native method of that name (a list's `pop`) runs no predicate: optional;
                # no method of that name raises AttributeError, a wrong arity TypeError
                slots.append(_Slot(tuple(callees), False, optional=True,
                                   before=self._gap([*gap, (instr, True)], walked=True), dispatch=instr,
                                   result=instr.target))
                gap = []
            elif isinstance(instr, Return):
                returns = True
                gap.append((instr, not _safe_value(instr.value, known)))  # `return y` of a local never assigned
            else:
                gap.append((instr, not _cannot_raise(instr, known)))
        return slots, self._gap(gap), returns

    def _gap(self, instrs: list[tuple[object, bool]], walked: bool = False) -> _Gap:
        """`walked`: the last instruction is the slot's own call."""
        last = len(instrs) - 1 if walked else -1
        return _Gap(tuple(instrs), frozenset(i for i, (instr, _) in enumerate(instrs)
                                             if i != last and self._opaque(instr)))

    def _opaque(self, instr: object) -> bool:
        if isinstance(instr, (Call, CallMethod)):  # (a walked call is its slot's, not the gap's)
            return True
        return isinstance(instr, (GetField, SetField, ListOp, CheckMethod)) and self.hooks

    @cached_property
    def hooks(self) -> bool:
        """Does the program define code Python runs on attribute access or
        through a protocol (properties, dunders)?"""
        return any(cls.properties or any(m.startswith("__") and m != "__init__" for m in cls.methods)
                   for cls in self.program.classes.values())

    def _through(self, walk: _Walk, gap: _Gap, env: dict[str, Known],
                 store: AbstractStore | None) -> tuple[bool, bool, AbstractStore | None, Known | None]:
        """Run a gap's instructions on the refinement's knowledge (updating
        `env`): whether one of them may raise, whether the rule may go on
        past them, the store after them, and the value a `return` among them
        gives (where known)."""
        refinement = self.refinement
        if refinement is None or store is None:
            return any(risky for _, risky in gap.instrs), True, store, None
        raises = False
        value = None
        for n, (instr, risky) in enumerate(gap.instrs):
            if n in gap.opaque:
                store = refinement.forget(store)
            if risky:
                condition = refinement.raise_condition(self.program, instr, env, store)
                if condition is True:
                    raises = True
                elif condition is not False:
                    raises = raises or refinement.assume(store, condition) is not None
                    goes_on = refinement.assume(store, T.not_(condition))
                    if goes_on is None:  # it surely raises here: nothing after it runs
                        return raises, False, store, None
                    store = goes_on
            if isinstance(instr, Return):
                value = refinement.term(instr.value, env)  # (ints only: library code may make another kind)
            store = refinement.run(walk.pred, instr, env, store)
        return raises, True, store, value

    def _sequences(self, walk: _Walk, i: int, prefix: tuple[TraceTerm, ...], env: dict[str, Known],
                   store: AbstractStore | None
                   ) -> Iterator[tuple[tuple[TraceTerm, ...], bool, bool, AbstractStore | None, Known | None]]:
        """(children, raises, handled here, store after, value returned) for the rule's body
        from slot i; `handled`: the raise comes from this frame's own code or
        a non-tail call, so the block's handler catches it."""
        # the paths that go on come first (more of them are feasible), then
        # those that raise: a budget that runs out has tried the likelier ones
        env = dict(env)
        start = store  # (a raise keeps the knowledge from before the gap: the weaker)
        if i == len(walk.slots):
            raises, goes_on, store, value = self._through(walk, walk.tail, env, store)
            if walk.returns and goes_on:
                yield prefix, False, False, store, value
            if raises:
                yield prefix, True, True, start, None
            return
        slot = walk.slots[i]
        raises, goes_on, store, _ = self._through(walk, slot.before, env, store)
        if not goes_on:
            if raises:
                yield prefix, True, True, start, None
            return
        callees, optional = self._dispatched(slot, env)
        if slot.tail:
            (callee, bindings), = callees
            entry_loops = {**walk.loops, slot.enters_loop: 0} if slot.enters_loop is not None else walk.loops
            for child in self._traces(callee, entry_loops, walk.active, self._bind(callee, bindings, env), store):
                yield prefix + (child.term,), child.raises, False, child.store, child.value
            if raises:
                yield prefix, True, True, start, None
            return
        alternatives, optional = self._alternatives(slot, callees, optional, env)
        for callee, bindings in alternatives:
            active = self._activate(walk.active, callee)
            if active is None:
                continue
            for child in self._traces(callee, {}, active, self._bind(callee, bindings, env), store):
                if child.raises:
                    yield prefix + (child.term,), True, True, child.store, None
                    continue
                after = env
                if slot.result is not None and child.value is not None and self.modes is not None \
                        and self.modes.keeps(walk.pred.name, slot.result):
                    after = {**env, slot.result: child.value}
                yield from self._sequences(walk, i + 1, prefix + (child.term,), after, child.store)
        if optional:  # no child: the call went on without a predicate, or raised at once
            yield from self._sequences(walk, i + 1, prefix, env, store)
            yield prefix, True, True, store, None
        if raises:
            yield prefix, True, True, start, None

    def _dispatched(self, slot: _Slot, env: Mapping[str, Known]) -> tuple[_Callees, bool]:
        """The slot's callees and whether it may call none, narrowed by what
        the refinement knows of a method call's receiver."""
        callees = slot.callees
        optional = slot.optional
        if slot.dispatch is not None and self.refinement is not None:
            receiver = self.refinement.value(slot.dispatch.obj, env)
            if isinstance(receiver, Ref):  # an object made on this trace: its class is known
                qualname = self.program.resolve_method(receiver.cls, slot.dispatch.method)
                entry = self.program.functions[qualname].entry if qualname in self.program.functions else None
                callees = tuple(c for c in callees if c[0] == entry)
                optional = False
            elif isinstance(receiver, ListRef):  # a list's own method: no predicate runs
                callees = ()
        return callees, optional

    def _alternatives(self, slot: _Slot, callees: _Callees, optional: bool, env: Mapping[str, Known]
                      ) -> tuple[list[tuple[str, tuple[tuple[str, Expr | None], ...]]], bool]:
        """The predicates a non-tail call may enter (its callees, then its
        float stand-ins), and whether it may enter none."""
        alternatives = [*callees, *((s, ()) for s in slot.stand_ins)]
        if slot.builtin_args is not None and self.refinement is not None and \
                all(self.refinement.term(a, env) is not None for a in slot.builtin_args):
            # on ints the engine runs an operator's int version (not its float
            # stand-in), or none where it computes in place (`int(n)`)
            (name, _), = callees
            if name in NUMBER_CONVERSIONS:
                alternatives, optional = [], True
            elif slot.stand_ins and self.program.predicate(name).rules:
                alternatives, optional = alternatives[:1], False
        return alternatives, optional

    def _bind(self, callee: str, bindings: tuple[tuple[str, Expr | None], ...],
              env: Mapping[str, Known]) -> dict[str, Known]:
        if self.refinement is None:
            return {}
        return self.refinement.bind(self.program.predicate(callee), bindings, env)

    def _activate(self, active: Mapping[str, int], callee: str) -> Mapping[str, int] | None:
        """The active calls with `callee` entered: a function has at most K
        activations under its first one (as the engine's loop-K)."""
        pred = self.program.predicate(callee)
        if not pred.is_entry or pred.builtin:
            return active
        n = active.get(pred.function, 0) + 1
        return None if n > self.k + 1 else {**active, pred.function: n}


@dataclass(frozen=True)
class _Walk:
    """One rule being walked: its slots and where it stands."""

    pred: Predicate
    slots: list[_Slot]
    tail: _Gap
    returns: bool
    loops: Mapping[str, int]
    active: Mapping[str, int]


class LocalTraces(TraceGenerator):
    """The local traces of a function within loop-K (all-local-paths)."""

    def __init__(self, program: Program, qualname: str, k: int, refine: bool = False) -> None:
        super().__init__(program, qualname, k, LocalScope(program, qualname), refine)


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


def refined_text(program: Program, qualname: str, k: int = 2) -> str:
    """The whole-run trace abstraction of `qualname` refined by
    instantiation modes, in the printer's Prolog syntax (`clp --abstraction
    --refine`), with the modes inferred for each predicate."""
    generator = TraceGenerator(program, qualname, k, ProgramScope(program, qualname), refine=True)
    modes = generator.modes
    assert modes is not None

    def static_of(name: str) -> frozenset[str]:
        return modes.static.get(name, frozenset())

    def method_args(instr: CallMethod) -> list[Expr]:
        values = (instr.obj, *instr.args)
        kept: list[Expr] = []
        for entry, params, static in generator._method_targets(instr):
            passed = instr.args if static else values
            kept.extend(v for p, v in zip(params, passed) if p in static_of(entry) and v not in kept)
        return kept

    chunks = ["% trace abstraction refined by instantiation modes (static: known or constrained "
              "during symbolic execution; dynamic: left free)"]
    for name, pred in generator.walked.items():
        dynamic = sorted(set(pred.params) - static_of(name))
        chunks.append(f"% {name}: static {{{', '.join(sorted(static_of(name) & set(pred.params)))}}}, "
                      f"dynamic {{{', '.join(dynamic)}}}\n"
                      + "\n".join(refined_rule_text(program, pred, r, static_of, modes.fields, method_args)
                                  for r in pred.rules))
    if modes.fields:
        chunks.append(f"% static fields: {', '.join(sorted(modes.fields))}")
    return "\n\n".join(chunks) + "\n"
