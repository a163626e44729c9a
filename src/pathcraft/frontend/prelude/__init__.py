"""Builtin methods and functions written in Python, lowered like user code.

A method of a builtin value that the engine does not know natively
(`list.index`, `list.insert`, ...) is the summary of what CPython does,
written as plain Python in the `prelude.py` of the type's model folder
(`models/list/prelude.py`; the iterator steps and the stdlib functions of
no model folder yet are in this package) and lowered by the frontend
itself, so its branches are choice points of the execution like any
other. The files are read as source, never run. Naming, per file:

* `def list__index(self, x)`: the method `index` of `list` values,
  entered by the engine when `xs.index(x)` has a list receiver
  (predicate `$list.index`); the kind is the receiver's (`list`, `int`,
  `str`, ...: see `engine.values.value_kind`);
* `def fn__any(xs)`: the builtin function `any`, called by the frontend
  as predicate `$any`;
* `def str__split__0(self)`: `s.split()`, the variant of `split` with no
  argument (the engine tries `$str.split__0` when the arity of `$str.split`
  does not match).

`raise NotImplementedError(why)` in a prelude function is no exception of
the analysed code: the path is dropped there and `why` named (`$unsupported`).

The copies are silent: builtin predicates without line marks, so the
prelude's own lines never reach a trace, coverage or a test.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path

from pathcraft.frontend.blocks import NOT_MODELLED
from pathcraft.frontend.lower import FunctionLowerer
from pathcraft.frontend.module import function_info, load_module
from pathcraft.frontend.source import ModuleSource
from pathcraft.ir.builtin_names import UNSUPPORTED, function_predicate, method_predicate
from pathcraft.ir.nodes import Call, FunctionInfo, Goto, Mark, Predicate, Raise


_HERE = Path(__file__).parent
# every model folder's prelude (found by its place: a new model adds a file, not a line here), then this
# package's own files
FILES = (*sorted((_HERE.parent.parent / "models").glob("*/prelude.py")), *sorted(_HERE.glob("[!_]*.py")))


def _public_name(function: str) -> str:
    kind, _, name = function.partition("__")
    return function_predicate(name) if kind == "fn" else method_predicate(kind, name)


@cache
def prelude_predicates() -> dict[str, Predicate]:
    """Every prelude predicate, lowered once per process (predicates are
    frozen, so every program can share them)."""
    out: dict[str, Predicate] = {}
    for file in FILES:
        module = load_module(str(file))
        out.update(silent_predicates(module, _public_name))
    return out


def silent_predicates(module: ModuleSource, public: Callable[[str], str]) -> dict[str, Predicate]:
    """Every function of `module` lowered, renamed to `public(name)` (its
    blocks after it: `$list.index:loop4`) and silent: models of code the
    analysed module calls (the prelude, the user's native summaries)."""
    signatures = {name: function_info(module, fn, name) for name, fn in module.functions.items()}
    lowered: dict[str, Predicate] = {}
    for name, fn in module.functions.items():
        lowered.update(FunctionLowerer(module, fn, signatures[name], signatures, None).lower())
    rename = {}
    functions = {}
    for pred in lowered.values():
        owner = pred.function if pred.function in signatures else _enclosing(pred.name, signatures)
        entry, head = signatures[owner].entry, public(owner)
        rename[pred.name] = head if pred.name == entry else head + ":" + pred.name[len(entry) + 1:]
        functions[pred.name] = head + pred.function[len(owner):]  # a nested frame's: `$f.<locals>.<genexpr>`
    return {rename[pred.name]: _silent(pred, rename, functions[pred.name]) for pred in lowered.values()}


def _enclosing(name: str, signatures: dict[str, FunctionInfo]) -> str:
    """The function whose lowering made predicate `name` (a generator
    expression's, of an `iter(x)`): the one whose entry begins it."""
    return max((q for q, info in signatures.items() if name.startswith(info.entry + "$")),
               key=lambda q: len(signatures[q].entry))


def _silent(pred: Predicate, rename: dict[str, str], function: str) -> Predicate:
    """`pred` renamed into the prelude's namespace, without line marks."""
    rules = []
    for rule in pred.rules:
        body = []
        for instr in rule.body:
            if isinstance(instr, Mark):
                continue
            if isinstance(instr, Goto):
                instr = replace(instr, block=rename[instr.block])
            elif isinstance(instr, Call) and instr.predicate in rename:
                instr = replace(instr, predicate=rename[instr.predicate])
            elif isinstance(instr, Raise) and instr.exc_type == NOT_MODELLED:
                instr = replace(instr, exc_type=UNSUPPORTED)
            body.append(instr)
        rules.append(replace(rule, body=tuple(body), lines=()))
    return replace(pred, name=rename[pred.name], function=function,
                   rules=tuple(rules), marks=(), builtin=True, is_entry=False,
                   handler=rename[pred.handler] if pred.handler else None)
