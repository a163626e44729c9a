"""Composition on the corpus's targets (`../shared/corpus/MANIFEST.tsv`):
the same tests composed or not, target by target. Slow (about a minute and
a half); run by `.ci/run` with the standard-library sweep. A run its time
budget stops, or whose solver query times out, ends at a point the machine
decides, so such a target is not compared (its name is printed)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from pathcraft.engine.criteria import parse_criterion
from pathcraft.frontend import translate
from pathcraft.generate import GenerateOptions, generate

from test_compose import whole

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
ROWS = list(csv.DictReader((CORPUS / "MANIFEST.tsv").open(), delimiter="\t")) \
    if (CORPUS / "MANIFEST.tsv").exists() else []

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not ROWS, reason=f"the corpus is not at {CORPUS} on this machine")]


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['path']}::{r['qualname']}" for r in ROWS])
def test_a_corpus_target_composes_to_the_same_tests(row: dict[str, str]) -> None:
    source = CORPUS / row["source"] / row["path"]
    result = translate(str(source), [row["qualname"]])
    if row["qualname"] not in result.program.functions:
        pytest.skip(f"not translated: {result.errors.get(row['qualname'])}")
    runs = [generate(result.program, row["qualname"],
                     GenerateOptions.of(criterion=parse_criterion("loop-2"), timeout=10, compose=mode,
                                        long_probes=3, edge_tests=3))
            for mode in ("off", "on-demand")]
    if any(run.stopped or run.stats.get("unknown_paths") for run in runs):  # the clock decided where it ended
        print(f"\n{row['qualname']}: a run was stopped or had a solver query time out; not compared")
        return
    assert whole(runs[1].cases) == whole(runs[0].cases)
