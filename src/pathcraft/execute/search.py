"""A coverage-guided search over a function's inputs, run in the worker.

For a function the symbolic engine refuses, the real code is run on inputs
built from its annotations (`inputs.py`: Hypothesis for the standard
types, the package's own classes through their constructors), seeded with
the constants the function's own code mentions (so `if code == 404:` is
reached). A property is searched as a method without arguments: reading
it is the call. An input is kept when its run
covers a line-to-line arc of the module's file that no kept input covered
(or ends another way: a new exception type); each kept input is an
observation: the arguments and what the call did.

Only what a test can state exactly is kept: arguments a test can write
(plain data, `wire.py`, or a constructor call, `recipes.py`), a return
value a test can write (else its type, and what `dict`, `set` or `list`
make of a collection), an exception's type. A call that the sandbox interfered with (`guard.py`), or
that ran out of memory or stack, is no observation. Hypothesis runs
derandomized: the same function and budget give the same inputs.
"""

from __future__ import annotations

import builtins
import collections.abc
import contextlib
import copy
import dataclasses
import functools
import inspect
import itertools
import signal
import sys
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

from pathcraft.execute import footprint, guard, inputs, recipes, wire

MAX_ITEMS = 50  # items of an iterator walked for a test: more, and the observation is not kept
MAX_OBSERVATIONS = 12  # per function: enough to cover what the search reached; a suite people keep
CALL_SECONDS = 1.0  # one call's wall-clock limit in the search (a test that takes longer is no unit test)


class TooSlow(BaseException):
    """Raised in the analysed code by the call's timer (a BaseException: an
    `except Exception` of the code does not swallow it)."""


_ENVIRONMENT = (MemoryError, RecursionError, KeyboardInterrupt, TooSlow)


Refused = inputs.Refused  # the function cannot be searched (the message says why)


@dataclasses.dataclass(frozen=True)
class Target:
    """What a qualname names: a callable as it is (a function, a static or
    class method), or a method of `owner` called on an object built by
    calling the class with generated arguments (a method of an abstract
    class: `owner` is a concrete subclass that inherits it, `built_as`)."""

    function: Callable[..., Any] | None
    owner: type | None = None
    name: str = ""
    attribute: bool = False  # a property of the object: read, not called
    built_as: tuple[str, str] | None = None  # the object's class where it is not `owner` (module, qualname)
    files: str = ""  # where the package's modules are (`footprint.package_files`)


def target(module: Any, qualname: str) -> Target:
    """The target `qualname` of `module` (see `Target`)."""
    return dataclasses.replace(_target(module, qualname), files=footprint.package_files(module))


def _target(module: Any, qualname: str) -> Target:
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
    attribute = _computed_attribute(raw)
    if not inspect.isfunction(raw) and not attribute:
        raise Refused(f"'{qualname}' is no method (a {type(raw).__name__})")
    if inspect.isabstract(owner):  # run on an object of a subclass that inherits this very method
        for heir in inputs.concrete_subclasses(owner):
            if inspect.getattr_static(heir, name, None) is raw:
                try:
                    module, qualname = recipes.class_path(heir)
                except wire.NotPlain:
                    continue
                return Target(None, heir, name, attribute, (module, qualname))
        raise Refused(f"class {owner.__qualname__} is abstract, and no subclass a test can name inherits '{name}'")
    return Target(None, owner, name, attribute)


def _computed_attribute(raw: object) -> bool:
    """Is a class attribute read through a function of the class: a
    property, a cached property, or a descriptor of the package's own
    that wraps a function (`fget`, `func`)?"""
    if isinstance(raw, (property, functools.cached_property)):
        return True
    kind = type(raw)
    return (hasattr(kind, "__get__") and not inspect.isfunction(raw) and not inspect.isclass(raw)
            and any(inspect.isfunction(getattr(raw, name, None)) for name in ("fget", "func")))


