"""`--suite compact`: of all the paths' tests, the few a developer keeps.

One test per path is the papers' definition and the right check of the
engine, but a function with 700 paths gets 700 tests. The compact suite
is the smallest subset (greedy set cover, then each test left that adds
nothing dropped) that keeps everything the whole set gives:

* every line and every arc (a pair of statements one after the other in
  one call: each branch outcome) that some test's path runs, read from the
  paths the engine claims (which `--verify` and the replay oracle check
  against real runs);
* every mutant of the function (suite/mutants.py) that some test kills,
  found by running the tests on each mutant in a sandboxed worker
  (execute/mutant_runs.py): the only step that runs the analysed code, as
  `--verify` does.

When the worker cannot answer (it dies, or runs past its time), the
mutants are not counted and the subset keeps lines and arcs only; the
run says so.
"""

from __future__ import annotations

import ast
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from pathcraft.ir.trace import Event
from pathcraft.sourcedefs import find_function

if TYPE_CHECKING:
    from pathcraft.execute.sandbox import Sandbox
from pathcraft.suite.mutants import Mutant, mutants
from pathcraft.testcase.emit_pytest import PytestText
from pathcraft.testcase.model import TestCase
from pathcraft.testcase.tables import tabled

Element = tuple[object, ...]  # a line, an arc or a killed mutant


@dataclass(frozen=True)
class Compaction:
    """What `--suite compact` kept of one function's tests, and why."""

    qualname: str
    kept: tuple[str, ...]  # test names, in the order of the whole suite
    tests: int  # in the whole suite
    mutants: int
    killed: int  # mutants the whole suite kills (the kept tests kill each)
    unchecked: str | None = None  # why the mutants were not run (None: they were)


def select(elements: Sequence[frozenset[Element]]) -> list[int]:
    """The indices of a small subset whose elements cover every test's:
    the test adding most first (the earliest on a tie), then each chosen
    test whose elements the others cover dropped, the latest first. At
    least one test is kept (the first) when there are any."""
    goal: set[Element] = set().union(*elements) if elements else set()
    chosen: list[int] = []
    covered: set[Element] = set()
    while covered != goal:
        best = max(range(len(elements)), key=lambda i: (len(elements[i] - covered), -i))
        chosen.append(best)
        covered |= elements[best]
    for index in sorted(chosen, reverse=True):
        others = [i for i in chosen if i != index]
        if elements[index] <= set().union(*(elements[i] for i in others)):
            chosen = others
    return sorted(chosen) or ([0] if elements else [])


def path_elements(events: Iterable[Event]) -> frozenset[Element]:
    """The lines a path runs and its arcs: consecutive line events of one
    call (a call's events are nested between its `call` and `return`)."""
    out: set[Element] = set()
    last: list[object | None] = []  # the previous line of each open call
    for event in events:
        kind = event[0]
        if kind == "call":
            last.append(None)
        elif kind == "return":
            if last:
                if last[-1] is not None:
                    out.add(("arc", event[1], last[-1], "return"))
                last.pop()
        elif len(event) == 3:  # a line
            function, line = event[1], event[2]
            out.add(("line", function, line))
            if last:
                out.add(("arc", function, last[-1], line))
                last[-1] = line
    return frozenset(out)


