"""The plan of a construction driver: which driver parameter is which
argument of the constructor, of a setup step's method, or of the target.

Under `--objects constructed` a method target `C.m` is explored through a
synthesized function (the *driver*) that builds `C(...)`, makes up to L
setup calls of public methods, each chosen by a selector parameter, then
calls `m`. The plan is data carried next to the program, so that test-case
code reads the roles of the driver's parameters from here and never from
their names.
"""

from __future__ import annotations

from dataclasses import dataclass

# Predicates without rules: a driver enters one where a path must end
# without a test, because a selector names no method or because a
# constructor or setup call raised (counted apart).
UNREACHABLE_PREDICATE = "$unreachable"
SETUP_RAISED_PREDICATE = "$setup_raised"


@dataclass(frozen=True)
class ArgSlot:
    """Argument `param` of a call takes the driver parameter `driver`."""

    param: str
    driver: str


@dataclass(frozen=True)
class SetupMethod:
    """One method a setup step may call, with the slots of its arguments
    (parameters with a default that the driver does not vary are left out)."""

    method: str
    args: tuple[ArgSlot, ...]


@dataclass(frozen=True)
class SetupStep:
    """Setup call number k: selector value 0 ends the sequence, value j
    calls `methods[j - 1]`."""

    selector: str
    methods: tuple[SetupMethod, ...]


@dataclass(frozen=True)
class DriverPlan:
    """How the driver `driver` reaches target `target` on an object of
    class `cls` built through its API; `call_line` is the driver line of
    the target call and `receiver` the driver variable holding the object."""

    target: str
    driver: str
    cls: str
    constructor: tuple[ArgSlot, ...]
    steps: tuple[SetupStep, ...]
    target_args: tuple[ArgSlot, ...]
    call_line: int
    receiver: str
    source: str  # the driver as Python source (what was lowered)
