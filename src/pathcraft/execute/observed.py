"""Observed tests: what the real code did on inputs a search found.

For a function the symbolic engine refuses (`--execute`), `observe` asks a
sandboxed worker to search it (`search.py`; a one-module run keeps one
worker for all its functions, which imports the module once), then runs
every observation
again in a fresh worker, in the reverse order, with the user's
environment variables and another hash seed (a value holding text: in two,
with two other seeds): an observation whose outcome differs there (time,
randomness, state left by an earlier call, an environment variable, the
order of a set of strings) is dropped and counted, so a test depends
neither on the search's history nor on the order pytest runs the tests in.
What stays the same in all of them yet differs under pytest is not
caught: the date (a call on today's date), state left by another
function's tests in the same pytest process, a set of two strings whose
order three hash seeds happen to agree on (one time in four). `test_text` writes one
observation as a pytest test: the call with its arguments as literals
written here (never text from the worker; a value built by a call, such
as `Decimal('1.5')` or an object of the package, as that call, its class
imported in the test), and an assertion of what is exact -- the value
when a test can write it (for an iterator, the list of what it yields,
walked whole), else its type and, for a collection, what `dict`, `set`
or `list` make of it; an exception's type, never its message.
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import keyword
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pathcraft.execute import wire
from pathcraft.execute.sandbox import Sandbox
from pathcraft.execute.search import CALL_SECONDS, MAX_OBSERVATIONS
from pathcraft.layout import within_limit

MAX_FAULTS = 4  # searches of one function a dying worker may cost
PROVENANCE = "observed: the real code run on inputs a search found (--execute); not a path of the model"


def search_seconds(seconds: float) -> float:
    """How long a search of `seconds` may take before its worker is stopped
    (a call stuck in C code, which the call's own timer cannot stop)."""
    return 2 * seconds + 10


def replay_seconds(calls: int) -> float:
    """How long a replay of `calls` calls may take (each has a timer of its own)."""
    return 2 * CALL_SECONDS * calls + 10


def worst_seconds(seconds: float) -> float:
    """The longest `observe` may take: every search stopped, two replays of all it may keep
    (a package run gives a function's work item this much more time)."""
    return MAX_FAULTS * search_seconds(seconds) + 2 * replay_seconds(MAX_OBSERVATIONS)


@dataclass(frozen=True)
class Observation:
    """One call and what it did."""

    args: tuple[tuple[str, object], ...]
    outcome: str  # "return" | "raise"
    init: tuple[tuple[str, object], ...] | None = None  # a method's object: the class called with these
    iterated: bool = False  # the result is an iterator: `value` is the list of what it yields
    value: object = None  # the return value, when `exact`
    exact: bool = False
    type: tuple[str, str] | None = None  # (module, qualname) of the value or exception when not exact
    view: str | None = None  # not exact: `value` is what this builtin ("dict", "set", "list") makes of it
    # what the call changed: the object's view ("list", value) or its attributes (("attributes", ((name,
    # value), ...))), and the arguments (lists, dicts, sets) left otherwise: ((name, value), ...)
    state: tuple[str, object] | None = None
    mutated: tuple[tuple[str, object], ...] = ()


@dataclass
class ObservedRun:
    """A function's observations, and what became of the rest."""

    qualname: str
    observations: list[Observation] = field(default_factory=list)
    positional: tuple[str, ...] = ()
    init_positional: tuple[str, ...] = ()  # of the class's constructor, for a method
    attribute: bool = False  # a property: a test reads it rather than calls it
    built_as: tuple[str, str] | None = None  # a method of an abstract class: the subclass its object is of
    refused: str | None = None  # why the search could not run
    fault: str | None = None  # what ended a worker early (the observations before it are kept)
    unstable: int = 0  # observations dropped because a fresh run did otherwise
    tried: int = 0
    skipped: dict[str, int] = field(default_factory=dict)  # why calls were no observation -> how often
    crashed: int = 0  # inputs a worker died on (each skipped by the next search)


def observe(import_root: Path, module: str, qualname: str, seconds: float, examples: int = 400,
            searcher: Sandbox | None = None) -> ObservedRun:
    """Search `module.qualname` in a worker (`searcher`, kept for the module's
    other functions, or its own), then check each observation in a fresh one."""
    run = ObservedRun(qualname)
    avoid: list[Any] = []
    with contextlib.nullcontext(searcher) if searcher is not None else Sandbox(import_root) as sandbox:
        for _ in range(MAX_FAULTS):
            raw: list[dict[str, Any]] = []
            trying: list[Any] = []

            def progress(line: dict[str, Any]) -> None:
                if "partial" in line:
                    raw.append(line["partial"])
                else:
                    trying[:] = [line["trying"]]

            answer = sandbox.request({"op": "observe", "module": module, "qualname": qualname, "seconds": seconds,
                                      "examples": examples, "avoid": avoid}, search_seconds(seconds), progress)
            if "fault" not in answer or not trying:
                break
            avoid.extend(trying)  # the input it died on: the next worker's search goes past it
            run.crashed += 1
    if "fault" in answer:
        run.fault = str(answer["fault"])
    elif "refused" in answer:
        run.refused = str(answer["refused"])
        return run
    else:
        raw = list(answer.get("observations", []))
        run.tried = int(answer.get("tried", 0))
        run.skipped = {str(k): int(v) for k, v in dict(answer.get("skipped", {})).items()}
        try:
            run.positional = tuple(_name(p) for p in answer.get("positional", []))
            run.init_positional = tuple(_name(p) for p in answer.get("init_positional", []))
        except ValueError:
            run.refused = "the worker named parameters that are no names"
            return run
        run.attribute = answer.get("attribute") is True
        if "built_as" in answer:
            try:
                run.built_as = wire.class_path(answer["built_as"])
            except ValueError:
                run.refused = "the worker named no class for the object"
                return run
    if not raw:
        return run
    stable = _repeated(import_root, module, qualname, run, raw, seconds, hash_seed=1)
    # a result holding text may hang on the order of a set of strings: a second seed, so that such an
    # order goes unnoticed only where three seeds (the search's and these two) agree
    textual = [item for item in stable if _holds_text(item)]
    again = _repeated(import_root, module, qualname, run, textual, seconds, hash_seed=2) if textual else []
    kept = [item for item in stable if not _holds_text(item) or item in again]
    run.unstable += len(raw) - len(kept)
    for item in kept:
        try:
            run.observations.append(_decoded(item))
        except (ValueError, TypeError, KeyError):
            run.unstable += 1  # malformed: the worker is not trusted to send what it should
    return run


def _repeated(import_root: Path, module: str, qualname: str, run: ObservedRun, raw: list[dict[str, Any]],
              seconds: float, hash_seed: int) -> list[dict[str, Any]]:
    """The observations a fresh worker (the user's environment, `hash_seed`)
    repeats when it runs them in the reverse order."""
    with Sandbox(import_root, like_the_user=True, hash_seed=hash_seed, searching=False) as fresh:
        calls = [{"args": item["args"], **({"init": item["init"]} if "init" in item else {})} for item in reversed(raw)]
        again = fresh.request({"op": "replay", "module": module, "qualname": qualname, "calls": calls,
                               "positional": list(run.positional), "init_positional": list(run.init_positional)},
                              replay_seconds(len(calls)))
    outcomes = list(reversed(again.get("outcomes", []))) if "outcomes" in again else [None] * len(raw)
    return [item for item, repeated in zip(raw, outcomes)
            if repeated == {k: v for k, v in item.items() if k not in ("args", "init")}]


def _name(name: object) -> str:
    """A parameter's name from the worker (it is written into a test): an identifier, or ValueError."""
    if not isinstance(name, str) or not wire.is_name(name.removeprefix("*")):
        raise ValueError(f"no parameter name: {name!r:.40}")
    return name


def _holds_text(item: dict[str, Any]) -> bool:
    """Does the observed value hold a str or bytes (in wire form)?"""
    def walk(data: Any) -> bool:
        if isinstance(data, list) and data and data[0] in ("str", "bytes"):
            return True
        return isinstance(data, list) and any(walk(part) for part in data[1:] if isinstance(part, list))

    value = item.get("value")
    return value is not None and walk(value)


def _decoded(item: dict[str, Any]) -> Observation:
    seen = _seen(item)
    return dataclasses.replace(seen, state=_decoded_state(item.get("state")), mutated=tuple(
        (_name(name), wire.decode(value)) for name, value in dict(item.get("mutated", {})).items()))


def _decoded_state(data: object) -> tuple[str, object] | None:
    if data is None:
        return None
    if not isinstance(data, list) or len(data) != 2:
        raise ValueError("a state that is no pair")
    if data[0] in ("dict", "set", "list"):
        return str(data[0]), wire.decode(data[1])
    if data[0] == "attributes" and isinstance(data[1], list):
        return "attributes", tuple((_name(pair[0]), wire.decode(pair[1])) for pair in data[1])
    raise ValueError(f"no state: {data!r:.40}")


def _seen(item: dict[str, Any]) -> Observation:
    args = tuple((_name(name), wire.decode(value)) for name, value in item["args"].items())
    init = tuple((_name(name), wire.decode(value)) for name, value in item["init"].items()) if "init" in item \
        else None
    outcome = str(item["outcome"])
    if outcome not in ("return", "raise"):
        raise ValueError(outcome)
    kind = item.get("type")
    named = (str(kind[0]), str(kind[1])) if isinstance(kind, list) and len(kind) == 2 else None
    iterated = item.get("iterated") is True
    view = item.get("view")
    if outcome == "return" and "value" in item and view is None:
        return Observation(args, outcome, init, iterated, wire.decode(item["value"]), exact=True)
    if named is None:
        raise ValueError("an outcome without its type")
    if outcome == "return" and view in ("dict", "set", "list") and "value" in item:
        return Observation(args, outcome, init, iterated, wire.decode(item["value"]), type=named, view=str(view))
    if view is not None:
        raise ValueError(f"a view that is none: {view!r:.40}")
    return Observation(args, outcome, init, iterated, type=named)


def test_text(alias: str, module: str, qualname: str, number: int, observation: Observation,
              positional: tuple[str, ...] = (), init_positional: tuple[str, ...] = (),
              attribute: bool = False, built_as: tuple[str, str] | None = None) -> str:
    """One observation as a pytest test (see the module docstring;
    `attribute`: the method is a property, read rather than called;
    `built_as`: the class the object is built from, when not the method's)."""
    names = Names(alias, module)
    lines = [f"def test_{qualname.replace('.', '_')}_{number}_{test_kind(observation)}() -> None:",
             f"    # {PROVENANCE}"]
    given = dict(observation.args)
    bound = {name: _local(name, alias) for name, _ in observation.mutated if name in given}
    lines += [f"    {bound[name]} = {literal(given[name], names)}" for name in sorted(bound)]
    if observation.init is not None:  # a method: on an object built as the search built it
        owner, _, method = qualname.rpartition(".")
        maker = names.of(built_as) if built_as else f"{alias}.{owner}"
        lines.append(f"    obj = {maker}({_arguments(observation.init, init_positional, names)})")
        call = f"obj.{method}" if attribute else \
            f"obj.{method}({_arguments(observation.args, positional, names, bound)})"
    else:
        call = f"{alias}.{qualname}({_arguments(observation.args, positional, names, bound)})"
    if observation.iterated:  # what the returned iterator yields, walked whole
        call = f"list({call})"
    if observation.outcome == "raise":
        assert observation.type is not None
        kind = _exception_name(alias, module, observation.type)
        if kind is not None:
            lines += [f"    with pytest.raises({kind}):", f"        {call}"]
        else:
            lines += ["    with pytest.raises(BaseException) as caught:", f"        {call}",
                      f"    assert {_type_test('caught.value', observation.type)}"]
    elif observation.exact:
        lines.append(f"    assert {call} == {literal(observation.value, names)}" if observation.value is not None
                     and not isinstance(observation.value, bool) else f"    assert {call} is {observation.value!r}")
    else:
        assert observation.type is not None
        lines += [f"    result = {call}", f"    assert {_type_test('result', observation.type)}"]
        if observation.view is not None:  # a collection read as a dict, a set or a list
            lines.append(f"    assert {observation.view}(result) == {literal(observation.value, names)}")
    lines += _after(observation, bound, names)
    lines[2:2] = [f"    {line}" for line in sorted(names.imports)]
    return within_limit("\n\n" + "\n".join(lines) + "\n")  # two blank lines before, as between the path tests


def _type_test(value: str, kind: tuple[str, str]) -> str:
    """The assertion of a value's type: its module and name, or only its
    name when the search found no module that has it by that name."""
    if not kind[0]:
        return f"type({value}).__qualname__ == {kind[1]!r}"
    return f"(type({value}).__module__, type({value}).__qualname__) == {literal(kind)}"


def _local(name: str, alias: str) -> str:
    """The variable a test holds an argument in (its parameter's name, unless taken)."""
    return f"{name}_value" if name in Names.TAKEN or name == alias or keyword.iskeyword(name) else name


def _after(observation: Observation, bound: dict[str, str], names: Names) -> list[str]:
    """The assertions of what the call changed: the object's state, the arguments it changed."""
    lines = []
    if observation.state is not None:
        kind, value = observation.state
        if kind == "attributes":
            assert isinstance(value, tuple)
            lines += [f"    assert obj.{name} == {literal(item, names)}" if item is not None and not isinstance(
                item, bool) else f"    assert obj.{name} is {item!r}" for name, item in value]
        else:
            lines.append(f"    assert {kind}(obj) == {literal(value, names)}")
    for name, value in observation.mutated:
        if name in bound:
            lines.append(f"    assert {bound[name]} == {literal(value, names)}")
    return lines


class Names:
    """How a test names the classes its values are built from (`Made`,
    `Member`), and the imports at the top of its body that this takes:
    the tested module's own through its alias, a builtin by its name, any
    other by `from module import Class` (or `importlib` where that name
    is taken)."""

    TAKEN = frozenset({"obj", "result", "caught", "pytest", "importlib"})

    def __init__(self, alias: str, module: str) -> None:
        self.alias, self.module = alias, module
        self.imports: set[str] = set()
        self._bound: dict[str, str] = {}  # a name imported in the test -> its module

    def of(self, path: tuple[str, str]) -> str:
        module, qualname = path
        if module == self.module:
            return f"{self.alias}.{qualname}"
        if module == "builtins" and hasattr(builtins, qualname):
            return qualname
        first = qualname.split(".")[0]
        if first in self.TAKEN or first == self.alias or self._bound.get(first, module) != module:
            self.imports.add("import importlib")
            return f"importlib.import_module({module!r}).{qualname}"
        self._bound[first] = module
        self.imports.add(f"from {module} import {first}")
        return qualname


def _arguments(args: tuple[tuple[str, object], ...], positional: tuple[str, ...], names: Names,
               bound: dict[str, str] | None = None) -> str:
    """A call's arguments: the positional-only ones in the signature's order
    (`positional`; the search may hand its arguments in another; `"*args"`:
    the values of `args`), then the others by name; one the test holds in
    a variable (`bound`) by that variable."""
    values = dict(args)
    held = bound or {}

    def text(name: str) -> str:  # an argument the test holds in a variable, or its literal
        return held[name] if name in held else literal(values[name], names)

    given: list[str] = []
    for name in positional:
        if name.startswith("*"):  # `*args`: its values one by one
            given += [literal(v, names) for v in _items(values.get(name[1:], []))]
        elif name in values:
            given.append(text(name))
    given += [f"{n}={text(n)}" for n, _ in sorted(args) if n not in positional and f"*{n}" not in positional]
    return ", ".join(given)


def _items(value: object) -> list[object]:
    if not isinstance(value, list):
        raise ValueError("*args that are no list")
    return value


def test_kind(observation: Observation) -> str:
    """The end of the test's name: `observed_returns` (the value, or what
    `dict`, `set` or `list` make of it), `observed_yields` (an iterator's
    items), `observed_raises_value_error`, or `observed_returns_type` (only
    the type of the value is asserted)."""
    if observation.outcome == "raise":
        assert observation.type is not None
        name = re.sub(r"\W", "_", observation.type[1].rpartition(".")[2])
        return "observed_raises_" + re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()
    if observation.iterated:
        return "observed_yields"
    return "observed_returns" if observation.exact or observation.view else "observed_returns_type"


def _exception_name(alias: str, module: str, kind: tuple[str, str]) -> str | None:
    """How a test names an exception class: a builtin by its name, one of
    the tested module's through it; None for another module's."""
    where, name = kind
    if where == "builtins" and isinstance(getattr(builtins, name, None), type):
        return name
    if where == module and name.isidentifier():
        return f"{alias}.{name}"
    return None


def literal(value: object, names: Names | None = None) -> str:
    """Python source for a value in wire's decoded form, the same text on
    every machine (a set's items sorted by their text); `names` writes the
    classes of values built by a call."""
    if isinstance(value, (wire.Made, wire.Member, wire.Global)):
        if names is None:
            raise ValueError("a value built by a call, and no names to write it with")
        if isinstance(value, wire.Global):
            return names.of(value.path)
        if isinstance(value, wire.Member):
            return f"{names.of(value.path)}.{value.name}"
        given = [literal(v, names) for v in value.args] + [f"{k}={literal(v, names)}" for k, v in value.keywords]
        return f"{names.of(value.path)}({', '.join(given)})"
    if isinstance(value, (set, frozenset)):
        items = sorted(literal(v, names) for v in value)
        inner = "{" + ", ".join(items) + "}" if items else ""
        if type(value) is frozenset:
            return f"frozenset({inner})"
        return inner or "set()"
    if isinstance(value, list):
        return "[" + ", ".join(literal(v, names) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(literal(v, names) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k, names)}: {literal(v, names)}" for k, v in value.items()) + "}"
    return repr(value)
