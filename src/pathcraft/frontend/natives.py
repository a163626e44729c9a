"""Native summaries: what a function pathcraft cannot read does, written
by the user as a Python model (paper 002 §3.3).

A C extension's function, or one of a package outside the analysed tree,
has no code the frontend can lower, so a call of it drops the paths that
reach it. A summary file gives it a model in the subset, marked with the
library function it stands for:

    from pathcraft.assume import summary_of

    @summary_of("fastlib.clamp")
    def clamp(x: int, low: int, high: int) -> int:
        if low > high:
            raise ValueError("low > high")
        return min(max(x, low), high)

Pre-conditions are the exceptions the model raises (the analysed code
sees them raised by the call), post-conditions the value it returns or
the arguments it mutates; `raise NotImplementedError(why)` marks what the
model leaves out (the path is dropped there, `why` named). A model may
call the file's other functions. The file is read, never run, and its
models are silent, as the prelude's are: the real trace sees no line of
them. Calls are matched by the library name the analysed module imports
(`import fastlib` / `from fastlib import clamp`), take positional
arguments only, and win over pathcraft's own model of the same name.
Give the files with `--native-summaries FILE` or `native_summaries = [...]`
in `[tool.pathcraft]`.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from pathcraft.errors import PathcraftError, at
from pathcraft.frontend.module import function_info, load_module
from pathcraft.frontend.nativetable import Natives
from pathcraft.frontend.prelude import silent_predicates
from pathcraft.ir.builtin_names import function_predicate
from pathcraft.ir.nodes import Predicate

DECORATOR = "summary_of"


def _target(fn: ast.FunctionDef, path: str) -> str | None:
    """The library function `@summary_of("module.name")` names, if any."""
    for decorator in fn.decorator_list:
        if not isinstance(decorator, ast.Call):
            continue
        func = decorator.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if name != DECORATOR:
            continue
        if len(decorator.args) != 1 or decorator.keywords or not isinstance(decorator.args[0], ast.Constant) \
                or not isinstance(decorator.args[0].value, str) or "." not in decorator.args[0].value:
            raise PathcraftError(f"@{DECORATOR} takes the library function's dotted name, as in "
                                 f"@{DECORATOR}(\"fastlib.gcd\")", at(path, decorator))
        return decorator.args[0].value
    return None


def load_natives(files: Sequence[str]) -> Natives:
    """Lower the models of `files` (bad input raises PathcraftError with
    the file's line)."""
    entries: dict[str, tuple[str, int]] = {}
    predicates: dict[str, Predicate] = {}
    for index, file in enumerate(files):
        module = load_module(file)
        targets: dict[str, str] = {}
        for name, fn in module.functions.items():
            target = _target(fn, file)
            if target is not None:
                if target in entries or target in targets.values():
                    raise PathcraftError(f"a second native summary of {target}", at(file, fn))
                targets[name] = target
            fn.decorator_list = []  # read above; lowered as a plain function
        if not targets:
            raise PathcraftError(f"{file}: no function is marked @{DECORATOR}(\"module.function\")")
        public = {name: function_predicate(f"native{index}.{targets.get(name, name)}")
                  for name in module.functions}
        predicates.update(silent_predicates(module, public.__getitem__))  # `$native0.fastlib.gcd:loop3`
        for name, target in targets.items():
            entries[target] = (public[name], len(function_info(module, module.functions[name], name).params))
    return Natives(entries, predicates)
