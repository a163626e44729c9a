"""Resource policies: which test cases to keep, by what they cost.

* `COST OP N` (`memory>48`, `steps<=200`, `calls:Vector.realloc>=2`): keep a
  test case when the policy can hold on its path. A symbolic cost satisfies
  it where the policy is satisfiable together with the path constraint; the
  test's inputs are then chosen to satisfy it. Upper bounds (`<`, `<=`) also
  prune paths during the search as soon as their cost is already over.
* `worst:COST`: only the most expensive test case(s); a symbolic cost that
  can exceed every constant one wins, with the condition that makes it so
  (`icap > 9`).
* `top:N:COST`: the N most expensive test cases, by their cost at the
  chosen inputs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from pathcraft.cost.models import check_cost_name
from pathcraft.errors import PathcraftError
from pathcraft.solver import terms as T
from pathcraft.solver.simplify import linear, text
from pathcraft.solver.terms import Sym, Term

_OPS = {">": "gt", ">=": "ge", "<": "lt", "<=": "le", "==": "eq", "!=": "ne"}
_THRESHOLD = re.compile(r"^\s*([A-Za-z_][\w:.]*)\s*(>=|<=|==|!=|>|<)\s*(-?\d+)\s*$")


@dataclass(frozen=True)
class Threshold:
    cost: str
    op: str
    bound: int

    def condition(self, value: Term) -> Term:
        return T.relation(self.op, value, self.bound)

    @property
    def is_upper_bound(self) -> bool:
        return self.op in ("lt", "le")


@dataclass(frozen=True)
class Worst:
    cost: str


@dataclass(frozen=True)
class Top:
    n: int
    cost: str


Policy = Union[Threshold, Worst, Top]


def parse_policy(text_: str) -> Policy:
    source = text_.strip()
    if source.startswith("worst:"):
        return Worst(check_cost_name(source[len("worst:"):]))
    if source.startswith("top:"):
        _, n, cost = (source.split(":", 2) + ["", ""])[:3]
        if not n.isdigit() or int(n) < 1:
            raise PathcraftError(f"bad policy '{text_}': expected top:N:COST with N >= 1")
        return Top(int(n), check_cost_name(cost))
    match = _THRESHOLD.match(source)
    if not match:
        raise PathcraftError(
            f"bad policy '{text_}': expected COST OP N (memory>48, steps<=200, calls:f>=2), "
            "worst:COST or top:N:COST"
        )
    return Threshold(check_cost_name(match.group(1)), _OPS[match.group(2)], int(match.group(3)))


def exceed_condition(cost: Term, bound: int) -> str:
    """`cost > bound` stated on the one input it depends on, when it is
    linear in it (`8*icap + 24 > 96` -> `icap > 9`)."""
    constant, coefficients = linear(cost)
    if len(coefficients) == 1:
        (atom, k), = coefficients.items()
        if isinstance(atom, Sym) and k > 0:
            # k*x + c > b  <=>  x > (b - c) / k  <=>  x > floor((b - c) / k) for integers
            return f"{atom.name} > {(bound - constant) // k}"
    return f"{text(cost)} > {bound}"
