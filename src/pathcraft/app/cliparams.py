"""The parameters of `pathcraft gen`, built from the declarations in
`settings.py`, and the values typer passes back, sorted into settings and
flags.

typer reads a command's parameters from its signature, so `with_options`
gives the command a signature holding one typer option per declaration.
A setting's option defaults to None ("not given"), so that the file and
the default can stand in for it (`config.settings_from`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, TypeVar

import typer

from pathcraft.settings import BRIEF, FLAGS, SETTINGS, Option, RunFlags, command_order

F = TypeVar("F", bound=Callable[..., None])
_SETTING_NAMES = frozenset(o.name for o in SETTINGS)


def option_help(option: Option) -> str:
    """--help's text: the declaration's, and the default where it says one."""
    shown = option.cli_default
    return f"{option.declaration.help} \\[default: {shown}]." if shown else f"{option.declaration.help}."


def _switch(option: Option) -> bool:
    """A single flag that turns a default off or on (`--no-exceptions`)."""
    return option.type is bool and "/" not in option.declaration.flags[0]


def _choice_enum(option: Option) -> type[Enum]:
    """An Enum of a Literal's values: typer turns it into click's choice
    (the metavar and the message for a bad value are click's)."""
    return Enum(option.name, [(value, value) for value in option.choices], type=str)  # type: ignore[return-value]


def _annotation(option: Option) -> Any:
    if _switch(option) or (option.type is bool and option.name not in _SETTING_NAMES):
        return bool
    if option.choices:
        return _choice_enum(option) | None
    if option.type == tuple[str, ...]:
        return list[str] | None
    base = [a for a in getattr(option.type, "__args__", (option.type,)) if a is not type(None)]
    return base[0] | None


def _parameter(option: Option) -> inspect.Parameter:
    d = option.declaration
    if _switch(option):
        default: Any = False
    elif option.name in _SETTING_NAMES:
        default = None  # not given
    else:
        default = option.default
    extra: dict[str, Any] = {}
    if d.least is not None:
        extra["min"] = d.least
    if d.metavar is not None:
        extra["metavar"] = d.metavar
    info = typer.Option(default, *d.flags, help=option_help(option), rich_help_panel=d.panel,
                        hidden=d.panel not in BRIEF, **extra)
    return inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=info,
                             annotation=_annotation(option))


def with_options(command: F) -> F:
    """`command`, whose signature (its own parameters but `**given`) is
    extended by every declared option, in --help's order."""
    own = [p for p in inspect.signature(command).parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    signature = inspect.Signature([*own, *(_parameter(o) for o in command_order() if o.declaration.flags)])
    setattr(command, "__signature__", signature)
    return command


def show_every_option(ctx: typer.Context, wanted: bool) -> None:
    """`--help-all`: the command's help with the options --help leaves out (they stay accepted either way)."""
    if not wanted or ctx.resilient_parsing:
        return
    for param in ctx.command.params:  # typer's own click: its classes are not the click package's
        if getattr(param, "param_type_name", "") == "option":
            setattr(param, "hidden", False)
    typer.echo(ctx.get_help())
    raise typer.Exit()


def given_settings(given: Mapping[str, Any]) -> dict[str, Any]:
    """The settings the command line gave (None: not given), by name."""
    chosen: dict[str, Any] = {}
    for option in SETTINGS:
        if not option.declaration.flags:
            continue
        value = given[option.name]
        if _switch(option):
            value = (not option.default) if value else None
        elif isinstance(value, list):
            value = tuple(value)
        elif isinstance(value, Enum):
            value = value.value
        chosen[option.name] = value
    return chosen


def given_flags(given: Mapping[str, Any]) -> RunFlags:
    return RunFlags(**{o.name: given[o.name] for o in FLAGS})


__all__ = ["given_flags", "given_settings", "option_help", "show_every_option", "with_options"]
