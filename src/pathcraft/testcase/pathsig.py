"""Path signatures: the sequence of statements a run executes, comparable
between a symbolic path and a real run of the code.

A signature is a tuple of events `("call", f)`, `("line", f, line)`,
`("return", f)`, where `line` is the first line of the statement (or of the
`if`/`while`/`for` header) that was executing. Lines of `try:`, `except`,
`else:` and `finally:` headers are left out (CPython reports some of them
and not others), and consecutive repeats of one line event are folded (a
statement spread over several lines reports several line events). Both the
engine's claims and real runs go through `normalize`, so they compare equal
exactly when the run took the claimed path.

Real runs are recorded with `sys.settrace`; that part runs user code and is
only used by `--verify` (in a subprocess) and by tests.
"""

from __future__ import annotations

import ast
import sys
import collections.abc
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pathcraft.frontend.lines import statement_lines
from pathcraft.frontend.yields import own_nodes
from pathcraft.ir.trace import Event
from pathcraft.testcase import callshape

__all__ = ["statement_lines"]  # re-exported: real runs and claims map lines alike

def normalize(events: Iterable[Event]) -> tuple[Event, ...]:
    out: list[Event] = []
    for event in events:
        if event[0] == "line" and out and out[-1] == event:
            continue
        out.append(event)
    return tuple(out)


@dataclass
class RealRun:
    """What a real call did: its result or exception, and its events."""

    kind: str  # "return" | "raise"
    value: Any
    exc_type: str | None
    exc_message: str | None
    events: tuple[Event, ...]


class EventBudgetExceeded(BaseException):
    """Raised inside a traced run that goes on too long (a loop that never
    ends on this input, say); a BaseException so `except Exception` in the
    code under test does not swallow it."""


def record(fn: Callable[..., Any], args: dict[str, Any], filename: str,
           lines: dict[int, int], max_events: int | None = None) -> RealRun:
    """Call `fn(**args)` under a tracer that keeps events of `filename`.
    With `max_events`, a run producing more events stops with kind "budget"."""
    events: list[Event] = []

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        code = frame.f_code
        if code.co_filename != filename:
            return None
        if max_events is not None and len(events) > max_events:
            raise EventBudgetExceeded()
        name = code.co_qualname
        if event == "call":
            events.append(("call", name))
        elif event == "line":
            line = lines.get(frame.f_lineno)
            if line is not None:
                events.append(("line", name, line))
        elif event == "return":
            events.append(("return", name))
        return tracer

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        value = callshape.call(fn, args)  # `*args` items spread, the rest by keyword
        if drained(value):  # a generator function's test takes every item, as a returned iterator's does
            value = list(value)
    except EventBudgetExceeded:
        sys.settrace(old)
        return RealRun("budget", None, None, None, normalize(events))
    except Exception as exc:  # the code under test may raise anything
        sys.settrace(old)
        message = _text_of(exc)
        return RealRun("raise", None, type(exc).__name__, message, normalize(events))
    sys.settrace(old)
    return RealRun("return", value, None, None, normalize(events))


def drained(value: object) -> bool:
    """Is `value` an iterator a test takes whole, `list(f(...))`: a
    generator, or a C iterator of the builtins or `itertools` (the model
    has them all as generators); an iterator class of the code under test
    is an object like any other."""
    return isinstance(value, types.GeneratorType) or isinstance(value, collections.abc.Iterator) \
        and type(value).__module__ in ("builtins", "itertools")


def _text_of(exc: Exception) -> str | None:
    """What `pytest.raises(match=...)` matches: `str(exc)` (a KeyError's
    is the repr of its key, a class's `__str__` its own), None when even
    that raises."""
    try:
        return str(exc)
    except Exception:  # the code under test's __str__ may raise anything
        return None


@dataclass(frozen=True)
class LoopShape:
    """A loop of the source; `extra` line events of its first body line
    do not start an iteration (a list comprehension reports its line once
    on entry, then once per back edge)."""

    function: str
    first: int
    last: int
    body_first_line: int
    extra: int = 0
    generator: bool = False  # in a generator function: its count goes on across resumptions


