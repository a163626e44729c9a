"""Mutation score of the suites of pathcraft, CrossHair and Pynguin, per target.

For every target of the peer benchmark (the corpus manifest plus the seed
examples), each tool generates its tests as in ``bench/peers.py`` (same
adapters, budget and measurement); then cosmic-ray mutates the target
function -- its ``def`` lines only, like the coverage of the peer table -- and
every mutant is run against each tool's tests that pass on the unmutated code
(a test failing there is left out; a suite with no passing test is not
usable). A mutant is *detected* when the tests fail on it (killed, a module
that no longer imports included) or run past the timeout. The score is the
share of the function's mutants detected. Writes
``bench/results/mutation-<date>.{json,md}``, prints the markdown table;
progress on stderr. See ``bench/PEERS.md`` ("Mutation score").

Why cosmic-ray rather than mutmut: see ``peer_tools/mutants.py`` (in short:
its session lists every mutant with its position, and its own
``cr-filter-lines`` restricts them to a line range; it runs any test command
per mutant with a timeout; mutmut 3 runs pytest in its own process only).

    python bench/mutation.py --budget 20 --targets lcm,binary_search,power
    python bench/mutation.py --reuse-work /tmp/mut-work --tools pathcraft
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peer_tools import procs  # noqa: E402
from peer_tools.adapters import AdapterOptions, Generation, ToolAdapter  # noqa: E402
from peer_tools.measure import tests_env, write_support_files  # noqa: E402
from peer_tools.mutants import CosmicRay, Mutant, diff_lines, list_mutants, run_session, tally  # noqa: E402
from peer_tools.targets import Target, make_target  # noqa: E402
from peers import (  # noqa: E402
    add_run_arguments,
    build_tools,
    chosen_targets,
    exit_on_sigterm,
    run_one,
    suite_dir,
)

Progress = Callable[[str], None]
GENERATION_FILE = "generation.json"  # next to a suite: how it was generated (for --reuse-work)
PASSING = ("passed", "xfailed")


class ReusedSuite(ToolAdapter):
    """Stands in for a tool: "generates" the tests it wrote in a kept work folder.

    The folder is one kept by this script (``--keep-work``) or by
    ``bench/peers.py --keep-work``: ``<tool>/<target>/out/test_*.py``.
    """

    def __init__(self, tool: ToolAdapter, kept_root: Path) -> None:
        super().__init__(tool.options)
        self.name = tool.name
        self.kept_root = kept_root

    def generate(self, target: Target, budget: float, workdir: Path, env: dict[str, str]) -> Generation:
        kept = suite_dir(self.kept_root, self.name, target.id)
        meta_file = kept / GENERATION_FILE
        meta: dict[str, Any] = json.loads(meta_file.read_text()) if meta_file.exists() else {}
        self.version = self.version or meta.get("version", "")
        files = sorted(p for p in (kept / "out").rglob("test_*.py") if p.is_file())
        out = workdir / "out"
        if files and kept.resolve() != workdir.resolve():
            out.mkdir(parents=True, exist_ok=True)
            files = [Path(shutil.copy(p, out / p.name)) for p in files]
        if not files and not meta:
            return Generation("error", error=f"no kept tests in {kept / 'out'}")
        return Generation(meta.get("status", "ok"), files, float(meta.get("gen_wall", 0.0)),
                          meta.get("returncode"), meta.get("error"), list(meta.get("command", [])))


def make_sandbox(target: Target, dest: Path) -> Target:
    """The same target in a copy of its import tree (cosmic-ray edits the file in place).

    The copy keeps the module's dotted name, so every tool's tests import it
    from there as they imported the original.
    """
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(target.import_root, dest, symlinks=False,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".git"))
    file = dest.joinpath(*target.module.split(".")).with_suffix(".py")
    copy = make_target(file, target.qualname, target.id, target.kind, target.notes)
    if copy.error or copy.range != target.range or copy.module != target.module:
        raise RuntimeError(f"the copy of {target.id} differs: {copy.error or (copy.module, copy.range)}")
    return copy


# A pytest plugin (on the tests' PYTHONPATH, loaded with -p) that keeps exactly
# the tests named in $MUTATION_KEEP. Neither of pytest's own ways fits:
# --deselect matches node-id prefixes (CrossHair names tests test_f, test_f_2,
# ...), and one node id per argument collects the module once per argument
# (10 s instead of 0.5 s for 250 CrossHair tests, paid per mutant).
KEEP_PLUGIN = '''\
"""Written by bench/mutation.py: run only the tests listed in $MUTATION_KEEP."""
import os


def pytest_collection_modifyitems(config, items):
    with open(os.environ["MUTATION_KEEP"]) as fh:
        keep = set(fh.read().splitlines())
    deselected = [item for item in items if item.nodeid not in keep]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if item.nodeid in keep]
'''
KEEP_MODULE = "mutation_keep"


def pytest_command(tests_dir: Path, passing: list[str], python: str = sys.executable) -> list[str]:
    """Run the given tests (node ids under ``tests_dir``, see ``mutant_env``), stop at the first failure.

    Only the files holding them are named: a file that does not import on
    the unmutated code would otherwise fail every run.
    """
    files = sorted({nodeid.split("::", 1)[0] for nodeid in passing})
    return [python, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p", KEEP_MODULE,
            "--rootdir", str(tests_dir), *[str(tests_dir / f) for f in files]]


def mutant_env(target: Target, workdir: Path, passing: list[str], test_timeout: float) -> dict[str, str]:
    """The peer harness's test environment, with the keep list, without an event log or autoloaded plugins.

    Autoloaded plugins (hypothesis) cost a second per pytest start, that is
    per mutant; the generated tests need none.
    """
    shim = write_support_files(workdir)
    (shim / f"{KEEP_MODULE}.py").write_text(KEEP_PLUGIN)
    keep = workdir / "mutation-keep.txt"
    keep.write_text("".join(f"{nodeid}\n" for nodeid in passing))
    env = tests_env(target, shim, os.devnull, test_timeout)
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    env["MUTATION_KEEP"] = str(keep)
    # The same string hashes, so the same set orders, for every mutant: a test
    # that depends on them (Pynguin asserts reprs of sets) must not kill
    # mutants at random.
    env["PYTHONHASHSEED"] = "0"
    return env


def rerun_passing(
    sandbox: Target, workdir: Path, passing: list[str], test_timeout: float, tries: int = 5,
) -> tuple[procs.ProcResult, list[str], dict[str, str], list[str]]:
    """Rerun the passing tests with the per-mutant command on the unmutated code.

    A test that now fails (it depends on test order, or on what the coverage
    run left) is left out too, and the run repeated, at most ``tries`` times.
    Returns the last run, the command, its environment and the tests left out.
    """
    tests_dir = workdir / "tests"
    dropped: list[str] = []
    for _ in range(tries):
        keep = [n for n in passing if n not in dropped]
        cmd = pytest_command(tests_dir, keep)
        env = mutant_env(sandbox, workdir, keep, test_timeout)
        base = procs.run(cmd, timeout=test_timeout * len(keep) + 60, cwd=tests_dir, env=env,
                         stdout_path=workdir / "mutation-baseline.out")
        ran = sum(int(n) for n in re.findall(r"(\d+) (?:passed|xfailed)", base.stdout))
        if base.returncode == 0 and ran == len(keep):
            break
        failed = [line.split(" ", 1)[1].split(" - ", 1)[0].strip() for line in base.stdout.splitlines()
                  if line.startswith(("FAILED ", "ERROR "))]
        new = [n for n in keep if any(n == f or n.startswith(f + "::") for f in failed)]
        if not new:
            break
        dropped += new
    return base, cmd, env, dropped


def mutate_suite(
    cr: CosmicRay,
    rec: dict[str, Any],
    sandbox: Target,
    session: Path,
    mutants: list[Mutant],
    *,
    workdir: Path,
    test_timeout: float,
    limit: float,
) -> dict[str, Any]:
    """Run the target's mutants against one tool's passing tests; the ``mutation`` record.

    ``rec`` is ``run_one``'s record of the suite (with every test's outcome),
    ``workdir`` its folder, whose ``tests/`` holds the suite as it was measured.
    """
    assert sandbox.range is not None
    out: dict[str, Any] = {"usable": False, "reason": None, "passing": 0, "excluded": 0}
    outcomes: dict[str, str] = rec.get("outcomes") or {}
    passing = sorted(n for n, o in outcomes.items() if o in PASSING)
    out["passing"], out["excluded"] = len(passing), len(outcomes) - len(passing)
    if not passing:
        out["reason"] = "no test passes on the unmutated code" if outcomes else "no test"
        return out
    base, cmd, env, dropped = rerun_passing(sandbox, workdir, passing, test_timeout)
    out["failed_on_rerun"] = dropped
    passing = [n for n in passing if n not in dropped]
    out["passing"], out["excluded"] = len(passing), out["excluded"] + len(dropped)
    if base.returncode != 0 or not passing:
        out["reason"] = (f"the passing tests do not pass when rerun without coverage (exit "
                         f"{base.returncode}): " + procs.tail(base.stdout, 3))
        return out
    out["usable"] = True
    out["baseline_wall"] = round(base.wall, 2)
    if not mutants:
        out.update(tally([]).as_dict())
        return out
    # Room for one test stopped by the per-test timeout, and for a slow machine.
    mutant_timeout = test_timeout + 10.0 + 3.0 * base.wall
    out["mutant_timeout"] = round(mutant_timeout, 1)
    run = run_session(cr, session, sandbox.file, sandbox.range, rec["tool"], cmd,
                      mutant_timeout=mutant_timeout, env=env, limit=limit)
    per_mutant = {m.label: run.outcomes.get(m.job_id, "not-run") for m in mutants}
    score = tally(per_mutant.values())
    out.update(score.as_dict())
    out["wall"] = round(run.wall, 1)
    out["stopped"] = run.stopped
    # Detected mutants are the rule: keep the others, with their diff.
    out["outcomes"] = {label: o for label, o in per_mutant.items() if o != "killed"}
    out["not_detected"] = [
        {"mutant": m.label, "outcome": per_mutant[m.label], "diff": diff_lines(run.results.get(m.job_id))}
        for m in mutants if per_mutant[m.label] in ("survived", "error")
    ]
    return out


def run_target(
    target: Target,
    tools: list[ToolAdapter],
    cr: CosmicRay,
    *,
    budget: float,
    work_root: Path,
    test_timeout: float,
    limit: float,
    say: Progress,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Generate with every tool, list the target's mutants, run them against each suite."""
    info: dict[str, Any] = {"target": target.id, "mutants": None, "error": None, "mutant_list": []}
    records: list[dict[str, Any]] = []
    if target.error or target.range is None:
        info["error"] = f"target not found: {target.error}"
        return info, records
    folder = suite_dir(work_root, "_mutation", target.id)
    try:
        sandbox = make_sandbox(target, folder / "src")
        session, mutants = list_mutants(cr, sandbox.file, target.range, folder)
    except (OSError, RuntimeError) as exc:
        info["error"] = f"cannot mutate: {exc}"
        say(f"  {target.id}: {info['error']}")
        return info, records
    info["mutants"] = len(mutants)
    info["mutant_list"] = [m.label for m in mutants]
    say(f"  {len(mutants)} mutants in lines {target.range.start}-{target.range.end}")
    for tool in tools:
        rec = run_one(tool, sandbox, budget, work_root, test_timeout, all_outcomes=True)
        workdir = suite_dir(work_root, tool.name, target.id)
        (workdir / GENERATION_FILE).write_text(json.dumps(
            {k: rec.get(k) for k in ("status", "error", "gen_wall", "returncode", "command")}
            | {"version": tool.version, "budget": budget}, indent=1) + "\n")
        say(f"  {tool.name}: {rec['status']}, {rec.get('passed', 0)}/{rec.get('tests', 0)} tests pass"
            f" (gen {rec['gen_wall']:.1f}s)")
        try:
            rec["mutation"] = mutate_suite(cr, rec, sandbox, session, mutants, workdir=workdir,
                                           test_timeout=test_timeout, limit=limit)
        except (OSError, RuntimeError) as exc:
            rec["mutation"] = {"usable": False, "reason": f"mutation run failed: {exc}"}
        finally:
            sandbox.file.write_bytes(target.file.read_bytes())
        mut = rec["mutation"]
        if mut.get("score") is not None:
            say(f"  {tool.name}: score {mut['score']:.0f}% (killed {mut['killed']}, timeout {mut['timeout']},"
                f" survived {mut['survived']}, error {mut['error']}, not run {mut['not_run']}) in {mut['wall']}s")
        elif not mut["usable"]:
            say(f"  {tool.name}: no usable suite: {str(mut['reason']).splitlines()[0][:120]}")
        rec.pop("outcomes", None)  # every test's outcome: large, and in the peers' record already
        records.append(rec)
    return info, records


