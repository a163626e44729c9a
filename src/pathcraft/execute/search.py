"""A coverage-guided search over a function's inputs, run in the worker.

For a function the symbolic engine refuses, the real code is run on inputs
built from its annotations by Hypothesis (`st.from_type`: ints, floats,
strs, bytes, bools, None, lists, tuples, dicts, sets, `Optional`, `Union`,
`Literal`, enums ...), seeded with the constants the function's own code
mentions (so `if code == 404:` is reached). An input is kept when its run
covers a line-to-line arc of the module's file that no kept input covered
(or ends another way: a new exception type); each kept input is an
observation: the arguments and what the call did.

Only what a test can state exactly is kept: arguments that are plain data
(`wire.py`), a return value that is plain data (else its type), an
exception's type. A call that the sandbox interfered with (`guard.py`), or
that ran out of memory or stack, is no observation. Hypothesis runs
derandomized: the same function and budget give the same inputs.
"""

from __future__ import annotations

import ast
import inspect
import signal
import sys
import textwrap
import time
import types
import typing
from collections.abc import Callable
from types import FrameType
from typing import Any

from pathcraft.execute import guard, wire

MAX_OBSERVATIONS = 12  # per function: enough to cover what the search reached; a suite people keep
CALL_SECONDS = 1.0  # one call's wall-clock limit in the search (a test that takes longer is no unit test)


class _TooSlow(BaseException):
    """Raised in the analysed code by the call's timer (a BaseException: an
    `except Exception` of the code does not swallow it)."""


_ENVIRONMENT = (MemoryError, RecursionError, KeyboardInterrupt, _TooSlow)


class Refused(Exception):
    """The function cannot be searched (the message says why)."""


def target(module: Any, qualname: str) -> Callable[..., Any]:
    """The function `qualname` of `module`: a module-level function, or a
    static method of a class."""
    head, _, rest = qualname.partition(".")
    found = getattr(module, head, None)
    if rest:
        owner = found
        raw = inspect.getattr_static(owner, rest, None) if inspect.isclass(owner) else None
        if not isinstance(raw, staticmethod):
            raise Refused("a method needs an object of its class (not built by the search yet)")
        found = getattr(owner, rest)
    if not callable(found) or inspect.isclass(found):
        raise Refused(f"'{qualname}' is no function of the module")
    return found  # type: ignore[no-any-return]


def call(fn: Callable[..., Any], positional: list[str], args: dict[str, Any]) -> dict[str, Any]:
    """Run `fn` once; what it did, in wire form (`outcome` "skip" when it is
    no observation)."""
    before = len(guard.refusals)
    values = [args[name] for name in positional if name in args]
    keywords = {name: value for name, value in args.items() if name not in positional}
    previous = signal.signal(signal.SIGALRM, _too_slow)
    signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
    try:
        result = fn(*values, **keywords)
    except _ENVIRONMENT as exc:
        return {"outcome": "skip", "why": f"took more than {CALL_SECONDS:g} s" if isinstance(exc, _TooSlow)
                else type(exc).__name__}
    except BaseException as exc:  # noqa: BLE001  (the code's own exception is the observation)
        if len(guard.refusals) > before:
            return {"outcome": "skip", "why": guard.refusals[-1]}
        kind = type(exc)
        return {"outcome": "raise", "type": [kind.__module__, kind.__qualname__]}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    if len(guard.refusals) > before:
        return {"outcome": "skip", "why": guard.refusals[-1]}
    try:
        return {"outcome": "return", "value": wire.encode(result)}
    except wire.NotPlain:
        kind = type(result)
        return {"outcome": "return", "type": [kind.__module__, kind.__qualname__]}


def _too_slow(signum: int, frame: FrameType | None) -> None:
    raise _TooSlow


