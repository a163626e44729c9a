"""Cost models: what executing a path of the CLP-translated program costs.

Costs are summed over the trace of a test case (Definition 4 of the
resource-aware TDG paper) while the engine runs, and may stay symbolic
when they depend on an input (a list of length `icap`):

* `steps`: derivation steps plus executed instructions of the
  CLP-translated program. One rule application is one step; every goal of a
  rule body that runs is one step (assignment, call, heap operation,
  return, raise); statement marks are free. The unit is stable across
  releases: it changes only with the CLP translation.
* `memory`: bytes allocated by object and list creation under an explicit
  size model (default: the paper's 4 bytes per int, bool or reference slot;
  an object is the sum of its declared fields, a list is one slot per
  element; `append` adds one slot, `copy` allocates a new list). Nothing is
  ever freed (no garbage collection is simulated).
* `calls`: invocations of the module's functions and methods, the call of
  the function under test included; `calls:NAME` counts one of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from pathcraft.errors import PathcraftError
from pathcraft.ir.nodes import Program
from pathcraft.solver import terms as T
from pathcraft.solver.terms import Sym, Term

COST_NAMES = ("steps", "memory", "calls")


@dataclass(frozen=True)
class SizeModel:
    slot: int = 4  # bytes per int, bool or reference field / list element
    object_header: int = 0
    list_header: int = 0

    def object_size(self, program: Program, cls: str) -> int:
        fields = {name for klass in program.mro(cls) for name, _ in program.classes[klass].fields}
        return self.object_header + self.slot * len(fields)

    def list_size(self, length: Term) -> Term:
        return T.add(self.list_header, T.mul(self.slot, length))


def parse_size_model(text: str) -> SizeModel:
    """`slot=4,object_header=0,list_header=0` (any subset)."""
    values: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, number = part.partition("=")
        if not sep or key not in ("slot", "object_header", "list_header") or not number.isdigit():
            raise PathcraftError(f"bad size model '{text}': expected slot=N,object_header=N,list_header=N")
        values[key] = int(number)
    return SizeModel(**values)


@dataclass(frozen=True)
class Costs:
    """Costs accumulated along one path (immutable, shared by forks). Every
    count is a term, so that a summary of a call can carry a cost that
    depends on its arguments."""

    steps: Term = 0
    memory: Term = 0
    calls: Mapping[str, Term] = field(default_factory=dict)

    def step(self, n: Term = 1) -> Costs:
        return Costs(T.add(self.steps, n), self.memory, self.calls)

    def allocate(self, size: Term) -> Costs:
        return Costs(self.steps, T.add(self.memory, size), self.calls)

    def call(self, function: str, n: Term = 1) -> Costs:
        return Costs(self.steps, self.memory, {**self.calls, function: T.add(self.calls.get(function, 0), n)})

    def plus(self, other: Costs) -> Costs:
        """These costs followed by `other`'s (a callee's, say)."""
        calls = dict(self.calls)
        for function in sorted(other.calls):
            calls[function] = T.add(calls.get(function, 0), other.calls[function])
        return Costs(T.add(self.steps, other.steps), T.add(self.memory, other.memory), calls)

    def substitute(self, mapping: Mapping[Sym, Term]) -> Costs:
        """Every cost with `mapping` applied (see `terms.substitute`)."""
        return Costs(T.substitute(self.steps, mapping), T.substitute(self.memory, mapping),
                     {f: T.substitute(n, mapping) for f, n in self.calls.items()})

    def get(self, name: str) -> Term:
        if name == "steps":
            return self.steps
        if name == "memory":
            return self.memory
        if name == "calls":
            total: Term = 0
            for function in sorted(self.calls):  # a symbolic sum must not depend on the order of calls
                total = T.add(total, self.calls[function])
            return total
        if name.startswith("calls:"):
            return self.calls.get(name[len("calls:"):], 0)
        raise KeyError(name)


_COST_NAME = re.compile(r"^(steps|memory|calls)(:[A-Za-z_][\w.]*)?$")


def check_cost_name(name: str) -> str:
    match = _COST_NAME.match(name)
    if not match or (match.group(2) and match.group(1) != "calls"):
        raise PathcraftError(f"unknown cost '{name}': expected steps, memory, calls or calls:NAME")
    return name


def parse_cost_list(text: str) -> list[str]:
    names = [check_cost_name(n.strip()) for n in text.split(",") if n.strip()]
    if not names:
        raise PathcraftError("--costs needs at least one of steps, memory, calls, calls:NAME")
    return names