# --- report -------------------------------------------------------------------------


def score_of(rec: dict[str, Any] | None) -> float | None:
    """The tool's score on the target, None when it has no usable suite (or no mutant)."""
    if not rec:
        return None
    mut = rec.get("mutation") or {}
    return mut.get("score") if mut.get("usable") else None


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 1) if values else None


def summarize(data: dict[str, Any]) -> dict[str, Any]:
    """Per tool: mean scores, and how pathcraft compares with the best peer per target."""
    tools: list[str] = data["meta"]["tools"]
    by = {(r["tool"], r["target"]): r for r in data["records"]}
    scored = [t["target"] for t in data["targets"] if t.get("mutants")]
    mine = [t for t in scored if score_of(by.get(("pathcraft", t))) is not None]
    out: dict[str, Any] = {"tools": {}, "pathcraft_targets": len(mine), "pathcraft_below_best_peer": []}
    for tool in tools:
        scores = {t: score_of(by.get((tool, t))) for t in scored}
        usable = [s for s in scores.values() if s is not None]
        recs = [by[(tool, t)] for t in scored if (tool, t) in by]
        out["tools"][tool] = {
            "targets": len(scored),
            "usable": len(usable),
            "mean_score_usable": _mean(usable),
            "mean_score_all": _mean([s or 0.0 for s in scores.values()]),
            "mean_score_pathcraft_targets": _mean([scores[t] or 0.0 for t in mine]),
            "mutants_run": sum(r["mutation"].get("mutants", 0) for r in recs if r.get("mutation", {}).get("usable")),
            "detected": sum(r["mutation"].get("detected", 0) for r in recs if r.get("mutation", {}).get("usable")),
        }
    for t in mine:
        own = score_of(by[("pathcraft", t)]) or 0.0
        peers = {tool: score_of(by.get((tool, t))) or 0.0 for tool in tools if tool != "pathcraft"}
        if peers and own < max(peers.values()):
            best = max(peers, key=lambda k: peers[k])
            out["pathcraft_below_best_peer"].append(
                {"target": t, "pathcraft": own, "best_peer": best, "best_score": peers[best]})
    return out


