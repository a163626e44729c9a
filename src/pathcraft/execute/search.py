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
import collections.abc
import inspect
import itertools
import signal
import sys
import textwrap
import time
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import Any

from pathcraft.execute import guard, wire

MAX_ITEMS = 50  # items of an iterator walked for a test: more, and the observation is not kept
MAX_OBSERVATIONS = 12  # per function: enough to cover what the search reached; a suite people keep
CALL_SECONDS = 1.0  # one call's wall-clock limit in the search (a test that takes longer is no unit test)


class _TooSlow(BaseException):
    """Raised in the analysed code by the call's timer (a BaseException: an
    `except Exception` of the code does not swallow it)."""


_ENVIRONMENT = (MemoryError, RecursionError, KeyboardInterrupt, _TooSlow)


class Refused(Exception):
    """The function cannot be searched (the message says why)."""


@dataclass(frozen=True)
class Target:
    """What a qualname names: a callable as it is (a function, a static or
    class method), or a method of `owner` called on an object built by
    calling the class with generated arguments."""

    function: Callable[..., Any] | None
    owner: type | None = None
    name: str = ""


def target(module: Any, qualname: str) -> Target:
    """The target `qualname` of `module` (see `Target`)."""
    *path, name = qualname.split(".")
    owner: Any = module
    for part in path:
        owner = getattr(owner, part, None)
        if not inspect.isclass(owner):
            raise Refused(f"'{qualname}' is no function or method of the module")
    if not path:
        found = getattr(module, name, None)
        if not callable(found) or inspect.isclass(found):
            raise Refused(f"'{qualname}' is no function of the module")
        return Target(found)
    raw = inspect.getattr_static(owner, name, None)
    if isinstance(raw, (staticmethod, classmethod)):
        return Target(getattr(owner, name))
    if not inspect.isfunction(raw):
        raise Refused(f"'{qualname}' is no method (a {type(raw).__name__})")
    if inspect.isabstract(owner):
        raise Refused(f"class {owner.__qualname__} is abstract")
    return Target(None, owner, name)


def call(goal: Target, positional: list[str], args: dict[str, Any],
         init: dict[str, Any] | None = None, init_positional: list[str] | None = None) -> dict[str, Any]:
    """Run the target once (an object built first from `init` for a
    method); what it did, in wire form (`outcome` "skip" when it is no
    observation: the sandbox interfered, the time or memory ran out, or
    the object could not be built)."""
    before = len(guard.refusals)
    iterated = False
    previous = signal.signal(signal.SIGALRM, _too_slow)
    signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
    guard.calling = True
    try:
        fn = goal.function
        if fn is None:
            assert goal.owner is not None
            try:
                given = init or {}
                made = goal.owner(*_split(init_positional or [], given),
                                  **{n: v for n, v in given.items() if n not in (init_positional or [])})
            except _ENVIRONMENT:
                raise
            except BaseException as exc:  # noqa: BLE001
                return {"outcome": "skip", "why": f"building the object raised {type(exc).__name__}"}
            fn = getattr(made, goal.name)
        values, keywords = _split(positional, args), {n: v for n, v in args.items() if n not in positional}
        result = fn(*values, **keywords)
        # a generator, `map`, ...: what it yields, walked as `list` would. Asked of its type: the object's own
        # `__class__` may be anything (a test does not ask it), and an error of this question would be ours
        if _is_iterator(type(result)):
            iterated = True
            result = list(itertools.islice(result, MAX_ITEMS + 1))
    except _ENVIRONMENT as exc:
        return {"outcome": "skip", "why": f"took more than {CALL_SECONDS:g} s" if isinstance(exc, _TooSlow)
                else type(exc).__name__}
    except BaseException as exc:  # noqa: BLE001  (the code's own exception is the observation)
        if len(guard.refusals) > before:
            return {"outcome": "skip", "why": guard.refusals[-1]}
        kind = type(exc)
        return {"outcome": "raise", "type": [kind.__module__, kind.__qualname__], **_iterated(iterated)}
    finally:
        guard.calling = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    if len(guard.refusals) > before:
        return {"outcome": "skip", "why": guard.refusals[-1]}
    if iterated and len(result) > MAX_ITEMS:
        return {"outcome": "skip", "why": f"an iterator of more than {MAX_ITEMS} items"}
    try:
        return {"outcome": "return", "value": wire.encode(result), **_iterated(iterated)}
    except wire.NotPlain:
        if iterated:
            return {"outcome": "skip", "why": "an iterator of values a test cannot write"}
        kind = type(result)
        return {"outcome": "return", "type": [kind.__module__, kind.__qualname__]}


