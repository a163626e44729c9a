"""A persistent store of summaries: one JSON file per summary, never pickle.

A file is named by the hash of everything the summary depends on: the
pathcraft version and the hash of its source (`fingerprint`), the
criterion, the heap model and list bound, the callee, its argument sorts
(an object's: its class and declared fields), and the code of every
predicate its run can enter (its own blocks, the functions it calls,
transitively, the builtins, and every method when the code works on
objects). The tests of a function under test are kept here too
(testcase/stored.py). Editing the callee or anything it calls gives another name, so a
stale summary is never found; the key is stored in the file too and checked
on load. A file that cannot be read back (truncated, edited, another store
version) is reported in one line and the summary computed again.

Terms share subterms, and traces nest as deep as calls do: both are
written as flat tables (each node after its children), so neither the
file nor the reader grows with the nesting.
"""

from __future__ import annotations

import hashlib
import json
import os
import weakref
from dataclasses import dataclass
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from pathcraft.fingerprint import fingerprint
from pathcraft.cost.models import Costs
from pathcraft.engine.state import Outcome
from pathcraft.ir.nodes import (Call, CallMethod, CheckMethod, GetField, Goto, ListOp, NewObject, Predicate, Program,
                                SetField)
from pathcraft.ir.trace import TraceTerm
from pathcraft.ir.values import ExcValue
from pathcraft.solver.terms import App, Sym, Term

STORE_VERSION = 3  # 2: summaries of calls on an object (its fields in, its writes out); 3: dispatch in the key
T = TypeVar("T")


class BadStoreFile(Exception):
    """A store file that does not hold the summary its name promises."""


@dataclass(frozen=True)
class Reach:
    """The predicates a run can enter, and the hash of their code."""

    names: frozenset[str]
    digest: str


def code_hash(program: Program, predicate: str) -> str:
    return reachable(program, predicate).digest


def walk_code(program: Program, start: str, follow: Callable[[object], Iterable[str]]) -> Iterator[Predicate]:
    """Each predicate a run of `start` can enter, once: by calls, jumps and
    handlers, and by the predicates `follow` names for an instruction (a
    method call's candidates, say)."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        if name in seen or name not in program.predicates:
            continue
        seen.add(name)
        pred = program.predicates[name]
        yield pred
        if pred.handler is not None:
            todo.append(pred.handler)
        for rule in pred.rules:
            for instr in rule.body:
                if isinstance(instr, Call):
                    todo.append(instr.predicate)
                elif isinstance(instr, Goto):
                    todo.append(instr.block)
                else:
                    todo.extend(follow(instr))


def reachable(program: Program, predicate: str) -> Reach:
    """The code `predicate`'s run can enter, and its hash: the predicates
    reachable by calls, jumps and handlers, and every builtin (a builtin
    can be entered by name from the evaluator). Code that works on objects
    can enter any method by dispatch (`obj.m()`, a property read, `==`,
    `len`, truth): then every class's declaration and methods count too."""
    objects = False

    def follow(instr: object) -> list[str]:
        nonlocal objects
        if objects or not isinstance(instr, _DISPATCHING):
            return []
        objects = True
        return [info.entry for info in program.functions.values() if "." in info.qualname]

    seen = [pred.name for pred in walk_code(program, predicate, follow)]
    digest = hashlib.sha256(_builtins_hash(program).encode())
    if objects:
        digest.update(repr(sorted(program.classes.items())).encode())
    for name in sorted(seen):
        if not program.predicates[name].builtin:
            digest.update(repr(program.predicates[name]).encode())
    return Reach(frozenset(seen), digest.hexdigest())


# instructions whose run may enter a method the code does not name
_DISPATCHING = (CallMethod, CheckMethod, GetField, SetField, NewObject, ListOp)

_PER_PROGRAM: dict[int, tuple[weakref.ref[Program], dict[str, Any]]] = {}


def per_program(program: Program, name: str, make: Callable[[], T]) -> T:
    """`make()`, once per program and name in this process (the functions
    of a module share it); dropped when the program is."""
    entry = _PER_PROGRAM.get(id(program))
    if entry is None or entry[0]() is not program:
        key = id(program)
        entry = (weakref.ref(program, lambda _: _PER_PROGRAM.pop(key, None)), {})
        _PER_PROGRAM[key] = entry
    if name not in entry[1]:
        entry[1][name] = make()
    return entry[1][name]  # type: ignore[no-any-return]  # what make() gave


def _builtins_hash(program: Program) -> str:
    """The hash of the program's builtins (the prelude)."""
    def make() -> str:
        digest = hashlib.sha256()
        for name in sorted(n for n, pred in program.predicates.items() if pred.builtin):
            digest.update(repr(program.predicates[name]).encode())
        return digest.hexdigest()
    return per_program(program, "builtins hash", make)