def _cells(rec: dict[str, Any] | None) -> list[str]:
    if rec is None:
        return ["", ""]
    if rec.get("status") == "unavailable":
        return ["n/a", ""]
    mut = rec.get("mutation") or {}
    if not mut.get("usable"):
        if rec.get("tests"):
            return ["fails", ""]
        return ["timeout" if rec.get("status") == "timeout" else "err", ""]
    if mut.get("score") is None:
        return ["–", ""]
    extra = f", {mut['error']} err" if mut.get("error") else ""
    extra += f", {mut['not_run']} not run" if mut.get("not_run") else ""
    return [f"{mut['score']:.0f}", f"{mut['killed']}/{mut['timeout']}/{mut['survived']}{extra}"]


def markdown(data: dict[str, Any]) -> str:
    meta, summary = data["meta"], data["summary"]
    tools: list[str] = meta["tools"]
    by = {(r["tool"], r["target"]): r for r in data["records"]}
    below = {b["target"]: b for b in summary["pathcraft_below_best_peer"]}
    lines = [
        f"# Mutation score {meta['date']}",
        "",
        (f"Mutants: cosmic-ray {meta['versions'].get('cosmic-ray', '')} (all its core operators), restricted to the "
         "target function's `def` lines (`cr-filter-lines`). Each tool's tests are generated as in the peer "
         f"benchmark (budget {meta['budget']:g} s per (tool, target), killed at budget + {meta['grace']:g} s), "
         "run once on the unmutated code (tests failing there are left out; a suite with no passing test is "
         "not usable), then once per mutant (`pytest -x`, a per-test timeout of "
         f"{meta['test_timeout']:g} s, a per-mutant timeout of {meta['test_timeout']:g} s + 10 s + 3 × the "
         f"suite's unmutated run). Python {meta['python']}; {meta['machine']}."),
        "",
        ("Per tool: **score** = % of the target's mutants detected (the tests fail on the mutant, or run past a "
         "timeout); **k/t/s** = killed / timeout / survived. `err`: no test written; `fails`: no test passes on "
         "the unmutated code; `timeout`: the tool ran past its budget and wrote nothing; `n/a`: tool "
         "unavailable; `–`: no mutant in the function. **▼**: pathcraft's score is below the best peer's."),
        "",
        f"Command: `{meta['command']}`" + (f" (suites reused from `{meta['reused']}`)" if meta.get("reused") else ""),
        "",
    ]
    if meta.get("merged"):
        merged = meta["merged"]
        lines += [f"{len(merged['targets'])} targets come from an earlier run, `{merged['file']}` (budget "
                  f"{merged['budget']} s, per-test timeout {merged['test_timeout']} s): `{merged['command']}`.",
                  ""]
    lines += [f"{remark}\n" for remark in data.get("remarks") or []]
    lines += [f"* {t} {meta['versions'].get(t, '')}".rstrip() for t in tools] + [""]
    head = ["target", "mutants"]
    for t in tools:
        head += [f"{t} score", f"{t} k/t/s"]
    head.append("pathcraft vs best peer")
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for info in data["targets"]:
        tid = info["target"]
        row = [f"`{tid}`", "err" if info.get("error") else str(info["mutants"])]
        for t in tools:
            row += _cells(by.get((t, tid)))
        own = score_of(by.get(("pathcraft", tid)))
        if tid in below:
            b = below[tid]
            row.append(f"**▼ {own - b['best_score']:+.0f}** ({b['best_peer']})")
        elif own is not None and info.get("mutants"):
            peers = [score_of(by.get((t, tid))) for t in tools if t != "pathcraft"]
            row.append("≥" if any(p is not None for p in peers) else "≥ (no peer suite)")
        else:
            row.append("")
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "## Summary", "",
              "| tool | targets with a usable suite | mean score (usable) | mean score (all, unusable = 0) "
              f"| mean score on pathcraft's {summary['pathcraft_targets']} targets (unusable = 0) "
              "| mutants detected / run |",
              "|---|---|---|---|---|---|"]
    for t in tools:
        s = summary["tools"][t]
        lines.append(f"| {t} | {s['usable']}/{s['targets']} | {s['mean_score_usable']} | {s['mean_score_all']} "
                     f"| {s['mean_score_pathcraft_targets']} | {s['detected']}/{s['mutants_run']} |")
    n_below = len(summary["pathcraft_below_best_peer"])
    lines += ["", f"pathcraft is at or above the best peer on {summary['pathcraft_targets'] - n_below} of the "
              f"{summary['pathcraft_targets']} targets where it has a usable suite and the function has mutants."]
    if below:
        lines += ["", "## Mutants pathcraft's tests miss where a peer scores higher", ""]
        for tid in below:
            rec = by[("pathcraft", tid)]
            peers = [t for t in tools if t != "pathcraft"]
            lines.append(f"`{tid}`:")
            lines.append("")
            for item in rec["mutation"].get("not_detected", [])[:12]:
                caught = [p for p in peers if _detected_by(by.get((p, tid)), item["mutant"])]
                change = " / ".join(f"`{d.strip()}`" for d in item["diff"][:2])
                lines.append(f"* {item['mutant']} ({item['outcome']}): {change}"
                             + (f" — detected by {', '.join(caught)}" if caught else ""))
            more = len(rec["mutation"].get("not_detected", [])) - 12
            if more > 0:
                lines.append(f"* … {more} more")
            lines.append("")
    notes: dict[str, str] = data.get("notes") or {}
    if notes:
        lines += ["## Why pathcraft's tests miss them", "",
                  "Read off the surviving mutants and pathcraft's tests, by hand (kept in the JSON's `notes`):", ""]
        lines += [f"* `{tid}`: {text}" for tid, text in notes.items()] + [""]
    errors = []
    for info in data["targets"]:
        if info.get("error"):
            errors.append(f"* `{info['target']}`: {info['error']}")
    for r in data["records"]:
        mut = r.get("mutation") or {}
        if not mut.get("usable") and r.get("status") != "unavailable":
            why = mut.get("reason") or ""
            if r.get("error"):
                why = f"{why}; generation: {r['error']}" if why else str(r["error"])
            errors.append(f"* {r['tool']} on `{r['target']}`: {' '.join(why.split())[:400]}")
    if errors:
        lines += ["", "## No usable suite", ""] + errors
    return "\n".join(lines) + "\n"