def _is_iterator(kind: type) -> bool:
    try:
        return issubclass(kind, Iterator)
    except Exception:  # noqa: BLE001  (a metaclass that answers oddly: not walked)
        return False


def _iterated(iterated: bool) -> dict[str, Any]:
    """The mark of an outcome seen by walking the result (`list(f(...))`)."""
    return {"iterated": True} if iterated else {}


def _split(positional: list[str], args: dict[str, Any]) -> list[Any]:
    """The values of the positional-only parameters, in order."""
    return [args[name] for name in positional if name in args]


def _too_slow(signum: int, frame: FrameType | None) -> None:
    raise _TooSlow


def observe(module: Any, qualname: str, seconds: float, examples: int,
            tell: Callable[[dict[str, Any]], None] = lambda line: None,
            avoid: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Search `qualname` of `module` (see the module docstring). `tell` is
    given `{"trying": arguments}` before each call and `{"partial":
    observation}` as each is kept, so that a crash costs the call that
    crashed: the next search `avoid`s its arguments."""
    from hypothesis import strategies as st

    goal = target(module, qualname)
    strategies, positional, building, init_positional = _plan(goal, st)
    filename = getattr(module, "__file__", None) or ""
    arcs: set[tuple[int, int]] = set()
    endings: set[str] = set()
    kept: list[dict[str, Any]] = []
    deadline = 0.0  # set at the first input: Hypothesis's own start-up is not the search's time
    tried = 0
    avoided = list(avoid or [])
    skipped: dict[str, int] = {}  # why a call was no observation -> how often

    def run(drawn: dict[str, Any]) -> None:
        nonlocal tried, deadline
        deadline = deadline or time.monotonic() + seconds
        if time.monotonic() > deadline or len(kept) >= MAX_OBSERVATIONS:
            return
        args, init = drawn["args"], drawn["init"]
        try:
            shown = {name: wire.encode(value) for name, value in args.items()}
            built = {name: wire.encode(value) for name, value in init.items()}
        except wire.NotPlain:
            return  # an argument a test could not write
        trial = {"args": shown, **({"init": built} if goal.function is None else {})}
        if trial in avoided or _seed_ordered(trial):
            return
        tell({"trying": trial})
        tried += 1
        outcome, reached = _traced(filename, lambda: call(goal, positional, args, init, init_positional))
        if outcome["outcome"] == "skip":
            why = str(outcome.get("why"))
            skipped[why] = skipped.get(why, 0) + 1
            return
        ending = f"{outcome['outcome']}:{outcome.get('type')}"
        if reached - arcs or ending not in endings:
            arcs.update(reached)
            endings.add(ending)
            kept.append({**trial, **outcome})
            tell({"partial": kept[-1]})

    try:
        _drive(run, {"args": st.fixed_dictionaries(strategies), "init": st.fixed_dictionaries(building)}, examples)
    except Exception as exc:  # noqa: BLE001  (Hypothesis's own failures: the search ends with what it kept)
        if not kept:
            raise Refused(f"the search failed: {type(exc).__name__}: {str(exc)[:120]}") from None
    return {"observations": kept, "tried": tried, "arcs": len(arcs), "positional": positional,
            "init_positional": init_positional, "skipped": skipped}


def _seed_ordered(trial: dict[str, Any]) -> bool:
    """Does a set in these arguments (wire form, `{"args": {...}, "init":
    {...}}`) hold a value whose hash changes from one process to the next
    (a str, bytes, None in 3.11)? Its order then does too: a test iterating
    it would pass or fail with pytest's hash seed. Only sets of numbers,
    and tuples of them, are passed."""
    def fixed(value: Any) -> bool:
        return value[0] in ("int", "bool", "float") or value[0] == "tuple" and all(fixed(i) for i in value[1])

    def unordered(value: Any) -> bool:
        tag = value[0]
        if tag in ("set", "frozenset"):
            return not all(fixed(item) for item in value[1])
        if tag in ("list", "tuple"):
            return any(unordered(item) for item in value[1])
        if tag == "dict":
            return any(unordered(k) or unordered(v) for k, v in value[1])
        return False

    return any(unordered(v) for part in trial.values() for v in part.values())


def _plan(goal: Target, st: Any) -> tuple[dict[str, Any], list[str], dict[str, Any], list[str]]:
    """The strategies and positional-only names of the call, and of the
    constructor that builds a method's object (none for a function)."""
    if goal.function is not None:
        strategies, positional = _strategies(goal.function, st)
        return strategies, positional, {}, []
    assert goal.owner is not None
    strategies, positional = _strategies(goal.owner.__dict__[goal.name], st, skip_first=True)
    building, init_positional = _strategies(goal.owner, st, hints_of=getattr(goal.owner, "__init__"))
    return strategies, positional, building, init_positional


def _drive(run: Callable[[dict[str, Any]], None], parts: dict[str, Any], examples: int) -> None:
    """Hypothesis draws `examples` inputs for `run`, derandomized, without
    its database, shrinking or health checks (`run` never fails: it keeps)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    probe = given(st.fixed_dictionaries(parts))(run)
    settings(max_examples=examples, database=None, deadline=None, derandomize=True, phases=[Phase.generate],
             suppress_health_check=list(HealthCheck))(probe)()


def _strategies(fn: Callable[..., Any], st: Any, skip_first: bool = False,
                hints_of: Callable[..., Any] | None = None) -> tuple[dict[str, Any], list[str]]:
    """A strategy per parameter a call must or may pass (`skip_first`: not
    the method's `self`; `hints_of`: the function whose annotations count,
    a class's `__init__` for the class), and the names passed by position
    (positional-only ones)."""
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise Refused(f"no signature ({str(exc)[:80]})") from None
    hints = _hints(hints_of or fn)
    constants = _constants(hints_of or fn)
    strategies: dict[str, Any] = {}
    positional: list[str] = []
    parameters = list(signature.parameters.items())[1 if skip_first else 0:]
    for name, parameter in parameters:
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        strategy = _parameter_strategy(st, name, hints.get(name, _NO_HINT), parameter.default, constants)
        if strategy is None:
            continue  # left at its default
        strategies[name] = strategy
        if parameter.kind == parameter.POSITIONAL_ONLY:
            positional.append(name)
    return strategies, positional


def _hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """The annotations that evaluate: all of them at once, or else one by
    one (`from __future__ import annotations` with names bound only under
    `TYPE_CHECKING`); a parameter whose annotation does not evaluate is
    searched as one without."""
    try:
        return typing.get_type_hints(fn)
    except Exception:  # noqa: BLE001  (some annotation does not evaluate)
        pass
    out: dict[str, Any] = {}
    # names a module imports under TYPE_CHECKING are mostly these: tried after the module's own
    scope = {**{n: getattr(typing, n) for n in typing.__all__}, **{n: getattr(collections.abc, n)
             for n in collections.abc.__all__}, **getattr(fn, "__globals__", {})}
    for name, annotation in getattr(fn, "__annotations__", {}).items():
        try:
            out[name] = typing.get_type_hints(_Holder(annotation), globalns=scope)["value"]
        except Exception:  # noqa: BLE001
            continue
    return out


class _Holder:
    """An object with one annotation, for `typing.get_type_hints` to evaluate."""

    def __init__(self, annotation: Any) -> None:
        self.__annotations__ = {"value": annotation}


_NO_HINT = object()
_PLAIN = (bool, int, float, str, bytes)


def _parameter_strategy(st: Any, name: str, hint: Any, default: Any, constants: list[object]) -> Any:
    """Values for one parameter: from its annotation; without one, from its
    default's type, or else a mix of plain values (an observation is true
    whatever the type, and the search keeps only inputs that reach code)."""
    if hint is _NO_HINT:
        if default is not inspect.Parameter.empty:
            if type(default) not in _PLAIN:
                return None  # left at its default
            hint = type(default)
        else:
            base = st.one_of(st.integers(), st.text(max_size=8), st.none(), st.lists(st.integers(), max_size=4),
                             st.booleans())
            return st.one_of(st.sampled_from(constants), base) if constants else base
    try:
        strategy = st.from_type(hint)
    except Exception:  # noqa: BLE001  (no values of the type: searched as a parameter without one)
        return _parameter_strategy(st, name, _NO_HINT, default, constants)
    seeds = [c for c in constants if _fits(hint, c)]
    return st.one_of(st.sampled_from(seeds), strategy) if seeds else strategy


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


def _traced(filename: str, run: Callable[[], dict[str, Any]]) -> tuple[dict[str, Any], set[tuple[int, int]]]:
    """`run()`'s outcome, and the arcs it covered in `filename`."""
    reached: set[tuple[int, int]] = set()
    sys.settrace(_arc_tracer(filename, reached))
    try:
        return run(), reached
    finally:
        sys.settrace(None)


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
