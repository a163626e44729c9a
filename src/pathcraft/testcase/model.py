"""Test cases: a path of the symbolic execution made concrete.

Concretization picks input values from the model of the path constraints,
preferring small ones, and computes the expected outcome by evaluating the
path's symbolic result at those inputs: nothing of the analysed code runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from pathcraft.engine.engine import Path
from pathcraft.engine.values import ExcValue
from pathcraft.solver.terms import BOOL, Sym, Term, evaluate, show
from pathcraft.testcase.pathsig import Event, normalize

SMALL = 10


@dataclass(frozen=True)
class TestCase:
    name: str
    qualname: str
    inputs: tuple[tuple[str, int | bool], ...]
    kind: str  # "return" | "raise"
    value: int | bool | None = None
    exc_type: str | None = None
    exc_message: str | None = None
    trace: str = ""
    constraints: tuple[str, ...] = ()
    path: tuple[Event, ...] = ()
    steps: int = 0
    extra: Mapping[str, Any] = field(default_factory=dict)

    def outcome_json(self) -> dict[str, Any]:
        if self.kind == "return":
            return {"kind": "return", "value": self.value}
        return {"kind": "raise", "type": self.exc_type, "message": self.exc_message}

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "function": self.qualname,
            "inputs": dict(self.inputs),
            "outcome": self.outcome_json(),
            "trace": self.trace,
            "constraints": list(self.constraints),
            "path": [list(e) for e in self.path],
            "steps": self.steps,
        }


SmallModel = Callable[[Path, list[Sym]], "Mapping[str, int | bool] | None"]


def concretize(path: Path, name: str, small_model: SmallModel | None = None) -> TestCase:
    model: Mapping[str, int | bool] = path.model
    if small_model is not None and any(
        isinstance(v, int) and not isinstance(v, bool) and abs(v) > SMALL for v in model.values()
    ):
        better = small_model(path, list(path.inputs))
        if better is not None:
            model = better
    inputs = tuple((s.name, _value(s, model)) for s in path.inputs)
    outcome = path.outcome
    common = dict(
        name=name,
        qualname=path.function.qualname,
        inputs=inputs,
        trace=str(path.trace),
        constraints=tuple(_unique(show(c) for c in path.constraints)),
        path=normalize(path.events),
        steps=path.steps,
    )
    if outcome.kind == "raise":
        exc = outcome.value
        assert isinstance(exc, ExcValue)
        return TestCase(kind="raise", exc_type=exc.type, exc_message=exc.message, **common)  # type: ignore[arg-type]
    value = outcome.value
    concrete = None if value is None else evaluate(value, model)  # type: ignore[arg-type]
    return TestCase(kind="return", value=concrete, **common)  # type: ignore[arg-type]


def _value(sym: Sym, model: Mapping[str, int | bool]) -> int | bool:
    value = model.get(sym.name)
    if sym.sort == BOOL:
        return bool(value)
    return int(value or 0)


def _unique(items: Any) -> list[str]:
    return list(dict.fromkeys(items))


def term_text(t: Term) -> str:
    return show(t)