def _detected_by(rec: dict[str, Any] | None, label: str) -> bool:
    mut = (rec or {}).get("mutation") or {}
    return bool(mut.get("usable")) and mut.get("score") is not None and \
        mut.get("outcomes", {}).get(label, "killed") in ("killed", "timeout")


def merge_earlier(path: Path, data: dict[str, Any]) -> None:
    """Add to ``data`` the targets of an earlier result file that were not run now.

    A long benchmark can so be run in parts (``--merge`` the first part's
    JSON into the second); the markdown names the earlier file and command.
    """
    old = json.loads(path.read_text())
    meta = data["meta"]
    now = {info["target"] for info in data["targets"]}
    infos = {info["target"]: info for info in old["targets"]} | {info["target"]: info for info in data["targets"]}
    order = [i["target"] for i in old["targets"]] + [t for t in meta["targets"] if t not in infos or t in now]
    order = list(dict.fromkeys(order))
    earlier = [t for t in order if t not in now]
    data["targets"] = [infos[t] for t in order]
    data["records"] = [r for r in old["records"] if r["target"] not in now] + data["records"]
    meta["targets"] = order
    meta["tools"] = list(dict.fromkeys(old["meta"]["tools"] + meta["tools"]))
    meta["versions"] = old["meta"]["versions"] | meta["versions"]
    meta["merged"] = {"file": path.name, "command": old["meta"]["command"], "targets": earlier,
                      "wall": old["meta"].get("wall"), "test_timeout": old["meta"].get("test_timeout"),
                      "budget": old["meta"].get("budget")}


