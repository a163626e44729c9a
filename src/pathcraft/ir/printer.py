"""Prints a CLP-translated program in Prolog syntax (`pathcraft clp`).

Every predicate has the papers' shape `p(In, Out, Hin, Hout, E, Trace)`:
inputs, the function's result, heaps in and out, the exception flag, and
the trace term `p(k, [T1..Tn])` with one variable per call in the body.
Statement marks are not goals; the lines a rule stands for are shown in a
comment after it.
"""

from __future__ import annotations

from collections.abc import Callable

from pathcraft.ir.nodes import (
    Sentinel,
    Assign,
    Binary,
    BindException,
    Call,
    CallMethod,
    CheckMethod,
    CheckExceptionType,
    Const,
    Expr,
    GetField,
    Goto,
    Guard,
    ListOp,
    Mark,
    NewList,
    NewObject,
    Predicate,
    Program,
    Raise,
    RepeatList,
    Return,
    Rule,
    SetField,
    Text,
    Unary,
    Var,
    Yield,
)

_REL = {"eq": "#=", "ne": "#\\=", "lt": "#<", "le": "#=<", "gt": "#>", "ge": "#>="}
_NEG_REL = {"eq": "ne", "ne": "eq", "lt": "ge", "le": "gt", "gt": "le", "ge": "lt"}
_CONNECTIVE = {"and": "#/\\", "or": "#\\/"}
_ARITH = {"add": "+", "sub": "-", "mul": "*", "floordiv": "//", "mod": "mod"}


def var_name(name: str) -> str:
    """Python variable -> Prolog variable; temporaries `$t7` become `X7`."""
    if name.startswith("$t") and name[2:].isdigit():
        return "X" + name[2:]
    name = name.removeprefix("$")
    return name[:1].upper() + name[1:]


class _Names:
    """Single-assignment names for one rule: a Python variable assigned
    again gets a fresh logic variable (`A`, then `A1`, `A2`, ...)."""

    def __init__(self, params: tuple[str, ...]) -> None:
        self.current = {p: var_name(p) for p in params}
        self.taken = set(self.current.values())

    def use(self, name: str) -> str:
        return self.current.get(name, var_name(name))

    def define(self, name: str) -> str:
        base = var_name(name)
        fresh, n = base, 0
        while fresh in self.taken:
            n += 1
            fresh = f"{base}{n}"
        self.taken.add(fresh)
        self.current[name] = fresh
        return fresh


def expr_text(e: Expr, names: _Names | None = None) -> str:
    names = names or _Names(())
    if isinstance(e, Var):
        return names.use(e.name)
    if isinstance(e, Const):
        if e.value is None:
            return "none"
        if isinstance(e.value, Text):
            return "'<text>'" if e.value.value is None else repr(e.value.value)
        if isinstance(e.value, bool):
            return "1" if e.value else "0"
        if isinstance(e.value, Sentinel):  # an atom of its own: told apart by identity only
            return f"sentinel('{e.value.name}')"
        return str(e.value)
    if isinstance(e, Unary):
        inner = expr_text(e.operand, names)
        if e.op == "neg":
            return f"-{inner}" if isinstance(e.operand, (Var, Const)) else f"-({inner})"
        if e.op == "not":
            if isinstance(e.operand, Binary) and e.operand.op in _NEG_REL:
                return expr_text(Binary(_NEG_REL[e.operand.op], e.operand.left, e.operand.right), names)
            return f"#\\ {inner}" if isinstance(e.operand, (Var, Const)) else f"#\\ ({inner})"
        if e.op.startswith("isa:"):  # `isinstance(x, (A, B))` decided at run time
            return f"is_a({inner},[{e.op[4:]}])"
        return inner
    assert isinstance(e, Binary)
    left, right = expr_text(e.left, names), expr_text(e.right, names)
    if e.op in _REL:
        return f"{left} {_REL[e.op]} {right}"
    if e.op in ("is", "isnot"):
        return f"{'ref_eq' if e.op == 'is' else 'ref_neq'}({left},{right})"
    if e.op in ("and", "or"):
        connective = _CONNECTIVE[e.op]
        return f"({left} {connective} {right})"
    return f"({left} {_ARITH[e.op]} {right})" if e.op in _ARITH else f"{e.op}({left},{right})"


