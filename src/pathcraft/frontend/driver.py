"""Construction drivers (`--objects constructed`): reach a method's object
only through the class's API.

For a target `C.m` we write, as Python source, a function whose parameters
are the constructor's arguments, one selector per setup step with the
arguments of every candidate method, and the target's own arguments:

    def construct_C_m(init_n, step1, step1_push_v, step2, step2_push_v, x):
        try:
            self = C(init_n)
            if step1 == 0:
                pass
            else:
                if step1 == 1:
                    self.push(step1_push_v)
                else:
                    __pathcraft_unreachable__()
                if step2 == 0:
                    ...
        except BaseException:
            __pathcraft_setup_raised__()
        return self.m(x)

and lower it like any other function (nothing runs). A later step exists
only when the earlier one happened, so no sequence is explored twice. A
constructor or setup call that raises reaches the handler, whose call of a
predicate without rules ends the path: a state the API does not reach that
way gives no test. Only the target call's outcome is tested.

Setup methods are the public methods of the class (inherited ones too)
that may change the object (`frontend.mutation`), whose parameters the
driver can vary (ints and bools; a parameter with a default may be left to
it), and that translate. The target itself is one of them when it changes
the object: some states only it makes (a ring buffer's wrap-around needs a
dequeue before the dequeue under test).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pathcraft.errors import PathcraftError
from pathcraft.frontend.mutation import may_mutate
from pathcraft.ir.driver import (
    SETUP_RAISED_PREDICATE,
    UNREACHABLE_PREDICATE,
    ArgSlot,
    DriverPlan,
    SetupMethod,
    SetupStep,
)
from pathcraft.ir.nodes import FunctionInfo, Predicate
from pathcraft.ir.types import INT, Type

if TYPE_CHECKING:  # the Frontend imports this module when asked for drivers
    from pathcraft.frontend import Frontend

UNREACHABLE = "__pathcraft_unreachable__"  # the names the driver calls to end a path
SETUP_RAISED = "__pathcraft_setup_raised__"
SUFFIX = "#constructed"


class DriverRefused(Exception):
    """The class cannot be built through its API by a driver: why."""


@dataclass(frozen=True)
class _Callee:
    """A constructor or method the driver calls, and the parameters it varies."""

    name: str
    params: tuple[tuple[str, Type], ...]


def driver_qualname(target: str) -> str:
    return target + SUFFIX


def add_drivers(frontend: Frontend, targets: list[str], setup_calls: int) -> None:
    """A driver for every method target; a refusal is recorded with its
    reason. A method only a driver tried to translate (a setup candidate,
    or one its calls may dispatch to) and could not is left out of the
    frontend's errors: it is no target, and a driver path reaching it is
    dropped like any path reaching a method that cannot be analysed."""
    known = set(frontend.errors)
    for target in targets:
        if "." not in target:
            continue  # a function has no object of its own to build
        try:
            frontend.drivers[target] = add_driver(frontend, target, setup_calls)
        except DriverRefused as refused:
            frontend.driver_refusals[target] = str(refused)
    for qualname in set(frontend.errors) - known:
        del frontend.errors[qualname]


def add_driver(frontend: Frontend, target: str, setup_calls: int) -> DriverPlan:
    """Synthesize, register and translate the driver of `target`."""
    cls, _, method = target.partition(".")
    if method == "__init__":
        raise DriverRefused("the constructor itself is the target")
    info = frontend.signatures[target]
    if info.binding:
        raise DriverRefused("a static or class method: its test calls it on the class" if info.binding == "static"
                            else "a property: its test reads it from an object")
    constructor = _constructor(frontend, cls)
    methods = _setup_methods(frontend, cls) if setup_calls > 0 else []
    own = list(zip(info.params[1:], info.param_types[1:]))
    names = _Names({p for p, _ in own} | {cls, UNREACHABLE, SETUP_RAISED})
    receiver = names.fresh("self")

    params: list[tuple[str, Type]] = []
    ctor_slots = []
    for param, kind in constructor.params:
        ctor_slots.append(ArgSlot(param, names.fresh(f"init_{param}")))
        params.append((ctor_slots[-1].driver, kind))
    steps = []
    for k in range(1, setup_calls + 1 if methods else 1):
        selector = names.fresh(f"step{k}")
        params.append((selector, INT))
        options = []
        for callee in methods:
            slots = tuple(ArgSlot(p, names.fresh(f"step{k}_{callee.name}_{p}")) for p, _ in callee.params)
            params.extend((slot.driver, kind) for slot, (_, kind) in zip(slots, callee.params))
            options.append(SetupMethod(callee.name, slots))
        steps.append(SetupStep(selector, tuple(options)))
    target_slots = tuple(ArgSlot(p, p) for p, _ in own)
    params.extend(own)

    source, call_line = _source(target, receiver, params, ctor_slots, steps, target_slots)
    fn = ast.parse(source).body[0]
    assert isinstance(fn, ast.FunctionDef)
    qualname = driver_qualname(target)
    for intrinsic, predicate in ((UNREACHABLE, UNREACHABLE_PREDICATE), (SETUP_RAISED, SETUP_RAISED_PREDICATE)):
        frontend.intrinsic(intrinsic, Predicate(predicate, predicate, (), (), builtin=True))
    frontend.define(FunctionInfo(
        name=fn.name, qualname=qualname, params=tuple(p for p, _ in params),
        param_types=tuple(t for _, t in params), return_type=None, defaults=(),
        lineno=1, end_lineno=call_line, entry=f"{cls}_{method}__constructed",
    ), fn)
    frontend.translate(qualname)
    error = frontend.errors.pop(qualname, None)
    if error is not None:
        raise DriverRefused(f"the driver cannot be analysed: {error.message}")
    return DriverPlan(target, qualname, cls, tuple(ctor_slots), tuple(steps), target_slots, call_line,
                      receiver, source)


def _source(target: str, receiver: str, params: list[tuple[str, Type]], ctor: list[ArgSlot],
            steps: list[SetupStep], target_args: tuple[ArgSlot, ...]) -> tuple[str, int]:
    """The driver's source, and the line of its target call."""
    cls, _, method = target.partition(".")
    lines = [f"def construct_{cls}_{method}({', '.join(p for p, _ in params)}):",
             "    try:",
             f"        {receiver} = {cls}({', '.join(s.driver for s in ctor)})"]
    indent = " " * 8
    for step in steps:
        lines += [f"{indent}if {step.selector} == 0:", f"{indent}    pass", f"{indent}else:"]
        indent += "    "
        for j, option in enumerate(step.methods, start=1):
            arguments = ", ".join(s.driver for s in option.args)
            lines += [f"{indent}{'if' if j == 1 else 'elif'} {step.selector} == {j}:",
                      f"{indent}    {receiver}.{option.method}({arguments})"]
        lines += [f"{indent}else:", f"{indent}    {UNREACHABLE}()"]
    lines += ["    except BaseException:", f"        {SETUP_RAISED}()",
              f"    return {receiver}.{method}({', '.join(s.driver for s in target_args)})"]
    return "\n".join(lines) + "\n", len(lines)