def call(goal: Target, positional: list[str], args: dict[str, Any],
         init: dict[str, Any] | None = None, init_positional: list[str] | None = None) -> dict[str, Any]:
    """Run the target once (an object built first from `init` for a
    method); what it did, in wire form (`outcome` "skip" when it is no
    observation: the sandbox interfered, the time or memory ran out, or
    the object could not be built)."""
    before = len(guard.refusals)
    iterated = False
    made: Any = None
    left = footprint.footprint(goal.files)
    try:
        with running():
            fn: Any = goal.function
            if fn is None:
                assert goal.owner is not None
                try:
                    given = init or {}
                    made = goal.owner(*_split(init_positional or [], given), **_named(init_positional or [], given))
                except _ENVIRONMENT:
                    raise
                except BaseException as exc:  # noqa: BLE001
                    return {"outcome": "skip", "why": f"building the object raised {type(exc).__name__}"}
                if goal.attribute:  # a property: reading it is the call
                    fn = functools.partial(getattr, made, goal.name)
                else:
                    fn = getattr(made, goal.name)
            values, keywords = _split(positional, args), _named(positional, args)
            was = _states(made, args)
            try:
                result = fn(*values, **keywords)
                # a generator, `map`, ...: what it yields, walked as `list` would. Asked of its type: the
                # object's own `__class__` may be anything (a test does not ask it), and an error of this
                # question would be ours
                if _is_iterator(type(result)):
                    iterated = True
                    result = list(itertools.islice(result, MAX_ITEMS + 1))
            except _ENVIRONMENT:
                raise
            except BaseException as exc:  # noqa: BLE001  (the code's own exception is the observation)
                if len(guard.refusals) > before:
                    return {"outcome": "skip", "why": guard.refusals[-1]}
                if (where := footprint.changed(left, footprint.footprint(goal.files))) is not None:
                    return {"outcome": "skip", "why": f"changed the state of {where}"}
                kind = type(exc)
                return {"outcome": "raise", "type": _type_name(kind), **_iterated(iterated),
                        **_changed(was, _states(made, args))}
            if len(guard.refusals) > before:
                return {"outcome": "skip", "why": guard.refusals[-1]}
            if (where := footprint.changed(left, footprint.footprint(goal.files))) is not None:
                # its test would change the outcome of the tests pytest runs after it
                return {"outcome": "skip", "why": f"changed the state of {where}"}
            if iterated and len(result) > MAX_ITEMS:
                return {"outcome": "skip", "why": f"an iterator of more than {MAX_ITEMS} items"}
            return {**_described(result, iterated), **_changed(was, _states(made, args))}
    except _ENVIRONMENT as exc:
        return {"outcome": "skip", "why": f"took more than {CALL_SECONDS:g} s" if isinstance(exc, TooSlow)
                else type(exc).__name__}


def _type_name(kind: type) -> list[str]:
    """`[module, qualname]` of a class a test can import by that name; else
    `["", qualname]`: a class made in a function may say it comes from its
    caller's module (the search here, the test under pytest)."""
    try:
        return recipes.class_path(kind)
    except wire.NotPlain:
        return ["", str(getattr(kind, "__qualname__", ""))]


def _states(made: object, args: dict[str, Any]) -> dict[str, Any]:
    """What a test can read of the method's object and of the arguments
    that are lists, dicts, sets or bytearrays (wire form), to compare
    before and after the call."""
    out: dict[str, Any] = {}
    if made is not None:
        out[""] = _state(made)  # (no parameter is named "")
    for name, value in args.items():
        if type(value) in (list, dict, set, bytearray):
            try:  # as a result is: the test asserts what it holds after the call
                out[name] = recipes.encode(value)
            except Exception:  # noqa: BLE001  (not written: not compared)
                continue
    return out


def _state(made: object) -> Any:
    """An object as a test reads it: what `dict`, `set` or `list` make of a
    collection, else its public attributes that a test can write."""
    view = _view(made)
    try:
        if view is not None:
            return [view, recipes.encode(getattr(builtins, view)(made))]
        attributes = vars(made)
    except Exception:  # noqa: BLE001  (nothing a test can read)
        return None
    readable = []
    # (a name the class also has would be read through the class: not the instance's value)
    for name in sorted(a for a in attributes if isinstance(a, str) and a.isidentifier() and not a.startswith("_")
                       and inspect.getattr_static(type(made), a, None) is None):
        try:
            readable.append([name, recipes.encode(attributes[name])])
        except Exception:  # noqa: BLE001
            continue
    return ["attributes", readable]


