"""Golden outputs: the pytest and JSON files pathcraft writes for every
example and fixture, stored so that a refactoring that changes what users
get is caught.

`python tests/golden_output.py --regen` rewrites the stored files; do it only
on purpose (a named bug fixed, an output format changed), and say why in the
commit message. The test (`tests/test_golden_output.py`) regenerates each
output in a temporary file and compares it with the stored one.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import chdir, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from tempfile import TemporaryDirectory

REPO = Path(__file__).resolve().parent.parent
STORE = REPO / "tests" / "golden" / "output"
# The goldens hold the messages and line events of one Python version (they
# differ between versions); under another, the replay oracles check fidelity.
RECORDED_UNDER = (3, 11)

# (label, module relative to the repository root, extra options)
_HEAP_MODULES = ("tests/fixtures/linked.py", "tests/fixtures/papers/aliasing.py",
                 "tests/fixtures/papers/vector.py")
_MODULES = ("examples/arith.py", "tests/fixtures/control.py", "tests/fixtures/linked.py", "tests/fixtures/pq.py",
            "tests/fixtures/papers/aliasing.py", "tests/fixtures/papers/arraypower.py", "tests/fixtures/papers/lcm.py",
            "tests/fixtures/papers/rational.py", "tests/fixtures/papers/vector.py", "tests/fixtures/objects.py")
COSTS = ("--costs", "steps,memory,calls")


@dataclass(frozen=True)
class Golden:
    name: str  # file name in the store
    module: str  # relative to the repository root
    args: tuple[str, ...]

    @property
    def available(self) -> bool:
        return (REPO / self.module).exists()


def goldens() -> list[Golden]:
    out: list[Golden] = []
    for module in _MODULES:
        stem = Path(module).stem
        out.append(Golden(f"{stem}.pytest.txt", module, COSTS))
        out.append(Golden(f"{stem}.json", module, ("--format", "json", *COSTS)))
    for module in _HEAP_MODULES:
        stem = Path(module).stem
        out.append(Golden(f"{stem}.lazy.pytest.txt", module, ("--heap", "lazy")))
    out.append(Golden("arith.bfs.pytest.txt", "examples/arith.py", ("--search", "bfs")))
    out.append(Golden("lcm.loop3.pytest.txt", "tests/fixtures/papers/lcm.py", ("--criterion", "loop-3")))
    for module in ("tests/fixtures/objects.py", "tests/fixtures/papers/vector.py"):
        stem = Path(module).stem
        out.append(Golden(f"{stem}.constructed.pytest.txt", module, ("--objects", "constructed")))
    out.append(Golden("objects.constructed.json", "tests/fixtures/objects.py",
                      ("--objects", "constructed", "--format", "json")))
    return out


def render(golden: Golden) -> str:
    """What `pathcraft gen MODULE ARGS -o FILE` writes, run from the repository
    root (run statistics, which hold timings, left out of JSON)."""
    from pathcraft.app.cli import main

    with TemporaryDirectory() as tmp, chdir(REPO), redirect_stdout(StringIO()), redirect_stderr(StringIO()):
        target = Path(tmp) / "out"
        os.environ.pop("COLUMNS", None)
        code = main(["gen", golden.module, "-o", str(target), *golden.args])
        text = target.read_text(encoding="utf-8")
    if code not in (0, 2):
        raise RuntimeError(f"pathcraft gen {golden.module} exited {code}")
    if "--format" in golden.args:
        document = json.loads(text)
        document.pop("stats", None)
        text = json.dumps(document, indent=2) + "\n"
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regen", action="store_true", help="rewrite the stored golden outputs")
    args = parser.parse_args()
    if not args.regen:
        parser.print_help()
        return 0
    if sys.version_info[:2] != RECORDED_UNDER:
        print(f"regenerate under Python {'.'.join(map(str, RECORDED_UNDER))}", file=sys.stderr)
        return 2
    STORE.mkdir(parents=True, exist_ok=True)
    for golden in goldens():
        if not golden.available:
            print(f"skipped {golden.name}: {golden.module} missing", file=sys.stderr)
            continue
        (STORE / golden.name).write_text(render(golden), encoding="utf-8")
        print(f"wrote {golden.name}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO / "src"))
    raise SystemExit(main())
