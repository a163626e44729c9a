"""Trace-abstraction refinement by instantiation modes (paper 001, §6;
paper 000, Fig. 6).

The plain trace abstraction keeps only each rule's calls, so it generates
every combination of rules, most of them infeasible. The refinement keeps
the variables whose values symbolic execution knows or constrains — the
*static* ones — with the guards and arithmetic over them, so a trace whose
guards contradict each other is never generated.

Step one (`instantiation_modes`) is a fixpoint over the predicates the
trace generator walks. A variable is *computable* when each of its
definitions is integer arithmetic over constants and computable variables:
an int parameter of the function under test (a symbolic input), a loop
counter, a field of an object made on the path whose every assignment is
computable (the paper's `size` and `cap`). Anything read from the input
heap, a list, or a call's result is *dynamic*: it stays free. Of the
computable variables, the refinement keeps the *relevant* ones — those a
kept guard reads, directly or through the definitions and call arguments
that feed it (power's `e` and `i`, not `b` nor `p`). Static means both.

Step two is not a printed program run by another engine: the trace
generator (`strategies/tracegen.py`) carries the static variables itself, as
solver terms, and checks each kept guard with the solver chain as it
enumerates (`AbstractStore`). Dropping a guard over a dynamic variable only
admits more traces, so the refined generator still yields every feasible
trace (complete) and fewer infeasible ones. `clp --abstraction --refine`
prints what it keeps (`refined_rule_text`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from itertools import count

from pathcraft.ir.nodes import (
    Assign,
    Binary,
    Call,
    CallMethod,
    CheckExceptionType,
    CheckMethod,
    Const,
    Expr,
    GetField,
    Goto,
    Guard,
    Instr,
    ListOp,
    NewList,
    NewObject,
    Predicate,
    Program,
    RepeatList,
    Return,
    Rule,
    SetField,
    Unary,
    Var,
)
from pathcraft.solver import terms as T
from pathcraft.solver.chain import SAT, UNSAT, Query, SolverChain
from pathcraft.solver.path import PathNode, extend
from pathcraft.solver.terms import Model, Sym, Term

_ARITHMETIC = {"add": T.add, "sub": T.sub, "mul": T.mul}
_RELATIONS = ("eq", "ne", "lt", "le", "gt", "ge")


@dataclass(frozen=True)
class Modes:
    """The static variables of each predicate, and the static fields."""

    static: Mapping[str, frozenset[str]]
    fields: frozenset[str]

    def keeps(self, pred: str, var: str) -> bool:
        return var in self.static.get(pred, frozenset())


def expr_vars(expr: Expr | Guard | None) -> set[str] | None:
    """The variables of an expression the refinement can evaluate, or None
    when it cannot (a float, a string, `None`, an operator it does not
    model)."""
    if isinstance(expr, Var):
        return {expr.name}
    if isinstance(expr, Const):
        return set() if isinstance(expr.value, (bool, int)) else None
    if isinstance(expr, Unary):
        return expr_vars(expr.operand) if expr.op in ("neg", "not", "truth", "int", "index") else None
    if isinstance(expr, Binary):
        if expr.op not in (*_ARITHMETIC, "floordiv", "mod", "and", "or", *_RELATIONS):
            return None
        left, right = expr_vars(expr.left), expr_vars(expr.right)
        return None if left is None or right is None else left | right
    return None


@dataclass(frozen=True)
class Site:
    """Where a predicate is entered: its parameters bound to the caller's
    expressions (None: a value the refinement cannot follow)."""

    caller: str
    bindings: tuple[tuple[str, Expr | None], ...]


def call_sites(preds: Mapping[str, Predicate], method_targets: Callable[[CallMethod], list[tuple[str, tuple[str, ...],
                                                                                              bool]]]
               ) -> dict[str, list[Site]]:
    """Each walked predicate's call sites within `preds`. `method_targets`
    gives a method call's possible callees: (entry, parameters, static)."""
    sites: dict[str, list[Site]] = {name: [] for name in preds}
    for pred in preds.values():
        for rule in pred.rules:
            for instr in rule.body:
                if isinstance(instr, (Goto, Call)):
                    callee = instr.block if isinstance(instr, Goto) else instr.predicate
                    if callee in preds:
                        params = preds[callee].params
                        sites[callee].append(Site(pred.name, tuple(zip(params, instr.args))))
                elif isinstance(instr, CallMethod):
                    for entry, params, static in method_targets(instr):
                        if entry in preds:
                            values: tuple[Expr, ...] = instr.args if static else (instr.obj, *instr.args)
                            bound = tuple((p, values[i] if i < len(values) else None) for i, p in enumerate(params))
                            sites[entry].append(Site(pred.name, bound))
    return sites