def definition(source: str, qualname: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The `def` of `qualname` in the module's source (None: not one the
    mutants can be made of, a lambda or a nested function, say)."""
    return find_function(ast.parse(source), qualname)


def statement_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[int, int]:
    """Each line of the body -> the first line of the innermost statement
    holding it (what a path's line event names)."""
    out: dict[int, int] = {}

    def visit(statement: ast.stmt) -> None:
        for line in range(statement.lineno, (statement.end_lineno or statement.lineno) + 1):
            out[line] = statement.lineno
        for child in ast.iter_child_nodes(statement):
            for inner in ([child] if isinstance(child, ast.stmt) else []):
                visit(inner)
            if isinstance(child, ast.ExceptHandler):  # `except` bodies: their statements
                for inner in child.body:
                    visit(inner)

    for statement in node.body:
        visit(statement)
    return out


def compact_function(worker: Sandbox, module_file: Path, module: str, head: str, qualname: str,
                     cases: Sequence[TestCase], texts: Sequence[str], cached: Sequence[str] = (),
                     root: tuple[str, str] | None = None) -> Compaction:
    """The compaction of one function's tests (`texts[i]` is `cases[i]`'s
    test as the file writes it, `head` the file's header), the mutants run
    by `worker` (`root`: the package root the module is imported under, as
    (alias, folder), when its folder's name is no identifier)."""
    names = [case.name for case in cases]
    elements = [set(path_elements(case.path)) for case in cases]
    node = definition(module_file.read_text(encoding="utf-8"), qualname)
    made = list(mutants(node)) if node is not None else []
    unchecked = None if node is not None else "no definition to mutate"
    killed: dict[int, list[str]] = {}
    failing: set[str] = set()  # on the real code: kept, whatever they cover (the suite must show them)
    if made and node is not None:
        try:
            passing, killed = _kills(worker, module, head, qualname, names, texts, made, cached,
                                     _reaches(cases, node), root)
            failing = set(names) - set(passing)
        except RuntimeError as exc:
            unchecked = str(exc)
    for number, by in killed.items():
        for name in by:
            elements[names.index(name)].add(("mutant", number))
    for name in failing:
        elements[names.index(name)].add(("fails", name))
    chosen = select([frozenset(e) for e in elements])
    return Compaction(qualname, tuple(names[i] for i in chosen), len(cases), len(made),
                      sum(1 for by in killed.values() if by), unchecked)


def _reaches(cases: Sequence[TestCase], node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[int]]:
    """Each test -> the lines of the function's body its path runs (a
    mutant there may change what it does), as all the lines of each
    statement it runs."""
    lines = statement_lines(node)
    held: dict[int, list[int]] = {}
    for line, first in lines.items():
        held.setdefault(first, []).append(line)
    out: dict[str, list[int]] = {}
    for case in cases:
        firsts = {e[2] for e in case.path if len(e) == 3}
        out[case.name] = sorted(line for first in firsts for line in held.get(first, ()))
    return out


def _kills(worker: Sandbox, module: str, head: str, qualname: str, names: Sequence[str], texts: Sequence[str],
           made: Sequence[Mutant], cached: Sequence[str], reaches: dict[str, list[int]],
           root: tuple[str, str] | None = None) -> tuple[list[str], dict[int, list[str]]]:
    """The tests that pass on the real code, and for each mutant (by
    number) the tests that kill it, from a sandboxed worker (`RuntimeError`
    with the reason when it gives no answer)."""
    from pathcraft.execute.observed import replay_seconds

    with tempfile.TemporaryDirectory(prefix="pathcraft-compact-") as folder:
        tests_module = f"pathcraft_compact_{Path(folder).name.replace('-', '_')}"  # one per function: imported anew
        (Path(folder) / f"{tests_module}.py").write_text(head + "".join(texts), encoding="utf-8")
        runs = len(names) * (1 + len(made))
        answer = worker.request({"op": "kills", "module": module, "qualname": qualname, "tests_folder": folder,
                                 "tests_module": tests_module, "tests": list(names),
                                 "mutants": [[m.number, m.line, m.source] for m in made],
                                 "reaches": reaches, "cached": list(cached), "root": list(root or ())},
                                replay_seconds(runs))
    if "kills" not in answer:
        raise RuntimeError(str(answer.get("fault") or answer.get("refused") or "no answer"))
    return ([str(t) for t in answer.get("passing", [])],
            {int(k): [str(t) for t in v] for k, v in dict(answer["kills"]).items()})


@dataclass(frozen=True)
class CompactSuite:
    """The compact suite's tests, as the file writes them, and what it kept."""

    texts: tuple[str, ...]
    written: tuple[TestCase, ...]  # the kept cases, each named as pytest runs it (a table's row: `t[id]`)
    functions: tuple[Compaction, ...]


def compact_suite(writer: PytestText, module_file: Path, cases: Sequence[TestCase],
                  cached: Sequence[str] = ()) -> CompactSuite:
    """Each function's tests compacted, then tabled (testcase/tables.py),
    the functions in the order their first tests came."""
    from pathcraft.execute.sandbox import Sandbox
    from pathcraft.frontend.packages import import_name, root_alias

    module, import_root = import_name(module_file)
    alias = root_alias(module_file)  # `goodrich-dsap-python`: its modules imported under an identifier
    root = (alias[0], str(alias[1])) if alias else None
    if alias:
        module = f"{alias[0]}.{module}"
    by_function: dict[str, list[TestCase]] = {}
    for case in cases:
        by_function.setdefault(case.qualname, []).append(case)
    texts: list[str] = []
    written: list[TestCase] = []
    done: list[Compaction] = []
    with Sandbox(import_root, searching=False) as worker:  # one for the module: it imports it once
        for qualname, mine in by_function.items():
            compaction = compact_function(worker, module_file, module, writer.head(), qualname, mine,
                                          [writer.test(c) for c in mine], cached, root)
            kept = [c for c in mine if c.name in set(compaction.kept)]
            tabled_texts, runs_as = tabled(writer, kept)
            texts += tabled_texts
            written += [replace(c, name=runs_as.get(c.name, c.name)) for c in kept]
            done.append(compaction)
    return CompactSuite(tuple(texts), tuple(written), tuple(done))


def compaction_line(compaction: Compaction) -> str:
    """The line a run prints for one function's compaction."""
    kept = f"pathcraft: {compaction.qualname}: compact suite: {len(compaction.kept)} of {compaction.tests} tests"
    if compaction.unchecked is not None:
        return f"{kept}, keeping every line and arc (mutants not run: {compaction.unchecked})"
    return (f"{kept}, keeping every line and arc and the {compaction.killed} of {compaction.mutants} mutants "
            "the whole set kills")