class SummaryStore:
    """Summaries on disk under `root`, as `<key hash>.json`."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def key(self, program: Program, predicate: str, sorts: tuple[str, ...], setting: str) -> dict[str, Any]:
        return {"store": STORE_VERSION, "pathcraft": fingerprint(), "setting": setting, "predicate": predicate,
                "sorts": list(sorts), "code": code_hash(program, predicate)}

    def _file(self, key: dict[str, Any]) -> Path:
        name = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:32]
        return self.root / f"{name}.json"

    def load(self, key: dict[str, Any]) -> dict[str, Any] | None:
        """The stored summary document for `key`; None if there is none.
        Raises BadStoreFile for a file that is there but unusable."""
        file = self._file(key)
        try:
            text = file.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise BadStoreFile(f"{file}: cannot be read ({exc.strerror})") from None
        try:
            document = json.loads(text)
        except ValueError:
            raise BadStoreFile(f"{file}: not valid JSON (truncated?)") from None
        if not isinstance(document, dict) or document.get("key") != key:
            raise BadStoreFile(f"{file}: written by another version or for another summary")
        return document

    def read(self, key: dict[str, Any], decode: Callable[[dict[str, Any]], T], unusable: str,
             again: str) -> tuple[dict[str, Any] | None, T | None, str | None]:
        """The document stored for `key` and what `decode` makes of it,
        or the one-line problem with a file that is there but unusable
        (`unusable` says what it fails to hold, `again` what is done
        instead); (None, None, None) if there is none."""
        try:
            document = self.load(key)
            return (None, None, None) if document is None else (document, decode(document), None)
        except BadStoreFile as bad:
            return None, None, f"summary store: {bad}; {again}"
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            return None, None, f"summary store: {self.root}: {unusable}; {again}"

    def save(self, key: dict[str, Any], body: dict[str, Any]) -> None:
        """Write atomically (a reader never sees half a file); a store that
        cannot be written is no error, only no reuse."""
        file = self._file(key)
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            partial = file.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(json.dumps({"key": key, **body}, separators=(",", ":")), encoding="utf-8")
            os.replace(partial, file)
        except OSError:
            pass


# ------------------------------------------------------------- encoding


class TermTable:
    """Terms as a flat table: each node once, after its arguments."""

    def __init__(self) -> None:
        self.rows: list[Any] = []
        self._index: dict[object, int] = {}

    def add(self, t: Term) -> int:
        todo: list[tuple[Term, bool]] = [(t, False)]
        while todo:
            term, ready = todo.pop()
            if _node_key(term) in self._index:
                continue
            if isinstance(term, App) and not ready:
                todo.append((term, True))
                todo.extend((a, False) for a in reversed(term.args) if _node_key(a) not in self._index)
                continue
            self._index[_node_key(term)] = len(self.rows)
            self.rows.append(_encode_leaf(term) if not isinstance(term, App) else
                             ["a", term.op, term.sort, [self._index[_node_key(a)] for a in term.args]])
        return self._index[_node_key(t)]


def _node_key(t: Term) -> object:
    return (type(t).__name__, t) if not isinstance(t, float) else ("float", t.hex())


def _encode_leaf(t: Term) -> list[Any]:
    if isinstance(t, Sym):
        return ["s", t.name, t.sort]
    if isinstance(t, bool):
        return ["b", t]
    if isinstance(t, int):
        return ["i", str(t)]
    if isinstance(t, float):
        return ["f", t.hex()]
    if isinstance(t, str):
        return ["t", t]
    raise TypeError(f"not a term: {t!r}")


def decode_terms(rows: Iterable[Any]) -> list[Term]:
    out: list[Term] = []
    for row in rows:
        tag = row[0]
        if tag == "a":
            out.append(App(row[1], tuple(out[i] for i in row[3]), row[2]))
        elif tag == "s":
            out.append(Sym(row[1], row[2]))
        elif tag == "b":
            out.append(bool(row[1]))
        elif tag == "i":
            out.append(int(row[1]))
        elif tag == "f":
            out.append(float.fromhex(row[1]))
        elif tag == "t":
            out.append(str(row[1]))
        else:
            raise ValueError(f"unknown term row {tag!r}")
    return out


def encode_trace(trace: TraceTerm, rows: list[Any]) -> int:
    """Append `trace`'s nodes to `rows` (children first); its index."""
    index: dict[int, int] = {}
    todo: list[tuple[TraceTerm, bool]] = [(trace, False)]
    while todo:
        term, ready = todo.pop()
        if not ready:
            todo.append((term, True))
            todo.extend((c, False) for c in reversed(term.children))
            continue
        index[id(term)] = len(rows)
        rows.append([term.predicate, term.rule, [index[id(c)] for c in term.children], term.raised])
    return index[id(trace)]


def decode_traces(rows: Iterable[Any]) -> list[TraceTerm]:
    out: list[TraceTerm] = []
    for predicate, rule, children, raised in rows:
        out.append(TraceTerm(str(predicate), int(rule), tuple(out[i] for i in children), bool(raised)))
    return out


def encode_outcome(outcome: Outcome, terms: TermTable) -> list[Any]:
    value = outcome.value
    if value is None:
        return [outcome.kind, "none"]
    if isinstance(value, ExcValue):
        return [outcome.kind, "exc", value.type, value.message]
    return [outcome.kind, "term", terms.add(value)]  # type: ignore[arg-type]  # a scalar term


def decode_outcome(row: list[Any], terms: list[Term]) -> Outcome:
    kind, what = row[0], row[1]
    if what == "none":
        return Outcome(kind, None)
    if what == "exc":
        return Outcome(kind, ExcValue(row[2], row[3]))
    return Outcome(kind, terms[row[2]])


def encode_costs(costs: Costs, terms: TermTable) -> list[Any]:
    return [terms.add(costs.steps), terms.add(costs.memory),
            [[name, terms.add(n)] for name, n in sorted(costs.calls.items())]]


def decode_costs(row: list[Any], terms: list[Term]) -> Costs:
    return Costs(terms[row[0]], terms[row[1]], {name: terms[i] for name, i in row[2]})
