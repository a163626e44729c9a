"""The benchmark's outputs: a markdown table and the raw JSON record."""

from __future__ import annotations

from typing import Any


def _handled(rec: dict[str, Any]) -> bool:
    """A tool handled a target when it wrote tests that import and run."""
    return bool(rec.get("imports")) and rec.get("tests", 0) > 0


def _cov(rec: dict[str, Any]) -> float:
    cov = rec.get("coverage")
    return float(cov["percent"]) if cov and _handled(rec) else 0.0


def summarize(
    records: list[dict[str, Any]],
    tools: list[str],
    targets: list[str],
    unavailable: dict[str, str] | None = None,
) -> dict[str, dict[str, Any]]:
    by = {(r["tool"], r["target"]): r for r in records}
    out: dict[str, dict[str, Any]] = {}
    for tool in tools:
        recs = [by[(tool, t)] for t in targets if (tool, t) in by]
        handled = [r for r in recs if _handled(r)]
        out[tool] = {
            "targets": len(recs),
            "handled": len(handled),
            "mean_coverage_all": round(sum(_cov(r) for r in recs) / len(recs), 2) if recs else 0.0,
            "mean_coverage_handled": (
                round(sum(_cov(r) for r in handled) / len(handled), 2) if handled else 0.0),
            "tests": sum(r.get("tests", 0) for r in recs),
            "passed": sum(r.get("passed", 0) for r in recs),
            "failed": sum(r.get("failed", 0) for r in recs),
            "total_time": round(sum(r.get("gen_wall", 0.0) for r in recs), 2),
        }
    base = next((t for t in tools if t == "pathcraft" and t not in (unavailable or {})), None)
    for tool in tools:
        out[tool]["pathcraft_time_ratio"] = None
        out[tool]["pathcraft_time_ratio_both_handled"] = None
        if base is None or tool == base:
            continue
        if out[tool]["total_time"] > 0:
            out[tool]["pathcraft_time_ratio"] = round(out[base]["total_time"] / out[tool]["total_time"], 3)
        # The same ratio over the targets both tools handled (fast failures left out).
        both = [t for t in targets
                if (base, t) in by and (tool, t) in by and _handled(by[(base, t)]) and _handled(by[(tool, t)])]
        mine = sum(by[(base, t)].get("gen_wall", 0.0) for t in both)
        theirs = sum(by[(tool, t)].get("gen_wall", 0.0) for t in both)
        if both and theirs > 0:
            out[tool]["pathcraft_time_ratio_both_handled"] = round(mine / theirs, 3)
    return out


def _cell(rec: dict[str, Any] | None) -> list[str]:
    if rec is None:
        return ["", "", "", ""]
    time = f"{rec.get('gen_wall', 0.0):.1f}"
    if rec["status"] == "unavailable":
        return ["n/a", "", "", ""]
    if not _handled(rec):
        label = "timeout" if rec["status"] == "timeout" else (
            "no-import" if rec.get("test_files") and not rec.get("imports") else "err")
        return [label, str(rec.get("tests", 0)), str(rec.get("passed", 0)), time]
    return [f"{_cov(rec):.0f}", str(rec["tests"]), str(rec["passed"]), time]


def markdown(data: dict[str, Any]) -> str:
    meta = data["meta"]
    tools: list[str] = meta["tools"]
    targets: list[str] = meta["targets"]
    by = {(r["tool"], r["target"]): r for r in data["records"]}
    lines = [
        f"# Peer benchmark {meta['date']}",
        "",
        (f"Budget {meta['budget']:g} s per (tool, target) (tools killed at budget + {meta['grace']:g} s); "
        f"generated tests run with a {meta['test_timeout']:g} s timeout per test under coverage.py "
        f"(branch) on Python {meta['python']}; machine: {meta['machine']}."),
        ("Per tool: **cov** = branch coverage % of the target function alone (arcs out of branch lines "
        "inside its def; statement coverage for a function without branches), **tests** = generated "
        "tests, **pass** = passing tests (pytest passed, or xfail as Pynguin marks a test expecting an "
        "exception), **time** = generation wall time (s). "
        "`err`/`no-import`/`timeout`: the tool produced no runnable tests (see Errors); `n/a`: tool "
        "unavailable."),
        "",
        f"Command: `{meta['command']}`",
        "",
    ]
    for tool in tools:
        version = meta["versions"].get(tool) or ""
        reason = meta["unavailable"].get(tool)
        line = f"* {tool} {version}".rstrip() + (f": **unavailable** — {reason}" if reason else "")
        origin = meta.get("reused", {}).get(tool)
        if origin:
            line += f" (records reused from `{origin['file']}`, budget {origin['budget']:g} s)"
        lines.append(line)
    lines.append("")
    header = ["target"] + [f"{tool} {col}" for tool in tools for col in ("cov", "tests", "pass", "time")]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for target in targets:
        row = [f"`{target}`"]
        for tool in tools:
            row += _cell(by.get((tool, target)))
        lines.append("| " + " | ".join(row) + " |")
    summary = data["summary"]
    row = ["**summary** (mean cov; handled; passing; total time)"]
    for tool in tools:
        s = summary[tool]
        row += [f"**{s['mean_coverage_all']:.1f}**", f"{s['handled']}/{s['targets']}",
                str(s["passed"]), f"{s['total_time']:.0f}"]
    lines.append("| " + " | ".join(row) + " |")
    lines += [
        "",
        "## Summary",
        "",
        ("| tool | mean cov % (all targets, unhandled = 0) | mean cov % (handled) | targets handled "
         "| tests | passing | failing | total time s | pathcraft time / tool time "
         "| same, on targets both handled |"),
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for tool in tools:
        s = summary[tool]
        ratio = "" if s["pathcraft_time_ratio"] is None else f"{s['pathcraft_time_ratio']:.2f}"
        both = s["pathcraft_time_ratio_both_handled"]
        both_text = "" if both is None else f"{both:.2f}"
        lines.append(
            f"| {tool} | {s['mean_coverage_all']:.1f} | {s['mean_coverage_handled']:.1f} | "
            f"{s['handled']}/{s['targets']} | {s['tests']} | {s['passed']} | {s['failed']} | "
            f"{s['total_time']:.0f} | {ratio} | {both_text} |")
    callee_rows = []
    for target in targets:
        for tool in tools:
            rec = by.get((tool, target))
            if rec and rec.get("callees") and _handled(rec):
                parts = [f"{c['qualname']} {c['percent']:.0f}%" for c in rec["callees"]]
                callee_rows.append(f"| `{target}` | {tool} | {', '.join(parts)} |")
    if callee_rows:
        lines += ["", "## Callees in the same module (coverage reached through the target's tests)", "",
                  "| target | tool | callees |", "|---|---|---|"] + callee_rows
    errors = []
    for target in targets:
        for tool in tools:
            rec = by.get((tool, target))
            if rec and rec.get("error") and rec["status"] != "unavailable":
                msg = " ".join(str(rec["error"]).split())
                msg = (msg if len(msg) <= 400 else "…" + msg[-400:]).replace("|", "\\|")
                errors.append(f"* {tool} on `{target}` ({rec['status']}): {msg}")
    if errors:
        lines += ["", "## Errors", ""] + errors
    return "\n".join(lines) + "\n"
