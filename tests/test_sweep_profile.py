"""The profile bench (bench/sweep_profile.py) on a module of its own: the
stages nest as the code does and the rows count what the runs wrote."""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

import sweep_profile  # noqa: E402

SOURCE = '''
def grade(score: int) -> str:
    if score >= 90:
        return "A"
    if score >= 50:
        return "B"
    return "C"


def total(xs: list[int]) -> int:
    t = 0
    for x in xs:
        if x > 0:
            t += x
    return t
'''


def test_stages_nest_and_rows_count_the_tests(tmp_path: Path, capsys: object) -> None:
    (tmp_path / "grades.py").write_text(SOURCE)
    (tmp_path / "targets.txt").write_text("# one module\ngrades.py\n")
    out = tmp_path / "profile.json"
    assert sweep_profile.main(["--targets", str(tmp_path / "targets.txt"), "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    stages = data["stages"]
    assert {row["function"] for row in data["functions"]} == {"grade", "total"}
    assert all(row["tests"] > 0 for row in data["functions"])
    assert 0 < stages["generation (each function)"] <= data["wall"]
    generation = stages["generation (each function)"]
    # the search is a generator: cProfile's sum of its resumptions may fall a little short of the chain's
    assert stages["solver chain (Python layers and Z3)"] <= generation
    assert stages["search: the engine's steps"] <= generation
    assert 0 < stages["Z3 checks (of the chain and of canonical models)"] <= generation
    assert stages["canonical models of the tests"] <= generation
    assert stages["translation (parse, link, lower)"] > 0