# --- command line -----------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_run_arguments(p, budget=20.0, grace=40.0, test_timeout=2.0,
                      budget_help="generation seconds per (tool, target) (default 20)",
                      test_timeout_help="timeout of one generated test, seconds, unmutated and mutated (default "
                                        "2: a mutant that loops costs that much, and the generated tests take "
                                        "milliseconds)",
                      venvs="peers' and cosmic-ray's")
    p.add_argument("--session-limit", type=float, default=900.0,
                   help="seconds for all the mutants of one (tool, target); the rest are 'not run' (default 900)")
    p.add_argument("--keep-work", type=Path, default=None,
                   help="keep suites, copies and cosmic-ray sessions in this folder")
    p.add_argument("--report", type=Path, default=None,
                   help="only write the markdown of this mutation-*.json again (next to it) and print it")
    p.add_argument("--merge", type=Path, default=None,
                   help="keep the targets of this earlier mutation-*.json that are not run now")
    p.add_argument("--pathcraft-extra", action="append", default=[],
                   help="also measure pathcraft with these options, e.g. '--criterion loop-3' (repeatable; "
                        "a column of its own)")
    p.add_argument("--reuse-work", type=Path, default=None,
                   help="take each tool's tests from this kept folder (of --keep-work here or in peers.py) "
                        "instead of generating them")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    exit_on_sigterm()
    say: Progress = lambda line: print(line, file=sys.stderr, flush=True)  # noqa: E731
    if args.report is not None:
        data = json.loads(args.report.read_text())
        data["summary"] = summarize(data)
        args.report.write_text(json.dumps(data, indent=1) + "\n")
        text = markdown(data)
        args.report.with_suffix(".md").write_text(text)
        print(text)
        return 0
    targets = chosen_targets(args)
    if not targets:
        print("no targets", file=sys.stderr)
        return 2
    options = AdapterOptions(args.cache_dir.expanduser(), args.grace, args.venv_python, [], args.seed)
    cr = CosmicRay(options)
    reason = cr.prepare()
    if reason:
        print(f"cosmic-ray unavailable: {reason}", file=sys.stderr)
        return 1
    names = [n.strip() for n in args.tools.split(",") if n.strip()]
    tools = build_tools(names, options, {}, args.pathcraft_extra)
    versions = {"cosmic-ray": cr.version}
    unavailable: dict[str, str] = {}
    ready: list[ToolAdapter] = []
    for tool in tools:
        if args.reuse_work is not None:
            ready.append(ReusedSuite(tool, args.reuse_work))
            continue
        try:
            why = tool.prepare()
        except Exception as exc:  # noqa: BLE001 -- reported as unavailable
            why = f"setup failed: {exc!r}"
        versions[tool.name] = tool.version
        if why:
            unavailable[tool.name] = why
            say(f"{tool.name}: unavailable: {why}")
        else:
            ready.append(tool)

    work_root = args.keep_work or Path(tempfile.mkdtemp(prefix="pathcraft-mutation-"))
    work_root.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    infos: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    try:
        for i, target in enumerate(targets, 1):
            say(f"[{i}/{len(targets)}] {target.id}")
            info, recs = run_target(target, ready, cr, budget=args.budget, work_root=work_root,
                                    test_timeout=args.test_timeout, limit=args.session_limit, say=say)
            infos.append(info)
            records += recs
            for name, why in unavailable.items():
                records.append({"tool": name, "target": target.id, "status": "unavailable", "error": why})
    finally:
        if args.keep_work is None:
            shutil.rmtree(work_root, ignore_errors=True)
    for tool in ready:
        versions.setdefault(tool.name, tool.version)
    data: dict[str, Any] = {
        "meta": {
            "date": args.date,
            "command": "python bench/mutation.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:])),
            "budget": args.budget, "grace": args.grace, "test_timeout": args.test_timeout,
            "session_limit": args.session_limit, "python": platform.python_version(),
            "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores",
            "tools": names, "targets": [t.id for t in targets], "versions": versions,
            "unavailable": unavailable, "reused": str(args.reuse_work) if args.reuse_work else None,
            "wall": round(time.monotonic() - started, 1),
        },
        "targets": infos,
        "records": records,
    }
    if args.merge is not None:
        merge_earlier(args.merge, data)
    data["summary"] = summarize(data)
    text = markdown(data)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / f"mutation-{args.date}.json").write_text(json.dumps(data, indent=1) + "\n")
    (args.out_dir / f"mutation-{args.date}.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
