"""In the worker: which generated tests kill which mutant of a function.

`--suite compact` (suite/compact.py) needs, for each mutant of the tested
function (suite/mutants.py), the tests that fail on it. Running pytest once
a mutant takes a second each; here the generated test module is imported
once, and each mutant's code is swapped into the real function object
(`__code__`), so that every caller, recursion and test sees it, then each
test function is called directly, under the worker's guard
(`search.running`). A test that fails on the unmutated code is no test
here; a test that fails or raises on a mutant kills it, and so does one
that runs past its timer twice. The timer counts the worker's CPU time
(20 times the test's CPU time on the real code, at least
`MUTANT_SECONDS`), with the call's wall-clock limit behind it: a test of
half a millisecond descheduled past 20 ms on a loaded machine made false
kills under a wall-clock timer, and a compact suite that trusts one drops
the test that really kills the mutant (cosmic-ray found two such mutants
of goodrich's `SortedPriorityQueue.add` surviving); descheduling spends no
CPU time, so the second run needs no longer timer, and a mutant that
loops costs 40 ms a test, not the quarter second a wall-clock
confirmation took.
Only the tests whose path reaches the mutated line are run on it (the
others run the same code as before).
"""

from __future__ import annotations

import importlib
import inspect
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from types import CodeType, FunctionType, ModuleType
from typing import Any

from pathcraft.execute import search

# a mutant's run of a test may take 20 times the real code's CPU time, and at least this much (a mutant
# that loops forever is stopped then, and run again to confirm it: killed)
MUTANT_SECONDS = 0.02


def kills(module: ModuleType, request: dict[str, Any]) -> dict[str, Any]:
    """`request`: `tests_folder`, `tests_module`, `qualname`, `tests` (names),
    `mutants` ([number, line, source]), `reaches` (test -> lines its path
    runs), `cached` (qualnames whose caches each test starts empty).
    Answers `passing` (tests that pass unmutated), `kills` (mutant number
    -> the tests that kill it) and `not_applied` (mutants that do not compile
    into the function)."""
    sys.path.insert(0, str(Path(str(request["tests_folder"]))))
    tests_module = importlib.import_module(str(request["tests_module"]))
    function = _function(module, str(request["qualname"]))
    caches = [getattr(_attribute(module, q), "cache_clear", None) for q in request.get("cached", [])]
    reaches = {str(t): set(lines) for t, lines in dict(request.get("reaches", {})).items()}

    took: dict[str, float] = {}  # each test's time on the real code

    def outcome(name: str) -> str:
        """'pass', 'fail' or 'slow' (past the timer: 20 times the test's CPU
        time on the real code and at least `MUTANT_SECONDS`; the call's
        wall-clock limit on the real code)."""
        for clear in caches:
            if callable(clear):
                clear()
        test = getattr(tests_module, name, None)
        if not callable(test):
            return "fail"
        cpu = max(MUTANT_SECONDS, 20 * took[name]) if name in took else None
        started = time.process_time()
        try:
            with search.running(search.CALL_SECONDS, cpu):
                test()
        except search.TooSlow:
            return "slow"
        except BaseException:  # noqa: BLE001  (any failure, RecursionError included, fails the test)
            return "fail"
        took.setdefault(name, time.process_time() - started)
        return "pass"

    def passes(name: str) -> bool:
        return outcome(name) == "pass"

    def killed_by(name: str) -> bool:
        first = outcome(name)
        return first == "fail" or first == "slow" and outcome(name) != "pass"

    passing = [str(t) for t in request["tests"] if passes(str(t))]
    original = function.__code__
    killed: dict[str, list[str]] = {}
    not_applied: list[int] = []
    for number, line, source in request["mutants"]:
        code = _mutant_code(module, str(request["qualname"]), str(source), original)
        if code is None:
            not_applied.append(int(number))
            continue
        function.__code__ = code
        try:
            killed[str(number)] = [t for t in passing if int(line) in reaches.get(t, ()) and killed_by(t)]
        finally:
            function.__code__ = original
    return {"passing": passing, "kills": killed, "not_applied": not_applied}


def _attribute(module: ModuleType, qualname: str) -> Any:
    value: Any = module
    for part in qualname.split("."):
        value = value.__dict__[part] if isinstance(value, type) and part in value.__dict__ else getattr(value, part)
    return value


def _function(module: ModuleType, qualname: str) -> FunctionType:
    """The function object whose code the tested callable runs (under a
    `staticmethod`, `classmethod`, `property` or a `functools` wrapper)."""
    raw = _attribute(module, qualname)
    raw = getattr(raw, "__func__", None) or getattr(raw, "fget", None) or raw
    function = inspect.unwrap(raw)
    if not isinstance(function, FunctionType):
        raise search.Refused(f"{qualname} is no Python function")
    return function


def _mutant_code(module: ModuleType, qualname: str, source: str, original: CodeType) -> CodeType | None:
    """The mutated definition compiled as the original was: inside a class
    of the same name for a method (its private names mangle alike, and
    `super()` finds its cell), in a copy of the module's namespace."""
    owner = qualname.split(".")[-2] if "." in qualname else None
    text = f"class {owner}:\n{textwrap.indent(source, '    ')}\n" if owner else source
    namespace = dict(vars(module))
    try:
        exec(compile(text, getattr(module, "__file__", None) or "<mutant>", "exec"), namespace)  # noqa: S102
    except BaseException:  # noqa: BLE001  (a mutant that does not compile is not applied)
        return None
    name = qualname.split(".")[-1]
    made: Callable[..., Any] | None = vars(namespace[owner]).get(name) if owner else namespace.get(name)
    made = getattr(made, "__func__", None) or made
    code = getattr(made, "__code__", None)
    if not isinstance(code, CodeType) or code.co_freevars != original.co_freevars:
        return None
    return code
