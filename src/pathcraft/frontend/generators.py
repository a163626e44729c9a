"""Generator expressions consumed by a builtin: `sum(f(x) for x in xs if c)`.

CPython runs a generator expression as a frame that is resumed once per
item: each `next()` is a call event of `f.<locals>.<genexpr>` (also from
3.12: generator expressions are not inlined), a line event, and a return
event when it yields, raises or is exhausted. A consumer that stops early
(`any`, `all`) leaves it suspended, and the generator is closed as soon as
it is dropped: one more call and return event (none from 3.13, which closes
a generator suspended at a plain yield without running it).

So the frontend writes two functions, as Python, and lowers them:

* the resumption `<genexpr>(sources..., state, free...)`: the position of
  the iteration lives in a one-item list `state` (the generator's frame,
  which survives between resumptions); it skips items until one passes the
  conditions and returns its value, or raises StopIteration when the source
  is exhausted — events as CPython's;
* the consumer (a builtin, no events): a loop calling the resumption until
  StopIteration, folding the items as the builtin does, and calling the
  closing function (events only) where the builtin stops early or raises
  while the generator is suspended.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from pathcraft.frontend.builtins import empty_sequence_message

CONSUMERS = ("sum", "any", "all", "min", "max", "list", "sorted")
# a resumption raises StopIteration when the source is exhausted; the
# consumer catches it (a StopIteration that the code under test raises in
# the expression itself would be a RuntimeError in CPython, PEP 479: not
# distinguished, a known gap)
EXHAUSTED = "StopIteration"
RESUME, CLOSE = "__pc_resume", "__pc_close"  # replaced by the names of this generator's functions
SHUT = "__pc_shut"  # `__pc_shut(x, fresh)`: close the iterator `x` (ListOp "close", see lower._close)
SOURCE_PREFIX = "__pc_S"  # the sources' parameters: `__pc_S0`, `__pc_S1` (indexed by position)

# per source kind: the statements that take the item at position `i`, or
# raise EXHAUSTED; `__pc_S0`, `__pc_S1` are the sources (evaluated by the caller)
_FETCH = {
    "seq": "if __pc_i >= len(__pc_S0):\n    raise EXHAUSTED()\nTARGET = __pc_S0[__pc_i]",
    # a source that may be a generator: a loop's own steps (`__pc_len`/`__pc_item`, see ListOp "len"
    # and "get" with LOOP_STEP), which resume a generator once per item
    "iter": "if __pc_i >= __pc_len(__pc_S0):\n    raise EXHAUSTED()\nTARGET = __pc_item(__pc_S0, __pc_i)",
    "enumerate": "if __pc_i >= len(__pc_S0):\n    raise EXHAUSTED()\nTARGET = __pc_i + __pc_S1, __pc_S0[__pc_i]",
    "zip": "if __pc_i >= len(__pc_S0):\n    raise EXHAUSTED()\nif __pc_i >= len(__pc_S1):\n    raise EXHAUSTED()\n"
           "TARGET = __pc_S0[__pc_i], __pc_S1[__pc_i]",
    "range1": "if __pc_i >= __pc_S0:\n    raise EXHAUSTED()\nTARGET = __pc_i",
    "range2": "if __pc_S0 + __pc_i >= __pc_S1:\n    raise EXHAUSTED()\nTARGET = __pc_S0 + __pc_i",
}

_RESUME = """
def resume(SOURCES, __pc_state, FREE):
    while True:
        __pc_i = __pc_state[0]
        __pc_state[0] = __pc_i + 1
        FETCH
        if COND:
            return ELT
"""

# each consumer: how `acc` starts, how `step` folds the item `v` into it
# (`close()` where it stops with the generator suspended), and the word of
# the ValueError on no item at all (min/max); `first` starts min/max from
# the first item. Template names are prefixed `__pc_`.
_CONSUMER = {
    "sum": ("acc = 0", "acc = acc + v", None),
    "list": ("acc = []", "acc.append(v)", None),
    "sorted": ("acc = []", "acc.append(v)", None),
    "any": ("acc = False", "if v:\n    close()\n    return True", None),
    "all": ("acc = True", "if not v:\n    close()\n    return False", None),
    "min": ("acc = None\nfirst = True", "if first or v < acc:\n    acc = v\nfirst = False", "min"),
    "max": ("acc = None\nfirst = True", "if first or v > acc:\n    acc = v\nfirst = False", "max"),
}
_PREFIXED = re.compile(r"\b(acc|v|first)\b")

# The loop runs once per item the consumer takes (so loop-K bounds the items,
# as for any loop): the first item is asked for before it, the next at the
# end of each run.
_CONSUME = """
def consume(SOURCES, FREE):
    __pc_state = [0]
    START
    try:
        __pc_v = resume(SOURCES, __pc_state, FREE)
    except EXHAUSTED:
        FINISH
    while True:
        try:
            STEP
        except Exception:
            close()
            raise
        try:
            __pc_v = resume(SOURCES, __pc_state, FREE)
        except EXHAUSTED:
            FINISH
