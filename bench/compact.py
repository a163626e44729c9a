"""`--suite compact` next to the whole suite and the peers, per target.

Reads what ``bench/peers.py`` and ``bench/mutation.py`` wrote for the
tools ``pathcraft`` and ``pathcraft[--suite compact]`` (each run with
``--pathcraft-extra "--suite compact"``; the peers' records reused or run
in the same command) and prints one markdown table: tests per target as
pytest counts them (a table's rows are tests), branch coverage of the
target (coverage.py) and mutation score (cosmic-ray), for the whole suite,
the compact suite and the peers.

    python bench/peers.py --budget 20 --grace 40 --tools pathcraft --pathcraft-extra "--suite compact" \\
        --reuse bench/results/peers-2026-11-25-all-tools.json --date D --out-dir OUT
    python bench/mutation.py --budget 20 --session-limit 300 --tools pathcraft \\
        --pathcraft-extra "--suite compact" --date D --out-dir OUT
    python bench/compact.py OUT/peers-D.json OUT/mutation-D.json --peer-mutation bench/results/mutation-2026-11-26.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

WHOLE, COMPACT = "pathcraft", "pathcraft[--suite compact]"
PEERS = ("crosshair", "pynguin")


def _records(path: Path | None) -> dict[tuple[str, str], dict[str, Any]]:
    if path is None:
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {(r["tool"], r["target"]): r for r in data["records"]}


def _tests(rec: dict[str, Any] | None) -> int | None:
    return int(rec["tests"]) if rec and rec.get("imports") and rec.get("tests") else None


def _coverage(rec: dict[str, Any] | None) -> float | None:
    cover = rec.get("coverage") if rec else None
    return float(cover["percent"]) if cover and _tests(rec) else None


def _score(rec: dict[str, Any] | None) -> float | None:
    """The mutation score, as bench/mutation.py records it (None: no usable suite)."""
    mutation = rec.get("mutation") if rec else None
    if not mutation or not mutation.get("usable") or not isinstance(mutation.get("score"), (int, float)):
        return None
    return float(mutation["score"])


def _cell(value: float | int | None) -> str:
    return "–" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def table(peers: dict[tuple[str, str], dict[str, Any]], mutation: dict[tuple[str, str], dict[str, Any]],
          peer_mutation: dict[tuple[str, str], dict[str, Any]]) -> str:
    targets = sorted({t for (tool, t) in peers if tool == WHOLE}, key=list({t: 0 for (_, t) in peers}).index)
    rows = ["| target | tests all | tests compact | Pynguin tests | coverage all | coverage compact | best peer "
            "coverage | mutants all | mutants compact | best peer mutants |", "|---" * 10 + "|"]
    fewer = same_cover = same_score = compared = measured = 0
    for target in targets:
        whole, compact = peers.get((WHOLE, target)), peers.get((COMPACT, target))
        pynguin = _tests(peers.get(("pynguin", target)))
        best_cover = max((c for p in PEERS if (c := _coverage(peers.get((p, target)))) is not None), default=None)
        scores = {p: _score(peer_mutation.get((p, target))) for p in PEERS}
        best_score = max((s for s in scores.values() if s is not None), default=None)
        all_score, compact_score = _score(mutation.get((WHOLE, target))), _score(mutation.get((COMPACT, target)))
        if _tests(compact) is not None and pynguin is not None:
            compared += 1
            fewer += _tests(compact) <= pynguin  # type: ignore[operator]
        same_cover += _coverage(whole) is not None and _coverage(whole) == _coverage(compact)
        measured += all_score is not None and compact_score is not None
        same_score += all_score is not None and all_score == compact_score
        rows.append(f"| `{target}` | {_cell(_tests(whole))} | {_cell(_tests(compact))} | {_cell(pynguin)} | "
                    f"{_cell(_coverage(whole))} | {_cell(_coverage(compact))} | {_cell(best_cover)} | "
                    f"{_cell(all_score)} | {_cell(compact_score)} | {_cell(best_score)} |")
    rows += ["", f"{len(targets)} targets: the compact suite has at most Pynguin's tests on {fewer} of the "
             f"{compared} where both wrote tests; its coverage equals the whole suite's on {same_cover}; its "
             f"mutation score equals the whole suite's on {same_score} of the {measured} measured."]
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("peers", type=Path, help="bench/peers.py's JSON, with both pathcraft configurations")
    parser.add_argument("mutation", type=Path, nargs="?", help="bench/mutation.py's JSON, the same two")
    parser.add_argument("--peer-mutation", type=Path, help="a mutation JSON with the peers' scores")
    args = parser.parse_args()
    print(table(_records(args.peers), _records(args.mutation), _records(args.peer_mutation)))


if __name__ == "__main__":
    main()