def _constructor(frontend: Frontend, cls: str) -> _Callee:
    """`cls(...)`: its `__init__` (inherited too), or none (no arguments).
    A class without one whose declared fields have no class default is a
    record its users fill in from outside: the free objects are its API."""
    current: str | None = cls
    unset: list[str] = []
    while current is not None:
        info = frontend.module.class_infos.get(current)
        if info is None:
            break
        defaults = {name for name, _ in info.defaults}
        unset += [name for name, _ in info.fields if name not in defaults]
        if "__init__" in info.methods:
            qualname = f"{current}.__init__"
            problem = _analysable(frontend, qualname)
            if problem is not None:
                raise DriverRefused(f"{qualname} cannot be analysed: {problem}")
            varied = _varied(frontend.signatures[qualname])
            if varied is None:
                raise DriverRefused(f"{qualname} takes an argument other than an int or a bool")
            return _Callee("__init__", varied)
        current = info.base
    if unset:
        raise DriverRefused(f"{cls} has no __init__ and its fields ({', '.join(unset)}) are set from outside")
    return _Callee("__init__", ())


def _setup_methods(frontend: Frontend, cls: str) -> list[_Callee]:
    """Public methods that may change the object and that the driver can call."""
    out: list[_Callee] = []
    seen: set[str] = set()
    current: str | None = cls
    while current is not None and current in frontend.module.class_infos:
        info = frontend.module.class_infos[current]
        for name in info.methods:
            if name.startswith("_") or name in seen:
                continue
            seen.add(name)
            qualname = f"{current}.{name}"
            if name in info.properties or _analysable(frontend, qualname) is not None \
                    or frontend.signatures[qualname].binding or not may_mutate(frontend.module, cls, name):
                continue
            varied = _varied(frontend.signatures[qualname])
            if varied is not None:
                out.append(_Callee(name, varied))
        current = info.base
    return out


def _analysable(frontend: Frontend, qualname: str) -> str | None:
    """Why `qualname` cannot be called by a driver, if it cannot."""
    if qualname in frontend.signature_errors:
        return frontend.signature_errors[qualname].message
    frontend.translate(qualname)
    error: PathcraftError | None = frontend.errors.get(qualname)
    return error.message if error is not None else None


def _varied(info: FunctionInfo) -> tuple[tuple[str, Type], ...] | None:
    """The parameters (after `self`) a driver passes: ints and bools, up to
    the first other one that has a default (it and the rest keep theirs);
    None if a parameter of another type has no default."""
    defaults = {name for name, _ in info.defaults}
    out = []
    for name, kind in zip(info.params[1:], info.param_types[1:]):
        if kind.kind in ("int", "bool") and not kind.optional:
            out.append((name, kind))
        elif name in defaults:
            break
        else:
            return None
    return tuple(out)


class _Names:
    """Fresh parameter names for the driver, none taken twice."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = set(taken)

    def fresh(self, base: str) -> str:
        name, n = base, 1
        while name in self.taken:
            n += 1
            name = f"{base}_{n}"
        self.taken.add(name)
        return name