def loop_shapes(tree: ast.Module) -> list[LoopShape]:
    """Every while/for loop with its line range and first body statement."""
    shapes: list[LoopShape] = []
    lines = statement_lines(tree)

    def visit(node: ast.AST, qual: str, in_function: bool = False, in_generator: bool = False) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.GeneratorExp):  # its own frame on every Python, resumed per item
                inner = f"{qual}.<genexpr>" if qual.endswith(("<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>")) \
                    else f"{qual}.<locals>.<genexpr>"
                line = lines.get(child.lineno, child.lineno)
                shapes.append(LoopShape(inner, line, line, line))  # items it skips within one resumption
                visit(child, inner)
                continue
            if isinstance(child, (ast.ListComp, ast.DictComp, ast.SetComp)):
                # a function of its own up to 3.11 (named like CPython names it), inlined from 3.12
                kind = {ast.ListComp: "<listcomp>", ast.DictComp: "<dictcomp>", ast.SetComp: "<setcomp>"}[type(child)]
                if sys.version_info >= (3, 12):
                    inner = qual
                elif qual.endswith(("<listcomp>", "<dictcomp>", "<setcomp>")):
                    inner = f"{qual}.{kind}"
                else:
                    inner = f"{qual}.<locals>.{kind}"
                line = lines.get(child.lineno, child.lineno)
                shapes.append(LoopShape(inner, line, line, line))
                visit(child, inner)
                continue
            if isinstance(child, ast.FunctionDef):  # a function's own functions are its `<locals>`
                yields = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own_nodes(child))
                visit(child, f"{qual}{'.<locals>.' if in_function else '.'}{child.name}" if qual else child.name,
                      True, yields)
                continue
            if isinstance(child, ast.ClassDef):
                visit(child, f"{qual}.{child.name}" if qual else child.name)
                continue
            if isinstance(child, (ast.While, ast.For)):
                shapes.append(LoopShape(qual, child.lineno, child.end_lineno or child.lineno,
                                        _first_tracked(child.body), generator=in_generator))
            visit(child, qual, in_function, in_generator)

    visit(tree, "")
    return shapes


def _first_tracked(body: list[ast.stmt]) -> int:
    first = body[0]
    if isinstance(first, ast.Try):
        return _first_tracked(first.body)
    return first.lineno


def within_loop_bound(events: tuple[Event, ...], shapes: list[LoopShape], k: int) -> bool:
    """Whether a run stays within loop-k: no loop entry runs its body more
    than k times, and no function has more than k recursive activations
    under its first one."""
    stack: list[tuple[str, dict[int, int]]] = []
    resumes: list[dict[str, int]] = []  # per frame: resumptions of each generator since its last line event
    generators = {shape.function for shape in shapes if shape.generator}
    suspended: dict[tuple[str, int], dict[int, int]] = {}  # a generator frame's counts, by name and depth
    for event in events:
        if event[0] == "call":
            name = str(event[1])
            if resumes:
                # a generator expression: a resumption per item the consumer takes, one more for the
                # end (or the close), all within one line of the frame that consumes it; any other
                # function called again and again within one line (a sort's key, once per item)
                resumed = resumes[-1]
                resumed[name] = resumed.get(name, 0) + 1
                if resumed[name] > (k + 1 if name.endswith("<genexpr>") else k):
                    return False
            stack.append((name, suspended.pop((name, len(stack)), {}) if name in generators else {}))
            resumes.append({})
            if sum(1 for f, _ in stack if f == name) > k + 1:
                return False
        elif event[0] == "return":
            if stack:
                name, counts = stack.pop()
                resumes.pop()
                if name in generators:  # it may resume: its loops go on (an ended one starts afresh)
                    suspended[(name, len(stack))] = counts
        elif stack:
            resumes[-1].clear()
            name, counts = stack[-1]
            assert len(event) == 3
            line = event[2]
            for shape in shapes:
                if shape.function != name:
                    continue
                if not shape.first <= line <= shape.last:
                    counts.pop(shape.first, None)
                elif line == shape.body_first_line:
                    counts[shape.first] = counts.get(shape.first, 0) + 1
                    if counts[shape.first] > k + shape.extra:
                        return False
    return True