def guard_text(g: Guard, names: _Names) -> str:
    if isinstance(g, CheckExceptionType):
        types = ",".join(f"'{t}'" for t in g.types)
        test = f"exc_instance_of({names.use(g.var)},[{types}])"
        return f"\\+ {test}" if g.negate else test
    if isinstance(g, Binary) and (g.op in _REL or g.op in ("is", "isnot")):
        return expr_text(g, names)
    if isinstance(g, Unary) and g.op == "not" and isinstance(g.operand, Binary) \
            and g.operand.op in ("is", "isnot"):
        flipped = "isnot" if g.operand.op == "is" else "is"
        return expr_text(Binary(flipped, g.operand.left, g.operand.right), names)
    if isinstance(g, Unary) and g.op == "not":
        return expr_text(g, names)
    if isinstance(g, Unary) and g.op == "truth":
        return f"{expr_text(g.operand, names)} #\\= 0"
    return f"{expr_text(g, names)} #\\= 0"


def _args(names: list[str]) -> str:
    return "[" + ",".join(names) + "]"


def rule_text(pred: Predicate, rule: Rule) -> str:
    names = _Names(pred.params)
    params = _args([names.use(p) for p in pred.params])
    goals: list[str] = []
    traces: list[str] = []
    result = "R"
    flag = "E"
    heap = 0
    if rule.guard is not None:
        goals.append(guard_text(rule.guard, names))
    for instr in rule.body:
        if isinstance(instr, Mark):
            continue
        if isinstance(instr, Assign):
            value = expr_text(instr.value, names)
            goals.append(f"{names.define(instr.target)} #= {value}")
        elif isinstance(instr, BindException):
            goals.append(f"{names.define(instr.target)} = Exc")
        elif isinstance(instr, Call):
            trace = f"T{len(traces) + 1}"
            traces.append(trace)
            args = _args([expr_text(a, names) for a in instr.args])
            out = names.define(instr.target) if instr.target else "_"
            goals.append(f"{instr.predicate}({args},[{out}],H{heap},H{heap + 1},ok,{trace})")
            heap += 1
        elif isinstance(instr, (NewObject, GetField, SetField, NewList, RepeatList, ListOp)):
            goals.append(_heap_goal(instr, names, heap))
            heap += 1
        elif isinstance(instr, CheckMethod):
            goals.append(f"has_method({expr_text(instr.obj, names)},{instr.method},H{heap})")
        elif isinstance(instr, CallMethod):
            trace = f"T{len(traces) + 1}"
            traces.append(trace)
            args = _args([*(expr_text(a, names) for a in (instr.obj, *instr.args)), *_keywords(instr, names)])
            out = names.define(instr.target) if instr.target else "_"
            goals.append(f"invoke({instr.method},{args},[{out}],H{heap},H{heap + 1},ok,{trace})")
            heap += 1
        elif isinstance(instr, Goto):
            trace = f"T{len(traces) + 1}"
            traces.append(trace)
            args = _args([expr_text(a, names) for a in instr.args])
            goals.append(f"{instr.block}({args},[R],H{heap},Hout,E,{trace})")
            heap = -1
        elif isinstance(instr, Yield):  # the frame suspends here: the value goes to the resumer
            goals.append(f"yield({expr_text(instr.value, names)},H{heap})")
        elif isinstance(instr, Return):
            goals.append(f"R #= {expr_text(instr.value, names)}")
            flag = "ok"
        elif isinstance(instr, Raise):
            if instr.reraise:
                goals.append(f"E = {names.use(instr.reraise)}")
            else:
                goals.append(f"E = exc('{instr.exc_type}')")
            result = "_"
    heap_out = "Hout" if heap == -1 else f"H{heap}"
    head = f"{pred.name}({params},[{result}],H0,{heap_out},{flag},{pred.name}({rule.index},{_args(traces)}))"
    text = head + (" :-\n    " + ",\n    ".join(goals) + "." if goals else ".")
    if rule.lines:
        text += f"   % line{'s' if len(rule.lines) > 1 else ''} {', '.join(map(str, rule.lines))}"
    return text