def _changed(was: dict[str, Any], now: dict[str, Any]) -> dict[str, Any]:
    """What the call changed: `{"state": ...}` for the object (its view, or
    the attributes that changed), `{"mutated": {argument: value}}`."""
    out: dict[str, Any] = {}
    old, new = was.get(""), now.get("")
    if new is not None and old is not None and new != old and old[0] == new[0]:
        if new[0] == "attributes":
            before = {name: value for name, value in old[1]}
            changed = [[name, value] for name, value in new[1] if before.get(name) != value]
            if changed:
                out["state"] = ["attributes", changed]
        else:
            out["state"] = new
    mutated = {name: value for name, value in now.items() if name and was.get(name) != value}
    if mutated:
        out["mutated"] = mutated
    return out


def _described(result: Any, iterated: bool) -> dict[str, Any]:
    """A returned value in wire form: itself where a test can write it,
    else its type and, for a mapping, a set or another collection, what
    `dict`, `set` or `list` make of it (its `view`)."""
    try:
        return {"outcome": "return", "value": recipes.encode(result), **_iterated(iterated)}
    except Exception:  # noqa: BLE001  (NotPlain, or the object answered our questions oddly: not the code's doing)
        if iterated:
            return {"outcome": "skip", "why": "an iterator of values a test cannot write"}
    kind = type(result)
    described = {"outcome": "return", "type": _type_name(kind)}
    view = _view(result)
    if view is not None:
        try:
            described.update(view=view, value=recipes.encode(getattr(builtins, view)(result)))
        except Exception:  # noqa: BLE001  (no view a test can write: the type alone)
            pass
    return described


def _view(result: object) -> str | None:
    """How a test reads a collection it cannot write: `dict`, `set` or `list`."""
    kind = type(result)  # asked of the type, as `_is_iterator` does
    try:
        if issubclass(kind, collections.abc.Mapping):
            return "dict"
        if issubclass(kind, collections.abc.Set):
            return "set"
        if issubclass(kind, collections.abc.Collection) and not issubclass(kind, (str, bytes)):
            return "list"
    except Exception:  # noqa: BLE001  (an isinstance a metaclass answers oddly)
        pass
    return None


@contextlib.contextmanager
def running(seconds: float = CALL_SECONDS, cpu_seconds: float | None = None) -> Iterator[None]:
    """The analysed code runs in here: under the call's timer (`seconds` of
    wall clock; with `cpu_seconds`, also a timer of the process's CPU time,
    which a loaded machine's descheduling does not advance) and the guard's
    rules for a call (`guard.calling`); nested uses share the outer one."""
    global _depth
    if _depth:
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
        return
    previous = signal.signal(signal.SIGALRM, _too_slow)
    previous_cpu = signal.signal(signal.SIGPROF, _too_slow) if cpu_seconds is not None else None
    signal.setitimer(signal.ITIMER_REAL, seconds)
    if cpu_seconds is not None:
        signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
    guard.calling = True
    _depth = 1
    try:
        yield
    finally:
        _depth = 0
        guard.calling = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if cpu_seconds is not None:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous_cpu)


_depth = 0  # how deep in `running` this process is


def _is_iterator(kind: type) -> bool:
    try:
        return issubclass(kind, Iterator)
    except Exception:  # noqa: BLE001  (a metaclass that answers oddly: not walked)
        return False


def _iterated(iterated: bool) -> dict[str, Any]:
    """The mark of an outcome seen by walking the result (`list(f(...))`)."""
    return {"iterated": True} if iterated else {}


def _split(positional: list[str], args: dict[str, Any]) -> list[Any]:
    """The values passed by position, in order (`"*args"`: the items of `args`)."""
    values: list[Any] = []
    for name in positional:
        if name.startswith("*"):
            values.extend(args.get(name[1:], ()))
        elif name in args:
            values.append(args[name])
    return values


def _named(positional: list[str], args: dict[str, Any]) -> dict[str, Any]:
    """The values passed by name."""
    return {n: v for n, v in args.items() if n not in positional and f"*{n}" not in positional}


def _too_slow(signum: int, frame: FrameType | None) -> None:
    raise TooSlow


