"""Class invariants: inputs that satisfy them, and methods that break them.

A free input object may be in a state its class never reaches (a negative
size, a count that disagrees with its list). An invariant the user states
-- a method `def ok(self) -> bool` marked `@invariant` (from
`pathcraft.assume`) or named in `[tool.pathcraft] invariants` -- is
assumed when a method of the class is tested (paths where it does not hold
on `self` at entry are never generated) and checked again when the method
returns: a path that leaves it false is kept, and its test says so.

The check is a wrapper around the target's entry predicate, in the
CLP-translated program itself, so the search prunes on it like on any
guard:

    $inv:T(params)      :- I(self, B0), $inv:T:run(params, B0).
    $inv:T:run(.., B0)  :- B0, T(params, R), $inv:T:exit(R, self).   % no rule when not B0
    $inv:T:exit(R, S)   :- I(S, B1), $inv:T:done(R, B1).  (an exception from I: rule of :raised)
    $inv:T:done(R, B1)  :- B1, return R.   |   not B1, return R.   % rule 2: broken

`I` is a silent copy of the invariant's predicates (builtin: no call or
line events, so a test's claimed path is the method's alone). An invariant
that calls other functions or loops is refused: its copy would not be silent.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace

from pathcraft.errors import PathcraftError
from pathcraft.ir.nodes import (
    EXC_VAR,
    Binary,
    Call,
    CallMethod,
    Const,
    Expr,
    Goto,
    Mark,
    Predicate,
    Program,
    Return,
    Rule,
    Unary,
    Var,
)
from pathcraft.ir.trace import TraceTerm

PREFIX = "$inv:"


@dataclass(frozen=True)
class Checked:
    """The wrapped program, and the names that tell a path's verdict."""

    program: Program
    invariants: tuple[str, ...]
    done: str  # rule 2 of this predicate: the invariant is broken on return
    raised: str  # this predicate ran: the invariant raised on return


def decorated_invariants(tree: ast.Module) -> list[str]:
    """`Class.method` of every method decorated `@invariant`."""
    found = []
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef):
            for item in cls.body:
                if isinstance(item, ast.FunctionDef) and any(
                        (isinstance(d, ast.Name) and d.id == "invariant")
                        or (isinstance(d, ast.Attribute) and d.attr == "invariant") for d in item.decorator_list):
                    found.append(f"{cls.name}.{item.name}")
    return found


def invariants_for(program: Program, qualname: str, named: tuple[str, ...]) -> list[str]:
    """The invariants (qualnames, translated) of the class of method `qualname`."""
    if "." not in qualname:
        return []
    owner, _, method = qualname.partition(".")
    if program.functions[qualname].binding == "static":
        return []  # no instance to check
    chain = program.mro(owner)
    found = [inv for inv in named if inv.split(".")[0] in chain and inv != qualname]
    return sorted(dict.fromkeys(found)) if method != "__init__" else []


