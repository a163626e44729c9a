"""Basic blocks under construction, and their finalisation into predicates.

The lowerer fills `BlockBuilder`s; `finalize` then computes which variables
are live on entry to each block (they become the block predicate's
arguments, as in the papers' `loop([A,B],[R],...)`), fills in the arguments
of every tail call, and turns each branch into guarded rules. A block whose
only instructions before its branch are statement marks becomes one
predicate with two guarded rules; otherwise the branch gets a predicate of
its own (the papers' `cont`/`check` split).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Union

from pathcraft.ir.builtin_names import UNSUPPORTED
from pathcraft.ir.nodes import (
    EXC_VAR,
    Binary,
    BindException,
    CheckExceptionType,
    Const,
    Expr,
    Goto,
    Guard,
    Instr,
    Mark,
    Predicate,
    Raise,
    Return,
    Rule,
    Unary,
    Var,
)


@dataclass
class Jump:
    target: str
    enters_loop: str | None = None


@dataclass
class Branch:
    guard: Guard
    if_true: str
    if_false: str


Terminator = Union[Jump, Branch, Return, Raise]


@dataclass
class BlockBuilder:
    name: str
    handler: str | None
    iterates: str | None = None
    instrs: list[Instr] = field(default_factory=list)
    terminator: Terminator | None = None


def expr_uses(e: Expr | Guard, out: set[str]) -> None:
    if isinstance(e, Var):
        out.add(e.name)
    elif isinstance(e, Unary):
        expr_uses(e.operand, out)
    elif isinstance(e, Binary):
        expr_uses(e.left, out)
        expr_uses(e.right, out)
    elif isinstance(e, CheckExceptionType):
        out.add(e.var)


_EXPR_TYPES = (Var, Const, Unary, Binary, CheckExceptionType)
# fields naming a variable that an instruction reads (not an expression)
_VAR_FIELDS = ("reraise", "message_var")


def _instr_uses_defs(instr: Instr | Terminator) -> tuple[set[str], set[str]]:
    """Variables an instruction reads and writes, from its fields: every
    expression (or tuple of them) is read, `target` is written. A Mark, a
    Jump and the targets of a Branch name no variables."""
    uses: set[str] = set()
    defs: set[str] = set()
    if isinstance(instr, (Mark, Jump)):
        return uses, defs
    if isinstance(instr, BindException):
        return {EXC_VAR}, {instr.target}
    for f in fields(instr):
        value = getattr(instr, f.name)
        if f.name == "target":
            if isinstance(value, str) and not isinstance(instr, Jump):
                defs.add(value)
        elif f.name in _VAR_FIELDS:
            if value:
                uses.add(value)
        elif isinstance(value, _EXPR_TYPES):
            expr_uses(value, uses)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, tuple):  # (name, expression) pairs: a call's keyword arguments
                    item = item[-1]
                if isinstance(item, _EXPR_TYPES):
                    expr_uses(item, uses)
    return uses, defs


def _successors(block: BlockBuilder) -> list[str]:
    t = block.terminator
    if isinstance(t, Jump):
        return [t.target]
    if isinstance(t, Branch):
        return [t.if_true, t.if_false]
    return []


def liveness(blocks: dict[str, BlockBuilder]) -> dict[str, set[str]]:
    """Variables live on entry to each block (backward dataflow, fixpoint).

    An exception may leave a block at any instruction, so everything live at
    its handler is live throughout the block, except the exception itself,
    which the engine passes."""
    gen: dict[str, set[str]] = {}
    kill: dict[str, set[str]] = {}
    for name, block in blocks.items():
        used: set[str] = set()
        defined: set[str] = set()
        items: list[Instr | Terminator] = list(block.instrs)
        if block.terminator is not None:
            items.append(block.terminator)
        for instr in items:
            u, d = _instr_uses_defs(instr)
            used |= u - defined
            defined |= d
        gen[name], kill[name] = used, defined
    live: dict[str, set[str]] = {name: set() for name in blocks}
    changed = True
    while changed:
        changed = False
        for name, block in blocks.items():
            out: set[str] = set()
            for succ in _successors(block):
                out |= live[succ]
            new = gen[name] | (out - kill[name])
            if block.handler is not None:
                new |= live[block.handler] - {EXC_VAR}
            if new != live[name]:
                live[name] = new
                changed = True
    return live


def negate(guard: Guard) -> Guard:
    if isinstance(guard, CheckExceptionType):
        return CheckExceptionType(guard.var, guard.types, not guard.negate)
    return Unary("not", guard)


def _lines(instrs: list[Instr]) -> tuple[int, ...]:
    seen: dict[int, None] = {}
    for instr in instrs:
        line = getattr(instr, "line", 0)
        if line:
            seen[line] = None
    return tuple(seen)


def finalize(
    function: str,
    entry: str,
    params: tuple[str, ...],
    blocks: dict[str, BlockBuilder],
    order: list[str],
) -> dict[str, Predicate]:
    """Predicates of one function; `order` ranks variables for printing."""
    assembler = _Assembler(function, entry, params, blocks, order)
    preds: dict[str, Predicate] = {}
    for name, block in blocks.items():
        for pred in assembler.predicates(name, block):  # a condition printed after the block it ends
            preds[pred.name] = pred
    return preds


class _Assembler:
    """What the predicates of one function share: each block's parameters
    (its live variables, ranked), which a branch's condition block extends."""

    def __init__(self, function: str, entry: str, params: tuple[str, ...], blocks: dict[str, BlockBuilder],
                 order: list[str]) -> None:
        self.function = function
        self.entry = entry
        self.live = liveness(blocks)
        self.rank = {v: i for i, v in enumerate(order)}
        self.params = {name: self.ordered(self.live[name]) for name in blocks}
        self.params[entry] = params
        for name, block in blocks.items():
            if name != entry and any(
                isinstance(i, BindException) for i in block.instrs
            ):
                rest = tuple(v for v in self.params[name] if v != EXC_VAR)
                self.params[name] = (EXC_VAR,) + rest

    def ordered(self, names: set[str]) -> tuple[str, ...]:
        return tuple(sorted(names, key=lambda v: (self.rank.get(v, len(self.rank)), v)))

    def goto(self, target: str, enters_loop: str | None = None) -> Goto:
        return Goto(target, tuple(Var(v) for v in self.params[target]), enters_loop)

    def predicate(self, name: str, block: BlockBuilder, rules: tuple[Rule, ...],
                  marks: tuple[int, ...] = ()) -> Predicate:
        return Predicate(name, self.function, self.params[name], rules, marks, block.handler,
                         is_entry=(name == self.entry), iterates=block.iterates)

    def branch_rules(self, term: Branch) -> tuple[Rule, ...]:
        return (
            Rule(1, term.guard, (self.goto(term.if_true),)),
            Rule(2, negate(term.guard), (self.goto(term.if_false),)),
        )

    def predicates(self, name: str, block: BlockBuilder) -> list[Predicate]:
        """The block's predicate; a branch after instructions also gets a
        condition predicate of its own (`NAME_c`), which the block calls."""
        term = block.terminator
        instrs = list(block.instrs)
        if isinstance(term, Branch):
            if all(isinstance(i, Mark) for i in instrs):
                marks = tuple(i.line for i in instrs if isinstance(i, Mark))
                return [self.predicate(name, block, self.branch_rules(term), marks)]
            cond_name = name + "_c"
            uses: set[str] = set()
            expr_uses(term.guard, uses)
            self.params[cond_name] = self.ordered(uses | self.live[term.if_true] | self.live[term.if_false])
            cond = Predicate(cond_name, self.function, self.params[cond_name], self.branch_rules(term),
                             handler=block.handler)
            body: list[Instr] = instrs + [self.goto(cond_name)]
            return [self.predicate(name, block, (Rule(1, None, tuple(body), _lines(instrs)),)), cond]
        if isinstance(term, Jump):
            body = instrs + [self.goto(term.target, term.enters_loop)]
        elif term is None:
            raise AssertionError(f"block {name} has no terminator")
        else:
            body = instrs + [term]
        return [self.predicate(name, block, (Rule(1, None, tuple(body), _lines(instrs)),))]


