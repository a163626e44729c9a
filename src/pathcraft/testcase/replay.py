"""Replay test cases against the real code and report what each run did.

Run as `python -m pathcraft.testcase.replay MODULE.py CASES.json OUT.json`, in a
subprocess: this is the one place (besides pytest itself) where the
analysed code executes, and only under `--verify`. Writes one JSON document
to OUT.json (not stdout, which the code under test may print to): per case,
the outcome and the path signature of the real run.
"""

from __future__ import annotations

import ast
import importlib
import json
import sys
from pathlib import Path
from typing import Any

from pathcraft.files import read_source
from pathcraft.testcase.heapdesc import build_inputs, real_snapshot, real_value
from pathcraft.testcase.pathsig import RealRun, record, statement_lines


def load(module_path: str) -> Any:
    """Import the module the way the generated tests do (by its dotted name
    from the root of its packages)."""
    from pathcraft.frontend.packages import import_name, module_name, register_root

    name, root = import_name(Path(module_path))
    sys.path.insert(0, str(root))
    register_root(Path(module_path))  # a package root with no identifier name, under its alias
    return importlib.import_module(module_name(Path(module_path)))


def resolve(module: Any, qualname: str) -> Any:
    obj = _dotted(module, qualname)
    return obj.fget if isinstance(obj, property) else obj  # a property: its getter, called with self


def _dotted(module: Any, qualname: str) -> Any:
    """`Outer.Inner` (a nested class), `Class.method`: attribute by attribute."""
    obj = module
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def spelled_class(module: Any, spelled: str) -> Any:
    """The class a test names: an attribute path of the tested module, or of
    the module a `<pkg.mod>Class` spelling names (emit_pytest.homed)."""
    if spelled.startswith("<"):
        import importlib

        home, _, rest = spelled[1:].partition(">")
        return _dotted(importlib.import_module(home), rest)
    return _dotted(module, spelled)


def replay(module_path: str, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    module = load(module_path)
    filename = module.__file__
    lines = statement_lines(ast.parse(read_source(module_path)))  # as Python reads it: a BOM, a coding cookie
    results = []
    for case in cases:
        run, value, final = run_case(module, case, filename, lines)
        results.append({
            "name": case["name"],
            "kind": run.kind,
            "value": value,
            "type": run.exc_type,
            "message": run.exc_message,
            "path": [list(e) for e in run.events],
            "heap_final": final,
        })
    return results


def run_case(module: Any, case: dict[str, Any], filename: str,
             lines: dict[int, int]) -> tuple[RealRun, Any, dict[str, Any]]:
    """Build the case's inputs, run it traced, snapshot the result and heap."""
    fn = resolve(module, case["function"])
    clear_caches(module)  # the paths assume functools caches start empty
    objects = inputs_of(module, case)
    spellings = case.get("spellings", {})
    args = {k: real_value(v, objects, lambda name: spelled_class(module, spellings.get(name, name)))
            for k, v in case["inputs"].items()}
    run = record(fn, args, filename, lines)
    value, final = real_snapshot(run.value if run.kind == "return" else None, objects)
    return run, value, final


def clear_caches(module: Any) -> None:
    """Empty every `functools.cache`/`lru_cache` the module defines."""
    for value in list(vars(module).values()):
        clear = getattr(value, "cache_clear", None)
        if callable(clear) and hasattr(value, "__wrapped__"):
            clear()


def inputs_of(module: Any, case: dict[str, Any]) -> dict[str, Any]:
    """The case's input objects by name, in the order of its input heap:
    built field by field, or (`construction`) through the class's API, the
    objects of the state then reached by their access paths."""
    heap_in = case.get("heap_in", {})
    made = case.get("construction")
    spellings = case.get("spellings", {})

    def classes(name: str) -> Any:
        return spelled_class(module, spellings.get(name, name))

    if made is None:
        return build_inputs(heap_in, classes)
    bound = made["bindings"]
    objects = build_inputs({n: d for n, d in heap_in.items() if n not in bound}, classes)
    receiver = _dotted(module, made["class"])(**made["constructor"])
    for method, arguments in made["calls"]:
        getattr(receiver, method)(**arguments)
    for name, path in bound.items():
        value = receiver
        for step in path:
            value = value[step] if isinstance(step, int) else getattr(value, step)
        objects[name] = value
    return {name: objects[name] for name in heap_in}


def main(argv: list[str]) -> int:
    module_path, cases_path, out_path = argv  # results go to a file: the code under test may print
    cases = json.loads(Path(cases_path).read_text(encoding="utf-8"))["tests"]
    results = replay(module_path, cases)
    Path(out_path).write_text(json.dumps(results), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