def _heap_goal(instr: object, names: _Names, heap: int) -> str:
    """The heap operations of paper 003's grammar, threading H_i -> H_i+1."""
    h0, h1 = f"H{heap}", f"H{heap + 1}"

    def e(x: Expr) -> str:
        return expr_text(x, names)

    if isinstance(instr, NewObject):
        return f"new_object({h0},'{instr.cls}',{names.define(instr.target)},{h1})"
    if isinstance(instr, GetField):
        obj = e(instr.obj)
        return f"get_field({h0},{obj},{instr.field},{names.define(instr.target)},{h1})"
    if isinstance(instr, SetField):
        return f"set_field({h0},{e(instr.obj)},{instr.field},{e(instr.value)},{h1})"
    if isinstance(instr, NewList):
        items = _args([e(i) for i in instr.items])
        maker = "new_tuple" if instr.is_tuple else "new_array"
        return f"{maker}({h0},{items},{names.define(instr.target)},{h1})"
    if isinstance(instr, RepeatList):
        value, count = e(instr.value), e(instr.count)
        return f"new_array({h0},{count},{value},{names.define(instr.target)},{h1})"
    assert isinstance(instr, ListOp)
    lst = e(instr.lst)
    args = [e(a) for a in instr.args]
    out = names.define(instr.target) if instr.target else "_"
    if instr.op in ("len", "iter"):
        return f"length({h0},{lst},{out},{h1})"
    if instr.op == "get":
        return f"get_elem({h0},{lst},{args[0]},{out},{h1})"
    if instr.op == "set":
        return f"set_elem({h0},{lst},{args[0]},{args[1]},{h1})"
    return f"list_{instr.op}({h0},{lst},{_args(args)},{out},{h1})"


def abstract_rule_text(pred: Predicate, rule: Rule) -> str:
    """The rule's trace abstraction (paper 001, Def. 6): its calls, each with
    only its trace argument. A method call is dispatched on the receiver's
    class at run time, so it stays `invoke(method, T)`."""
    calls: list[str] = []
    for instr in rule.body:
        trace = f"T{len(calls) + 1}"
        if isinstance(instr, Call):
            calls.append(f"{instr.predicate}({trace})")
        elif isinstance(instr, Goto):
            calls.append(f"{instr.block}({trace})")
        elif isinstance(instr, CallMethod):
            calls.append(f"invoke({instr.method},{trace})")
    head = f"{pred.name}({pred.name}({rule.index},{_args([f'T{i + 1}' for i in range(len(calls))])}))"
    return head + (" :- " + ", ".join(calls) + "." if calls else ".")


def predicate_text(pred: Predicate, abstraction: bool = False) -> str:
    if abstraction:
        notes = [f"% a call that raises ends the list, then {pred.handler}'s trace follows"] if pred.handler else []
        return "\n".join(notes + [abstract_rule_text(pred, r) for r in pred.rules])
    notes = []
    if pred.marks:
        notes.append(f"% entry executes line {', '.join(map(str, pred.marks))}")
    if pred.handler:
        notes.append(f"% exceptions raised in its body go to {pred.handler}")
    if pred.iterates:
        notes.append(f"% one iteration of {pred.iterates}")
    return "\n".join(notes + [rule_text(pred, r) for r in pred.rules])


