"""Terms for a reader: `4*icap + 12`, not a tree of terms.

A term (a symbolic cost, a path constraint) is first simplified under what
the path knows (an input the path's bounds pin to one value becomes that
value; a conditional whose condition the bounds decide is replaced by its
branch: the length of `[0] * icap` is `icap` on a path where `icap > 0`),
then, for costs, put in linear normal form, a constant plus coefficients of
atoms (symbols, or non-linear subterms kept whole). General over terms, so
it lives with them; the cost and test-case code use it.
"""

from __future__ import annotations

from pathcraft.solver import terms as T
from pathcraft.solver.intervals import Bounds, decide
from pathcraft.solver.terms import App, Sym, Term, show


def simplify(t: Term, bounds: Bounds, memo: dict[int, Term] | None = None) -> Term:
    """`t` under `bounds`: pinned inputs replaced by their value, decided
    conditionals by their branch, every node rebuilt (and so folded) by its
    constructor. A shared subterm is simplified once per call (`memo`, by
    identity: a long run's array is a chain of stores sharing its prefix)."""
    if isinstance(t, Sym):
        lo, hi = bounds.get(t.name, (None, None))
        return lo if lo is not None and lo == hi and t.sort == "int" else t
    if not isinstance(t, App):
        return t
    if memo is None:
        memo = {}
    known = memo.get(id(t))
    if known is not None:
        return known
    args = tuple([simplify(a, bounds, memo) for a in t.args])  # a list, not a generator: see terms.value_of
    out: Term
    if t.op == "ite" and (truth := decide(args[0], bounds)) is not None:
        out = args[1] if truth else args[2]
    else:
        out = T.apply(t.op, *args)
    memo[id(t)] = out
    return out


def linear(t: Term) -> tuple[int, dict[Term, int]]:
    """(constant, {atom: coefficient}) with `t == constant + sum(c * atom)`."""
    if isinstance(t, bool):
        return int(t), {}
    if isinstance(t, int):
        return t, {}
    if isinstance(t, App):
        if t.op in ("add", "sub"):
            c1, m1 = linear(t.args[0])
            c2, m2 = linear(t.args[1])
            sign = 1 if t.op == "add" else -1
            out = dict(m1)
            for atom, k in m2.items():
                out[atom] = out.get(atom, 0) + sign * k
            return c1 + sign * c2, {a: k for a, k in out.items() if k}
        if t.op == "neg":
            c, m = linear(t.args[0])
            return -c, {a: -k for a, k in m.items()}
        if t.op == "mul":
            for factor, other in ((t.args[0], t.args[1]), (t.args[1], t.args[0])):
                if isinstance(factor, int) and not isinstance(factor, bool):
                    c, m = linear(other)
                    return factor * c, {a: factor * k for a, k in m.items() if factor * k}
    return 0, {t: 1}


def from_linear(constant: int, coefficients: dict[Term, int]) -> Term:
    total: Term = constant
    for atom, k in sorted(coefficients.items(), key=lambda item: show(item[0])):
        total = T.add(T.mul(k, atom), total)
    return total


def normalize(t: Term, bounds: Bounds) -> Term:
    constant, coefficients = linear(simplify(t, bounds))
    return from_linear(constant, coefficients)


def text(t: Term) -> str:
    """`4*icap + 12`: atoms in name order, the constant last."""
    constant, coefficients = linear(t)
    parts: list[str] = []
    for atom, k in sorted(coefficients.items(), key=lambda item: show(item[0])):
        name = show(atom)
        if not isinstance(atom, Sym):
            name = f"({name})"
        term = name if abs(k) == 1 else f"{abs(k)}*{name}"
        parts.append(("- " if k < 0 else "+ ") + term if parts else ("-" if k < 0 else "") + term)
    if constant or not parts:
        parts.append((f"- {abs(constant)}" if constant < 0 else f"+ {constant}") if parts else str(constant))
    return " ".join(parts)
