"""The registry of Python models: what the engine asks when an instruction
meets a value of a builtin kind or a call of a builtin predicate.

A `Model` gathers the engine-side semantics of one Python type or stdlib
module and says what it models: value kinds (`engine/values.py:
value_kind`, "dict", "tuple", ...) and builtin predicates (`int_mod`,
`$dict`, ...). The engine looks a model up by the instruction and the
kind of the value it meets, so it never names a type itself; solver
theories (`solver/`) and heap cells (`heap/`) stay below as services the
models call. The models' frontend halves (prelude code, lowering rules)
are found by the frontend; a model module may hold them too
(`models/namedtuple/semantics.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from pathcraft.engine.machine import Machine, Successors
from pathcraft.engine.state import Frame, State
from pathcraft.engine.values import Value
from pathcraft.ir.builtin_names import method_predicate
from pathcraft.ir.nodes import Call, CallMethod, GetField, ListOp, Predicate, Program, SetField

# `recv.m(args)` on a value of the model's kind; None: not answered here
MethodHook = Callable[[Machine, State, Frame, CallMethod, Value, tuple[Value, ...]], Successors | None]
# no prelude predicate `$kind.m`: another predicate to enter, the successors, or None (dropped path)
MissingHook = Callable[[Machine, State, str], str | Successors | None]
# does the value (its heap cell given) have the method, besides its prelude predicates?
HasMethod = Callable[[object, str], bool]
# `len`, `get`, `set`, ... on a value of the kind (its subject given)
ListOpHook = Callable[[Machine, State, Frame, ListOp, Value], Successors | None]
# `x.f` / `x.f = v` on a value of the kind
FieldHook = Callable[[Machine, State, Frame, GetField | SetField, Value], Successors | None]
# a builtin predicate's call, its arguments evaluated: the successors, the predicate to enter instead, or None
CallHook = Callable[[Machine, State, Frame, Call, Predicate, list[Value]], Successors | Predicate | None]
# a literal or constructor the model makes itself (before the domain conditions of its arguments)
BuildHook = Callable[[Machine, State, Frame, Call, list[Value]], Successors]
# a check on a list operation whatever the value's kind (a dict's loop shape on what is no dict)
GuardHook = Callable[[ListOp], None]


@dataclass(frozen=True)
class Model:
    """The engine-side semantics of one Python type or module."""

    name: str
    kinds: tuple[str, ...] = ()  # value kinds it answers for
    method: MethodHook | None = None
    missing: MissingHook | None = None
    has_method: HasMethod | None = None
    list_op: ListOpHook | None = None
    attribute: FieldHook | None = None
    list_guard: GuardHook | None = None
    builds: Mapping[str, BuildHook] = field(default_factory=dict)  # by predicate name
    calls: Mapping[str, CallHook] = field(default_factory=dict)  # by predicate name


class Registry:
    """Models indexed by what they model; a call's hooks in the order the
    models were registered (an operand check before a rewrite)."""

    def __init__(self, models: Iterable[Model]) -> None:
        self.models = tuple(models)
        by_kind: dict[str, Model] = {}
        builds: dict[str, BuildHook] = {}
        calls: dict[str, list[CallHook]] = {}
        for model in self.models:
            for kind in model.kinds:
                assert kind not in by_kind, f"two models of {kind}"
                by_kind[kind] = model
            builds.update(model.builds)
            for name, hook in model.calls.items():
                calls.setdefault(name, []).append(hook)
        self.by_kind = MappingProxyType(by_kind)
        self.builds = MappingProxyType(builds)
        self.calls = MappingProxyType({name: tuple(hooks) for name, hooks in calls.items()})
        self.guards = tuple(m.list_guard for m in self.models if m.list_guard is not None)

    def of_kind(self, kind: str | None) -> Model | None:
        return self.by_kind.get(kind) if kind is not None else None

    def has_method(self, program: Program, kind: str, cell: object, method: str) -> bool:
        """Does a value of `kind` have `method`: a prelude predicate, or one its model runs?"""
        from_model = self.of_kind(kind)
        return method_predicate(kind, method) in program.predicates or from_model is not None \
            and from_model.has_method is not None and from_model.has_method(cell, method)

    def call_hooks(self, predicate: str) -> tuple[CallHook, ...]:
        return self.calls.get(predicate, ())