"""


def source_kind(node: ast.expr, shadowed: Callable[[str], bool]) -> tuple[str, list[ast.expr]]:
    """How the generator walks its iterable, and the expressions the caller
    evaluates for it. `range` with a step and `reversed` are refused."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not shadowed(node.func.id) \
            and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args):
        name, args = node.func.id, list(node.args)
        if name == "enumerate" and len(args) in (1, 2):
            return "enumerate", args if len(args) == 2 else [args[0], ast.Constant(0)]
        if name == "zip" and len(args) == 2:
            return "zip", args
        if name == "range" and len(args) == 1:
            return "range1", args
        if name == "range" and len(args) == 2:
            return "range2", args
        if name in ("range", "reversed", "zip", "enumerate"):
            return "", []
    return "seq", [node]


def resumption_source(kind: str, sources: int, free: list[str]) -> str:
    return _fill(_put(_RESUME, "FETCH", _FETCH[kind]), sources, free)


def consumer_source(consumer: str, sources: int, free: list[str], walks_iterator: bool = False,
                    fresh: bool = False) -> str:
    """The consumer's code. With `walks_iterator` (the source may be a
    generator), closing the generator expression also closes its source:
    CPython drops the iterator when the expression's frame is cleared."""
    start, step, finish = _fold_parts(consumer)
    text = _put(_put(_put(_CONSUME, "START", start), "FINISH", finish), "STEP", step)
    if walks_iterator:
        text = _put(text, "close()", f"close()\n{SHUT}({SOURCE_PREFIX}0, {fresh})")
    return _fill(text, sources, free)


# A consumer of a generator object (a generator expression lowered as a
# generator function, frontend/lower.py: generator_object): a silent loop
# over it; closing is the engine's close of that generator.
_FOLD = """
def fold(__pc_G):
    START
    for __pc_v in __pc_G:
        try:
            STEP
        except Exception:
            __pc_shut(__pc_G, True)
            raise
    FINISH
"""


def folding_source(consumer: str) -> str:
    start, step, finish = _fold_parts(consumer)
    step = step.replace("close()", f"{SHUT}(__pc_G, True)")
    return _put(_put(_put(_FOLD, "START", start), "FINISH", finish), "STEP", step)


def _fold_parts(consumer: str) -> tuple[str, str, str]:
    """How the consumer starts, folds an item, and finishes (min/max's
    ValueError on no item), its names prefixed `__pc_`."""
    start, step, empty = _CONSUMER[consumer]
    if empty is not None:
        finish = f"if first:\n    raise ValueError({empty_sequence_message(empty)!r})\nreturn acc"
    elif consumer == "sorted":
        finish = "return sorted(acc)"
    else:
        finish = "return acc"
    start, step, finish = (_PREFIXED.sub(r"__pc_\1", text) for text in (start, step, finish))
    return start, step, finish


def _put(text: str, placeholder: str, block: str) -> str:
    """`text` with each line that is just `placeholder` replaced by `block`
    at that line's indentation."""
    out: list[str] = []
    for line in text.split("\n"):
        if line.strip() == placeholder:
            indent = line[: len(line) - len(line.lstrip())]
            out.extend(indent + part for part in block.split("\n"))
        else:
            out.append(line)
    return "\n".join(out)


def _fill(text: str, sources: int, free: list[str]) -> str:
    names = ", ".join([f"__pc_S{k}" for k in range(sources)])
    text = text.replace("SOURCES", names)
    text = text.replace("resume(", RESUME + "(").replace("close()", CLOSE + "()")
    text = text.replace(", FREE", "".join(f", {name}" for name in free))
    return text.replace("EXHAUSTED", EXHAUSTED)
