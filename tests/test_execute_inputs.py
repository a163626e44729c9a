"""How the search builds a call's inputs (`execute/inputs.py`) and names the
functions it passes (`execute/recipes.py`), checked in this process on
classes of this file (no analysed code runs here)."""

from __future__ import annotations

import operator
from typing import Any

import pytest
from hypothesis import strategies as st

from pathcraft.execute import inputs, recipes, wire


class Tag:
    """A tag.

    >>> Tag("v12").number
    12
    >>> Tag(text="v3", strict=True)
    """

    def __init__(self, text: str, strict: bool = False) -> None:
        self.text, self.strict = text, strict


def made_in_code() -> Tag:
    return Tag("v7")


class Keeper:
    def __init__(self, func: Any, size: int) -> None:
        self.__func = func
        self.size = size

    def run(self, item: int) -> object:
        return self.__func(item)


def joined(sep: str, *parts: int, last: str = "") -> str:
    return sep.join(map(str, parts)) + last


def test_the_calls_a_module_writes_of_a_class_seed_its_objects() -> None:
    # in its docstrings' examples and in its code, with constant arguments only
    assert inputs.examples(Tag) == [(("v7",), {}), (("v12",), {}), ((), {"text": "v3", "strict": True})]


def test_a_parameter_kept_in_an_attribute_the_class_calls_is_a_function() -> None:
    assert inputs._called_through_attributes(Keeper) == {"func"}


def test_every_parameter_before_star_args_is_passed_by_position() -> None:
    strategies, positional = inputs.arguments(joined, st, lambda: _nothing())
    assert positional == ["sep", "*parts"] and set(strategies) == {"sep", "parts", "last"}


@pytest.mark.parametrize("function, path", [(operator.add, ["operator", "add"]), (len, ["builtins", "len"]),
                                            (joined, [__name__, "joined"])])
def test_a_function_is_named_where_a_test_can_import_it(function: Any, path: list[str]) -> None:
    assert recipes.function_path(function) == path
    assert wire.decode(recipes.encode(function)) == wire.Global((path[0], path[1]))


def test_a_function_made_in_a_function_has_no_name_a_test_can_use() -> None:
    with pytest.raises(wire.NotPlain):
        recipes.encode(lambda item: item)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None