def observe(module: Any, qualname: str, seconds: float, examples: int,
            tell: Callable[[dict[str, Any]], None] = lambda line: None,
            avoid: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Search `qualname` of `module` (see the module docstring). `tell` is
    given `{"trying": arguments}` before each call and `{"partial":
    observation}` as each is kept, so that a crash costs the call that
    crashed: the next search `avoid`s its arguments."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    fn = target(module, qualname)
    strategies, positional = _strategies(fn, st)
    filename = getattr(module, "__file__", None) or ""
    arcs: set[tuple[int, int]] = set()
    endings: set[str] = set()
    kept: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    tried = 0
    avoided = list(avoid or [])
    skipped: dict[str, int] = {}  # why a call was no observation -> how often

    def run(args: dict[str, Any]) -> None:
        nonlocal tried
        if time.monotonic() > deadline or len(kept) >= MAX_OBSERVATIONS:
            return
        try:
            shown = {name: wire.encode(value) for name, value in args.items()}
        except wire.NotPlain:
            return  # an argument a test could not write
        if shown in avoided:
            return
        tell({"trying": shown})
        tried += 1
        reached: set[tuple[int, int]] = set()
        tracer = _arc_tracer(filename, reached)
        sys.settrace(tracer)
        try:
            outcome = call(fn, positional, args)
        finally:
            sys.settrace(None)
        if outcome["outcome"] == "skip":
            why = str(outcome.get("why"))
            skipped[why] = skipped.get(why, 0) + 1
            return
        ending = f"{outcome['outcome']}:{outcome.get('type')}"
        if reached - arcs or ending not in endings:
            arcs.update(reached)
            endings.add(ending)
            kept.append({"args": shown, **outcome})
            tell({"partial": kept[-1]})

    probe = given(st.fixed_dictionaries(strategies))(run)
    probe = settings(max_examples=examples, database=None, deadline=None, derandomize=True,
                     phases=[Phase.generate], suppress_health_check=list(HealthCheck))(probe)
    try:
        probe()
    except Exception as exc:  # noqa: BLE001  (Hypothesis's own failures: the search ends with what it kept)
        if not kept:
            raise Refused(f"the search failed: {type(exc).__name__}: {str(exc)[:120]}") from None
    return {"observations": kept, "tried": tried, "arcs": len(arcs), "positional": positional, "skipped": skipped}


def _strategies(fn: Callable[..., Any], st: Any) -> tuple[dict[str, Any], list[str]]:
    """A strategy per parameter a call must or may pass, and the names
    passed by position (positional-only ones)."""
    try:
        signature = inspect.signature(fn)
        hints = typing.get_type_hints(fn)
    except Exception as exc:  # noqa: BLE001  (an annotation that does not evaluate)
        raise Refused(f"its annotations do not evaluate ({type(exc).__name__}: {str(exc)[:80]})") from None
    constants = _constants(fn)
    strategies: dict[str, Any] = {}
    positional: list[str] = []
    for name, parameter in signature.parameters.items():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if name not in hints:
            if parameter.default is not parameter.empty:
                continue  # left at its default
            raise Refused(f"parameter '{name}' has no annotation")
        try:
            strategy = st.from_type(hints[name])
        except Exception as exc:  # noqa: BLE001
            raise Refused(f"no values for parameter '{name}': {type(exc).__name__}") from None
        seeds = [c for c in constants if _fits(hints[name], c)]
        strategies[name] = st.one_of(st.sampled_from(seeds), strategy) if seeds else strategy
        if parameter.kind == parameter.POSITIONAL_ONLY:
            positional.append(name)
    return strategies, positional


def _fits(hint: Any, value: object) -> bool:
    """Is `value` (a constant of the code) a value of the annotation?"""
    members = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    return any(type(value) is member for member in members)


def _constants(fn: Callable[..., Any]) -> list[object]:
    """The int, float, str and bytes constants of the function's source (and
    each int's neighbours: a comparison's boundary is on either side)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return []
    out: list[object] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and type(node.value) in (int, float, str, bytes):
            values = [node.value] + ([node.value - 1, node.value + 1] if type(node.value) is int else [])
            out.extend(v for v in values if v not in out)
    return out[:64]


def _arc_tracer(filename: str, reached: set[tuple[int, int]]) -> Any:
    """A `sys.settrace` function recording line-to-line arcs in `filename`."""
    last: dict[int, int] = {}  # frame -> its previous line (an entry is the negated first line)

    def local(frame: FrameType, event: str, arg: object) -> Any:
        if event == "line":
            reached.add((last.get(id(frame), -frame.f_code.co_firstlineno), frame.f_lineno))
            last[id(frame)] = frame.f_lineno
        elif event == "return":
            reached.add((frame.f_lineno, -frame.f_code.co_firstlineno))
        return local

    def scope(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_code.co_filename == filename else None

    return scope