def program_text(program: Program, functions: list[str] | None = None, builtins: bool = True,
                 abstraction: bool = False) -> str:
    """The program in Prolog syntax; with `abstraction`, its trace
    abstraction (each rule reduced to its calls and trace terms)."""
    chunks: list[str] = []
    if abstraction:
        chunks.append("% trace abstraction: a call that raises ends its rule's list of traces early")
    wanted = functions if functions is not None else list(program.functions)
    for qualname in wanted:
        chunks.append(f"% ---- {qualname}")
        for pred in program.predicates_of(qualname):
            chunks.append(predicate_text(pred, abstraction))
    if builtins:
        def calls(preds: list[Predicate]) -> set[str]:
            return {i.predicate for p in preds for r in p.rules for i in r.body if isinstance(i, Call)}

        # the builtins the program's own code calls, and those they call in turn
        used = calls([p for p in program.predicates.values() if not p.builtin])
        frontier = used
        while frontier:
            frontier = calls([program.predicates[n] for n in frontier if n in program.predicates]) - used
            used |= frontier
        shown = [p for p in program.predicates.values() if p.builtin and p.name in used and p.rules]  # natives: none
        if shown:
            chunks.append("% ---- builtins")
            chunks.extend(predicate_text(p, abstraction) for p in shown)
    return "\n\n".join(chunks) + "\n"



def refined_rule_text(program: Program, pred: Predicate, rule: Rule, static_of: Callable[[str], frozenset[str]],
                      fields: frozenset[str],
                      method_args: Callable[[CallMethod], list[Expr]]) -> str:
    """The rule in the trace abstraction refined by instantiation modes
    (paper 001, §6.2): its static parameters, the guard when every variable
    in it is static, the arithmetic and the static fields over static
    variables, and its calls with the static parameters they pass."""
    static = static_of(pred.name)
    names = _Names(tuple(p for p in pred.params if p in static))
    goals: list[str] = []

    def known(e: Expr | None) -> bool:
        return e is not None and all(v in static for v in _expr_names(e))

    if rule.guard is not None and not isinstance(rule.guard, CheckExceptionType) and known(rule.guard):
        goals.append(guard_text(rule.guard, names))
    calls = 0
    for instr in rule.body:
        if isinstance(instr, (Call, Goto)):
            calls += 1
            callee = instr.block if isinstance(instr, Goto) else instr.predicate
            kept = static_of(callee)
            args = [expr_text(a, names) for p, a in zip(program.predicate(callee).params, instr.args) if p in kept]
            goals.append(f"{callee}({_args(args)},T{calls})")
        elif isinstance(instr, CallMethod):
            calls += 1
            args = [expr_text(a, names) for a in method_args(instr)]
            goals.append(f"invoke({instr.method},{_args(args)},T{calls})")
        elif isinstance(instr, Assign) and instr.target in static:
            value = expr_text(instr.value, names)
            goals.append(f"{names.define(instr.target)} #= {value}")
        elif isinstance(instr, NewObject) and instr.target in static:
            goals.append(f"new_object('{instr.cls}',{names.define(instr.target)})")
        elif isinstance(instr, GetField) and instr.target in static:
            obj = expr_text(instr.obj, names)
            goals.append(f"get_field({obj},{instr.field},{names.define(instr.target)})")
        elif isinstance(instr, SetField) and instr.field in fields and known(instr.obj) and known(instr.value):
            goals.append(f"set_field({expr_text(instr.obj, names)},{instr.field},{expr_text(instr.value, names)})")
    params = [var_name(p) for p in pred.params if p in static]
    head = f"{pred.name}({_args(params)},{pred.name}({rule.index},{_args([f'T{i + 1}' for i in range(calls)])}))"
    return head + (" :-\n    " + ",\n    ".join(goals) + "." if goals else ".")


def _expr_names(e: object) -> set[str]:
    if isinstance(e, Var):
        return {e.name}
    if isinstance(e, Unary):
        return _expr_names(e.operand)
    if isinstance(e, Binary):
        return _expr_names(e.left) | _expr_names(e.right)
    return set()


def _keywords(instr: CallMethod, names: _Names) -> list[str]:
    """A method call's keyword arguments, `name=Value`."""
    return [f"{k}={expr_text(v, names)}" for k, v in instr.keywords]