MethodTargets = Callable[[CallMethod], list[tuple[str, tuple[str, ...], bool]]]


def instantiation_modes(preds: Mapping[str, Predicate], entry: str, inputs: Iterable[str],
                        sites: Mapping[str, list[Site]], method_targets: MethodTargets) -> Modes:
    """The fixpoint of §6.1 over `preds` (the predicates a trace generator
    walks from `entry`); `inputs` are the entry's parameters that are
    symbolic ints or bools. A call's result is computable when every
    `return` of the function called is (the CLP program's output argument)."""
    inputs = frozenset(inputs)

    def called(instr: object) -> list[str]:
        """The functions whose result `instr` binds to its target."""
        if isinstance(instr, Call):
            return [preds[instr.predicate].function] if instr.predicate in preds else []
        if isinstance(instr, CallMethod):
            return [preds[entry].function for entry, _, _ in method_targets(instr) if entry in preds]
        return []

    computable, fields = _computable(preds, entry, inputs, sites, called)
    relevant, relevant_fields = _relevant(preds, sites, computable, fields, called)
    static = {name: frozenset(computable[name] & relevant[name]) for name in preds}
    return Modes(static, frozenset(fields & relevant_fields))


Called = Callable[[object], list[str]]


def _computable(preds: Mapping[str, Predicate], entry: str, inputs: frozenset[str],
                sites: Mapping[str, list[Site]], called: Called) -> tuple[dict[str, set[str]], set[str]]:
    """The variables of each predicate, and the fields, whose values the
    inputs determine: a greatest fixpoint (start from everything, remove)."""
    by_function: dict[str, list[Predicate]] = {}
    for pred in preds.values():
        by_function.setdefault(pred.function, []).append(pred)

    def results(known: Mapping[str, set[str]]) -> set[str]:
        return {function for function, own in by_function.items()
                if all(_subset(expr_vars(i.value), known[p.name])
                       for p in own for r in p.rules for i in r.body if isinstance(i, Return))}

    computable = {name: set(pred.params) | _targets(pred) for name, pred in preds.items()}
    fields = {i.field for p in preds.values() for r in p.rules for i in r.body if isinstance(i, SetField)}
    changed = True
    while changed:
        changed = False
        returning = results(computable)
        for name, pred in preds.items():
            known = computable[name]
            for param in pred.params:
                entered = name == entry and param in inputs or name != entry and bool(sites[name])
                ok = entered and all(_site_computable(site, param, computable) for site in sites[name])
                if param in known and not ok:
                    known.discard(param)
                    changed = True
            for rule in pred.rules:
                for instr in rule.body:
                    target = getattr(instr, "target", None)
                    if isinstance(target, str) and target in known and not _defines_computable(instr, known, fields) \
                            and not (called(instr) and set(called(instr)) <= returning):
                        known.discard(target)
                        changed = True
                    if isinstance(instr, SetField) and instr.field in fields and \
                            not _subset(expr_vars(instr.value), known):
                        fields.discard(instr.field)
                        changed = True
    return computable, fields