def observe(module: Any, qualname: str, seconds: float, examples: int,
            tell: Callable[[dict[str, Any]], None] = lambda line: None,
            avoid: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Search `qualname` of `module` (see the module docstring). `tell` is
    given `{"trying": arguments}` before each call and `{"partial":
    observation}` as each is kept, so that a crash costs the call that
    crashed: the next search `avoid`s its arguments."""
    from hypothesis import strategies as st

    goal = target(module, qualname)
    recipes.forget()
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
        args = {n: v for n, v in drawn["args"].items() if v is not inputs.LEFT_OUT}
        init = {n: v for n, v in drawn["init"].items() if v is not inputs.LEFT_OUT}
        trial = _written(args, init if goal.function is None else None, skipped)
        if trial is None or trial in avoided or _seed_ordered(trial):
            return
        tell({"trying": trial})
        tried += 1
        outcome, reached = _traced(filename, lambda: call(goal, positional, args, init, init_positional))
        if outcome["outcome"] == "skip":
            why = str(outcome.get("why"))
            skipped[why] = skipped.get(why, 0) + 1
            return
        # an ending: how the call ended, and whether it changed its object or an argument (a test shows it)
        ending = f"{outcome['outcome']}:{outcome.get('type')}:{'state' in outcome}:{'mutated' in outcome}"
        if reached - arcs or ending not in endings:
            arcs.update(reached)
            endings.add(ending)
            kept.append({**trial, **outcome})
            tell({"partial": kept[-1]})

    try:
        _drive(run, {"args": st.fixed_dictionaries(strategies), "init": building}, examples)
    except Exception as exc:  # noqa: BLE001  (Hypothesis's own failures: the search ends with what it kept)
        if not kept:
            raise Refused(f"the search failed: {type(exc).__name__}: {str(exc)[:120]}") from None
    return {"observations": kept, "tried": tried, "arcs": len(arcs), "positional": positional,
            "init_positional": init_positional, "skipped": skipped, "attribute": goal.attribute,
            **({"built_as": list(goal.built_as)} if goal.built_as else {})}


def _written(args: dict[str, Any], init: dict[str, Any] | None, skipped: dict[str, int]) -> dict[str, Any] | None:
    """The arguments (and a method's constructor arguments) as a test writes
    them, in wire form; None, counted in `skipped`, when one cannot be."""
    try:
        with running():
            shown = {name: recipes.encode(value, argument=True) for name, value in args.items()}
            built = {name: recipes.encode(value, argument=True) for name, value in (init or {}).items()}
    except wire.NotPlain as exc:
        why = f"an argument a test cannot write: {str(exc)[:80]}"
        skipped[why] = skipped.get(why, 0) + 1
        return None
    except _ENVIRONMENT:
        return None
    return {"args": shown, **({"init": built} if init is not None else {})}


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


def _plan(goal: Target, st: Any) -> tuple[dict[str, Any], list[str], Any, list[str]]:
    """The strategies and positional-only names of the call, and the
    strategy of the constructor's arguments that build a method's object
    (drawn, or those of a call of the class its module writes) and their
    positional-only names (none for a function)."""
    if goal.function is not None:
        strategies, positional = inputs.arguments(goal.function, st, running)
        return strategies, positional, st.just({}), []
    assert goal.owner is not None
    if goal.attribute:
        strategies, positional = {}, []
    else:
        strategies, positional = inputs.arguments(inspect.getattr_static(goal.owner, goal.name), st, running,
                                                  skip_first=True)
    building, init_positional = inputs.arguments(goal.owner, st, running, hints_of=inputs.constructor(goal.owner))
    drawn = st.fixed_dictionaries(building)
    seen = [bound for call in inputs.examples(goal.owner) if (bound := _bound(goal.owner, call)) is not None]
    if seen:  # (a copy each: see inputs.py)
        drawn = st.one_of(st.sampled_from(seen).map(copy.deepcopy), drawn)
    return strategies, positional, drawn, init_positional


def _bound(owner: type, call: tuple[tuple[object, ...], dict[str, object]]) -> dict[str, object] | None:
    """A call's arguments by parameter name (None where they do not fit the signature)."""
    try:
        bound = inspect.signature(owner).bind(*call[0], **call[1])
    except (TypeError, ValueError):
        return None
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for n, p in bound.signature.parameters.items()
           if n in bound.arguments):
        return None
    return dict(bound.arguments)


def _drive(run: Callable[[dict[str, Any]], None], parts: dict[str, Any], examples: int) -> None:
    """Hypothesis draws `examples` inputs for `run`, derandomized, without
    its database, shrinking or health checks (`run` never fails: it keeps)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    probe = given(st.fixed_dictionaries(parts))(run)
    settings(max_examples=examples, database=None, deadline=None, derandomize=True, phases=[Phase.generate],
             suppress_health_check=list(HealthCheck))(probe)()


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