def wrap(program: Program, qualname: str, invariants: list[str]) -> Checked:
    """`program` with `qualname`'s entry replaced by the checking wrapper."""
    info = program.functions[qualname]
    me = info.params[0]
    name = PREFIX + info.entry
    predicates = dict(program.predicates)
    checks: list[str] = []
    for invariant in invariants:
        if invariant not in program.functions:
            raise PathcraftError(f"invariant {invariant}() cannot be analysed")
        checks.append(_silent_copy(program, invariant, predicates))
    params = info.params
    tests = tuple(f"$b{i}" for i in range(len(checks)))

    def conjunction(done: list[str]) -> tuple[Call, ...]:
        return tuple(Call(b, check, (Var(me),), 0) for b, check in zip(done, checks))

    entry_ok = _all(tests)
    predicates[name] = Predicate(name, info.qualname, params, (
        Rule(1, None, conjunction(list(tests)) + (Goto(name + ":run", (*map(Var, params), *map(Var, tests))),)),
    ), is_entry=True, builtin=True, handler=name + ":rejected", wrapper=True)
    predicates[name + ":rejected"] = Predicate(name + ":rejected", info.qualname, (EXC_VAR,), (), builtin=True)
    predicates[name + ":run"] = Predicate(name + ":run", info.qualname, (*params, *tests), (
        Rule(1, entry_ok, (Call("$r", info.entry, tuple(map(Var, params)), 0),
                           Goto(name + ":exit", (Var("$r"), Var(me))))),
    ), builtin=True)
    after = tuple(f"$a{i}" for i in range(len(checks)))
    predicates[name + ":exit"] = Predicate(name + ":exit", info.qualname, ("$r", me), (
        Rule(1, None, conjunction(list(after)) + (Goto(name + ":done", (Var("$r"), *map(Var, after))),)),
    ), builtin=True, handler=name + ":raised")
    predicates[name + ":raised"] = Predicate(name + ":raised", info.qualname, ("$r", EXC_VAR), (
        Rule(1, None, (Return(Var("$r"), 0),)),
    ), builtin=True)
    held = _all(after)
    predicates[name + ":done"] = Predicate(name + ":done", info.qualname, ("$r", *after), (
        Rule(1, held, (Return(Var("$r"), 0),)),
        Rule(2, Unary("not", held), (Return(Var("$r"), 0),)),
    ), builtin=True)
    functions = {**program.functions, qualname: replace(info, entry=name)}
    wrapped = replace(program, predicates=predicates, functions=functions)
    return Checked(wrapped, tuple(invariants), name + ":done", name + ":raised")


def verdict(checked: Checked, trace: TraceTerm) -> str | None:
    """'broken' or 'raised' when the path leaves the invariant false (or
    raising) on return; None when it holds or the method raised."""
    for predicate, rule in trace.rules_used():
        if predicate == checked.done and rule == 2:
            return "broken"
        if predicate == checked.raised:
            return "raised"
    return None


def unwrap(checked: Checked, trace: TraceTerm) -> TraceTerm:
    """The target's own trace term inside the wrapper's."""
    stack = [trace]
    while stack:
        term = stack.pop()
        if not term.predicate.startswith(PREFIX):  # the wrapper and the invariant's copies have it
            return term
        stack.extend(reversed(term.children))
    return trace


def _all(tests: tuple[str, ...]) -> Expr:
    """The guard that every check in `tests` returned a true value."""
    guard: Expr = Const(True)
    for test in tests:
        truth = Unary("truth", Var(test))
        guard = truth if guard == Const(True) else Binary("and", guard, truth)
    return guard


def _silent_copy(program: Program, invariant: str, predicates: dict[str, Predicate]) -> str:
    """Copy the invariant's predicates under `$inv:` names, builtin and
    without marks, and return the copy's entry."""
    info = program.functions[invariant]
    own = {p.name: p for p in program.predicates.values() if p.function == invariant}
    rename = {n: PREFIX + n for n in own}
    for pred in own.values():
        if pred.iterates is not None:
            raise PathcraftError(f"invariant {invariant}() has a loop: not supported")
        rules = []
        for rule in pred.rules:
            body = []
            for instr in rule.body:
                if isinstance(instr, Mark):
                    continue
                if isinstance(instr, CallMethod) or isinstance(instr, Call) and \
                        not program.predicates[instr.predicate].builtin and instr.predicate not in own:
                    raise PathcraftError(f"invariant {invariant}() calls other code: not supported")
                if isinstance(instr, Goto):
                    instr = replace(instr, block=rename.get(instr.block, instr.block))
                elif isinstance(instr, Call) and instr.predicate in rename:
                    instr = replace(instr, predicate=rename[instr.predicate])
                body.append(instr)
            rules.append(replace(rule, body=tuple(body)))
        predicates[rename[pred.name]] = replace(
            pred, name=rename[pred.name], rules=tuple(rules), marks=(), builtin=True,
            handler=rename.get(pred.handler, pred.handler) if pred.handler else None)
    return rename[info.entry]