def _relevant(preds: Mapping[str, Predicate], sites: Mapping[str, list[Site]], computable: Mapping[str, set[str]],
              fields: set[str], called: Called) -> tuple[dict[str, set[str]], set[str]]:
    """The variables of each predicate, and the fields, that the kept
    guards depend on: a least fixpoint (start from the kept guards, add)."""
    relevant: dict[str, set[str]] = {name: set() for name in preds}
    relevant_fields: set[str] = set()
    relevant_results: set[str] = set()
    for name, pred in preds.items():
        for rule in pred.rules:
            used = kept_guard_vars(rule.guard, computable[name])
            relevant[name] |= used or set()
    changed = True
    while changed:
        changed = False
        for name, pred in preds.items():
            wanted = relevant[name]
            before = (len(wanted), len(relevant_fields))
            for rule in pred.rules:
                for instr in rule.body:
                    if _widen(instr, pred.function, wanted, computable[name], fields, relevant_fields,
                              relevant_results, called):
                        changed = True
            for site in sites[name]:
                for param, arg in site.bindings:
                    if param in wanted and param in computable[name] and arg is not None:
                        caller = relevant[site.caller]
                        extra = (expr_vars(arg) or set()) - caller
                        if extra:
                            caller |= extra
                            changed = True
            if (len(wanted), len(relevant_fields)) != before:
                changed = True
    return relevant, relevant_fields


def _widen(instr: Instr, function: str, wanted: set[str], known: set[str], fields: set[str],
           relevant_fields: set[str], relevant_results: set[str], called: Called) -> bool:
    """Add to `wanted` (and the relevant fields) what a relevant value of
    `instr` depends on; True when the functions whose results are relevant
    grew (their returns become relevant)."""
    grew = False
    if isinstance(instr, Assign) and instr.target in wanted and instr.target in known:
        wanted |= expr_vars(instr.value) or set()
    elif isinstance(instr, GetField) and instr.target in wanted and instr.target in known:
        relevant_fields.add(instr.field)
        wanted |= expr_vars(instr.obj) or set()
    elif isinstance(instr, SetField) and instr.field in relevant_fields and instr.field in fields:
        wanted |= (expr_vars(instr.value) or set()) | (expr_vars(instr.obj) or set())
    elif isinstance(instr, (Call, CallMethod)) and instr.target in wanted \
            and instr.target in known:
        fresh = set(called(instr)) - relevant_results
        if fresh:
            relevant_results.update(fresh)
            grew = True
    elif isinstance(instr, Return) and function in relevant_results:
        wanted |= (expr_vars(instr.value) or set()) & known
    elif isinstance(instr, RepeatList) and instr.target in wanted:
        wanted |= (expr_vars(instr.count) or set()) & known
    if isinstance(instr, (GetField, SetField, CallMethod, CheckMethod)):
        # the object's class decides a method call and whether an attribute exists
        wanted |= (expr_vars(instr.obj) or set()) & known
    if isinstance(instr, ListOp):
        # a list's length decides `len` and whether an index is out of range
        used = (expr_vars(instr.lst) or set()).union(*(expr_vars(a) or set() for a in instr.args))
        wanted |= used & known
    return grew


def kept_guard_vars(guard: Guard | None, static: Iterable[str]) -> set[str] | None:
    """The variables of a guard the refinement keeps (all of them static),
    or None when it drops the guard."""
    if guard is None or isinstance(guard, CheckExceptionType):
        return None
    used = expr_vars(guard)
    return used if used is not None and used <= set(static) else None


def _targets(pred: Predicate) -> set[str]:
    return {t for r in pred.rules for i in r.body if isinstance(t := getattr(i, "target", None), str)}


def _subset(used: set[str] | None, known: set[str]) -> bool:
    return used is not None and used <= known


def _site_computable(site: Site, param: str, computable: Mapping[str, set[str]]) -> bool:
    arg = dict(site.bindings).get(param)
    return arg is not None and _subset(expr_vars(arg), computable[site.caller])


def _defines_computable(instr: object, known: set[str], fields: set[str]) -> bool:
    if isinstance(instr, Assign):
        return _subset(expr_vars(instr.value), known)
    if isinstance(instr, (NewObject, NewList, RepeatList)):
        return True
    if isinstance(instr, ListOp) and instr.op in ("len", "get"):  # (an item: known only as an int of an int list)
        return _subset(expr_vars(instr.lst), known)
    if isinstance(instr, GetField):
        return instr.field in fields and _subset(expr_vars(instr.obj), known)
    return False  # a call's result, a list's length or item, an exception


# ------------------------------------------------------------ the store


@dataclass(frozen=True)
class Ref:
    """An object made on the trace being generated: its class is known."""

    number: int
    cls: str


