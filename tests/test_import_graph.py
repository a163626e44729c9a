"""The package's import graph has no cycles and no import pointing up the
layers: errors/ir -> solver/execute -> heap/cost -> frontend -> engine -> testcase ->
generate -> config/report -> app -> cli. Built from the source with `ast`:
every import counts, at module level, inside functions and under
`if TYPE_CHECKING:` alike (a cycle hidden there is still a cycle of the
design: each module needs the other to be understood)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "pathcraft"

# layer of each top-level module or package under pathcraft
LAYERS = {
    "__init__": 0, "errors": 0, "ir": 0, "assume": 0, "files": 0, "depth": 0, "fingerprint": 0, "settings": 0,
    "layout": 0, "sourcedefs": 0, "rootalias": 0, "budget": 0,
    "solver": 1, "execute": 1,
    "heap": 2, "cost": 2,
    "frontend": 3,
    "engine": 4, "models": 4,
    "testcase": 5,
    "generate": 6, "strategies": 6, "casesink": 6, "runstats": 6, "suite": 6,
    "config": 7, "report": 7,
    "app": 8,
    "__main__": 9,
}


def module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules_under(src: Path) -> dict[str, Path]:
    return {module_name(p, src): p for p in src.rglob("*.py")}


def resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The module `name` denotes, or the nearest package that holds it."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str, modules: dict[str, Path]) -> set[str]:
    tree = ast.parse(modules[module].read_text(encoding="utf-8"))
    package = module if modules[module].name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            names = [f"{base}.{a.name}" for a in node.names] + [base]
        for name in names:
            if name.split(".")[0] != "pathcraft":
                continue
            target = resolve(name, modules)
            if target is not None and target != module:
                found.add(target)
    return found


def graph(src: Path) -> dict[str, set[str]]:
    modules = modules_under(src)
    return {m: imports_of(m, modules) for m in modules}


GRAPH = graph(SRC)
MODULES = modules_under(SRC)

# Known cycles, allowed until their rewrite lands (a cycle is allowed only
# inside one entry). None now: the engine's handlers see the narrow `Machine`
# interface (engine/machine.py), not `Run`.
KNOWN_CYCLES: list[set[str]] = []


# a model folder's frontend halves sit on the frontend's layer, its engine half on the models' (models/__init__.py)
FRONTEND_HALVES = ("lowering", "prelude")


def layer(module: str) -> int:
    parts = module.split(".")
    if parts[1:2] == ["models"] and (MODULES[module].name == "__init__.py"  # imports nothing
                                     or len(parts) == 4 and parts[3] in FRONTEND_HALVES):
        return LAYERS["frontend"]
    return LAYERS[parts[1] if len(parts) > 1 else "__init__"]


def upward_imports(g: dict[str, set[str]]) -> list[str]:
    return sorted(f"{m} (layer {layer(m)}) imports {t} (layer {layer(t)})"
                  for m, targets in g.items() for t in targets
                  if layer(t) > layer(m) and t != "pathcraft")


def cycles_of(g: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components; any of size > 1 is a cycle.
    A package's `__init__` importing its own submodules is not counted."""
    edges = {m: {t for t in ts if not t.startswith(m + ".")} for m, ts in g.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return cycles


def test_every_module_has_a_layer() -> None:
    for module in GRAPH:
        layer(module)


def test_no_import_points_up_the_layers() -> None:
    upward = upward_imports(GRAPH)
    assert not upward, "\n".join(upward)


def unexpected_cycles(g: dict[str, set[str]]) -> list[list[str]]:
    return [c for c in cycles_of(g) if not any(set(c) <= known for known in KNOWN_CYCLES)]


def test_no_import_cycles() -> None:
    cycles = unexpected_cycles(GRAPH)
    assert not cycles, cycles


def test_the_checker_sees_imports() -> None:
    """The graph is not empty: the engine imports the solver chain."""
    assert "pathcraft.solver.chain" in GRAPH["pathcraft.engine.engine"]


def test_the_checker_finds_cycles_and_upward_imports(tmp_path: Path) -> None:
    """A small package with a heap -> engine import (upward) and a cycle
    through a function-level import; a TYPE_CHECKING import counts too."""
    root = tmp_path / "pathcraft"
    (root / "heap").mkdir(parents=True)
    (root / "engine").mkdir()
    (root / "__init__.py").write_text("")
    (root / "heap" / "__init__.py").write_text("")
    (root / "engine" / "__init__.py").write_text("")
    (root / "heap" / "a.py").write_text("def f():\n    from pathcraft.engine.b import g\n")
    (root / "engine" / "b.py").write_text("from pathcraft.heap import a\n")
    (root / "engine" / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pathcraft.engine import b\n")
    g = graph(root)
    assert upward_imports(g) == ["pathcraft.heap.a (layer 2) imports pathcraft.engine.b (layer 4)"]
    assert cycles_of(g) == [["pathcraft.engine.b", "pathcraft.heap.a"]]
    assert g["pathcraft.engine.c"] == {"pathcraft.engine", "pathcraft.engine.b"}


def test_model_packages_import_nothing() -> None:
    """`models/__init__.py` and each model folder's `__init__.py` sit on the
    frontend's layer (a frontend half's import runs them) only as long as
    they import nothing."""
    packages = [m for m, path in MODULES.items() if m.startswith("pathcraft.models") and path.name == "__init__.py"]
    assert len(packages) > 1
    assert {m: sorted(GRAPH[m]) for m in packages if GRAPH[m]} == {}
