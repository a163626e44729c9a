"""`sorted(xs, key=f)`, `min(xs, key=f)`, `max(xs, key=f)`, `xs.sort(key=f)`.

CPython calls the key function once per item, in order, before it sorts
(`sorted`, `list.sort`) or as it walks (`min`, `max`): each call is a frame
of the key function, with its events (a lambda is `f.<locals>.<lambda>`).
The frontend writes a silent consumer that walks the items calling the key
(`__pc_key`, the lambda lowered as a nested function, or a function of the
module) and hands items and keys to a prelude function that sorts stably
by key or picks the first least (greatest) key. Only comparisons of keys
run after the calls, and those are silent."""

from __future__ import annotations

KEY = "__pc_key"  # the key function, as the consumer calls it
CONSUMERS = ("sorted", "min", "max", "sort")

_WALK = """
def consume(__pc_S0, FREE):
    __pc_items = []
    __pc_keys = []
    for __pc_x in __pc_S0:
        __pc_items.append(__pc_x)
        __pc_keys.append(__pc_key(__pc_x, FREE))
    FINISH
"""

_FINISH = {
    "sorted": "return __pc_sorted_by(__pc_items, __pc_keys, REVERSE)",
    "sort": "__pc_S0.__sort_by__(__pc_keys, REVERSE)\nreturn None",  # a list's own (prelude); no other has it
    "min": "if not __pc_items:\n    raise ValueError(EMPTY)\nreturn __pc_least_by(__pc_items, __pc_keys, False)",
    "max": "if not __pc_items:\n    raise ValueError(EMPTY)\nreturn __pc_least_by(__pc_items, __pc_keys, True)",
}


def consumer_source(consumer: str, free: list[str], reverse: bool, empty: str) -> str:
    """The silent consumer's code; `empty` is min/max's message for no items."""
    finish = _FINISH[consumer].replace("REVERSE", repr(reverse)).replace("EMPTY", repr(empty))
    indented = "\n".join("    " + line for line in finish.split("\n"))
    text = _WALK.replace("    FINISH", indented)
    return text.replace(", FREE", "".join(f", {name}" for name in free))