@dataclass(frozen=True)
class ListRef:
    """A list (or tuple) whose length the trace may know: one made on the
    trace, or an input list (which may alias another input)."""

    number: int
    from_input: bool = False


Known = Term | Ref | ListRef


@dataclass(frozen=True)
class AbstractStore:
    """What a refined trace generator knows along one trace: the static
    fields of the objects made on it, and the path constraint over the
    symbolic inputs (with a model, as the engine keeps one)."""

    fields: Mapping[tuple[int, str], Known] = field(default_factory=dict)
    present: frozenset[tuple[int, str]] = frozenset()  # every field set on those objects
    lengths: Mapping[int, Term] = field(default_factory=dict)  # of the lists known (ListRef.number)
    # lists whose items are all ints (or all bools): an item read is a fresh
    # unknown of that sort, so the builtins it meets run their int versions
    items: Mapping[int, str] = field(default_factory=dict)
    reads: int = 0  # items read so far: names the next one alike on every trace with this prefix (solver caches)
    path: PathNode | None = None
    model: Model = field(default_factory=dict)


class Refinement:
    """The refined abstraction's evaluation: modes, a solver, counters."""

    def __init__(self, modes: Modes, chain: SolverChain | None = None) -> None:
        self.modes = modes
        self.chain = chain or SolverChain()
        self.refs = count()
        self.input_lists: set[int] = set()

    def inputs(self, pred: Predicate, kinds: Mapping[str, str],
               items: Mapping[str, str]) -> tuple[dict[str, Known], AbstractStore]:
        """The entry's static parameters as symbolic inputs (`kinds`: int,
        bool, or list: a list of unknown length; `items`: the int or bool
        item sort of a list), and the store they start."""
        env: dict[str, Known] = {}
        lengths: dict[int, Term] = {}
        sorts: dict[int, str] = {}
        path = None
        for param in pred.params:
            if not self.modes.keeps(pred.name, param) or param not in kinds:
                continue
            if kinds[param] in ("list", "tuple"):
                ref = ListRef(next(self.refs), from_input=True)
                self.input_lists.add(ref.number)
                if param in items:
                    sorts[ref.number] = items[param]
                length = lengths[ref.number] = Sym(f"len({param})", T.INT)
                path = extend(path, T.ge(length, 0))
                env[param] = ref
            else:
                env[param] = Sym(param, T.BOOL if kinds[param] == "bool" else T.INT)
        return env, AbstractStore(lengths=lengths, items=sorts, path=path)

    def admit(self, pred: Predicate, rule: Rule, env: Mapping[str, Known],
              store: AbstractStore) -> AbstractStore | None:
        """The store with the rule's guard assumed, or None when the kept
        guard contradicts what the trace already knows."""
        if kept_guard_vars(rule.guard, self.modes.static.get(pred.name, frozenset())) is None:
            return store
        condition = self.term(rule.guard, env)  # type: ignore[arg-type]
        return store if condition is None else self.assume(store, condition)

    def assume(self, store: AbstractStore, condition: Term) -> AbstractStore | None:
        """`store` with `condition` on its path, or None when that is
        unsatisfiable (an unknown answer keeps the store as it is)."""
        condition = T.truthy(condition)
        if condition is True:
            return store
        if condition is False:
            return None
        answer = self.chain.check(Query(store.path, store.model, condition))
        if answer.verdict == UNSAT:
            return None
        if answer.verdict == SAT and answer.model is not None:
            return replace(store, path=extend(store.path, condition), model=answer.model)
        return store

    def run(self, pred: Predicate, instr: object, env: dict[str, Known],
            store: AbstractStore) -> AbstractStore:
        """The effect of a non-call instruction on the static variables."""
        static = self.modes.static.get(pred.name, frozenset())
        target = getattr(instr, "target", None)
        if isinstance(instr, Assign):  # (`i = i + 1`: the value before the target is unbound)
            computed = self.value(instr.value, env) if instr.target in static else None
            env.pop(instr.target, None)
            if computed is not None:
                env[instr.target] = computed
            return store
        if isinstance(target, str):
            env.pop(target, None)
        if isinstance(instr, NewObject) and instr.target in static:
            env[instr.target] = Ref(next(self.refs), instr.cls)
        elif isinstance(instr, GetField) and instr.target in static:
            obj = self.value(instr.obj, env)
            if isinstance(obj, Ref) and (obj.number, instr.field) in store.fields:
                env[instr.target] = store.fields[(obj.number, instr.field)]
        elif isinstance(instr, SetField):
            obj = self.value(instr.obj, env)
            if isinstance(obj, Ref):
                key = (obj.number, instr.field)
                value = self.value(instr.value, env) if instr.field in self.modes.fields else None
                fields = {k: v for k, v in store.fields.items() if k != key}
                if value is not None:
                    fields[key] = value
                return replace(store, fields=fields, present=store.present | {key})
        elif isinstance(instr, NewList) and instr.target in static:
            ref = env[instr.target] = ListRef(next(self.refs))
            return replace(store, lengths={**store.lengths, ref.number: len(instr.items)})
        elif isinstance(instr, RepeatList) and instr.target in static:
            ref = env[instr.target] = ListRef(next(self.refs))
            count = self.term(instr.count, env)
            if count is not None:
                length = T.ite(T.gt(T.as_int(count), 0), T.as_int(count), 0)
                return replace(store, lengths={**store.lengths, ref.number: length})
        elif isinstance(instr, ListOp):
            return self._list_op(instr, env, store, static)
        elif isinstance(instr, CallMethod):  # a list's own method (`extend`, `insert`): its length unknown
            receiver = self.value(instr.obj, env)
            if isinstance(receiver, ListRef):
                return self._resized(store, receiver, None)
        return store

    def _list_op(self, instr: ListOp, env: dict[str, Known], store: AbstractStore,
                 static: frozenset[str]) -> AbstractStore:
        lst = self.value(instr.lst, env)
        if not isinstance(lst, ListRef):
            return store
        length = store.lengths.get(lst.number)
        if instr.op == "len":
            if length is not None and instr.target is not None and instr.target in static:
                env[instr.target] = length
            return store
        if instr.op == "get":
            sort = store.items.get(lst.number)
            if sort is not None and instr.target is not None and instr.target in static:
                env[instr.target] = Sym(f"$item{store.reads}", T.BOOL if sort == "bool" else T.INT)
                return replace(store, reads=store.reads + 1)
            return store
        if instr.op in ("set", "append") and lst.number in store.items:
            value = self.term(instr.args[-1], env) if instr.args else None
            if value is None or T.sort_of(value) != (T.BOOL if store.items[lst.number] == "bool" else T.INT):
                store = replace(store, items={n: k for n, k in store.items.items() if n != lst.number})
        if instr.op in ("set", "iter", "truth", "slice", "unpack"):
            return store
        if instr.op == "append" and length is not None:
            return self._resized(store, lst, T.add(length, 1))
        if instr.op == "pop" and length is not None:
            return self._resized(store, lst, T.sub(length, 1))
        return self._resized(store, lst, None)

    def _resized(self, store: AbstractStore, lst: ListRef, length: Term | None) -> AbstractStore:
        """The store after `lst` changed length (None: to one unknown). An
        input list may be another input too: those lengths are forgotten."""
        lengths = {n: v for n, v in store.lengths.items() if n != lst.number}
        if lst.from_input:
            lengths = {n: v for n, v in lengths.items() if n not in self.input_lists}
        if length is not None:
            lengths[lst.number] = length
        items = store.items if length is not None else {n: k for n, k in store.items.items() if n != lst.number}
        return replace(store, lengths=lengths, items=items)

    def raise_condition(self, program: Program, instr: object, env: Mapping[str, Known],
                        store: AbstractStore) -> Term:
        """When `instr` raises: True (it may, the refinement cannot tell
        when), False (it cannot), or a condition over the inputs (an index
        out of range, a pop from an empty list)."""
        if isinstance(instr, ListOp):
            lst = self.value(instr.lst, env)
            if not isinstance(lst, ListRef):
                return True
            if instr.op in ("len", "append", "iter", "truth", "slice"):
                return False
            length = store.lengths.get(lst.number)
            if length is None:
                return True
            if instr.op in ("get", "set") or instr.op == "pop" and instr.args:
                index = self.term(instr.args[0], env)
                if index is None:
                    return True
                index = T.as_int(index)
                return T.or_(T.ge(index, length), T.lt(index, T.neg(length)))
            if instr.op == "pop":
                return T.eq(length, 0)
            if instr.op == "unpack" and instr.args and isinstance(instr.args[0], Const) \
                    and isinstance(instr.args[0].value, int):
                return T.ne(length, instr.args[0].value)
            return True
        if isinstance(instr, CallMethod) and isinstance(self.value(instr.obj, env), ListRef):
            return True
        if isinstance(instr, RepeatList):  # `[v] * n` of an int n (a float n raises TypeError)
            return self.term(instr.count, env) is None
        if isinstance(instr, (Assign, Return)):  # arithmetic on known ints raises nothing
            return self.value(instr.value, env) is None
        return self.may_raise(program, instr, env, store)

    def forget(self, store: AbstractStore) -> AbstractStore:
        """The store after code the generator does not follow ran: it may
        have changed or deleted any field of the objects made so far."""
        return AbstractStore(path=store.path, model=store.model, reads=store.reads)

    def may_raise(self, program: Program, instr: object, env: Mapping[str, Known], store: AbstractStore) -> bool:
        """Whether `instr` may raise, knowing the objects made on the trace:
        an attribute read raises only when the field was never set (and the
        class has no default), a write or a method lookup on a known class
        never does; anything else may."""
        obj = self.value(instr.obj, env) if isinstance(instr, (GetField, SetField, CheckMethod, CallMethod)) else None
        if not isinstance(obj, Ref) or obj.cls not in program.classes or program.classes[obj.cls].properties:
            return True
        if isinstance(instr, GetField):
            return (obj.number, instr.field) not in store.present and not program.class_default(obj.cls, instr.field)[0]
        if isinstance(instr, SetField):
            return False
        assert isinstance(instr, (CheckMethod, CallMethod))
        qualname = program.resolve_method(obj.cls, instr.method)
        return qualname is None or qualname not in program.functions

    def bind(self, callee: Predicate, bindings: Iterable[tuple[str, Expr | None]],
             env: Mapping[str, Known]) -> dict[str, Known]:
        """The callee's static parameters from the caller's values."""
        static = self.modes.static.get(callee.name, frozenset())
        out: dict[str, Known] = {}
        for param, arg in bindings:
            if param in static and arg is not None:
                value = self.value(arg, env)
                if value is not None:
                    out[param] = value
        return out

    def value(self, expr: Expr, env: Mapping[str, Known]) -> Known | None:
        if isinstance(expr, Var):
            return env.get(expr.name)
        return self.term(expr, env)

    def term(self, expr: Expr, env: Mapping[str, Known]) -> Term | None:
        """`expr` as a solver term over the symbolic inputs, or None when a
        variable in it is not known here."""
        if isinstance(expr, Var):
            value = env.get(expr.name)
            return None if value is None or isinstance(value, (Ref, ListRef)) else value
        if isinstance(expr, Const):
            return expr.value if isinstance(expr.value, (bool, int)) else None
        if isinstance(expr, Unary):
            operand = self.term(expr.operand, env)
            if operand is None:
                return None
            if expr.op == "neg":
                return T.neg(operand)
            if expr.op == "not":
                return T.not_(T.truthy(operand))
            if expr.op == "truth":
                return T.truthy(operand)
            return T.as_int(operand) if expr.op in ("int", "index") else None
        if isinstance(expr, Binary):
            left, right = self.term(expr.left, env), self.term(expr.right, env)
            if left is None or right is None:
                return None
            if expr.op in _ARITHMETIC:
                return _ARITHMETIC[expr.op](left, right)
            if expr.op in ("floordiv", "mod"):  # the divisor is known non-zero here (nodes.Binary)
                return (T.floordiv if expr.op == "floordiv" else T.mod)(left, right)
            if expr.op in _RELATIONS:
                return T.relation(expr.op, left, right)
            if expr.op == "and":
                return T.and_(T.truthy(left), T.truthy(right))
            if expr.op == "or":
                return T.or_(T.truthy(left), T.truthy(right))
        return None
