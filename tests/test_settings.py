"""The declarations of `gen`'s options (settings.py) and what is read off
them: the README's table, --help, the command's parameters, the keys of
`[tool.pathcraft]`, and the defaults of the in-process options."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any, get_args

import pytest
import typer
from typer.testing import CliRunner

from pathcraft.app.cli import app
from pathcraft.app.cliparams import option_help
from pathcraft.cost.models import parse_size_model
from pathcraft.config import FILE_KEYS, Settings
from pathcraft.engine.options import EngineOptions
from pathcraft.engine.search import SEARCHERS
from pathcraft.engine.summaries import MODES
from pathcraft.errors import PathcraftError
from pathcraft.generate import GenerateOptions
from pathcraft.heap.base import HEAP_MODELS
from pathcraft.settings import (DEFAULTS, FLAGS, LIBRARY, SETTINGS, Compose, Heap, Option, Search, command_order,
                                readme_default, readme_table)
from pathcraft.solver.chain import SolverOptions

README = Path(__file__).resolve().parent.parent / "README.md"


def gen_command() -> Any:
    return typer.main.get_command(app).commands["gen"]  # type: ignore[attr-defined]


def test_the_readme_table_is_the_declarations() -> None:
    # on a failure: paste `python -c "from pathcraft.settings import readme_table; print(readme_table())"`
    assert readme_table() in README.read_text(encoding="utf-8")


def test_the_readme_states_every_default() -> None:
    for option in command_order():
        if option.declaration.flags and readme_default(option) is not None:
            assert "{default}" in option.declaration.readme, option.name


def test_every_flag_of_before_is_declared() -> None:
    declared = {flag for o in command_order() for spelling in o.declaration.flags for flag in spelling.split("/")}
    assert declared == {
        "-o", "--output", "--criterion", "-c", "--format", "-f", "--suite", "--comments", "--no-exceptions",
        "--verify", "--stats",
        "--timeout", "--search", "--max-paths", "--heap", "--assume", "--max-list-length", "--costs", "--policy",
        "--invariant", "--size-model", "--objects", "--setup-calls", "--trace", "--cover", "--refine",
        "--no-refine", "--item-search", "--look-ahead", "--no-look-ahead", "--unit", "--no-unit",
        "--max-call-depth", "--concolic", "--no-concolic", "--concolic-samples", "--execute", "--no-execute",
        "--execute-seconds", "--execute-examples", "--solve-first",
        "--no-solve-first", "--long-probes", "--edge-tests", "--compose", "--summaries", "--native-summaries",
        "--jobs", "-j", "--incremental", "--no-incremental", "--exclude", "--report", "--quiet", "-q",
        "--scheduler", "--split-depth", "--item-timeout", "--resource-driven"}


def test_the_command_has_one_parameter_per_declaration() -> None:
    params = {p.name: p for p in gen_command().params
              if p.param_type_name == "option" and p.name not in ("help", "help_all")}
    assert list(params) == [o.name for o in command_order() if o.declaration.flags]
    for option in command_order():
        if not option.declaration.flags:
            continue
        param = params[option.name]
        assert [*param.opts, *param.secondary_opts] == [f for s in option.declaration.flags for f in s.split("/")]
        assert param.help == option_help(option)
        if option in FLAGS:
            assert param.default == option.default  # a flag's default is the command's own
        elif option.type is not bool or "/" in option.declaration.flags[0]:
            assert param.default is None  # not given: pyproject.toml or the default stands in


def test_pyproject_keys_are_the_settings_with_flags_or_not() -> None:
    expected: dict[str, tuple[type, ...]] = {  # as config.py spelled them out before the declarations
        "criterion": (str,), "format": (str,), "suite": (str,), "comments": (str,), "exceptions": (bool,),
        "timeout": (int, float),
        "search": (str,), "solver_timeout_ms": (int,), "heap": (str,), "size_model": (str,),
        "assume": (list,), "max_list_length": (int,), "max_paths": (int,), "costs": (str,), "policy": (list,),
        "invariants": (list,), "objects": (str,), "setup_calls": (int,), "refine": (bool,),
        "resource_driven": (bool,), "item_search": (str,), "look_ahead": (bool,), "unit": (bool,),
        "max_call_depth": (int,), "concolic": (bool,), "concolic_samples": (int,), "execute": (bool,),
        "execute_seconds": (int, float), "execute_examples": (int,), "solve_first": (bool,),
        "long_probes": (int,), "edge_tests": (int,), "compose": (str,), "summaries": (str,),
        "native_summaries": (list,), "exclude": (list,), "split_depth": (int,),
    }
    assert FILE_KEYS == expected
    assert {f.name for f in fields(Settings)} == set(expected)


def test_the_choices_are_the_engines() -> None:
    assert get_args(Heap) == HEAP_MODELS
    assert get_args(Search) == tuple(SEARCHERS)
    assert get_args(Compose) == MODES


def test_defaults_kept_elsewhere_agree_with_the_declarations() -> None:
    assert SolverOptions().timeout_ms == DEFAULTS.solver_timeout_ms
    assert str(EngineOptions().criterion) == DEFAULTS.criterion
    assert parse_size_model(DEFAULTS.size_model) == EngineOptions().size_model


@pytest.mark.parametrize("option", [o for o in SETTINGS if o.choices], ids=lambda o: o.name)
def test_the_command_line_offers_a_choices_values(option: Option) -> None:
    flag = option.declaration.flags[0]
    refused = CliRunner().invoke(app, ["gen", "m.py", flag, "bogus"])
    assert refused.exit_code == 2
    assert ", ".join(f"'{c}'" for c in option.choices) in " ".join(refused.output.replace("│", " ").split())


PARSED = ("criterion", "costs", "size_model")  # held parsed by the run's options


def test_the_in_process_defaults_are_the_declared_library_ones() -> None:
    # the command line and pyproject.toml get 3 probes and 3 edge tests; GenerateOptions() none,
    # so that a test of a run states what it asks for (settings.Declaration.library)
    assert (DEFAULTS.long_probes, DEFAULTS.edge_tests) == (3, 3)
    run, engine = GenerateOptions(), EngineOptions()
    for option in SETTINGS:
        for holder in (run, engine):
            if option.name in {f.name for f in fields(holder)} and option.name not in PARSED:
                assert getattr(holder, option.name) == getattr(LIBRARY, option.name), option.name
    assert Settings().generate_options().long_probes == 3
    assert Settings().generate_options().engine.solve_first is True


@pytest.mark.parametrize(("values", "message"), [
    ({"heap": "x"}, "unknown heap model 'x' (symbolic, lazy, lazy-noalias)"),
    ({"search": "x"}, "unknown search strategy 'x' (dfs or bfs)"),
    ({"format": "x"}, "unknown format 'x' (pytest or json)"),
    ({"item_search": "x"}, "unknown item search 'x' (guided or paths)"),
    ({"compose": "x"}, "unknown compose mode 'x' (off, on-demand, bottom-up)"),
    ({"objects": "x"}, "unknown objects mode 'x' (free or constructed)"),
    ({"timeout": 0}, "timeout must be a positive number of seconds, not 0"),
    ({"max_paths": 0}, "max_paths must be at least 1, not 0"),
    ({"solver_timeout_ms": 0}, "solver_timeout_ms must be at least 1, not 0"),
    ({"long_probes": -1}, "long_probes must be at least 0, not -1"),
    ({"invariants": ("bad",)}, "invariant 'bad': expected Class.method"),
])
def test_a_bad_value_is_refused_with_its_declarations_message(values: dict[str, Any], message: str) -> None:
    with pytest.raises(PathcraftError) as refused:
        Settings(**values).generate_options()
    assert str(refused.value) == message