def silenced(predicates: dict[str, Predicate], *, builtin: bool = False, foreign: bool = False) -> dict[str, Predicate]:
    """The predicates without line marks, so no line event reaches a trace;
    `builtin` (code pathcraft writes: no call or return events either) or
    `foreign` (another file's code, frontend/imports.py) says why."""
    out = {}
    for name, pred in predicates.items():
        rules = tuple(replace(r, body=tuple(i for i in r.body if not isinstance(i, Mark)), lines=())
                      for r in pred.rules)
        out[name] = replace(pred, rules=rules, marks=(), builtin=pred.builtin or builtin,
                            foreign=pred.foreign or foreign)
    return out


NOT_MODELLED = "NotImplementedError"  # raised in a model's plain Python: the model stops there


def not_modelled_drops(predicates: dict[str, Predicate]) -> dict[str, Predicate]:
    """A model's `raise NotImplementedError(why)` as a dropped path naming
    `why` (the engine's `$unsupported`), not an exception of the analysed code."""
    out = {}
    for name, pred in predicates.items():
        rules = tuple(replace(r, body=tuple(replace(i, exc_type=UNSUPPORTED) if isinstance(i, Raise)
                                            and i.exc_type == NOT_MODELLED else i for i in r.body))
                      for r in pred.rules)
        out[name] = replace(pred, rules=rules)
    return out

