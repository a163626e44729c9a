"""Compositional generation (paper 002, Table 5): the same modules with the
callees run at every call, composed from summaries made in the run (cold
store), composed from the callee summaries a previous run stored (warm
callees: each function under test still searched, as in 002's Table 5),
and with the store as a previous run of the module left it (warm: each
function's own summary, its tests, read back; testcase/stored.py).

Each configuration runs every function of a module (as `pathcraft gen
MODULE` does, long probes and edge tests included) in a fresh process, so
no summary survives in memory from one configuration to the next. Columns:
the module's longest call chain among its own functions (call depth), the
tests written, seconds, summaries computed and reused, calls answered by a
summary, and whether each composed run found exactly the plain run's paths
(trace, events, outcome, steps of every test).

Composition answers calls whose arguments are scalars and at most one
object whose scalar fields are all the callee touches (engine/summaries.py);
a data-structure method that follows a reference is run at every call, so
on those classes the composed runs pay only the look-up. The table says so
per module.

    python bench/compose.py
    python bench/compose.py --targets compose,lcm --timeout 20 --json out.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
THEALGORITHMS = CORPUS / "thealgorithms-python"

# (name, module): fixtures and examples with int call chains, corpus modules
# whose functions call helpers, and the manifest's data-structure classes
TARGETS: list[tuple[str, Path]] = [
    ("compose", REPO / "tests" / "fixtures" / "compose.py"),
    ("compose_objects", REPO / "tests" / "fixtures" / "compose_objects.py"),
    ("lcm", REPO / "tests" / "fixtures" / "papers" / "lcm.py"),
    ("rational", REPO / "tests" / "fixtures" / "papers" / "rational.py"),
    ("arraypower", REPO / "tests" / "fixtures" / "papers" / "arraypower.py"),
    ("arith", REPO / "examples" / "arith.py"),
    ("edges", REPO / "tests" / "fixtures" / "edges.py"),
    ("linked (fixture)", REPO / "tests" / "fixtures" / "linked.py"),
    ("pq (fixture)", REPO / "tests" / "fixtures" / "pq.py"),
    ("objects (fixture)", REPO / "tests" / "fixtures" / "objects.py"),
    ("singly_linked_list", THEALGORITHMS / "data_structures" / "linked_list" / "singly_linked_list.py"),
    ("circular_linked_list", THEALGORITHMS / "data_structures" / "linked_list" / "circular_linked_list.py"),
    ("binary_search_tree", THEALGORITHMS / "data_structures" / "binary_tree" / "binary_search_tree.py"),
    ("max_heap", THEALGORITHMS / "data_structures" / "heap" / "max_heap.py"),
    ("priority_queue_using_list", THEALGORITHMS / "data_structures" / "queues" / "priority_queue_using_list.py"),
    ("binary_search", THEALGORITHMS / "searches" / "binary_search.py"),
    ("josephus_problem", THEALGORITHMS / "maths" / "josephus_problem.py"),
    ("count_number_of_one_bits", THEALGORITHMS / "bit_manipulation" / "count_number_of_one_bits.py"),
    ("heap_sort", THEALGORITHMS / "sorts" / "heap_sort.py"),
]


def one(module: Path, compose: str, store: str | None, timeout: float) -> dict[str, Any]:
    """Every function of `module` under one configuration, in this process."""
    sys.path.insert(0, str(REPO / "src"))
    from pathcraft.engine.criteria import parse_criterion
    from pathcraft.errors import PathcraftError
    from pathcraft.frontend import translate
    from pathcraft.generate import GenerateOptions, generate

    started = time.perf_counter()
    try:
        result = translate(str(module))
    except PathcraftError as exc:
        return {"error": str(exc)}
    options = GenerateOptions.of(criterion=parse_criterion("loop-2"), timeout=timeout, compose=compose,
                                 summary_store=store, long_probes=3, edge_tests=3)
    record: dict[str, Any] = {"functions": 0, "tests": 0, "computed": 0, "reused": 0, "composed": 0,
                              "read_back": 0, "stopped": 0, "search": 0.0, "paths": []}
    for qualname in result.targets:
        if qualname not in result.program.functions:
            continue
        run = generate(result.program, qualname, options)
        record["functions"] += 1
        record["tests"] += len(run.cases)
        record["stopped"] += run.stopped is not None
        record["computed"] += run.stats.get("summaries_computed", 0)
        record["reused"] += run.stats.get("summaries_reused", 0)
        record["composed"] += run.stats.get("calls_composed", 0)
        record["read_back"] += run.stats.get("run_reused", 0)
        record["search"] += run.stats.get("seconds", 0.0)
        record["paths"].append([qualname, [[c.trace, list(map(list, c.path)), c.kind, c.exc_type, c.steps]
                                           for c in run.cases]])
    record["seconds"] = round(time.perf_counter() - started, 2)
    record["search"] = round(record["search"], 2)
    record["depth"] = call_depth(result.program)
    digest = hashlib.sha256(json.dumps(record.pop("paths")).encode()).hexdigest()
    record["paths"] = digest
    return record


def call_depth(program: Any) -> int:
    """The longest chain of calls among the module's own functions and
    methods (a method call counts as a call of every method of that name;
    a recursive cycle counts once)."""
    import networkx

    from pathcraft.engine.summaries import call_graph
    from pathcraft.ir.nodes import CallMethod

    graph = call_graph(program)
    for pred in program.predicates.values():
        for rule in pred.rules:
            for instr in rule.body:
                if isinstance(instr, CallMethod):
                    for function in program.functions:
                        if function.endswith("." + instr.method):
                            graph.add_edge(pred.function, function)
    graph = graph.subgraph(program.functions)
    dag = networkx.condensation(graph)
    return int(networkx.dag_longest_path_length(dag)) + 1 if dag.number_of_nodes() else 0


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}×" if b else "–"


def configuration(module: Path, compose: str, store: Path | None, timeout: float) -> dict[str, Any]:
    command = [sys.executable, __file__, "--one", str(module), "--compose", compose, "--timeout", str(timeout)]
    if store is not None:
        command += ["--store", str(store)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--targets", help="comma-separated target names (default: all)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per function [30]")
    parser.add_argument("--json", type=Path, help="also write the records here")
    parser.add_argument("--mode", default="on-demand", choices=("on-demand", "bottom-up"),
                        help="how the composed runs make summaries [on-demand]")
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--compose", default="off", help=argparse.SUPPRESS)
    parser.add_argument("--store", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one is not None:
        print(json.dumps(one(args.one, args.compose, args.store, args.timeout)))
        return 0
    chosen = set(args.targets.split(",")) if args.targets else None
    records = []
    print(f"Composed runs: --compose {args.mode}; cold: an empty store; warm callees: the callee summaries "
          "a cold run stored (each function searched); warm: the whole store a cold run left (tests read back).\n")
    print("| module | functions | call depth | tests (plain / cold / warm callees / warm) | plain s | cold s "
          "| warm callees s | warm s | cold speed-up | warm callees speed-up | warm speed-up "
          "| search s (plain / cold / warm callees) | search speed-up (cold / warm callees) "
          "| summaries computed (cold) | reused (warm callees) | functions read back (warm) | calls composed "
          "| same paths |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, module in TARGETS:
        if chosen is not None and name not in chosen or not module.exists():
            continue
        with tempfile.TemporaryDirectory() as scratch:
            store = Path(scratch) / "store"
            plain = configuration(module, "off", None, args.timeout)
            cold = configuration(module, args.mode, store, args.timeout)
            warm = configuration(module, args.mode, store, args.timeout)
            for file in store.glob("*.json"):  # the callee summaries only
                if json.loads(file.read_text()).get("key", {}).get("kind") == "tests":
                    file.unlink()
            callees = configuration(module, args.mode, store, args.timeout)
        record = {"name": name, "module": str(module), "plain": plain, "cold": cold, "warm callees": callees,
                  "warm": warm}
        records.append(record)
        runs = (plain, cold, callees, warm)
        if any("error" in r for r in runs):
            print(f"| {name} | error: {next(r['error'] for r in runs if 'error' in r)} "
                  "| | | | | | | | | | | | | | | |")
            continue
        same = "yes" if plain["paths"] == cold["paths"] == callees["paths"] == warm["paths"] else \
            "no (a budget stopped a run)" if any(r["stopped"] for r in runs) else "**no**"
        print(f"| {name} | {plain['functions']} | {plain['depth']} | {plain['tests']} / {cold['tests']} / "
              f"{callees['tests']} / {warm['tests']} | {plain['seconds']} | {cold['seconds']} | "
              f"{callees['seconds']} | {warm['seconds']} | {ratio(plain['seconds'], cold['seconds'])} | "
              f"{ratio(plain['seconds'], callees['seconds'])} | {ratio(plain['seconds'], warm['seconds'])} | "
              f"{plain['search']} / {cold['search']} / {callees['search']} | "
              f"{ratio(plain['search'], cold['search'])} / {ratio(plain['search'], callees['search'])} | "
              f"{cold['computed']} | {callees['reused']} | {warm['read_back']} | {cold['composed']} | {same} |",
              flush=True)
    if args.json:
        args.json.write_text(json.dumps(records, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
